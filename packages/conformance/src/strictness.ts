// Whether a run reports properties the description does not name. The reference sandbox serves
// exactly what the description names at each version, so against it any other property is a
// fault (an answer in another version's shape, a stored field leaking out) and the check is on
// by default. Another server may answer more than the contract shows, so there it is asked for.
// The sandbox is known by its own control API: GET /__sandbox/sandboxes, with the caller's
// bearer token, answers {sandboxes: [...]}.

export const SANDBOX_PROBE_PATH = '/__sandbox/sandboxes';

export interface Strictness {
  strict: boolean;
  /** Why: asked for, or the server is (not) the sandbox. */
  reason: string;
}

/** Whether an answer to GET /__sandbox/sandboxes is the sandbox's own. */
export function isSandboxAnswer(status: number | undefined, json: unknown): boolean {
  return status === 200 && !!json && typeof json === 'object' && Array.isArray((json as { sandboxes?: unknown }).sandboxes);
}

/** The strictness asked for, else whether the server at `origin` is the sandbox (asked through `probe`). */
export async function strictnessFor(asked: boolean | undefined, origin: string, probe: (url: string) => Promise<{ status?: number; json?: unknown }>): Promise<Strictness> {
  if (asked !== undefined) return { strict: asked, reason: asked ? 'asked for' : 'turned off' };
  const answer = await probe(new URL(SANDBOX_PROBE_PATH, origin).href).catch(() => ({}) as { status?: number; json?: unknown });
  return isSandboxAnswer(answer.status, answer.json) ? { strict: true, reason: 'the server is the sandbox' } : { strict: false, reason: 'the server is not the sandbox' };
}

// The idle sweep (--sandbox-ttl): tokens that expired are dropped, and a sandbox that nobody used
// for the idle time is removed (it reads the seed again). Use is a write, or a token that reaches
// the sandbox and has not expired: access tokens live an hour, and an unused refresh token lives
// the idle time itself, so a sandbox goes once it was neither written nor logged into (nor
// refreshed) for that long, and no token of it is left. Safe with N instances on one database:
// each step is idempotent, and a sandbox is removed only if it is still idle under its own lock.
import { ACCESS_TOKENS, AUTH_SANDBOX, pruneExpired, REFRESH_TOKENS, userSandbox, type AccessToken } from '@payroll-api/sandbox/engine';
import type { OperatedStore } from './store/index.js';

/** Removes the sandboxes idle for `idleMs` at `now`; the ids it removed. */
export async function sweepIdleSandboxes(store: OperatedStore, idleMs: number, now = Date.now()): Promise<string[]> {
  const reached = await store.transaction(AUTH_SANDBOX, 'write', async (tx) => {
    await pruneExpired(tx, now);
    const live = new Set<string>();
    for (const collection of [ACCESS_TOKENS, REFRESH_TOKENS]) {
      for (const token of (await tx.find(collection)).rows as unknown as AccessToken[]) live.add(token.sandbox ?? userSandbox(token.userId));
    }
    return live;
  });
  const cutoff = new Date(now - idleMs);
  const removed: string[] = [];
  for (const sandbox of await store.list()) {
    if (sandbox.updatedAt === null || Date.parse(sandbox.updatedAt) >= cutoff.getTime() || reached.has(sandbox.id)) continue;
    if (store.resetIfIdle ? await store.resetIfIdle(sandbox.id, cutoff) : (await store.reset(sandbox.id), true)) removed.push(sandbox.id);
  }
  return removed;
}

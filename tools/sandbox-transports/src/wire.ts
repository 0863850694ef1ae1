// A request and its answer as the transports exchange them (plain data, so that a browser page
// can take and give them): the body as text, the answer's bytes as base64.
export interface WireRequest {
  method: string;
  /** Path and query, e.g. /v2/v2/providers?pageSize=5 (the layout of payroll-mock). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type WireResponse = { status: number; headers: Record<string, string>; base64: string; networkError?: undefined } | { networkError: true };

/** The answer's body as text. */
export function text(response: Extract<WireResponse, { status: number }>): string {
  return Buffer.from(response.base64, 'base64').toString('utf8');
}

/** The answer's body as JSON, undefined when empty. */
export function json(response: WireResponse): any {
  if (response.networkError) throw new Error('the request failed at the network level');
  const body = text(response);
  return body ? JSON.parse(body) : undefined;
}

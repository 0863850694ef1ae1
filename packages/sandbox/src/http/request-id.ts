// X-Request-Id: every answer names the call it answers, so that a support question can point
// at one call (and the sandbox's log line carries the same id). A client's own id is echoed
// when it is sane (bounded, a plain token); anything else gets a new uuid, so that a header
// can never smuggle text into the answer or the log.
import { randomId } from '../util/ids.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What an echoed id may be: 1 to 128 characters of letters, digits and . _ ~ : / + = - */
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:/+=-]{1,128}$/;

/** The request's own X-Request-Id when it is sane, else a new one. */
export function requestIdOf(headers: Record<string, string | string[] | undefined>): string {
  const given = headers[REQUEST_ID_HEADER.toLowerCase()];
  const value = Array.isArray(given) ? undefined : given?.trim();
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomId();
}

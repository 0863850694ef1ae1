// Authentication: a static token, a token provider function, or an OAuth2 session that
// obtains and refreshes tokens at `{auth_url}/token` (password and refresh-token grants).
import { redact } from './redact.js';

/** An absolute http(s) URL: a scheme and a host. */
export const ABSOLUTE_URL = /^https?:\/\/[^/?#\s]+/;

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What a token provider function is told when it is called. */
export interface TokenRequest {
  /** True after the API answered 401 to the previous token: return a fresh one. */
  forceRefresh: boolean;
}

/** A source of access tokens that can be told a token was rejected. */
export interface TokenSource {
  getToken(): Promise<string>;
  /** Marks `token` as rejected (the API answered 401); the next getToken obtains a new one. */
  invalidate(token: string): void;
}

/** The `auth` option: a token, a function returning one, or a TokenSource (e.g. an OAuth2 session). */
export type Auth = string | ((request: TokenRequest) => string | Promise<string>) | TokenSource;

/** Normalised view the transport uses. */
export interface Authenticator {
  /** A static token comes back as is, without a promise (the common case stays synchronous). */
  token(): string | Promise<string>;
  /** Called once after a 401; false when this auth cannot produce another token. */
  renew(rejected: string): boolean;
}

export function authenticator(auth: Auth | undefined): Authenticator | undefined {
  if (auth === undefined) return undefined;
  if (typeof auth === 'string') {
    if (auth.length === 0) throw new TypeError('auth: the token is empty');
    return { token: () => auth, renew: () => false };
  }
  if (typeof auth === 'function') {
    let force = false;
    return {
      async token() {
        const request = { forceRefresh: force };
        force = false;
        const token = await auth(request);
        if (typeof token !== 'string' || token.length === 0) {
          throw new TypeError('auth: the token provider returned no token');
        }
        return token;
      },
      renew() {
        force = true;
        return true;
      },
    };
  }
  if (auth && typeof auth.getToken === 'function' && typeof auth.invalidate === 'function') {
    return {
      token: () => auth.getToken(),
      renew(rejected) {
        auth.invalidate(rejected);
        return true;
      },
    };
  }
  throw new TypeError('auth: expected a token string, a function or a TokenSource');
}

/** A token endpoint answered with an error, or with something that is not a token. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    /** HTTP status of the token endpoint, 0 when it could not be reached. */
    readonly status: number,
    /** The OAuth2 `error` code, when the endpoint gave one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

interface OAuthCommon {
  /** The environment's token service address; tokens are requested at `{authUrl}/token`. */
  authUrl: string;
  /** Sent as `client_Id`, the contract's spelling. */
  clientId: string;
  /** Sent as `client_secret` when given (required depending on the client's configuration). */
  clientSecret?: string;
  /**
   * Seconds before `expires_in` runs out at which the token counts as expired (default 60),
   * at most half the token's lifetime: a token issued for 30 s is used for 15 s.
   */
  safetyMarginSeconds?: number;
  fetch?: FetchLike;
  /** Clock in milliseconds (default Date.now); injectable for tests. */
  now?: () => number;
}

export interface PasswordGrantOptions extends OAuthCommon {
  username: string;
  password: string;
}

export interface RefreshTokenGrantOptions extends OAuthCommon {
  refreshToken: string;
}

/** An OAuth2 session: a TokenSource that refreshes itself. Tokens are kept out of sight. */
export interface OAuthSession extends TokenSource {
  /** The refresh token the endpoint last issued (to persist it between runs). */
  refreshToken(): string | undefined;
}

/** Password grant (enabled only by exception); refreshes with the refresh-token grant. */
export function passwordGrant(options: PasswordGrantOptions): OAuthSession {
  if (!options?.username || !options.password) throw new TypeError('passwordGrant: username and password are required');
  return session(options, options.username, options.password, undefined);
}

/** Refresh-token grant: the session starts from a refresh token obtained elsewhere. */
export function refreshTokenGrant(options: RefreshTokenGrantOptions): OAuthSession {
  if (!options?.refreshToken) throw new TypeError('refreshTokenGrant: refreshToken is required');
  return session(options, undefined, undefined, options.refreshToken);
}

function session(
  options: OAuthCommon,
  username: string | undefined,
  password: string | undefined,
  initialRefresh: string | undefined,
): OAuthSession {
  if (!options.clientId) throw new TypeError('OAuth2: clientId is required');
  if (!ABSOLUTE_URL.test(options.authUrl)) {
    throw new TypeError(`OAuth2: authUrl must be an absolute http(s) URL, got ${JSON.stringify(options.authUrl)}`);
  }
  const url = `${options.authUrl.replace(/\/+$/, '')}/token`;
  const margin = (options.safetyMarginSeconds ?? 60) * 1000;
  const now = options.now ?? Date.now;
  let access: string | undefined;
  let refresh = initialRefresh;
  let expiresAt = 0;
  let pending: Promise<string> | undefined;
  const secrets = () => [password, options.clientSecret, refresh, access, initialRefresh];

  async function request(fields: Record<string, string>, grant: string): Promise<string> {
    const form = new URLSearchParams(fields);
    form.set('client_Id', options.clientId);
    if (options.clientSecret) form.set('client_secret', options.clientSecret);
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new AuthError(`Token request (${grant} grant) could not reach ${url}: ${redact(reason, secrets())}`, 0);
    }
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      // a non-JSON body is reported below by status only: it could echo secrets
    }
    if (!response.ok || typeof body.access_token !== 'string' || body.access_token === '') {
      const code = typeof body.error === 'string' ? redact(body.error, secrets()) : undefined;
      const description =
        typeof body.error_description === 'string' ? `: ${redact(body.error_description, secrets())}` : '';
      throw new AuthError(
        response.ok
          ? `Token request (${grant} grant) answered without an access_token`
          : `Token request (${grant} grant) failed with status ${response.status}${code ? ` ${code}` : ''}${description}`,
        response.status,
        code,
      );
    }
    access = body.access_token;
    if (typeof body.refresh_token === 'string' && body.refresh_token) refresh = body.refresh_token;
    const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : undefined;
    // Without expires_in the token is used until the API rejects it.
    // The margin is capped at half the lifetime, so that a short-lived token (expires_in <= the
    // margin) still serves the requests of its first half instead of one token call each.
    expiresAt = seconds === undefined ? Number.POSITIVE_INFINITY : now() + seconds * 1000 - Math.min(margin, seconds * 500);
    return access;
  }

  async function obtain(): Promise<string> {
    if (refresh) {
      try {
        return await request({ grant_type: 'refresh_token', refresh_token: refresh }, 'refresh_token');
      } catch (error) {
        // An expired refresh token: fall back to the password grant when there is one.
        if (!password || !(error instanceof AuthError) || error.status === 0) throw error;
        refresh = undefined;
      }
    }
    // Without a refresh token the session is a password-grant one (see the constructors).
    return request({ grant_type: 'password', username: username!, password: password! }, 'password');
  }

  return {
    getToken() {
      if (access && now() < expiresAt) return Promise.resolve(access);
      // Single flight: concurrent callers share one token request.
      pending ??= obtain().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate(token) {
      if (token === access) expiresAt = 0;
    },
    refreshToken: () => refresh,
  };
}

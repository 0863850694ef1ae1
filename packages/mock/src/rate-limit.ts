// Token buckets by key: a bucket holds `burst` requests and refills at `perSecond`, so a burst
// passes and a steady rate above the refill gets 429 with Retry-After. The server keys them by
// client (--rate-limit: every token of a client is one bucket), by remote address (requests no
// client's token identifies) and by address for failed authentications (--max-failures).
// Several processes on one database each hold their share of a limit (1 / the processes
// counted, see store/instances.ts), so that together they pass no more than the limit.
export interface RateLimiter {
  /** 0 when the request may go ahead (and it is counted), else the seconds to wait (Retry-After). */
  take(key: string, now?: number): number;
  /** The seconds to wait before `key` may go ahead again, without counting anything; 0 now. */
  wait(key: string, now?: number): number;
  /** What `key` may still do now, without taking anything: whole requests left, and the seconds until its quota is whole again. */
  left(key: string, now?: number): { remaining: number; resetSeconds: number };
}

/** The policy's name in the header fields. */
const POLICY = 'per-client';

/**
 * The RateLimit-Policy and RateLimit header fields of the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers): the quota this process holds, `perSecond` requests in
 * a window of as many seconds as there are processes sharing the limit, and what is left of it,
 * so that clients can pace themselves before a 429.
 */
export function rateLimitHeaders(perSecond: number, left: { remaining: number; resetSeconds: number }, sharedBy = 1): Record<string, string> {
  return {
    'RateLimit-Policy': `"${POLICY}";q=${perSecond};w=${sharedBy}`,
    RateLimit: `"${POLICY}";r=${left.remaining};t=${left.resetSeconds}`,
  };
}

/** `sharedBy`: the processes holding a share of the limit each (1 alone). A share holds one
 * request at least, so that a small limit over many processes still lets calls through. */
export function createRateLimiter(wholeRate: number, wholeBurst = wholeRate, sharedBy: () => number = () => 1): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let perSecond = wholeRate;
  let burst = wholeBurst;
  const share = () => {
    const processes = Math.max(1, sharedBy());
    perSecond = wholeRate / processes;
    burst = Math.max(1, wholeBurst / processes);
  };
  const refill = (key: string, now: number) => {
    share();
    let bucket = buckets.get(key);
    if (!bucket) {
      // Buckets that have refilled completely tell nothing: forget them (a bounded map).
      if (buckets.size >= 100_000) for (const [k, b] of buckets) if (b.tokens + ((now - b.at) / 1000) * perSecond >= burst) buckets.delete(k);
      bucket = { tokens: burst, at: now };
      buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    return bucket;
  };
  const secondsFor = (tokens: number) => (tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)));
  return {
    left(key, now = Date.now()) {
      share();
      const held = buckets.get(key);
      const tokens = held ? Math.min(burst, held.tokens + ((now - held.at) / 1000) * perSecond) : burst;
      return { remaining: Math.floor(tokens), resetSeconds: Math.ceil((burst - tokens) / perSecond) };
    },
    take(key, now = Date.now()) {
      const bucket = refill(key, now);
      if (bucket.tokens < 1) return secondsFor(bucket.tokens);
      bucket.tokens -= 1;
      return 0;
    },
    wait(key, now = Date.now()) {
      return secondsFor(refill(key, now).tokens);
    },
  };
}

// Requests per second per bearer token (--rate-limit): a token bucket per token that holds a
// second's worth of requests and refills at that rate, so a burst of one second passes and a
// steady rate above it gets 429 with Retry-After.
export interface RateLimiter {
  /** 0 when the request may go ahead, else the seconds to wait (Retry-After). */
  take(key: string, now?: number): number;
  /** What `key` may still do now, without taking anything: whole requests left, and the seconds until its quota is whole again. */
  left(key: string, now?: number): { remaining: number; resetSeconds: number };
}

/** The policy's name in the header fields. */
const POLICY = 'per-token';

/**
 * The RateLimit-Policy and RateLimit header fields of the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers): a quota of `perSecond` requests in a window of one
 * second, and what is left of it, so that clients can pace themselves before a 429.
 */
export function rateLimitHeaders(perSecond: number, left: { remaining: number; resetSeconds: number }): Record<string, string> {
  return {
    'RateLimit-Policy': `"${POLICY}";q=${perSecond};w=1`,
    RateLimit: `"${POLICY}";r=${left.remaining};t=${left.resetSeconds}`,
  };
}

export function createRateLimiter(perSecond: number): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const tokensAt = (bucket: { tokens: number; at: number } | undefined, now: number) => (bucket ? Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond) : perSecond);
  return {
    left(key, now = Date.now()) {
      const tokens = tokensAt(buckets.get(key), now);
      return { remaining: Math.floor(tokens), resetSeconds: Math.ceil((perSecond - tokens) / perSecond) };
    },
    take(key, now = Date.now()) {
      let bucket = buckets.get(key);
      if (!bucket) {
        // Buckets that have refilled completely tell nothing: forget them (a bounded map).
        if (buckets.size >= 100_000) for (const [k, b] of buckets) if (b.tokens + ((now - b.at) / 1000) * perSecond >= perSecond) buckets.delete(k);
        bucket = { tokens: perSecond, at: now };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}

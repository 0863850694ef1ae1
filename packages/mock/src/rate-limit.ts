// Requests per second per bearer token (--rate-limit): a token bucket per token that holds a
// second's worth of requests and refills at that rate, so a burst of one second passes and a
// steady rate above it gets 429 with Retry-After.
export interface RateLimiter {
  /** 0 when the request may go ahead, else the seconds to wait (Retry-After). */
  take(key: string, now?: number): number;
}

export function createRateLimiter(perSecond: number): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
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

import type { Clock } from '@shared/clock';

export interface RateDecision {
  allowed: boolean;
  /** When refused: ms until one token is back. */
  retryAfterMs: number;
}

export interface RateLimiter {
  take(key: string): RateDecision;
}

/**
 * A token bucket per key: `perMinute` requests in a burst, refilled continuously at
 * perMinute/60 per second. Full buckets are forgotten so idle clients cost no memory.
 */
export function createRateLimiter(options: { perMinute: number; clock: Clock }): RateLimiter {
  const capacity = options.perMinute;
  const refillPerMs = options.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let takesSinceSweep = 0;

  function level(bucket: { tokens: number; at: number }, now: number): number {
    return Math.min(capacity, bucket.tokens + (now - bucket.at) * refillPerMs);
  }

  function sweep(now: number): void {
    for (const [key, bucket] of buckets) if (level(bucket, now) >= capacity) buckets.delete(key);
  }

  return {
    take(key) {
      const now = options.clock.now();
      if (++takesSinceSweep >= 1000) {
        takesSinceSweep = 0;
        sweep(now);
      }
      const bucket = buckets.get(key) ?? { tokens: capacity, at: now };
      const tokens = level(bucket, now);
      if (tokens < 1) {
        buckets.set(key, { tokens, at: now });
        return { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / refillPerMs) };
      }
      buckets.set(key, { tokens: tokens - 1, at: now });
      return { allowed: true, retryAfterMs: 0 };
    },
  };
}

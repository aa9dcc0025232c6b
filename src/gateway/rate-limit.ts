import type { Clock } from '@shared/clock';

export interface RateDecision {
  allowed: boolean;
  /** When refused: ms until a request can pass again. */
  retryAfterMs: number;
}

/** One limit a request must pass: whose budget (an address, an account) and its size. */
export interface Bucket {
  key: string;
  perMinute: number;
}

export interface RateLimiter {
  /** Allowed only when every bucket has a token; then each gives one, else none does. */
  take(buckets: readonly Bucket[]): RateDecision;
}

interface Level {
  tokens: number;
  at: number;
  capacity: number;
}

/**
 * A token bucket per key: `perMinute` requests in a burst, refilled continuously at
 * perMinute/60 per second. Full buckets are forgotten so idle clients cost no memory.
 */
export function createRateLimiter(options: { clock: Clock }): RateLimiter {
  const buckets = new Map<string, Level>();
  let takesSinceSweep = 0;

  const level = (bucket: Level, now: number) => Math.min(bucket.capacity, bucket.tokens + ((now - bucket.at) * bucket.capacity) / 60_000);

  function sweep(now: number): void {
    for (const [key, bucket] of buckets) if (level(bucket, now) >= bucket.capacity) buckets.delete(key);
  }

  return {
    take(wanted) {
      const now = options.clock.now();
      if (++takesSinceSweep >= 1000) {
        takesSinceSweep = 0;
        sweep(now);
      }
      const current = wanted.map(({ key, perMinute }) => {
        const bucket = buckets.get(key);
        return { key, capacity: perMinute, tokens: bucket ? level({ ...bucket, capacity: perMinute }, now) : perMinute };
      });
      const short = current.filter((b) => b.tokens < 1);
      if (short.length) {
        return { allowed: false, retryAfterMs: Math.max(...short.map((b) => Math.ceil(((1 - b.tokens) * 60_000) / b.capacity))) };
      }
      for (const b of current) buckets.set(b.key, { tokens: b.tokens - 1, at: now, capacity: b.capacity });
      return { allowed: true, retryAfterMs: 0 };
    },
  };
}

// Rate limits per client address and route group, in this process or shared through Redis.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '@shared/clock';
import type { GatewayMetrics } from './metrics';
import { createRateLimiter, type RateDecision } from './rate-limit';
import type { RedisLink } from './redis';

export type LimitGroup = 'llm' | 'asr' | 'auth';

export interface Limiter {
  take(client: string): Promise<RateDecision>;
}

/** Without Redis: the in-process token bucket (burst of perMinute, refilled continuously). */
export function memoryLimiter(perMinute: number, clock: Clock): Limiter {
  const bucket = createRateLimiter({ perMinute, clock });
  return { take: async (client) => bucket.take(client) };
}

/**
 * With Redis: perMinute requests per client in a fixed 60-s window, counted atomically in Redis
 * (one Lua INCR+PTTL per request) so N instances together allow perMinute, not N × perMinute.
 * When a Redis command fails or times out the decision is taken by a same-shaped window in this
 * instance's memory — what rate-limiter-flexible's `insuranceLimiter` does, written out here so
 * each fallback is counted and logged with its cause. A limit is never lifted, only narrowed to
 * one instance's view while Redis is away.
 */
export function sharedLimiter(options: { group: LimitGroup; perMinute: number; redis: RedisLink; metrics: GatewayMetrics }): Limiter {
  const { group, perMinute, redis, metrics } = options;
  const shared = new RateLimiterRedis({
    storeClient: redis.client,
    points: perMinute,
    duration: 60,
    keyPrefix: `suikouji:rl:${group}`,
    // Not connected: fall back at once instead of waiting for a reconnect.
    rejectIfRedisNotReady: true,
  });
  const insurance = new RateLimiterMemory({ points: perMinute, duration: 60 });
  return {
    async take(client) {
      try {
        return allowed(await shared.consume(client));
      } catch (err) {
        if (err instanceof RateLimiterRes) return refused(err);
        redis.failed('rate_limit', err);
        metrics.limitFallbacks.inc({ group });
      }
      try {
        return allowed(await insurance.consume(client));
      } catch (err) {
        if (err instanceof RateLimiterRes) return refused(err);
        throw err;
      }
    },
  };
}

const allowed = (_res: RateLimiterRes): RateDecision => ({ allowed: true, retryAfterMs: 0 });
const refused = (res: RateLimiterRes): RateDecision => ({ allowed: false, retryAfterMs: Math.max(1, res.msBeforeNext) });

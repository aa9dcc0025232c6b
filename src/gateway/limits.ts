// Rate limits per client address, per account and route group, in this process or shared
// through Redis.
import type { Redis } from 'ioredis';
import type { Clock } from '@shared/clock';
import type { InstanceRegistry } from './instance-registry';
import type { GatewayMetrics } from './metrics';
import { createRateLimiter, type Bucket, type RateDecision } from './rate-limit';
import type { RedisLink } from './redis';

export type LimitGroup = 'llm' | 'asr' | 'auth';
export type { Bucket } from './rate-limit';

export interface Limiter {
  /** Allowed only when every bucket (e.g. the account and the address) has room. */
  take(buckets: readonly Bucket[]): Promise<RateDecision>;
}

/** Without Redis: the in-process token bucket (burst of perMinute, refilled continuously). */
export function memoryLimiter(clock: Clock): Limiter {
  const buckets = createRateLimiter({ clock });
  return { take: async (wanted) => buckets.take(wanted) };
}

const WINDOW_MS = 60_000;

/**
 * The one atomic decision per request: fixed 60-s windows, one counter per bucket. The request
 * passes only when every bucket has room, and then counts in each; a refused request counts
 * nowhere (so a client that keeps knocking does not push its own window out). Answers
 * [allowed, then count and ms left for each bucket] — what the fallback below starts from.
 */
const DECIDE = `
local window = tonumber(ARGV[1])
local state = {}
local full = false
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('PEXPIRE', key, window)
    ttl = window
  end
  state[i] = {count, ttl}
  if count >= tonumber(ARGV[i + 1]) then full = true end
end
local out = {full and 0 or 1}
for i, key in ipairs(KEYS) do
  local count, ttl = state[i][1], state[i][2]
  if not full then
    count = redis.call('INCR', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out
`;

type DecidingRedis = Redis & { suikoujiDecide(...args: (string | number)[]): Promise<number[]> };

function withDecide(client: Redis): DecidingRedis {
  // EVALSHA, with ioredis loading the script again after a Redis restart (NOSCRIPT).
  if (!('suikoujiDecide' in client)) client.defineCommand('suikoujiDecide', { lua: DECIDE });
  return client as DecidingRedis;
}

/** What this instance last heard from Redis about a bucket, or counted itself while Redis was away. */
interface Window {
  used: number;
  /** How many this window allows (the fallback's share; unused for what Redis said). */
  allowance: number;
  resetAt: number;
}

/**
 * With Redis: perMinute requests per bucket in a fixed 60-s window, decided atomically in Redis
 * (one EVALSHA per request), so N instances together allow perMinute, not N × perMinute.
 *
 * When Redis does not answer within its timeout (see redis.ts) the decision is this instance's:
 * a window per bucket in memory that allows this instance's share of what is left —
 * floor((perMinute − what Redis last said this window had used) / instances seen in the last
 * minute) — and ends when the shared window would. Never a fresh full window: the instances
 * together stay within the limit while Redis is away. Each fallback is counted and logged.
 */
export function sharedLimiter(options: {
  group: LimitGroup;
  redis: RedisLink;
  instances: InstanceRegistry;
  metrics: GatewayMetrics;
  clock: Clock;
}): Limiter {
  const { group, redis, instances, metrics, clock } = options;
  const client = withDecide(redis.client);
  const prefix = `suikouji:rl:${group}:`;
  /** Per bucket: what Redis answered last (used = its count). */
  const known = new Map<string, Window>();
  /** Per bucket: the fallback window while Redis is away. */
  const local = new Map<string, Window>();
  let takesSinceSweep = 0;

  const sweep = (now: number) => {
    for (const map of [known, local]) for (const [key, w] of map) if (w.resetAt <= now) map.delete(key);
  };

  function fallback(wanted: readonly Bucket[], now: number): RateDecision {
    const share = instances.seen();
    const windows = wanted.map(({ key, perMinute }) => {
      let w = local.get(key);
      if (!w || w.resetAt <= now) {
        const last = known.get(key);
        const current = last && last.resetAt > now ? last : null;
        const left = Math.max(0, perMinute - (current?.used ?? 0));
        w = { used: 0, allowance: Math.floor(left / share), resetAt: current?.resetAt ?? now + WINDOW_MS };
        local.set(key, w);
      }
      return w;
    });
    const full = windows.filter((w) => w.used >= w.allowance);
    if (full.length) return { allowed: false, retryAfterMs: Math.max(1, ...full.map((w) => w.resetAt - now)) };
    for (const w of windows) w.used += 1;
    return { allowed: true, retryAfterMs: 0 };
  }

  return {
    async take(wanted) {
      if (++takesSinceSweep >= 1000) {
        takesSinceSweep = 0;
        sweep(clock.now());
      }
      let reply: number[];
      try {
        reply = await client.suikoujiDecide(wanted.length, ...wanted.map((b) => prefix + b.key), WINDOW_MS, ...wanted.map((b) => b.perMinute));
      } catch (err) {
        redis.failed('rate_limit', err);
        metrics.limitFallbacks.inc({ group });
        return fallback(wanted, clock.now());
      }
      const now = clock.now();
      let retryAfterMs = 0;
      wanted.forEach((b, i) => {
        const used = Number(reply[1 + 2 * i]);
        const msLeft = Math.max(1, Number(reply[2 + 2 * i]));
        known.set(b.key, { used, allowance: b.perMinute, resetAt: now + msLeft });
        if (used >= b.perMinute) retryAfterMs = Math.max(retryAfterMs, msLeft);
      });
      // Redis is answering again: the next outage starts from what it says, not from old counts.
      for (const b of wanted) local.delete(b.key);
      return reply[0] === 1 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: Math.max(1, retryAfterMs) };
    },
  };
}

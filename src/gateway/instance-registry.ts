// Which gateway instances are alive, as far as Redis has seen in the last minute. Each instance
// announces itself every few seconds; the count is kept in memory so that the rate limits'
// fallback — taken exactly when Redis cannot be asked — knows how many instances share a limit.
import { randomUUID } from 'node:crypto';
import type { RedisLink } from './redis';

const KEY = 'suikouji:instances';
/** An instance not heard from for this long no longer counts. */
export const INSTANCE_WINDOW_MS = 60_000;
/** How often an instance announces itself and reads the count. */
export const INSTANCE_HEARTBEAT_MS = 2_000;

/**
 * One round trip: announce this instance (scored by Redis's own clock, so the hosts' clocks do
 * not matter), forget instances silent for a minute, count the rest.
 */
const ANNOUNCE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`;

export interface InstanceRegistry {
  readonly id: string;
  /** Instances seen in the last minute, this one included (1 before Redis was ever reached). */
  seen(): number;
  /** Announce now and refresh the count (also done every INSTANCE_HEARTBEAT_MS). */
  refresh(): Promise<void>;
  /** Stops announcing and leaves the set, so the others' share grows at their next refresh. */
  close(): Promise<void>;
}

export async function startInstanceRegistry(redis: RedisLink): Promise<InstanceRegistry> {
  const id = randomUUID();
  let count = 1;
  const refresh = async () => {
    try {
      const n = Number(await redis.client.eval(ANNOUNCE, 1, KEY, id, String(INSTANCE_WINDOW_MS)));
      if (Number.isInteger(n) && n >= 1) count = n;
    } catch (err) {
      // Keep the last count: it is what the fallback needs while Redis is away.
      redis.failed('instances', err);
    }
  };
  await refresh();
  const timer = setInterval(() => void refresh(), INSTANCE_HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    seen: () => count,
    refresh,
    async close() {
      clearInterval(timer);
      await redis.client.zrem(KEY, id).catch((err: unknown) => redis.failed('instances', err));
    },
  };
}

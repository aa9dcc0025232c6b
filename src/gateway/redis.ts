// The Redis connection several gateway instances share (REDIS_URL). Every command fails fast
// while Redis is away — no offline queue, no per-command retries, a short timeout — so a
// request never waits on Redis: the caller falls back to this instance's memory instead.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis, type Command } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayMetrics } from './metrics';

/**
 * How long Redis may take to answer a command. A healthy Redis answers on loopback or in a LAN
 * in well under a millisecond; this bounds how long a request waits on a stalled one.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** One warning per this long while Redis stays down, not one per request. */
const WARN_EVERY_MS = 10_000;

/**
 * ioredis's own `commandTimeout` is a timer that fires in the event loop's timers phase — before
 * the poll phase reads the replies that arrived meanwhile. When the loop was busy for longer than
 * the timeout (measured: 600 concurrent requests on three instances in one process kept it busy
 * for 277 ms on the 2-core CI machine), every command in flight "timed out" although Redis had
 * answered (and counted) each one within a millisecond, and each instance fell back to its own
 * limits. Here an expired timer first lets the loop read what has arrived (setImmediate runs
 * after the poll phase) and fails the command only if its reply is still missing: the timeout
 * judges Redis, not this process's own backlog.
 */
class ReplyTimedRedis extends Redis {
  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!command.isResolved) command.reject(new Error('Command timed out'));
        }),
      REDIS_COMMAND_TIMEOUT_MS,
    );
    // Settled either way: the timer has nothing left to judge. (A rejection is the caller's.)
    command.promise.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
    return super.sendCommand(command, stream);
  }
}

export type RedisUse = 'rate_limit' | 'token_cache' | 'instances' | 'keys' | 'ping' | 'connection';

export interface RedisLink {
  client: Redis;
  /** A PING answered within the command timeout. */
  ping(): Promise<boolean>;
  /** Counts a failed command and warns (rate-limited) that this instance works on its own. */
  failed(use: RedisUse, err: unknown): void;
  close(): Promise<void>;
}

export async function connectRedis(url: string, deps: { log: FastifyBaseLogger; metrics: GatewayMetrics }): Promise<RedisLink> {
  const { log, metrics } = deps;
  const client = new ReplyTimedRedis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // Reconnect for ever, at most a second apart: sharing resumes by itself once Redis is back.
    retryStrategy: (times) => Math.min(100 * times, 1_000),
  });
  let lastWarnAt = -Infinity;
  let suppressed = 0;
  let wasDown = false;

  const failed = (use: RedisUse, err: unknown) => {
    metrics.redisErrors.inc({ op: use });
    // Wall-clock time on purpose: it paces log lines, not gateway logic.
    const now = Date.now();
    if (now - lastWarnAt < WARN_EVERY_MS) {
      suppressed += 1;
      return;
    }
    lastWarnAt = now;
    log.warn(
      { event: 'redis_unavailable', use, error: (err as Error)?.message ?? String(err), suppressedSinceLastWarning: suppressed },
      'Redis unreachable: rate limits and ASR tokens fall back to this instance’s memory',
    );
    suppressed = 0;
  };

  metrics.redisUp?.set(0);
  client.on('ready', () => {
    metrics.redisUp?.set(1);
    if (wasDown) log.info({ event: 'redis_ready' }, 'Redis reachable again: limits and tokens are shared again');
    wasDown = false;
  });
  client.on('close', () => {
    metrics.redisUp?.set(0);
    wasDown = true;
  });
  // Without a listener ioredis reports every failed reconnect on stderr.
  client.on('error', (err: Error) => failed('connection', err));

  // Start shared when Redis is there; start degraded (and keep trying) when it is not.
  await Promise.race([once(client, 'ready'), sleep(2_000)]).catch(() => {});

  return {
    client,
    async ping() {
      try {
        return (await client.ping()) === 'PONG';
      } catch (err) {
        failed('ping', err);
        return false;
      }
    },
    failed,
    async close() {
      client.removeAllListeners('ready');
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

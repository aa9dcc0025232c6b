// Issue 40, item 1: shared limits that hold exactly. Three gateway instances (Fastify apps in this
// process, each with its own Redis connection) share one REAL redis-server; one client sends 200
// requests at once, spread over the three, at a limit of 20 a minute.
//
// The overshoot the issue measured came from busy instances: ioredis's command timeout fired in
// the event loop's timers phase before the loop had read Redis's (long arrived) answers, and each
// instance fell back to a fresh full window in memory. 600 concurrent requests kept this process's
// loop busy for 277 ms (> the 250-ms timeout) and let 60 through; the first test reproduces such a
// busy loop on purpose — the model double burns 300 ms of CPU on its first calls — so it fails
// with a timer that judges the loop instead of Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_PATHS } from '@shared/gateway';
import { startFakeChatServer, type FakeChatServer } from '../../test/support/gateway/fake-chat-server';
import { TEST_LLM_KEY } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleSum } from '../../test/support/gateway/prometheus-text';
import { redisAvailable, startRedis, type RedisServer } from '../../test/support/redis-server';
import { buildGatewayApp } from './app';
import { loadGatewayConfig } from './config';
import { REDIS_COMMAND_TIMEOUT_MS } from './redis';

const LIMIT = 20;
const INSTANCES = 3;
const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });

/** Keeps this process's event loop busy, as a loaded instance's is. */
function burnCpu(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

describe.skipIf(!redisAvailable())(
  `3 instances, one Redis, 200 concurrent requests at ${LIMIT}/min${redisAvailable() ? '' : ' (skipped: redis-server not installed)'}`,
  () => {
    let redis: RedisServer;
    let chat: FakeChatServer;
    let burnsLeft = 0;
    const apps: { app: FastifyInstance; url: string }[] = [];

    beforeAll(async () => {
      redis = await startRedis();
      chat = await startFakeChatServer(() => {
        if (burnsLeft > 0) {
          burnsLeft -= 1;
          burnCpu(REDIS_COMMAND_TIMEOUT_MS + 50);
        }
        return { content: parseReply };
      });
      for (let i = 0; i < INSTANCES; i++) {
        const config = loadGatewayConfig({
          LLM_BASE_URL: chat.baseUrl,
          LLM_API_KEY: TEST_LLM_KEY,
          REDIS_URL: redis.url,
          RATE_LIMIT_LLM_PER_MIN: String(LIMIT),
          // The test's connections come from 127.0.0.1: it plays the proxy, each phase its own client.
          TRUST_PROXY: '127.0.0.1',
        });
        const app = await buildGatewayApp({ config, logger: false, retry: { retries: 0, baseDelayMs: 1 } });
        apps.push({ app, url: await app.listen({ port: 0, host: '127.0.0.1' }) });
      }
      // Every instance has heard of the others (they announce themselves every 2 s).
      const deadline = Date.now() + 10_000;
      while (!apps.every(({ app }) => app.gatewayInstances?.seen() === INSTANCES)) {
        if (Date.now() > deadline)
          throw new Error(`the instances did not see each other within 10 s: ${apps.map(({ app }) => app.gatewayInstances?.seen()).join()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    afterAll(async () => {
      // Never leave Redis stopped (a failed test would hang the rest on it).
      if (redis) process.kill(redis.pid, 'SIGCONT');
      await Promise.all(apps.map(({ app }) => app.close()));
      await chat?.close();
      await redis?.stop();
    });

    /** n requests at once from one client, round-robin over the instances: statuses per instance. */
    async function burst(client: string, n = 200): Promise<number[][]> {
      const statuses = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const res = await fetch(apps[i % INSTANCES]!.url + GATEWAY_PATHS.parse, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
            body: JSON.stringify({ text: '午饭35' }),
          });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      return apps.map((_, k) => statuses.filter((_, i) => i % INSTANCES === k));
    }
    const allowed = (perInstance: number[][]) => perInstance.flat().filter((s) => s === 200).length;
    const fallbacks = async () => {
      let total = 0;
      for (const { app } of apps)
        total += sampleSum(parsePrometheusText(await app.gatewayMetrics.registry.metrics()), 'gateway_rate_limit_fallback_total');
      return total;
    };

    /** Redis frozen (SIGSTOP): the connections stay open, every command waits for ever. */
    async function withRedisStalled<T>(run: () => Promise<T>): Promise<T> {
      process.kill(redis.pid, 'SIGSTOP');
      try {
        return await run();
      } finally {
        process.kill(redis.pid, 'SIGCONT');
      }
    }

    it('Redis healthy: exactly 20 pass, even while the instances’ event loop is busy for longer than the Redis timeout', async () => {
      const before = await fallbacks();
      burnsLeft = 3;
      const statuses = await burst('203.0.113.1');
      expect(burnsLeft).toBe(0); // the loop was in fact blocked, three times
      expect(allowed(statuses)).toBe(LIMIT);
      expect(statuses.flat().filter((s) => s !== 200 && s !== 429)).toEqual([]);
      // Every decision was Redis's: no command was judged timed out while its answer was waiting.
      expect((await fallbacks()) - before).toBe(0);
    });

    it('Redis stalled: each instance allows its share, floor(20 / 3 instances) — 18 in all, never a fresh 20 each', async () => {
      const statuses = await withRedisStalled(() => burst('203.0.113.2'));
      expect(statuses.map((s) => s.filter((x) => x === 200).length)).toEqual([6, 6, 6]);
      expect(allowed(statuses)).toBeLessThanOrEqual(LIMIT);
      expect(statuses.flat().filter((s) => s !== 200 && s !== 429)).toEqual([]);
    });

    it('Redis stalls mid-window: the instances share only what was left of it', async () => {
      const client = '203.0.113.3';
      const used: number[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await fetch(apps[i % INSTANCES]!.url + GATEWAY_PATHS.parse, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ text: '午饭35' }),
        });
        used.push(res.status);
      }
      expect(used.every((s) => s === 200)).toBe(true);
      const statuses = await withRedisStalled(() => burst(client));
      // Each instance last heard 13, 14 and 15 used: floor(7/3) + floor(6/3) + floor(5/3) = 5.
      expect(allowed(statuses)).toBe(5);
      expect(15 + allowed(statuses)).toBeLessThanOrEqual(LIMIT);
    });
  },
);

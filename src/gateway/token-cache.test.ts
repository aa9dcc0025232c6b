// Issue 40: "one extra mint at worst" did not hold — N instances starting together minted N ASR
// tokens. With the mint lock in Redis, N instances (each its own app and Redis connection, one
// REAL redis-server) asked at the same moment, each by several clients, mint exactly one token
// from the fake DashScope endpoint and all hand out that one; the waiting is counted as misses.
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { startFakeTokenServer, type FakeTokenServer } from '../../test/support/gateway/fake-token-server';
import { TEST_DASHSCOPE_KEY } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleValue } from '../../test/support/gateway/prometheus-text';
import { redisAvailable, startRedis, type RedisServer } from '../../test/support/redis-server';
import { buildGatewayApp } from './app';
import { loadGatewayConfig } from './config';

/** Each mint takes this long (the real endpoint takes about as long), so the instances overlap. */
const MINT_MS = 150;
const INSTANCES = 4;

describe.skipIf(!redisAvailable())(`ASR tokens on a cold start${redisAvailable() ? '' : ' (skipped: redis-server not installed)'}`, () => {
  let redis: RedisServer;
  let tokens: FakeTokenServer;
  let apps: { app: FastifyInstance; url: string }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    tokens = await startFakeTokenServer({ apiKey: TEST_DASHSCOPE_KEY });
  });
  afterAll(async () => {
    await tokens?.close();
    await redis?.stop();
  });
  beforeEach(async () => {
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    await admin.flushall();
    admin.disconnect();
  });
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.app.close()));
    apps = [];
  });

  async function startInstances(n: number) {
    const config = loadGatewayConfig({
      DASHSCOPE_API_KEY: TEST_DASHSCOPE_KEY,
      DASHSCOPE_BASE_URL: tokens.baseUrl,
      REDIS_URL: redis.url,
      RATE_LIMIT_ASR_PER_MIN: '1000',
    });
    const slowMint: typeof fetch = async (input, init) => {
      await new Promise((resolve) => setTimeout(resolve, MINT_MS));
      return fetch(input, init);
    };
    for (let i = 0; i < n; i++) {
      const app = await buildGatewayApp({ config, fetch: slowMint, logger: false });
      apps.push({ app, url: await app.listen({ port: 0, host: '127.0.0.1' }) });
    }
    return apps;
  }

  const token = async (url: string) => {
    const res = await fetch(`${url}${GATEWAY_PATHS.asrToken}`, { method: 'POST' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };

  it(`${INSTANCES} instances asked at once, 5 clients each: one mint, one token for all`, async () => {
    const instances = await startInstances(INSTANCES);
    const minted = tokens.minted;
    const answers = await Promise.all(instances.flatMap(({ url }) => Array.from({ length: 5 }, () => token(url))));
    expect(tokens.minted - minted).toBe(1);
    expect(new Set(answers).size).toBe(1);
    // Later requests are hits everywhere, still without a mint.
    for (const { url } of instances) expect(await token(url)).toBe(answers[0]);
    expect(tokens.minted - minted).toBe(1);
    let hits = 0;
    let misses = 0;
    for (const { app } of instances) {
      const m = parsePrometheusText(await app.gatewayMetrics.registry.metrics());
      hits += sampleValue(m, 'gateway_asr_token_cache_total', { result: 'hit' });
      misses += sampleValue(m, 'gateway_asr_token_cache_total', { result: 'miss' });
      expect(sampleValue(m, 'gateway_upstream_request_duration_seconds_count', { upstream: 'asr_token', outcome: 'ok' })).toBeLessThanOrEqual(1);
    }
    // Every request counted once: the 20 cold ones waited for the mint (one of them made it).
    expect(misses).toBe(INSTANCES * 5);
    expect(hits).toBe(INSTANCES);
  });

  it('the mint fails: the lock is freed, the next request mints, nobody waits for a lock that nobody holds', async () => {
    const [a, b] = await startInstances(2);
    tokens.failWith = 500;
    const failed = await fetch(`${a!.url}${GATEWAY_PATHS.asrToken}`, { method: 'POST' });
    expect(failed.status).toBe(502);
    tokens.failWith = null;
    const t0 = Date.now();
    const minted = tokens.minted;
    expect(await token(b!.url)).toMatch(/^st-fake-/);
    expect(tokens.minted - minted).toBe(1);
    expect(Date.now() - t0).toBeLessThan(MINT_MS + 1_000);
  });
});

// Issue 27: several gateway instances sharing one REAL redis-server (a child of the test on
// loopback). Two Fastify apps in this process, each with its own Redis connection, behave like
// two machines behind a balancer: limits, failed-login buckets and ASR tokens are shared; with
// Redis killed they keep answering, each on its share of the limits, and come back to sharing by
// themselves.
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { startFakeChatServer, type FakeChatServer } from '../../test/support/gateway/fake-chat-server';
import { startFakeTokenServer, type FakeTokenServer } from '../../test/support/gateway/fake-token-server';
import { TEST_DASHSCOPE_KEY, TEST_LLM_KEY } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleSum, sampleValue } from '../../test/support/gateway/prometheus-text';
import { redisAvailable, startRedis, type RedisServer } from '../../test/support/redis-server';
import { buildGatewayApp, type ReadyResponse } from './app';
import { loadGatewayConfig } from './config';

const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });

interface Instance {
  url: string;
  app: FastifyInstance;
  logs: Record<string, unknown>[];
}

describe.skipIf(!redisAvailable())(
  `several instances share limits and tokens through Redis${redisAvailable() ? '' : ' (skipped: redis-server not installed)'}`,
  () => {
    let redis: RedisServer;
    let chat: FakeChatServer;
    let tokens: FakeTokenServer;
    let admin: Redis;
    let instances: Instance[] = [];

    beforeAll(async () => {
      redis = await startRedis();
      chat = await startFakeChatServer(() => ({ content: parseReply }));
      tokens = await startFakeTokenServer({ apiKey: TEST_DASHSCOPE_KEY });
    });
    afterAll(async () => {
      await chat?.close();
      await tokens?.close();
      await redis?.stop();
    });
    beforeEach(async () => {
      admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
      await admin.flushall();
    });
    afterEach(async () => {
      await Promise.all(instances.map((i) => i.app.close()));
      instances = [];
      admin.disconnect();
    });

    async function startInstance(env: Record<string, string>): Promise<Instance> {
      const config = loadGatewayConfig({
        LLM_BASE_URL: chat.baseUrl,
        LLM_API_KEY: TEST_LLM_KEY,
        DASHSCOPE_API_KEY: TEST_DASHSCOPE_KEY,
        DASHSCOPE_BASE_URL: tokens.baseUrl,
        REDIS_URL: redis.url,
        // Each test speaks as its own client address (X-Forwarded-For), as behind nginx.
        TRUST_PROXY: 'loopback',
        ...env,
      });
      const logs: Record<string, unknown>[] = [];
      const app = await buildGatewayApp({
        config,
        authFailureDelayMs: 0,
        retry: { retries: 0, baseDelayMs: 1 },
        logger: { level: 'info', stream: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) } },
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const instance = { url, app, logs };
      instances.push(instance);
      return instance;
    }

    const pair = async (env: Record<string, string>) => [await startInstance(env), await startInstance(env)] as const;

    const post = async (at: Instance, path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(at.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };

    const readiness = async (at: Instance) => {
      const res = await fetch(`${at.url}/readyz`);
      return { status: res.status, body: (await res.json()) as ReadyResponse };
    };

    // The registry itself: the API port serves /metrics only with METRICS_KEY.
    const metricsOf = async (at: Instance) => parsePrometheusText(await at.app.gatewayMetrics.registry.metrics());

    /** Polls until `check` holds; a deadline instead of a fixed sleep. */
    async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('a client alternating between two instances is limited at the configured total, not twice it', async () => {
      const [a, b] = await pair({ RATE_LIMIT_LLM_PER_MIN: '4' });
      const as = { 'x-forwarded-for': '203.0.113.10' };
      const calls = chat.calls.length;
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await post(i % 2 ? b : a, GATEWAY_PATHS.parse, { text: '午饭35' }, as)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
      expect(chat.calls.length - calls).toBe(4);
      // Another client still has its own full budget.
      expect((await post(b, GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-forwarded-for': '203.0.113.11' })).status).toBe(200);
      expect((await readiness(a)).body).toMatchObject({ status: 'ready', redis: 'up' });
    });

    it('failed logins spread over both instances lock out at the configured count; the key holder is unaffected', async () => {
      const [a, b] = await pair({ GATEWAY_API_KEY: 'gw-right-key', RATE_LIMIT_AUTH_FAILURES_PER_MIN: '3' });
      const guess = (i: number) => ({ 'x-forwarded-for': '203.0.113.20', 'x-api-key': `guess-${i}` });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post(i % 2 ? b : a, GATEWAY_PATHS.asrToken, {}, guess(i))).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const right = { 'x-forwarded-for': '203.0.113.20', 'x-api-key': 'gw-right-key' };
      expect((await post(a, GATEWAY_PATHS.asrToken, {}, right)).status).toBe(200);
    });

    it('a token minted through instance A is served by instance B without a second mint', async () => {
      const [a, b] = await pair({});
      const minted = tokens.minted;
      const first = await post(a, GATEWAY_PATHS.asrToken, {});
      const second = await post(b, GATEWAY_PATHS.asrToken, {});
      expect(first.status).toBe(200);
      expect(second.json).toEqual(first.json);
      expect(tokens.minted - minted).toBe(1);
      expect(sampleValue(await metricsOf(b), 'gateway_asr_token_cache_total', { result: 'hit' })).toBe(1);
      expect(sampleValue(await metricsOf(a), 'gateway_asr_token_cache_total', { result: 'miss' })).toBe(1);
      // What Redis holds: the answer, under a key that names neither the DashScope key nor the token.
      const keys = await admin.keys('*');
      expect(keys.filter((k) => k.startsWith('suikouji:asr-token:'))).toHaveLength(1);
      expect(keys.join(' ')).not.toContain(TEST_DASHSCOPE_KEY);
    });

    it('Redis killed: no 5xx, /readyz degraded, each instance takes its share of the limit; Redis back: shared again', async () => {
      const [a, b] = await pair({ RATE_LIMIT_ASR_PER_MIN: '4' });
      // Both have seen both (each announces itself every 2 s): the share is the limit / 2.
      await eventually(async () => a.app.gatewayInstances?.seen() === 2 && b.app.gatewayInstances?.seen() === 2, 'both instances seen');
      await redis.kill();
      try {
        for (const at of [a, b]) {
          const ready = await readiness(at);
          expect(ready.status).toBe(200);
          expect(ready.body).toMatchObject({ status: 'degraded', redis: 'down', llm: true, asr: true });
        }
        const client = { 'x-forwarded-for': '203.0.113.30' };
        const onA: number[] = [];
        const onB: number[] = [];
        for (let i = 0; i < 4; i++) onA.push((await post(a, GATEWAY_PATHS.asrToken, {}, client)).status);
        for (let i = 0; i < 4; i++) onB.push((await post(b, GATEWAY_PATHS.asrToken, {}, client)).status);
        // Each instance enforces half the limit on its own: together never more than the limit.
        expect(onA).toEqual([200, 200, 429, 429]);
        expect(onB).toEqual([200, 200, 429, 429]);
        const parsed = await post(a, GATEWAY_PATHS.parse, { text: '午饭35' }, client);
        expect(parsed.status).toBe(200);
        const m = await metricsOf(a);
        expect(sampleValue(m, 'gateway_rate_limit_fallback_total', { group: 'asr' })).toBe(4);
        expect(sampleValue(m, 'gateway_redis_up')).toBe(0);
        expect(sampleSum(m, 'gateway_redis_errors_total')).toBeGreaterThanOrEqual(4);
        expect(sampleSum(m, 'gateway_http_requests_total', { status: '500' }) + sampleSum(m, 'gateway_http_requests_total', { status: '502' })).toBe(
          0,
        );
        // Warned, but not once per request.
        const warnings = a.logs.filter((l) => l.event === 'redis_unavailable');
        expect(warnings.length).toBeGreaterThanOrEqual(1);
        expect(warnings.length).toBeLessThanOrEqual(2);
      } finally {
        await redis.restart();
      }
      await eventually(async () => (await readiness(a)).body.status === 'ready' && (await readiness(b)).body.status === 'ready', 'both ready again');
      expect(a.logs.some((l) => l.event === 'redis_ready')).toBe(true);
      const again = { 'x-forwarded-for': '203.0.113.31' };
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post(i % 2 ? b : a, GATEWAY_PATHS.asrToken, {}, again)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      expect(sampleValue(await metricsOf(a), 'gateway_redis_up')).toBe(1);
    });
  },
);

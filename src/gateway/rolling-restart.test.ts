// Issue 27: a rolling restart loses no request. REAL nginx, run with the repository's
// deploy/gateway/nginx.conf, in front of two gateway instances run as child processes exactly as
// `npm run gateway` runs them (env-configured, sharing a real redis-server); the fake upstreams
// are on loopback. Under a steady request stream, SIGTERM one instance, start it again on the
// same port, then the other: the client sees zero failed requests, each stop exits 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { freePort, sleep } from '../../test/support/child-daemons';
import { startFakeChatServer, type FakeChatServer } from '../../test/support/gateway/fake-chat-server';
import { startFakeTokenServer, type FakeTokenServer } from '../../test/support/gateway/fake-token-server';
import { startGatewayProcess, type GatewayProcess } from '../../test/support/gateway/gateway-process';
import { TEST_DASHSCOPE_KEY, TEST_LLM_KEY } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleSum } from '../../test/support/gateway/prometheus-text';
import { nginxAvailable, startGatewayNginx, type NginxServer } from '../../test/support/nginx-server';
import { redisAvailable, startRedis, type RedisServer } from '../../test/support/redis-server';

const API_KEY = 'gw-rolling-key';
const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });
const missing = [!nginxAvailable() && 'nginx', !redisAvailable() && 'redis-server'].filter(Boolean).join(' and ');

describe.skipIf(missing !== '')(`rolling restart behind nginx${missing ? ` (skipped: ${missing} not installed)` : ''}`, () => {
  let redis: RedisServer;
  let chat: FakeChatServer;
  let tokens: FakeTokenServer;
  let nginx: NginxServer;
  const running: GatewayProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedis();
    // Each answer takes a moment, so every SIGTERM finds requests in flight.
    chat = await startFakeChatServer(() => ({ content: parseReply, delayMs: 40 }));
    tokens = await startFakeTokenServer({ apiKey: TEST_DASHSCOPE_KEY });
    env = {
      LLM_BASE_URL: chat.baseUrl,
      LLM_API_KEY: TEST_LLM_KEY,
      DASHSCOPE_API_KEY: TEST_DASHSCOPE_KEY,
      DASHSCOPE_BASE_URL: tokens.baseUrl,
      REDIS_URL: redis.url,
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_LLM_PER_MIN: '1000000',
      GATEWAY_API_KEY: API_KEY,
      // A short drain (its 503 /readyz is shutdown.test.ts's subject): the stream goes on
      // through it, and the test stays quick.
      SHUTDOWN_DRAIN_MS: '300',
      SHUTDOWN_GRACE_MS: '10000',
      LOG_LEVEL: 'info',
    };
  }, 60_000);

  afterAll(async () => {
    for (const p of running) await p.kill();
    await nginx?.stop();
    await chat?.close();
    await tokens?.close();
    await redis?.stop();
  });

  const metricsPorts = new Map<GatewayProcess, number>();
  /** Parse requests this instance answered so far, from its METRICS_PORT (loopback, no key). */
  const served = async (p: GatewayProcess) =>
    sampleSum(parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPorts.get(p)}/metrics`)).text()), 'gateway_http_requests_total', {
      route: GATEWAY_PATHS.parse,
    });

  async function untilServing(p: GatewayProcess, what: string): Promise<void> {
    const before = await served(p);
    const deadline = Date.now() + 20_000;
    while ((await served(p)) <= before) {
      if (Date.now() > deadline) throw new Error(`${what} took no traffic from nginx within 20 s\n${nginx.logs().slice(-3000)}`);
      await sleep(100);
    }
  }

  it('SIGTERM one instance, start it again, then the other: zero failed requests, exit code 0', async () => {
    const ports: [number, number] = [await freePort(), await freePort()];
    const metricsPortOf: [number, number] = [await freePort(), await freePort()];
    const start = async (i: 0 | 1) => {
      const p = await startGatewayProcess({ ...env, METRICS_PORT: String(metricsPortOf[i]) }, { port: ports[i] });
      running.push(p);
      metricsPorts.set(p, metricsPortOf[i]);
      return p;
    };
    let instances: [GatewayProcess, GatewayProcess] = [await start(0), await start(1)];
    // Without METRICS_KEY the API port has no /metrics, whatever key is sent; METRICS_PORT serves
    // it on loopback without one.
    expect((await fetch(`${instances[0].url}/metrics`, { headers: { 'x-api-key': API_KEY } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPortOf[0]}/metrics`)).status).toBe(200);
    nginx = await startGatewayNginx({ instances: ports });

    const failures: string[] = [];
    let ok = 0;
    let stopping = false;
    const client = async () => {
      while (!stopping) {
        try {
          const res = await fetch(`${nginx.url}${GATEWAY_PATHS.parse}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
            body: JSON.stringify({ text: '午饭35' }),
          });
          const body = await res.text();
          if (res.status === 200) ok += 1;
          else failures.push(`${res.status} ${body.slice(0, 200)}`);
        } catch (err) {
          failures.push(`network: ${(err as Error).message}`);
        }
      }
    };
    const stream = Promise.all(Array.from({ length: 4 }, client));
    try {
      await untilServing(instances[0], 'instance A');
      await untilServing(instances[1], 'instance B');
      for (const i of [0, 1] as const) {
        const before = ok;
        const code = await instances[i].signal('SIGTERM');
        expect(code).toBe(0);
        expect(instances[i].logs.some((l) => l.event === 'shutdown_done' && l.cut === false)).toBe(true);
        expect(ok).toBeGreaterThan(before); // the other instance carried the stream meanwhile
        const again = await start(i);
        instances = i === 0 ? [again, instances[1]] : [instances[0], again];
        await untilServing(again, `restarted instance ${i === 0 ? 'A' : 'B'}`);
      }
    } finally {
      stopping = true;
      await stream;
    }
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(50);
    for (const p of instances) expect(await p.signal('SIGTERM')).toBe(0);
  }, 120_000);
});

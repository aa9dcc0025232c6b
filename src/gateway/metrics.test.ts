// Issue 40: metrics an operator can use, and only the operator. A real scrape after real traffic
// passes `promtool check metrics` (Prometheus' own linter); it holds request-duration histograms by
// route pattern and status, upstream durations and errors, limits, token-cache hits and misses and
// the process's CPU, memory, event-loop lag and GC. /metrics answers on the API port only to the
// separate METRICS_KEY (never to the client key), on METRICS_PORT without one, and never through
// the shipped nginx config (real nginx, deploy/gateway/nginx.conf).
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { runs } from '../../test/support/child-daemons';
import type { ChatScript } from '../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, type GatewayHarness } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleSum, sampleValue, type Sample } from '../../test/support/gateway/prometheus-text';
import { nginxAvailable, startGatewayNginx, type NginxServer } from '../../test/support/nginx-server';
import { loadGatewayConfig } from './config';
import { startMetricsListener } from './metrics';

const API_KEY = 'gw-client-key-5b1d';
const METRICS_KEY = 'metrics-operator-key-9c2e71';
const bearer = { authorization: `Bearer ${METRICS_KEY}` };
const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });
const promtool = runs('promtool', ['--version']);

const harnesses: GatewayHarness[] = [];
let nginx: NginxServer | null = null;
afterEach(async () => {
  await nginx?.stop();
  nginx = null;
  for (const h of harnesses.splice(0)) await h.close();
});

async function start(env: Record<string, string> = {}, script: ChatScript = () => ({ content: parseReply })) {
  const h = await startGatewayHarness({
    script,
    env: { GATEWAY_API_KEY: API_KEY, METRICS_KEY, ...env },
    authFailureDelayMs: 0,
    retry: { retries: 0, baseDelayMs: 1 },
  });
  h.app.log.level = 'silent';
  harnesses.push(h);
  return h;
}

const post = (h: GatewayHarness, path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': API_KEY }) =>
  fetch(h.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function scrape(url: string, headers: Record<string, string> = bearer): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, samples: parsePrometheusText(text) };
}

/** A raw GET with the path exactly as written (fetch would normalise some of these). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a real scrape after traffic', () => {
  it.skipIf(!promtool)(
    `passes promtool check metrics and holds what an operator needs${promtool ? '' : ' (skipped: promtool not installed — Debian package prometheus)'}`,
    async () => {
      // The 5th model call fails (500): one parse answered by the fallback, one upstream error.
      const h = await start({ RATE_LIMIT_ASR_PER_MIN: '2' }, (_call, n) => (n === 5 ? { status: 500 } : { content: parseReply }));
      for (let i = 0; i < 5; i++) expect((await post(h, GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
      expect((await post(h, GATEWAY_PATHS.parse, { text: '' })).status).toBe(400);
      expect((await post(h, GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-api-key': 'wrong' })).status).toBe(401);
      for (const status of [200, 200, 429]) expect((await post(h, '/api/v1/%61sr/token', {})).status).toBe(status);
      expect((await rawGet(h.url, '/nowhere/12345?secret=1')).status).toBe(404);

      const { text, samples } = await scrape(h.url);
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect({ status: check.status, out: `${check.stdout}${check.stderr}`.trim() }).toEqual({ status: 0, out: '' });

      // Latency by route pattern and status: the raw URL (an encoded path, a 404's path) never a label.
      const duration = (route: string, status: string, method = 'POST') =>
        sampleValue(samples, 'gateway_http_request_duration_seconds_count', { method, route, status });
      expect(duration(GATEWAY_PATHS.parse, '200')).toBe(5);
      expect(duration(GATEWAY_PATHS.parse, '400')).toBe(1);
      expect(duration(GATEWAY_PATHS.parse, '401')).toBe(1);
      expect(duration(GATEWAY_PATHS.asrToken, '200')).toBe(2);
      expect(duration(GATEWAY_PATHS.asrToken, '429')).toBe(1);
      expect(duration('unmatched', '404', 'GET')).toBe(1);
      expect(sampleValue(samples, 'gateway_http_request_duration_seconds_bucket', { route: GATEWAY_PATHS.parse, status: '200', le: '+Inf' })).toBe(5);
      expect(sampleValue(samples, 'gateway_http_request_duration_seconds_sum', { route: GATEWAY_PATHS.parse, status: '200' })).toBeGreaterThan(0);
      expect(text).not.toMatch(/nowhere|%61sr|secret/);
      // Upstreams: duration by outcome, errors counted.
      const upstream = (labels: Record<string, string>) => sampleValue(samples, 'gateway_upstream_request_duration_seconds_count', labels);
      expect(upstream({ upstream: 'llm', outcome: 'ok' })).toBe(5);
      expect(upstream({ upstream: 'llm', outcome: 'http_500' })).toBe(1);
      expect(upstream({ upstream: 'asr_token', outcome: 'ok' })).toBe(1);
      expect(sampleValue(samples, 'gateway_upstream_errors_total', { upstream: 'llm', outcome: 'http_500' })).toBe(1);
      expect(sampleSum(samples, 'gateway_upstream_errors_total', { upstream: 'asr_token' })).toBe(0);
      // Limits and the token cache.
      expect(sampleValue(samples, 'gateway_rate_limited_total', { group: 'asr' })).toBe(1);
      expect(sampleValue(samples, 'gateway_rate_limited_total', { group: 'llm' })).toBe(0);
      expect(sampleValue(samples, 'gateway_asr_token_cache_total', { result: 'miss' })).toBe(1);
      expect(sampleValue(samples, 'gateway_asr_token_cache_total', { result: 'hit' })).toBe(1);
      // The process: CPU, memory, event-loop lag, GC.
      expect(sampleValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
      expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    },
  );

  it('two apps in one process: each counts its own requests, both serve the process metrics, nothing clashes', async () => {
    const a = await start();
    const b = await start();
    for (let i = 0; i < 3; i++) expect((await post(a, GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    expect((await post(b, GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    const [ma, mb] = [(await scrape(a.url)).samples, (await scrape(b.url)).samples];
    expect(sampleValue(ma, 'gateway_http_requests_total', { route: GATEWAY_PATHS.parse, status: '200' })).toBe(3);
    expect(sampleValue(mb, 'gateway_http_requests_total', { route: GATEWAY_PATHS.parse, status: '200' })).toBe(1);
    for (const m of [ma, mb]) expect(sampleValue(m, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // Each name once per exposition (a clash would repeat it or throw on registration).
    const { text } = await scrape(a.url);
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
  });
});

describe('who can read /metrics', () => {
  it('on the API port only with METRICS_KEY as a Bearer token: never with the client key', async () => {
    const h = await start();
    expect((await fetch(`${h.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${h.url}/metrics`, { headers: { 'x-api-key': API_KEY } })).status).toBe(401);
    expect((await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${API_KEY}` } })).status).toBe(401);
    expect((await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}x` } })).status).toBe(401);
    expect((await fetch(`${h.url}/metrics`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${h.url}/metrics`, { method: 'POST', headers: bearer })).status).toBe(405);
  });

  it('without METRICS_KEY the API port has no /metrics at all; METRICS_KEY may not be the client key', async () => {
    const h = await start({ METRICS_KEY: '' });
    const tries: Record<string, string>[] = [{}, { 'x-api-key': API_KEY }, { authorization: `Bearer ${API_KEY}` }];
    for (const headers of tries) {
      expect((await fetch(`${h.url}/metrics`, { headers })).status).toBe(404);
    }
    expect(() => loadGatewayConfig({ GATEWAY_API_KEY: API_KEY, METRICS_KEY: API_KEY })).toThrow(/METRICS_KEY: must differ from GATEWAY_API_KEY/);
  });

  it('METRICS_PORT: its own listener serves GET /metrics without a key, and nothing else', async () => {
    const h = await start({ METRICS_KEY: '' });
    expect((await post(h, GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    const listener = await startMetricsListener(h.app.gatewayMetrics.registry, { port: 0, host: '127.0.0.1' });
    try {
      const { port } = listener.server.address() as { port: number };
      const url = `http://127.0.0.1:${port}`;
      const { samples } = await scrape(url, {});
      expect(sampleValue(samples, 'gateway_http_requests_total', { route: GATEWAY_PATHS.parse, status: '200' })).toBe(1);
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`${url}${GATEWAY_PATHS.health}`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it.skipIf(!nginxAvailable())(
    `the shipped nginx config never passes /metrics on, however it is spelled, not even with the right key${nginxAvailable() ? '' : ' (skipped: nginx not installed)'}`,
    async () => {
      const h = await start();
      const port = Number(new URL(h.url).port);
      nginx = await startGatewayNginx({ instances: [port, port] });
      // The API itself goes through.
      expect((await post({ ...h, url: nginx.url }, GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
      for (const path of ['/metrics', '/metrics?x=1', '//metrics', '/%6Detrics', '/%6detrics', '/./metrics', '/api/../metrics']) {
        for (const headers of [bearer, { 'x-api-key': API_KEY }]) {
          const res = await rawGet(nginx.url, path, headers);
          expect({ path, status: res.status }).toEqual({ path, status: 404 });
          expect(res.body).not.toContain('gateway_');
        }
      }
      // What nginx did not pass on, the instance would have served: the block is nginx's doing.
      expect((await rawGet(h.url, '/metrics', bearer)).status).toBe(200);
      // Spellings nginx passes on reach no metrics route in the gateway either.
      for (const path of ['/metrics/', '/Metrics', '/metrics;x']) {
        const res = await rawGet(nginx.url, path, bearer);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.body).not.toContain('gateway_');
      }
    },
  );
});

// Issue 27's operations endpoints and logs on one instance (no Redis): /healthz and /readyz
// (no key, no limit, no secrets), /metrics counters checked against the requests sent, the one
// request log line and what it must never hold, and a close that finishes requests in flight.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import type { ChatScript } from '../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, TEST_DASHSCOPE_KEY, TEST_LLM_KEY, type GatewayHarness } from '../../test/support/gateway/gateway-harness';
import { parsePrometheusText, sampleSum, sampleValue } from '../../test/support/gateway/prometheus-text';
import type { ReadyResponse } from './app';

const API_KEY = 'gw-key-7f3a9c1e';
const METRICS_KEY = 'metrics-key-4d0b';
const scrapeKey = { authorization: `Bearer ${METRICS_KEY}` };
const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });

let harness: GatewayHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function start(env: Record<string, string> = {}, script: ChatScript = () => ({ content: parseReply })) {
  harness = await startGatewayHarness({ script, env, authFailureDelayMs: 0, retry: { retries: 0, baseDelayMs: 1 } });
  return harness;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(harness!.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('/healthz and /readyz', () => {
  it('answer without the API key, are never rate-limited, and hold no secret', async () => {
    const h = await start({ GATEWAY_API_KEY: API_KEY, RATE_LIMIT_ASR_PER_MIN: '1', RATE_LIMIT_AUTH_FAILURES_PER_MIN: '1' });
    for (let i = 0; i < 30; i++) {
      const alive = await fetch(`${h.url}/healthz`);
      expect(alive.status).toBe(200);
      const ready = await fetch(`${h.url}/readyz`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as ReadyResponse;
      expect(body).toMatchObject({ status: 'ready', llm: true, asr: true, redis: 'off', draining: false });
      expect(JSON.stringify(body)).not.toMatch(new RegExp(`${API_KEY}|${TEST_LLM_KEY}|${TEST_DASHSCOPE_KEY}|127\\.0\\.0\\.1`));
    }
    expect(((await (await fetch(`${h.url}/healthz`)).json()) as { status: string }).status).toBe('ok');
    // The wire protocol's /health is still there.
    expect(((await (await fetch(`${h.url}${GATEWAY_PATHS.health}`)).json()) as { status: string }).status).toBe('ok');
    expect((await fetch(`${h.url}/readyz`, { method: 'POST' })).status).toBe(405);
  });

  it('/readyz is 503 not_ready when no upstream is configured at all', async () => {
    const h = await start({ LLM_API_KEY: '', DASHSCOPE_API_KEY: '' });
    const res = await fetch(`${h.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'not_ready', llm: false, asr: false });
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
  });
});

describe('/metrics', () => {
  it('is behind METRICS_KEY (not the API key) and counts what was sent: routes and statuses, limits, auth failures, fallback, token cache, upstream latency', async () => {
    // The primary model fails once (a 500, no retries here), so one parse is the fallback's.
    const h = await start({ GATEWAY_API_KEY: API_KEY, METRICS_KEY, RATE_LIMIT_ASR_PER_MIN: '2' }, (_call, n) =>
      n === 4 ? { status: 500 } : { content: parseReply },
    );
    const key = { 'x-api-key': API_KEY };
    for (let i = 0; i < 4; i++) expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' }, key)).status).toBe(200);
    expect((await post(GATEWAY_PATHS.parse, { text: '' }, key)).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-api-key': 'wrong' })).status).toBe(401);
    for (const status of [200, 200, 429]) expect((await post(GATEWAY_PATHS.asrToken, {}, key)).status).toBe(status);
    expect((await fetch(`${h.url}/nowhere`)).status).toBe(404);
    expect((await fetch(`${h.url}/metrics`, { headers: key })).status).toBe(401);

    const res = await fetch(`${h.url}/metrics`, { headers: scrapeKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parsePrometheusText(await res.text());
    const requests = (route: string, status: string, method = 'POST') => sampleValue(m, 'gateway_http_requests_total', { method, route, status });
    expect(requests(GATEWAY_PATHS.parse, '200')).toBe(4);
    expect(requests(GATEWAY_PATHS.parse, '400')).toBe(1);
    expect(requests(GATEWAY_PATHS.parse, '401')).toBe(2);
    expect(requests(GATEWAY_PATHS.asrToken, '200')).toBe(2);
    expect(requests(GATEWAY_PATHS.asrToken, '429')).toBe(1);
    expect(requests('unmatched', '404', 'GET')).toBe(1);
    expect(requests('/metrics', '401', 'GET')).toBe(1);
    expect(sampleSum(m, 'gateway_http_requests_total')).toBe(12);
    // The metrics 401 is no failed client authentication.
    expect(sampleValue(m, 'gateway_auth_failed_total')).toBe(2);
    expect(sampleValue(m, 'gateway_rate_limited_total', { group: 'asr' })).toBe(1);
    expect(sampleValue(m, 'gateway_rate_limited_total', { group: 'llm' })).toBe(0);
    expect(sampleValue(m, 'gateway_llm_fallback_model_total', { route: 'parse' })).toBe(1);
    expect(sampleValue(m, 'gateway_asr_token_cache_total', { result: 'miss' })).toBe(1);
    expect(sampleValue(m, 'gateway_asr_token_cache_total', { result: 'hit' })).toBe(1);
    const upstream = (labels: Record<string, string>) => sampleValue(m, 'gateway_upstream_request_duration_seconds_count', labels);
    expect(upstream({ upstream: 'llm', outcome: 'ok' })).toBe(4);
    expect(upstream({ upstream: 'llm', outcome: 'http_500' })).toBe(1);
    expect(upstream({ upstream: 'asr_token', outcome: 'ok' })).toBe(1);
    expect(sampleValue(m, 'gateway_upstream_request_duration_seconds_bucket', { upstream: 'llm', outcome: 'ok', le: '+Inf' })).toBe(4);
    // No Redis configured: no Redis gauge pretending it is down.
    expect(m.some((s) => s.name === 'gateway_redis_up')).toBe(false);
  });

  it('each app has its own registry: a second app starts from zero', async () => {
    const first = await start({ METRICS_KEY });
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    const before = parsePrometheusText(await (await fetch(`${first.url}/metrics`, { headers: scrapeKey })).text());
    expect(sampleSum(before, 'gateway_http_requests_total')).toBe(1);
    await first.close();
    const second = await start({ METRICS_KEY });
    const after = parsePrometheusText(await (await fetch(`${second.url}/metrics`, { headers: scrapeKey })).text());
    expect(sampleSum(after, 'gateway_http_requests_total')).toBe(0);
  });
});

describe('request log', () => {
  it('writes one line per request with id, route, status, latency, client and session — never a key, a token or the words', async () => {
    const h = await start({ GATEWAY_API_KEY: API_KEY, TRUST_PROXY: 'loopback' });
    const headers = { 'x-api-key': API_KEY, 'x-request-id': 'req-log-1', 'x-session-id': 'sess-9', 'x-forwarded-for': '198.51.100.23' };
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭三十五块' }, headers)).status).toBe(200);
    const token = (await (await post(GATEWAY_PATHS.asrToken, {}, { ...headers, 'x-request-id': 'req-log-2' })).json()) as { token: string };
    expect(token.token).toBe('st-fake-1');
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭' }, { 'x-api-key': 'wrong-key-3e8', 'x-request-id': 'req-log-3' })).status).toBe(401);

    const requestLines = h.logs.filter((l) => l.event === 'request');
    expect(requestLines).toHaveLength(3);
    expect(h.logs.filter((l) => l.reqId === 'req-log-1' && l.event === 'request')).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      reqId: 'req-log-1',
      sessionId: 'sess-9',
      method: 'POST',
      route: GATEWAY_PATHS.parse,
      status: 200,
      client: '198.51.100.23',
      msg: 'request completed',
    });
    expect(typeof requestLines[0]!.ms).toBe('number');
    expect(requestLines[1]).toMatchObject({ reqId: 'req-log-2', route: GATEWAY_PATHS.asrToken, status: 200 });
    expect(requestLines[2]).toMatchObject({ reqId: 'req-log-3', status: 401 });
    const everything = JSON.stringify(h.logs);
    for (const secret of [API_KEY, 'wrong-key-3e8', 'st-fake-1', TEST_LLM_KEY, TEST_DASHSCOPE_KEY, '午饭三十五块'])
      expect(everything).not.toContain(secret);
  });
});

describe('close', () => {
  it('lets a request in flight finish (its answer closes the connection) and then stops listening', async () => {
    const h = await start({}, () => ({ content: parseReply, delayMs: 300 }));
    const { port } = new URL(h.url);
    const inFlight = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: Number(port), path: GATEWAY_PATHS.parse, method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ text: '午饭35' }));
    });
    while (h.chat.calls.length === 0) await new Promise((r) => setTimeout(r, 10));
    const closed = h.app.close();
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    await closed;
    await expect(fetch(`${h.url}/healthz`)).rejects.toThrow();
  });
});

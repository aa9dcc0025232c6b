// Graceful stop (issues 27, 40). In-process, with signals from an emitter of the test's own (so
// the test process itself never receives one): a request in flight is answered before the exit
// (code 0); one that outlasts SHUTDOWN_GRACE_MS is cut and the exit code says so (1); during the
// drain the app still serves while /readyz answers 503. As a real child process (`npm run
// gateway` as systemd runs it) sent a real SIGTERM: /readyz is 503 from the signal until the
// listener closes, requests in flight and new ones during the drain are answered, exit 0.
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { freePort } from '../../test/support/child-daemons';
import { startFakeChatServer, type ChatScript, type FakeChatServer } from '../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, TEST_LLM_KEY, type GatewayHarness } from '../../test/support/gateway/gateway-harness';
import { startGatewayProcess, type GatewayProcess } from '../../test/support/gateway/gateway-process';
import type { ReadyResponse } from './app';
import { stopGracefullyOnSignals } from './shutdown';

const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });

const parse = (url: string) =>
  fetch(`${url}${GATEWAY_PATHS.parse}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: '午饭35' }),
  }).then(
    async (res) => ({ status: res.status, connection: res.headers.get('connection'), body: await res.text() }),
    (err: Error) => ({ error: err.message }),
  );

/** GET /readyz: its status, or 0 when the connection is refused (nobody listens any more). */
const readiness = (url: string) =>
  fetch(`${url}/readyz`).then(
    async (res) => ({ status: res.status, body: (await res.json()) as ReadyResponse }),
    () => ({ status: 0, body: null }),
  );

describe('SIGTERM / SIGINT in process', () => {
  let harness: GatewayHarness | null = null;
  afterEach(async () => {
    await harness?.close();
    harness = null;
  });

  async function startStoppable(script: ChatScript, times: { drainMs: number; graceMs: number }) {
    harness = await startGatewayHarness({ script, retry: { retries: 0, baseDelayMs: 1 } });
    const signals = new EventEmitter();
    const exitCode = new Promise<number>((resolve) => stopGracefullyOnSignals(harness!.app, { ...times, exit: resolve, signals }));
    const inFlight = parse(harness.url);
    while (harness.chat.calls.length === 0) await new Promise((r) => setTimeout(r, 10));
    return { h: harness, signals, exitCode, inFlight };
  }

  it('finish the request in flight, stop listening, exit 0', async () => {
    const { h, signals, exitCode, inFlight } = await startStoppable(() => ({ content: parseReply, delayMs: 300 }), { drainMs: 0, graceMs: 5_000 });
    signals.emit('SIGTERM');
    expect(await inFlight).toMatchObject({ status: 200, connection: 'close' });
    expect(await exitCode).toBe(0);
    expect(h.logs.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', drainMs: 0, graceMs: 5_000 });
    expect(h.logs.find((l) => l.event === 'shutdown_done')).toMatchObject({ cut: false });
    await expect(fetch(`${h.url}/healthz`)).rejects.toThrow();
  });

  it('cut what outlasts the grace period and exit 1', async () => {
    const { h, signals, exitCode, inFlight } = await startStoppable(() => ({ hang: true }), { drainMs: 0, graceMs: 200 });
    const t0 = Date.now();
    signals.emit('SIGINT');
    expect(await exitCode).toBe(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(await inFlight).toHaveProperty('error');
    expect(h.logs.some((l) => l.event === 'shutdown_grace_expired')).toBe(true);
  });

  it('drain: /readyz 503 at once, new requests still answered (Connection: close), then the listener closes', async () => {
    const { h, signals, exitCode, inFlight } = await startStoppable(() => ({ content: parseReply, delayMs: 100 }), { drainMs: 600, graceMs: 5_000 });
    expect((await readiness(h.url)).status).toBe(200);
    const t0 = Date.now();
    signals.emit('SIGTERM');
    const ready = await readiness(h.url);
    expect(ready).toMatchObject({ status: 503, body: { status: 'not_ready', draining: true } });
    expect(await parse(h.url)).toMatchObject({ status: 200, connection: 'close' });
    expect(await inFlight).toMatchObject({ status: 200, connection: 'close' });
    expect(Date.now() - t0).toBeLessThan(600); // all of the above inside the drain
    expect(await exitCode).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(590);
    expect((await readiness(h.url)).status).toBe(0);
  });
});

describe('SIGTERM to the real process', () => {
  let chat: FakeChatServer;
  let gateway: GatewayProcess | null = null;
  beforeAll(async () => {
    chat = await startFakeChatServer(() => ({ content: parseReply, delayMs: 300 }));
  });
  afterAll(async () => {
    await gateway?.kill();
    await chat?.close();
  });

  it('/readyz answers 503 from the signal until the listener closes; requests in flight and during the drain are answered; exit 0', async () => {
    const drainMs = 1_200;
    gateway = await startGatewayProcess(
      { LLM_BASE_URL: chat.baseUrl, LLM_API_KEY: TEST_LLM_KEY, SHUTDOWN_DRAIN_MS: String(drainMs), SHUTDOWN_GRACE_MS: '10000', LOG_LEVEL: 'info' },
      { port: await freePort() },
    );
    const g = gateway;
    expect((await readiness(g.url)).status).toBe(200);
    const calls = chat.calls.length;
    const inFlight = parse(g.url);
    while (chat.calls.length === calls) await new Promise((r) => setTimeout(r, 10));

    g.send('SIGTERM');
    const t0 = Date.now();
    // The log line is written after the instance stopped being ready (shutdown.ts).
    while (!g.logs.some((l) => l.event === 'shutdown')) {
      if (Date.now() - t0 > 5_000) throw new Error('no shutdown log line within 5 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    const duringDrain = parse(g.url);
    const seen: number[] = [];
    for (;;) {
      const { status } = await readiness(g.url);
      seen.push(status);
      if (status === 0) break;
      if (Date.now() - t0 > drainMs + 5_000) throw new Error(`still listening ${drainMs + 5_000} ms after SIGTERM`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const refusedAfter = Date.now() - t0;
    // 503 on every probe until nobody listened; never a 200 after the signal.
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(new Set(seen.slice(0, -1))).toEqual(new Set([503]));
    expect(refusedAfter).toBeGreaterThanOrEqual(drainMs - 100);
    expect(await inFlight).toMatchObject({ status: 200, connection: 'close' });
    expect(await duringDrain).toMatchObject({ status: 200, connection: 'close' });
    expect(await g.exitCode()).toBe(0);
    expect(g.logs.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', drainMs });
    expect(g.logs.some((l) => l.event === 'shutdown_done' && l.cut === false)).toBe(true);
    gateway = null;
  }, 30_000);
});

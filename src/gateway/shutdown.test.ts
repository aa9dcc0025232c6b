// Graceful stop (issue 27): a request in flight is answered before the exit (code 0); one that
// outlasts SHUTDOWN_GRACE_MS is cut and the exit code says so (1). Signals come from an emitter of
// the test's own, so the test process itself never receives one.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import type { ChatScript } from '../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, type GatewayHarness } from '../../test/support/gateway/gateway-harness';
import { stopGracefullyOnSignals } from './shutdown';

const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });

let harness: GatewayHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function startStoppable(script: ChatScript, graceMs: number) {
  harness = await startGatewayHarness({ script, retry: { retries: 0, baseDelayMs: 1 } });
  const signals = new EventEmitter();
  const exitCode = new Promise<number>((resolve) => stopGracefullyOnSignals(harness!.app, { graceMs, exit: resolve, signals }));
  const inFlight = fetch(`${harness.url}${GATEWAY_PATHS.parse}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: '午饭35' }),
  }).then(
    async (res) => ({ status: res.status, connection: res.headers.get('connection'), body: await res.text() }),
    (err: Error) => ({ error: err.message }),
  );
  while (harness.chat.calls.length === 0) await new Promise((r) => setTimeout(r, 10));
  return { h: harness, signals, exitCode, inFlight };
}

describe('SIGTERM / SIGINT', () => {
  it('finish the request in flight, stop listening, exit 0', async () => {
    const { h, signals, exitCode, inFlight } = await startStoppable(() => ({ content: parseReply, delayMs: 300 }), 5_000);
    signals.emit('SIGTERM');
    expect(await inFlight).toMatchObject({ status: 200, connection: 'close' });
    expect(await exitCode).toBe(0);
    expect(h.logs.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', graceMs: 5_000 });
    expect(h.logs.find((l) => l.event === 'shutdown_done')).toMatchObject({ cut: false });
    await expect(fetch(`${h.url}/healthz`)).rejects.toThrow();
  });

  it('cut what outlasts the grace period and exit 1', async () => {
    const { h, signals, exitCode, inFlight } = await startStoppable(() => ({ hang: true }), 200);
    const t0 = Date.now();
    signals.emit('SIGINT');
    expect(await exitCode).toBe(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(await inFlight).toHaveProperty('error');
    expect(h.logs.some((l) => l.event === 'shutdown_grace_expired')).toBe(true);
  });
});

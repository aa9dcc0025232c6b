// End to end: the desktop gets an ASR token from our real gateway (which mints it at a fake
// DashScope token endpoint) and streams to the fake DashScope realtime socket on the same host,
// which, like the service, refuses a URL that does not name exactly one model.
import { afterEach, describe, expect, it } from 'vitest';
import { startDashScopeServer, type ScriptedAsrServer } from '../../../../test/support/asr-servers';
import { startGatewayHarness, type GatewayHarness } from '../../../../test/support/gateway/gateway-harness';
import { createAsrClient } from './client';
import { createProtocol } from './protocols';
import { createGatewayTokenProvider } from './tokens';

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const chunk = (seed: number) => Int16Array.from({ length: 1600 }, (_, i) => ((seed * 1000 + i) % 20000) - 10000);

let gateway: GatewayHarness | null = null;
let asr: ScriptedAsrServer | null = null;
afterEach(async () => {
  await asr?.close();
  await gateway?.close();
  asr = null;
  gateway = null;
});

describe('desktop ASR through the gateway', () => {
  it('the gateway’s plain wsUrl plus the model the client appends once reaches DashScope', async () => {
    gateway = await startGatewayHarness({ script: () => ({ content: '{}' }), env: { GATEWAY_API_KEY: 'gw-key', ASR_TOKEN_TTL_SECONDS: '600' } });
    asr = await startDashScopeServer(['午饭三十五'], { attachTo: gateway.tokens.server });
    const tokens = createGatewayTokenProvider({ gatewayUrl: gateway.url, apiKey: 'gw-key' });
    const token = await tokens.get();
    expect(token.wsUrl).toBe(asr.url); // ws://127.0.0.1:<token server>/api-ws/v1/realtime, no query
    expect(gateway.tokens.lastTtl).toBe(600);

    const client = createAsrClient({ protocol: 'dashscope', tokens, shouldReconnect: () => false, log: () => {} });
    const finals: string[] = [];
    client.on('final', (text) => finals.push(text));
    await client.connect();
    for (let i = 0; i < 12; i++) client.sendAudio(chunk(i));
    client.commit();
    await until(() => finals.length === 1, 'final');
    expect(finals).toEqual(['午饭三十五']);
    const upgrade = asr.requests[0]!;
    expect(new URL(upgrade.url, 'ws://x').searchParams.getAll('model')).toEqual(['qwen3-asr-flash-realtime']);
    expect(upgrade.headers.authorization).toBe('Bearer st-fake-1');
    await client.close();
  });

  it('builds one ?model= whether the wsUrl is plain (ours, the original) or already names a model (older gateways)', () => {
    const protocol = createProtocol('dashscope');
    const base = { token: 't', expiresAt: 0, model: 'qwen3-asr-flash-realtime' };
    for (const wsUrl of [
      'wss://dashscope.aliyuncs.com/api-ws/v1/realtime',
      'wss://dashscope.aliyuncs.com/api-ws/v1/realtime?model=qwen3-asr-flash-realtime',
    ]) {
      const url = new URL(protocol.endpoint({ ...base, wsUrl }, undefined).url);
      expect(url.pathname).toBe('/api-ws/v1/realtime');
      expect(url.searchParams.getAll('model')).toEqual(['qwen3-asr-flash-realtime']);
    }
  });

  it('the fake service refuses a URL without a model or with two, as DashScope does', async () => {
    asr = await startDashScopeServer([]);
    for (const url of [asr.url, `${asr.url}?model=a&model=a`]) {
      const { default: WebSocket } = await import('ws');
      const ws = new WebSocket(url);
      ws.on('error', () => {}); // the refusal, reported by unexpected-response
      const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(400);
      ws.terminate();
    }
  });
});

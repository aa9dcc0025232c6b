import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { AsrToken } from '@shared/domain';
import { createGatewayTokenProvider, createStaticTokenProvider } from './tokens';

describe('token cache', () => {
  it('reuses a token while more than 30 s remain and fetches a new one after', async () => {
    const clock = new FakeClock();
    let minted = 0;
    const tokens = createStaticTokenProvider(async (): Promise<AsrToken> => {
      minted++;
      return { token: `t${minted}`, expiresAt: Math.floor(clock.now() / 1000) + 90, model: 'm', wsUrl: 'wss://x' };
    }, clock);
    expect((await tokens.get()).token).toBe('t1');
    await clock.advance(59_000); // 31 s left
    expect((await tokens.get()).token).toBe('t1');
    await clock.advance(1_000); // exactly 30 s left: not enough
    expect((await tokens.get()).token).toBe('t2');
  });

  it('shares one fetch between concurrent callers and refetches after invalidate()', async () => {
    const clock = new FakeClock();
    let minted = 0;
    const tokens = createStaticTokenProvider(async (): Promise<AsrToken> => {
      minted++;
      return { token: `t${minted}`, expiresAt: Math.floor(clock.now() / 1000) + 600, model: 'm', wsUrl: 'wss://x' };
    }, clock);
    const [a, b] = await Promise.all([tokens.get(), tokens.get()]);
    expect([a.token, b.token, minted]).toEqual(['t1', 't1', 1]);
    tokens.invalidate();
    expect((await tokens.get()).token).toBe('t2');
  });

  it('turns a failing or malformed mint into token_failed', async () => {
    const failing = createStaticTokenProvider(() => Promise.reject(new Error('boom')));
    await expect(failing.get()).rejects.toMatchObject({ code: 'token_failed', message: expect.stringContaining('boom') });
    const malformed = createStaticTokenProvider(async () => ({ token: '' }) as unknown as AsrToken);
    await expect(malformed.get()).rejects.toMatchObject({ code: 'token_failed' });
  });
});

describe('gateway token provider', () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function gateway(): Promise<{ url: string; calls: { key: string | undefined; method: string; path: string }[] }> {
    const calls: { key: string | undefined; method: string; path: string }[] = [];
    server = createServer((req, res) => {
      const key = req.headers['x-api-key'] as string | undefined;
      calls.push({ key, method: req.method ?? '', path: req.url ?? '' });
      res.setHeader('content-type', 'application/json');
      if (key !== 'secret') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: 'unauthorized', message: 'Invalid API key', timestamp: new Date().toISOString() }));
        return;
      }
      res.end(
        JSON.stringify({
          token: `st-${calls.length}`,
          expiresAt: Math.floor(Date.now() / 1000) + 300,
          model: 'qwen3-asr-flash-realtime',
          wsUrl: 'wss://dashscope.aliyuncs.com/api-ws/v1/realtime',
        }),
      );
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, calls };
  }

  it('POSTs /api/v1/asr/token with X-API-Key and caches the answer', async () => {
    const gw = await gateway();
    const tokens = createGatewayTokenProvider({ gatewayUrl: gw.url, apiKey: 'secret' });
    const token = await tokens.get();
    expect(token).toMatchObject({ token: 'st-1', model: 'qwen3-asr-flash-realtime' });
    await tokens.get();
    expect(gw.calls).toEqual([{ key: 'secret', method: 'POST', path: '/api/v1/asr/token' }]);
  });

  it('keeps a path prefix in the gateway URL', async () => {
    const gw = await gateway();
    await createGatewayTokenProvider({ gatewayUrl: `${gw.url}/gw`, apiKey: 'secret' }).get();
    expect(gw.calls[0]!.path).toBe('/gw/api/v1/asr/token');
  });

  it('reports the gateway error body as token_failed', async () => {
    const gw = await gateway();
    const tokens = createGatewayTokenProvider({ gatewayUrl: gw.url, apiKey: 'wrong' });
    await expect(tokens.get()).rejects.toMatchObject({ code: 'token_failed', message: expect.stringContaining('401 unauthorized') });
  });
});

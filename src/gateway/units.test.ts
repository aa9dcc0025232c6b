import { describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import { loadGatewayConfig } from './config';
import { createRateLimiter } from './rate-limit';
import { createApiKeyCheck } from './auth';

describe('rate limiter', () => {
  const two = (key: string) => [{ key, perMinute: 2 }];

  it('allows a burst of perMinute, refills continuously, and keeps keys apart', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter({ clock });
    expect(limiter.take(two('a')).allowed).toBe(true);
    expect(limiter.take(two('a')).allowed).toBe(true);
    expect(limiter.take(two('a'))).toEqual({ allowed: false, retryAfterMs: 30_000 });
    expect(limiter.take(two('b')).allowed).toBe(true);
    await clock.advance(15_000);
    expect(limiter.take(two('a'))).toEqual({ allowed: false, retryAfterMs: 15_000 });
    await clock.advance(15_000);
    expect(limiter.take(two('a')).allowed).toBe(true);
  });

  it('several buckets: allowed only when each has a token, and then each gives one; refused, none does', () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter({ clock });
    const account = { key: 'acct:x', perMinute: 3 };
    const home = { key: 'addr:h', perMinute: 2 };
    const office = { key: 'addr:o', perMinute: 10 };
    expect(limiter.take([account, home]).allowed).toBe(true);
    expect(limiter.take([account, home]).allowed).toBe(true);
    // The address is spent; the account's third request is not taken from it.
    expect(limiter.take([account, home])).toEqual({ allowed: false, retryAfterMs: 30_000 });
    expect(limiter.take([account, office]).allowed).toBe(true);
    expect(limiter.take([account, office])).toEqual({ allowed: false, retryAfterMs: 20_000 });
    expect(limiter.take([office]).allowed).toBe(true);
  });
});

describe('api key check', () => {
  it('accepts only the exact key', () => {
    const check = createApiKeyCheck('s3cret');
    expect(check('s3cret')).toBe(true);
    for (const bad of [undefined, '', 's3cre', 's3cret ', 'S3CRET']) expect(check(bad)).toBe(false);
  });
});

describe('loadGatewayConfig', () => {
  it('has the documented defaults', () => {
    expect(loadGatewayConfig({})).toEqual({
      llm: {
        baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
        apiKey: null,
        model: 'qwen-turbo',
        fallbackModel: 'qwen-plus',
        timeoutMs: 10_000,
      },
      asr: { apiKey: null, baseUrl: 'https://dashscope.aliyuncs.com', tokenTtlSeconds: 1800 },
      gatewayApiKey: null,
      accountKeys: null,
      rateLimit: { asrPerMinute: 30, llmPerMinute: 60, asrPerAddressPerMinute: 300, llmPerAddressPerMinute: 600, authFailuresPerMinute: 10 },
      trustProxy: false,
      port: 8080,
      host: '127.0.0.1',
      redisUrl: null,
      metricsPort: null,
      metricsHost: '127.0.0.1',
      metricsKey: null,
      requestTimeoutMs: 30_000,
      shutdownDrainMs: 5_000,
      shutdownGraceMs: 25_000,
      logLevel: 'info',
    });
  });
  it('falls back from LLM_API_KEY to DASHSCOPE_API_KEY; empty fallback model turns it off', () => {
    const c = loadGatewayConfig({ DASHSCOPE_API_KEY: 'ds', LLM_FALLBACK_MODEL: '' });
    expect(c.llm.apiKey).toBe('ds');
    expect(c.asr.apiKey).toBe('ds');
    expect(c.llm.fallbackModel).toBeNull();
    expect(loadGatewayConfig({ DASHSCOPE_API_KEY: 'ds', LLM_API_KEY: 'llm' }).llm.apiKey).toBe('llm');
  });
  it('names every bad variable', () => {
    expect(() => loadGatewayConfig({ PORT: 'eighty', RATE_LIMIT_LLM_PER_MIN: '0', LLM_BASE_URL: 'ftp://x' })).toThrow(
      /LLM_BASE_URL.*RATE_LIMIT_LLM_PER_MIN.*PORT/,
    );
  });
});

describe('loadGatewayConfig: proxies and token lifetime', () => {
  it('reads TRUST_PROXY as off (the default) or a list of proxy addresses/CIDRs; a hop count is refused', () => {
    expect(loadGatewayConfig({}).trustProxy).toBe(false);
    expect(loadGatewayConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadGatewayConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadGatewayConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual({
      addresses: ['10.0.0.1', '192.168.0.0/16', '::1', 'loopback'],
    });
    // A hop count believes the last X-Forwarded-For entry of ANY peer, so anyone could pick a bucket.
    expect(() => loadGatewayConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY: a hop count trusts X-Forwarded-For from any client/);
    for (const bad of ['10.0.0.300', '10.0.0.0/33', 'proxy.local', 'true', '-1', '2']) {
      expect(() => loadGatewayConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads GATEWAY_KEYS as none, redis (with REDIS_URL) or an absolute keys file', () => {
    expect(loadGatewayConfig({}).accountKeys).toBeNull();
    expect(loadGatewayConfig({ GATEWAY_KEYS: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }).accountKeys).toEqual({ store: 'redis' });
    expect(loadGatewayConfig({ GATEWAY_KEYS: '/etc/suikouji/keys.json' }).accountKeys).toEqual({ store: 'file', path: '/etc/suikouji/keys.json' });
    expect(() => loadGatewayConfig({ GATEWAY_KEYS: 'redis' })).toThrow(/GATEWAY_KEYS: "redis" needs REDIS_URL/);
    expect(() => loadGatewayConfig({ GATEWAY_KEYS: 'keys.json' })).toThrow(/GATEWAY_KEYS: expected "redis" or an absolute path/);
  });

  it('reads ASR_TOKEN_TTL_SECONDS within DashScope’s 1–1800 s', () => {
    expect(loadGatewayConfig({ ASR_TOKEN_TTL_SECONDS: '300' }).asr.tokenTtlSeconds).toBe(300);
    expect(() => loadGatewayConfig({ ASR_TOKEN_TTL_SECONDS: '3600' })).toThrow(/ASR_TOKEN_TTL_SECONDS/);
    expect(() => loadGatewayConfig({ ASR_TOKEN_TTL_SECONDS: '0' })).toThrow(/ASR_TOKEN_TTL_SECONDS/);
  });
});

// The environment variables of issue 27 (several instances): REDIS_URL, METRICS_PORT,
// SHUTDOWN_GRACE_MS, LOG_LEVEL.
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config';

describe('loadGatewayConfig: several instances', () => {
  it('REDIS_URL: unset or blank is none; redis:// and rediss:// are taken as given', () => {
    expect(loadGatewayConfig({}).redisUrl).toBeNull();
    expect(loadGatewayConfig({ REDIS_URL: '  ' }).redisUrl).toBeNull();
    expect(loadGatewayConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(loadGatewayConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380' }).redisUrl).toBe('rediss://:pw@cache.internal:6380');
  });

  it.each(['127.0.0.1:6379', 'http://127.0.0.1:6379', 'redis://', 'redis:/x'])('REDIS_URL=%s is refused, by name', (bad) => {
    expect(() => loadGatewayConfig({ REDIS_URL: bad })).toThrow(/invalid gateway configuration: REDIS_URL: expected redis:\/\//);
  });

  it('a refused REDIS_URL is not echoed: it may hold a password', () => {
    expect(() => loadGatewayConfig({ REDIS_URL: 'http://:hunter2@cache' })).toThrow(/REDIS_URL/);
    expect(() => loadGatewayConfig({ REDIS_URL: 'http://:hunter2@cache' })).not.toThrow(/hunter2/);
  });

  it('METRICS_PORT: none by default; a port 1–65535 other than PORT', () => {
    expect(loadGatewayConfig({}).metricsPort).toBeNull();
    expect(loadGatewayConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    for (const bad of ['0', '70000', 'nine', '9464.5']) {
      expect(() => loadGatewayConfig({ METRICS_PORT: bad })).toThrow(/METRICS_PORT: expected an integer from 1 to 65535/);
    }
    expect(() => loadGatewayConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(/METRICS_PORT: must differ from PORT/);
  });

  it('SHUTDOWN_GRACE_MS: 25 s by default (longer than a request with fallback), 0–600000', () => {
    expect(loadGatewayConfig({}).shutdownGraceMs).toBe(25_000);
    expect(loadGatewayConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
    expect(loadGatewayConfig({ SHUTDOWN_GRACE_MS: '5000' }).shutdownGraceMs).toBe(5000);
    for (const bad of ['-1', '600001', '5s']) {
      expect(() => loadGatewayConfig({ SHUTDOWN_GRACE_MS: bad })).toThrow(/SHUTDOWN_GRACE_MS: expected an integer from 0 to 600000/);
    }
  });

  it('LOG_LEVEL: info by default, any pino level (any case), else refused', () => {
    expect(loadGatewayConfig({}).logLevel).toBe('info');
    expect(loadGatewayConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(loadGatewayConfig({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(() => loadGatewayConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('names every bad new variable at once', () => {
    expect(() => loadGatewayConfig({ REDIS_URL: 'x', METRICS_PORT: 'y', SHUTDOWN_GRACE_MS: 'z' })).toThrow(
      /REDIS_URL.*METRICS_PORT.*SHUTDOWN_GRACE_MS/,
    );
  });
});

// Prometheus metrics of one gateway app. Each app has its own Registry (not prom-client's global
// one), so tests and benches can build many apps in one process.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Upstream = 'llm' | 'asr_token';

export interface GatewayMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  upstreamSeconds: Histogram<'upstream' | 'outcome'>;
  rateLimited: Counter<'group'>;
  authFailed: Counter;
  fallbackModel: Counter<'route'>;
  tokenCache: Counter<'result'>;
  redisErrors: Counter<'op'>;
  limitFallbacks: Counter<'group'>;
  /** Null without REDIS_URL. */
  redisUp: Gauge | null;
}

export function createGatewayMetrics(options: { redis: boolean }): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'Answered requests by method, matched route pattern ("unmatched" for 404s) and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: 'gateway_upstream_request_duration_seconds',
      help: 'Time until an upstream call answered (or failed): llm = one chat-completions call, asr_token = one token mint',
      labelNames: ['upstream', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers,
    }),
    rateLimited: new Counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with 429 by route group (llm, asr, auth = too many failed authentications)',
      labelNames: ['group'],
      registers,
    }),
    authFailed: new Counter({
      name: 'gateway_auth_failed_total',
      help: 'Requests with a missing or wrong X-API-Key',
      registers,
    }),
    fallbackModel: new Counter({
      name: 'gateway_llm_fallback_model_total',
      help: 'LLM answers that came from the fallback model',
      labelNames: ['route'],
      registers,
    }),
    tokenCache: new Counter({
      name: 'gateway_asr_token_cache_total',
      help: 'ASR token requests served from a cached token (hit) or by minting one (miss)',
      labelNames: ['result'],
      registers,
    }),
    redisErrors: new Counter({
      name: 'gateway_redis_errors_total',
      help: 'Redis commands that failed or timed out, by what they were for',
      labelNames: ['op'],
      registers,
    }),
    limitFallbacks: new Counter({
      name: 'gateway_rate_limit_fallback_total',
      help: 'Rate-limit decisions taken in this instance’s memory because Redis was unreachable',
      labelNames: ['group'],
      registers,
    }),
    redisUp: options.redis
      ? new Gauge({ name: 'gateway_redis_up', help: '1 while the Redis connection is ready, 0 while it is down', registers })
      : null,
  };
}

/** A fetch that observes each call's duration in the upstream histogram. */
export function timedFetch(doFetch: typeof fetch, metrics: GatewayMetrics, upstream: Upstream): typeof fetch {
  return async (input, init) => {
    const stop = metrics.upstreamSeconds.startTimer({ upstream });
    try {
      const res = await doFetch(input, init);
      stop({ outcome: res.ok ? 'ok' : `http_${res.status}` });
      return res;
    } catch (err) {
      stop({ outcome: 'network_error' });
      throw err;
    }
  };
}

// Prometheus metrics of one gateway app. Each app has its own Registry (not prom-client's global
// one), so tests and benches can build many apps in one process; the process's own metrics (CPU,
// memory, event loop, GC) are collected once per process and served beside every app's.
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Upstream = 'llm' | 'asr_token';

export interface GatewayMetrics {
  /** What /metrics serves: this app's metrics and the process's. */
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  requestSeconds: Histogram<'method' | 'route' | 'status'>;
  /** Requests Node's HTTP parser answered itself, before any route (400, 408, 431). */
  rejected: Counter<'status'>;
  upstreamSeconds: Histogram<'upstream' | 'outcome'>;
  upstreamErrors: Counter<'upstream' | 'outcome'>;
  rateLimited: Counter<'group'>;
  authFailed: Counter;
  fallbackModel: Counter<'route'>;
  tokenCache: Counter<'result'>;
  redisErrors: Counter<'op'>;
  limitFallbacks: Counter<'group'>;
  /** Null without REDIS_URL. */
  redisUp: Gauge | null;
}

/**
 * prom-client's gauges of the same name without `_total` carry these per type; the summed copies
 * break Prometheus' naming rule (a `_total` that is no counter), which `promtool check metrics`
 * reports — sum(nodejs_active_handles) is the same number.
 */
const GAUGES_NAMED_LIKE_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processMetrics: Registry | null = null;

/**
 * The process's metrics, collected once: collectDefaultMetrics starts a GC observer and an
 * event-loop-delay monitor each time it runs, and every app in a process would report the same
 * process anyway.
 */
function processRegistry(): Registry {
  if (processMetrics) return processMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  processMetrics = registry;
  return registry;
}

export function createGatewayMetrics(options: { redis: boolean }): GatewayMetrics {
  const own = new Registry();
  const registers = [own];
  const metrics: Omit<GatewayMetrics, 'registry'> = {
    requests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'Answered requests by method, matched route pattern ("unmatched" for 404s) and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    requestSeconds: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its answer, by method, matched route pattern ("unmatched" for 404s) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      registers,
    }),
    rejected: new Counter({
      name: 'gateway_http_rejected_total',
      help: 'Requests answered before routing: 400 malformed HTTP, 408 not received within REQUEST_TIMEOUT_MS, 431 headers too large',
      labelNames: ['status'],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: 'gateway_upstream_request_duration_seconds',
      help: 'Time until an upstream call answered in full (or failed): llm = one chat-completions call, asr_token = one token mint',
      labelNames: ['upstream', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Upstream calls that failed: http_<status> (answered, not 2xx), aborted (time budget over or client gone), network_error',
      labelNames: ['upstream', 'outcome'],
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
      help: 'ASR token requests served from a cached token (hit) or that waited for a mint (miss)',
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
  // Zero samples for the label values an operator alerts on, so a rate() has a series to start from.
  for (const upstream of ['llm', 'asr_token'] as const) metrics.upstreamErrors.inc({ upstream, outcome: 'network_error' }, 0);
  for (const group of ['llm', 'asr', 'auth']) metrics.rateLimited.inc({ group }, 0);
  for (const result of ['hit', 'miss']) metrics.tokenCache.inc({ result }, 0);
  return { ...metrics, registry: Registry.merge([own, processRegistry()]) };
}

/**
 * A fetch that observes each call — until its body has arrived, as the caller reads it at once —
 * in the upstream histogram, and counts the failures.
 */
export function timedFetch(doFetch: typeof fetch, metrics: GatewayMetrics, upstream: Upstream): typeof fetch {
  const failed = (outcome: string) => metrics.upstreamErrors.inc({ upstream, outcome });
  return async (input, init) => {
    const stop = metrics.upstreamSeconds.startTimer({ upstream });
    try {
      const res = await doFetch(input, init);
      const body = await res.arrayBuffer();
      const outcome = res.ok ? 'ok' : `http_${res.status}`;
      stop({ outcome });
      if (!res.ok) failed(outcome);
      // A 204/304 may not be given a body, not even an empty one.
      const bodyless = res.status === 204 || res.status === 205 || res.status === 304;
      return new Response(bodyless ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } catch (err) {
      const outcome = init?.signal?.aborted ? 'aborted' : 'network_error';
      stop({ outcome });
      failed(outcome);
      throw err;
    }
  };
}

/**
 * METRICS_PORT: GET /metrics without a key on its own listener (loopback by default), for a
 * scraper on the same host; nothing else is served there.
 */
export async function startMetricsListener(
  registry: Registry,
  where: { port: number; host: string },
): Promise<{ server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, resolve);
  });
  return {
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// The gateway's HTTP layer (Fastify): routes, request ids, auth, rate limits, error bodies.
// The work itself is done by ./core, which the desktop app also runs in-process.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlockList, isIP } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { z } from 'zod';
import { systemClock, type Clock } from '@shared/clock';
import {
  CorrectTransactionRequestSchema,
  GATEWAY_ERROR_CODES,
  GATEWAY_PATHS,
  MAX_BODY_BYTES,
  ParseTransactionRequestSchema,
  type ErrorBody,
  type GatewayErrorCode,
  type HealthResponse,
} from '@shared/gateway';
import { systemNow, type ZonedNow } from '@shared/time';
import { bucketsFor, createApiKeyCheck, createCallerCheck, type Caller } from './auth';
import type { GatewayConfig, TrustProxy } from './config';
import { createAsrTokenBroker, type AsrTokenBroker } from '../llm/asr-token';
import { createChatProvider } from '../llm/chat-provider';
import { GatewayError, UpstreamError } from '../llm/errors';
import { createTransactionLlm, DEFAULT_RETRY, type RetryPolicy, type TransactionLlm } from '../llm/transaction-llm';
import { startInstanceRegistry, type InstanceRegistry } from './instance-registry';
import { createAccountCheck, fileKeyStore, redisKeyStore, type KeyStore } from './keys';
import { memoryLimiter, sharedLimiter, type LimitGroup, type Limiter } from './limits';
import { createGatewayMetrics, timedFetch, type GatewayMetrics } from './metrics';
import { connectRedis, type RedisLink } from './redis';
import { sharedTokenBroker } from './token-cache';

export interface GatewayAppOptions {
  config: GatewayConfig;
  clock?: Clock;
  fetch?: typeof fetch;
  /** The wall clock for prompts when a request carries no `context.now`. */
  now?: () => ZonedNow;
  /** false for silence; default JSON lines on stdout at the configured LOG_LEVEL. */
  logger?: boolean | { level?: string; stream?: { write(line: string): void } };
  /** How long a failed authentication waits before its 401 (slows key guessing); default 250. */
  authFailureDelayMs?: number;
  /** Retries of an upstream 5xx/429 (tests shorten the backoff). */
  retry?: RetryPolicy;
}

/** Ids a caller may choose (request and session ids): nothing that could forge log structure. */
const CALLER_ID = /^[\w.:-]{1,128}$/;
/**
 * How often Node looks for requests past REQUEST_TIMEOUT_MS at most (its default is every 30 s,
 * which let a 30-s limit answer after up to 60 s): the 408 comes at most this much late.
 */
const MAX_TIMEOUT_CHECK_MS = 1_000;

type RouteGroup = 'llm' | 'asr';

/**
 * What the gateway knows about a route, in the route's own config: the hook decides auth and
 * the rate-limit group from the route Fastify matched, never from the URL text (which may be
 * spelled %61sr, carry ;params, or not match at all).
 */
interface GatewayRouteConfig {
  /** Requires X-API-Key when GATEWAY_API_KEY is set. */
  auth: boolean;
  /** The rate-limit bucket; null: not limited. */
  group: RouteGroup | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    gateway?: GatewayRouteConfig;
  }
  interface FastifyRequest {
    /** The client address: the socket peer, or what trusted proxies say (TRUST_PROXY). */
    readonly clientIp: string;
  }
  interface FastifyInstance {
    /** This app's Prometheus metrics (also served on METRICS_PORT by the server). */
    readonly gatewayMetrics: GatewayMetrics;
    /** With REDIS_URL: the instances seen in the last minute (the rate limits' fallback share). */
    readonly gatewayInstances: InstanceRegistry | null;
    /**
     * Starts a stop's drain: /readyz answers 503 and every answer closes its connection, while
     * the app goes on serving (shutdown.ts closes it after SHUTDOWN_DRAIN_MS).
     */
    gatewayDrain(): void;
  }
}

/** Paths of the operations endpoints (not part of the client wire protocol). */
export const OPS_PATHS = { healthz: '/healthz', readyz: '/readyz', metrics: '/metrics' } as const;

/** What GET /readyz answers; 200 for ready and degraded, 503 for not_ready. */
export interface ReadyResponse {
  /**
   * ready: serving with everything configured reachable; degraded: serving, but Redis is down
   * (limits and tokens per instance); not_ready: no upstream configured, or shutting down.
   */
  status: 'ready' | 'degraded' | 'not_ready';
  llm: boolean;
  asr: boolean;
  redis: 'off' | 'up' | 'down';
  draining: boolean;
  timestamp: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export async function buildGatewayApp(options: GatewayAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const now = options.now ?? (() => systemNow(new Date(clock.now())));
  const authFailureDelayMs = options.authFailureDelayMs ?? 250;
  const trust = proxyTrust(config.trustProxy);
  const timestamp = () => new Date(clock.now()).toISOString();
  const errorBody = (code: GatewayErrorCode, message: string): ErrorBody => ({ error: code, message, timestamp: timestamp() });
  const metrics = createGatewayMetrics({ redis: config.redisUrl !== null });
  const requestTimeoutMs = config.requestTimeoutMs;

  const app = Fastify({
    logger: loggerOptions(options.logger, config.logLevel),
    // One line per request, written by the onResponse hook below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    // A request must arrive in full (headers and body) within REQUEST_TIMEOUT_MS; headers alone
    // get no longer (Node's default would give them 60 s). Node checks every connection each
    // connectionsCheckingInterval, so the 408 comes within REQUEST_TIMEOUT_MS + that interval.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(MAX_TIMEOUT_CHECK_MS, Math.max(25, Math.floor(requestTimeoutMs / 20))),
    },
    // On close: idle keep-alive sockets are closed at once; a request that still arrives on a
    // busy one is served (with Connection: close, see onSend) rather than refused with a 503.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    ...(trust ? { trustProxy: trust } : {}),
    // Echo a caller's id so one request can be followed across client and gateway logs;
    // anything that could forge log structure is replaced.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && CALLER_ID.test(given) ? given : randomUUID();
    },
    // The client's session id (X-Session-Id) beside the request id on every line of a request.
    childLoggerFactory(logger, bindings, childOptions, rawReq) {
      const session = rawReq.headers['x-session-id'];
      const withSession = typeof session === 'string' && CALLER_ID.test(session) ? { ...bindings, sessionId: session } : bindings;
      return logger.child(withSession, childOptions);
    },
    // Requests Node cannot parse (431 headers too large, 400 malformed, 408 too slow) never
    // reach Fastify: answer them on the socket with the same error body.
    clientErrorHandler(err: NodeJS.ErrnoException, socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, code, message] =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large' as const, 'request headers are too large']
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout' as const, `the request did not arrive within ${requestTimeoutMs / 1000} s`]
            : [400, 'validation_failed' as const, `malformed HTTP request${err.code ? ` (${err.code})` : ''}`];
      metrics.rejected.inc({ status: String(status) });
      if (socket.writable) {
        const body = JSON.stringify(errorBody(code, message));
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
    // A path Fastify cannot decode (%E0%A4%A) is refused before routing.
    frameworkErrors(error, _request, reply) {
      const bad = (error as { code?: string }).code === 'FST_ERR_BAD_URL';
      const [code, message] = bad ? (['validation_failed', error.message] as const) : (['internal_error', 'internal error'] as const);
      void (reply as FastifyReply).code(GATEWAY_ERROR_CODES[code]).type('application/json').send(errorBody(code, message));
    },
  });

  app.decorateRequest('clientIp', {
    getter(this: FastifyRequest) {
      return clientIpOf(this, trust);
    },
  });

  // An empty JSON body is "no body" (a bare POST to /asr/token from any client is fine; the LLM
  // routes then say the body is missing). Malformed JSON is a 400 like every other bad input.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)),
      );
    } catch (err) {
      done(new GatewayError('validation_failed', `request body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });

  app.decorate('gatewayMetrics', metrics);
  const upstreamFetch = options.fetch ?? globalThis.fetch;
  const redis: RedisLink | null = config.redisUrl ? await connectRedis(config.redisUrl, { log: app.log, metrics }) : null;
  // Announced in Redis so that every instance knows how many share a limit when Redis is away.
  const instances = redis ? await startInstanceRegistry(redis) : null;
  app.decorate('gatewayInstances', instances);
  app.addHook('onClose', async () => {
    await instances?.close();
    await redis?.close();
  });
  /** Set when close() begins: readiness fails and every answer closes its connection. */
  let draining = false;
  app.decorate('gatewayDrain', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });

  const llm: TransactionLlm | null = config.llm.apiKey
    ? createTransactionLlm({
        provider: createChatProvider({
          baseUrl: config.llm.baseUrl,
          apiKey: config.llm.apiKey,
          timeoutMs: config.llm.timeoutMs,
          clock,
          fetch: timedFetch(upstreamFetch, metrics, 'llm'),
        }),
        model: config.llm.model,
        fallbackModel: config.llm.fallbackModel,
        log: (entry) => app.log.warn(entry),
        retry: options.retry ?? DEFAULT_RETRY,
        budgetMsPerModel: config.llm.timeoutMs,
        clock,
      })
    : null;
  const tokens = tokenBroker(config, { clock, metrics, redis, fetch: timedFetch(upstreamFetch, metrics, 'asr_token') });
  const limiter = (group: LimitGroup): Limiter =>
    redis && instances ? sharedLimiter({ group, redis, instances, metrics, clock }) : memoryLimiter(clock);
  const limiters: Record<RouteGroup, Limiter> = { llm: limiter('llm'), asr: limiter('asr') };
  const limitsOf: Record<RouteGroup, { perMinute: number; perAddressPerMinute: number }> = {
    llm: { perMinute: config.rateLimit.llmPerMinute, perAddressPerMinute: config.rateLimit.llmPerAddressPerMinute },
    asr: { perMinute: config.rateLimit.asrPerMinute, perAddressPerMinute: config.rateLimit.asrPerAddressPerMinute },
  };
  // Wrong keys spend their own bucket, never the budget of the client that has the key.
  const authFailures = limiter('auth');
  const keyStore: KeyStore | null = !config.accountKeys
    ? null
    : config.accountKeys.store === 'file'
      ? fileKeyStore(config.accountKeys.path)
      : redis && redisKeyStore(redis.client);
  const callers = createCallerCheck({
    sharedKey: config.gatewayApiKey,
    accounts: keyStore
      ? createAccountCheck({
          store: keyStore,
          clock,
          onError: (err) => (redis ? redis.failed('keys', err) : app.log.warn({ event: 'keys_unreadable', error: (err as Error).message })),
        })
      : null,
  });

  const sendError = (reply: FastifyReply, code: GatewayErrorCode, message: string) =>
    reply.code(GATEWAY_ERROR_CODES[code]).type('application/json').send(errorBody(code, message));
  const tooMany = (reply: FastifyReply, retryAfterMs: number, what: string) => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    reply.header('Retry-After', String(seconds));
    return sendError(reply, 'rate_limit_exceeded', `${what}; retry in ${seconds} s`);
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
    // The route Fastify matched decides; no config (health, 404) means no auth and no limit.
    const route = request.routeOptions.config.gateway;
    if (!route) return;
    const client = request.clientIp;
    let caller: Caller = { kind: 'open' };
    if (route.auth && callers.required) {
      const presented = request.headers['x-api-key'];
      const who = await callers.identify(typeof presented === 'string' ? presented : undefined);
      if (who === 'unavailable') return sendError(reply, 'upstream_error', 'cannot check the API key now (the key store does not answer)');
      if (who === 'invalid') {
        const decision = await authFailures.take([{ key: client, perMinute: config.rateLimit.authFailuresPerMinute }]);
        metrics.authFailed.inc();
        request.log.warn({ event: 'auth_failed', client, limited: !decision.allowed });
        if (!decision.allowed) {
          metrics.rateLimited.inc({ group: 'auth' });
          return tooMany(reply, decision.retryAfterMs, 'too many failed authentications');
        }
        // Wall-clock time on purpose (not the injected clock): it slows the caller, not the logic.
        if (authFailureDelayMs > 0) await sleep(authFailureDelayMs);
        return sendError(reply, 'unauthorized', 'missing or invalid X-API-Key header');
      }
      caller = who;
    }
    if (route.group) {
      const decision = await limiters[route.group].take(bucketsFor(caller, client, limitsOf[route.group]));
      if (!decision.allowed) {
        metrics.rateLimited.inc({ group: route.group });
        return tooMany(reply, decision.retryAfterMs, 'too many requests');
      }
    }
  });

  // A closing instance tells each client (nginx included) not to reuse the connection, so no
  // request is sent down a socket that is about to close.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('Connection', 'close');
  });

  // The request's one log line (reqId and sessionId come from the request's logger): never the
  // URL's query, a header, a body or an answer — so no key, token or user's words.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const labels = { method: request.method, route, status: String(status) };
    metrics.requests.inc(labels);
    metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000);
    request.log.info(
      { event: 'request', method: request.method, route, status, ms: Math.round(reply.elapsedTime * 100) / 100, client: request.clientIp },
      'request completed',
    );
  });

  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (err instanceof GatewayError) {
      if (err.retryAfterSeconds) reply.header('Retry-After', String(err.retryAfterSeconds));
      if (err.status >= 500 || err.code === 'llm_parse_failed') request.log.warn({ code: err.code, msg: err.message });
      return sendError(reply, err.code, err.message);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, 'payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(reply, 'validation_failed', 'request body must be JSON (Content-Type: application/json)');
    }
    const status = err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code: GatewayErrorCode =
        status === 404
          ? 'not_found'
          : status === 405
            ? 'method_not_allowed'
            : status === 408
              ? 'request_timeout'
              : status === 413
                ? 'payload_too_large'
                : status === 431
                  ? 'headers_too_large'
                  : 'validation_failed';
      return sendError(reply, code, err.message);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 'internal_error', 'internal error');
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `no route ${request.method} ${request.url.slice(0, 200)}`));

  /** Aborts the upstream call when the client hangs up before the answer is ready. */
  const clientGone = (reply: FastifyReply): AbortSignal => {
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return controller.signal;
  };

  /** The other methods on a known path: 405 with Allow, behind the same auth as the route. */
  const methodNotAllowed = (url: string, allow: string, gateway?: GatewayRouteConfig) => {
    const methods = METHODS.filter((m) => !allow.split(', ').includes(m));
    app.route({
      method: [...methods],
      url,
      config: gateway ? { gateway: { ...gateway, group: null } } : {},
      handler: async (request, reply) => {
        reply.header('Allow', allow);
        return sendError(reply, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}`);
      },
    });
  };

  const api = (group: RouteGroup): { config: { gateway: GatewayRouteConfig } } => ({ config: { gateway: { auth: true, group } } });

  app.get(GATEWAY_PATHS.health, async (): Promise<HealthResponse> => ({
    status: 'ok',
    llm: llm !== null,
    asr: tokens !== null,
    timestamp: timestamp(),
  }));
  methodNotAllowed(GATEWAY_PATHS.health, 'GET, HEAD');

  // Probes for balancers and orchestrators: no key, no limit, nothing secret in the answer.
  app.get(OPS_PATHS.healthz, async () => ({ status: 'ok', timestamp: timestamp() }));
  methodNotAllowed(OPS_PATHS.healthz, 'GET, HEAD');
  app.get(OPS_PATHS.readyz, async (_request, reply): Promise<ReadyResponse> => {
    const redisState = !redis ? 'off' : (await redis.ping()) ? 'up' : 'down';
    const serving = !draining && (llm !== null || tokens !== null);
    const status = !serving ? 'not_ready' : redisState === 'down' ? 'degraded' : 'ready';
    // Degraded still serves (limits per instance): taking every instance out of a balancer
    // because Redis is down would turn a lost nicety into an outage.
    reply.code(status === 'not_ready' ? 503 : 200);
    return { status, llm: llm !== null, asr: tokens !== null, redis: redisState, draining, timestamp: timestamp() };
  });
  methodNotAllowed(OPS_PATHS.readyz, 'GET, HEAD');
  // Only with METRICS_KEY, and only to `Authorization: Bearer <METRICS_KEY>` (what Prometheus'
  // scrape config sends): never to the client key, which every install holds. Not rate-limited,
  // so a scraper never spends a client's budget. Without METRICS_KEY there is no such route here;
  // METRICS_PORT serves the same text on a listener of its own.
  if (config.metricsKey) {
    const checkMetricsKey = createApiKeyCheck(config.metricsKey);
    app.get(OPS_PATHS.metrics, async (request, reply) => {
      const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!checkMetricsKey(bearer)) {
        request.log.warn({ event: 'metrics_auth_failed', client: request.clientIp });
        reply.header('WWW-Authenticate', 'Bearer');
        return sendError(reply, 'unauthorized', 'missing or invalid Authorization: Bearer <METRICS_KEY>');
      }
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
    methodNotAllowed(OPS_PATHS.metrics, 'GET, HEAD');
  }

  app.post(GATEWAY_PATHS.parse, api('llm'), async (request, reply) => {
    const body = validate(ParseTransactionRequestSchema, request);
    const service = requireLlm(llm);
    const answer = await service.parse(body, { now: now(), signal: clientGone(reply), log: (entry) => request.log.warn(entry) }).catch(modelsFailed);
    if (answer.model !== config.llm.model) metrics.fallbackModel.inc({ route: 'parse' });
    request.log.info({ route: 'parse', model: answer.model, items: answer.transactions.length, truncated: !!answer.truncated });
    return answer;
  });

  app.post(GATEWAY_PATHS.correct, api('llm'), async (request, reply) => {
    const body = validate(CorrectTransactionRequestSchema, request);
    const service = requireLlm(llm);
    const answer = await service
      .correct(body, { now: now(), signal: clientGone(reply), log: (entry) => request.log.warn(entry) })
      .catch(modelsFailed);
    if (answer.model !== config.llm.model) metrics.fallbackModel.inc({ route: 'correct' });
    request.log.info({ route: 'correct', model: answer.model, intent: answer.intent, confidence: answer.confidence });
    return answer;
  });

  app.post(GATEWAY_PATHS.asrToken, api('asr'), async () => {
    if (!tokens) throw new GatewayError('provider_not_configured', 'ASR token minting is not configured (set DASHSCOPE_API_KEY)');
    try {
      return await tokens.get();
    } catch (err) {
      if (err instanceof UpstreamError) throw new GatewayError('upstream_error', `cannot mint an ASR token: ${err.message}`);
      throw err;
    }
  });

  for (const path of [GATEWAY_PATHS.parse, GATEWAY_PATHS.correct, GATEWAY_PATHS.asrToken]) {
    methodNotAllowed(path, 'POST', { auth: true, group: null });
  }

  return app;
}

/**
 * Both models failed: the original service answers 422 llm_parse_failed whatever the cause
 * (its clients map 422 to "use the local rules"), with the upstream cause in the message.
 * A cancelled request stays what it is; nobody reads its answer.
 */
function modelsFailed(err: unknown): never {
  const cancelled = err instanceof GatewayError && err.cause instanceof UpstreamError && err.cause.code === 'aborted';
  if (err instanceof GatewayError && err.code === 'upstream_error' && !cancelled) {
    throw new GatewayError('llm_parse_failed', `both models failed: ${err.message}`, { cause: err });
  }
  throw err;
}

type TrustFunction = (address: string, hop: number) => boolean;

/** TRUST_PROXY as the function Fastify's trustProxy takes (hop count or address ranges). */
function proxyTrust(setting: TrustProxy): TrustFunction | null {
  if (setting === false) return null;
  const list = new BlockList();
  const add = (cidr: string) => {
    const [address, prefix] = cidr.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  };
  for (const entry of setting.addresses) for (const cidr of NAMED_RANGES[entry] ?? [entry]) add(cidr);
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** ::ffff:10.0.0.1 (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
}

/**
 * Fastify's request.ip follows X-Forwarded-For through trusted proxies; a trusted proxy that
 * sends only X-Real-IP (nginx's habit) is believed too.
 */
function clientIpOf(request: FastifyRequest, trust: TrustFunction | null): string {
  const ip = request.ip;
  if (!trust || request.headers['x-forwarded-for'] !== undefined) return ip;
  const real = request.headers['x-real-ip'];
  const peer = request.socket.remoteAddress;
  if (typeof real !== 'string' || !peer || !trust(peer, 0)) return ip;
  const candidate = real.trim();
  return isIP(unmapped(candidate)) ? unmapped(candidate) : ip;
}

function loggerOptions(logger: GatewayAppOptions['logger'], level: string): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  return logger === undefined || logger === true ? { level } : { level, ...logger };
}

/** The ASR token broker: this process's own, shared through Redis when REDIS_URL is set. */
function tokenBroker(
  config: GatewayConfig,
  deps: { clock: Clock; metrics: GatewayMetrics; redis: RedisLink | null; fetch: typeof fetch },
): AsrTokenBroker | null {
  const { apiKey, baseUrl, tokenTtlSeconds } = config.asr;
  if (!apiKey) return null;
  const local = createAsrTokenBroker({
    apiKey,
    baseUrl,
    ttlSeconds: tokenTtlSeconds,
    clock: deps.clock,
    fetch: deps.fetch,
    onResult: (result) => deps.metrics.tokenCache.inc({ result }),
  });
  if (!deps.redis) return local;
  return sharedTokenBroker({
    local,
    redis: deps.redis,
    clock: deps.clock,
    metrics: deps.metrics,
    identity: { apiKey, baseUrl, ttlSeconds: tokenTtlSeconds },
  });
}

function requireLlm(llm: TransactionLlm | null): TransactionLlm {
  if (!llm) throw new GatewayError('provider_not_configured', 'no LLM provider is configured (set LLM_API_KEY or DASHSCOPE_API_KEY)');
  return llm;
}

function validate<S extends z.ZodType>(schema: S, request: FastifyRequest): z.infer<S> {
  if (request.body === undefined || request.body === null || typeof request.body !== 'object') {
    throw new GatewayError('validation_failed', 'request body must be a JSON object');
  }
  const parsed = schema.safeParse(request.body);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  throw new GatewayError('validation_failed', message);
}

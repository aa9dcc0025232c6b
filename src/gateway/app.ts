// The gateway's HTTP layer (Fastify): routes, request ids, auth, rate limits, error bodies.
// The work itself is done by ./core, which the desktop app also runs in-process.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
import { createApiKeyCheck } from './auth';
import type { GatewayConfig } from './config';
import { createAsrTokenBroker, type AsrTokenBroker } from './core/asr-token';
import { createChatProvider } from './core/chat-provider';
import { GatewayError, UpstreamError } from './core/errors';
import { createTransactionLlm, type TransactionLlm } from './core/transaction-llm';
import { createRateLimiter, type RateLimiter } from './rate-limit';

export interface GatewayAppOptions {
  config: GatewayConfig;
  clock?: Clock;
  fetch?: typeof fetch;
  /** The wall clock for prompts when a request carries no `context.now`. */
  now?: () => ZonedNow;
  /** false for silence; default JSON lines on stdout at level info. */
  logger?: boolean | { level?: string; stream?: { write(line: string): void } };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

type RouteGroup = 'llm' | 'asr';

export async function buildGatewayApp(options: GatewayAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const now = options.now ?? (() => systemNow(new Date(clock.now())));

  const app = Fastify({
    logger: options.logger ?? { level: 'info' },
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    // Echo a caller's id so one request can be followed across client and gateway logs;
    // anything that could forge log structure is replaced.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
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

  const llm: TransactionLlm | null = config.llm.apiKey
    ? createTransactionLlm({
        provider: createChatProvider({
          baseUrl: config.llm.baseUrl,
          apiKey: config.llm.apiKey,
          timeoutMs: config.llm.timeoutMs,
          clock,
          fetch: options.fetch,
        }),
        model: config.llm.model,
        fallbackModel: config.llm.fallbackModel,
        log: (entry) => app.log.warn(entry),
      })
    : null;
  const tokens: AsrTokenBroker | null = config.asr.apiKey
    ? createAsrTokenBroker({ apiKey: config.asr.apiKey, baseUrl: config.asr.baseUrl, clock, fetch: options.fetch })
    : null;
  const limiters: Record<RouteGroup, RateLimiter> = {
    llm: createRateLimiter({ perMinute: config.rateLimit.llmPerMinute, clock }),
    asr: createRateLimiter({ perMinute: config.rateLimit.asrPerMinute, clock }),
  };
  const checkKey = config.gatewayApiKey ? createApiKeyCheck(config.gatewayApiKey) : null;

  const timestamp = () => new Date(clock.now()).toISOString();
  const sendError = (reply: FastifyReply, code: GatewayErrorCode, message: string) => {
    const body: ErrorBody = { error: code, message, timestamp: timestamp() };
    return reply.code(GATEWAY_ERROR_CODES[code]).type('application/json').send(body);
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
    const group = groupOf(request.url);
    if (!group) return;
    const decision = limiters[group].take(`${group}:${request.ip}`);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      reply.header('Retry-After', String(seconds));
      return sendError(reply, 'rate_limit_exceeded', `too many requests; retry in ${seconds} s`);
    }
    if (checkKey) {
      const presented = request.headers['x-api-key'];
      if (!checkKey(typeof presented === 'string' ? presented : undefined)) {
        return sendError(reply, 'unauthorized', 'missing or invalid X-API-Key header');
      }
    }
  });

  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (err instanceof GatewayError) {
      if (err.retryAfterSeconds) reply.header('Retry-After', String(err.retryAfterSeconds));
      if (err.status >= 500) request.log.warn({ code: err.code, msg: err.message });
      return sendError(reply, err.code, err.message);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, 'payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(reply, 'validation_failed', 'request body must be JSON (Content-Type: application/json)');
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, 'validation_failed', err.message);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 'internal_error', 'internal error');
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `no route ${request.method} ${request.url}`));

  /** Aborts the upstream call when the client hangs up before the answer is ready. */
  const clientGone = (reply: FastifyReply): AbortSignal => {
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return controller.signal;
  };

  app.get(GATEWAY_PATHS.health, async (): Promise<HealthResponse> => ({
    status: 'ok',
    llm: llm !== null,
    asr: tokens !== null,
    timestamp: timestamp(),
  }));

  app.post(GATEWAY_PATHS.parse, async (request, reply) => {
    const body = validate(ParseTransactionRequestSchema, request);
    const service = requireLlm(llm);
    const answer = await service.parse(body, { now: now(), signal: clientGone(reply) });
    request.log.info({ route: 'parse', model: answer.model, items: answer.transactions.length, truncated: !!answer.truncated });
    return answer;
  });

  app.post(GATEWAY_PATHS.correct, async (request, reply) => {
    const body = validate(CorrectTransactionRequestSchema, request);
    const service = requireLlm(llm);
    const answer = await service.correct(body, { now: now(), signal: clientGone(reply) });
    request.log.info({ route: 'correct', model: answer.model, intent: answer.intent, confidence: answer.confidence });
    return answer;
  });

  app.post(GATEWAY_PATHS.asrToken, async () => {
    if (!tokens) throw new GatewayError('provider_not_configured', 'ASR token minting is not configured (set DASHSCOPE_API_KEY)');
    try {
      return await tokens.get();
    } catch (err) {
      if (err instanceof UpstreamError) throw new GatewayError('upstream_error', `cannot mint an ASR token: ${err.message}`);
      throw err;
    }
  });

  return app;
}

function groupOf(url: string): RouteGroup | null {
  if (url.startsWith('/api/v1/llm/')) return 'llm';
  if (url.startsWith('/api/v1/asr/')) return 'asr';
  return null;
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

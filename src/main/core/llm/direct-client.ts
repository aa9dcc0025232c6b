// Direct mode: the LLM core (src/llm) in-process with the user's own DashScope (or any
// OpenAI-compatible) key, so no server is needed. The key stays in the main process.
import { systemClock, type Clock } from '@shared/clock';
import { createAsrTokenBroker } from '../../../llm/asr-token';
import { createChatProvider } from '../../../llm/chat-provider';
import { GatewayError, UpstreamError } from '../../../llm/errors';
import { createTransactionLlm } from '../../../llm/transaction-llm';
import type { AsrToken } from '@shared/domain';
import { CorrectTransactionRequestSchema, ParseTransactionRequestSchema } from '@shared/gateway';
import { systemNow } from '@shared/time';
import { LlmClientError, type LlmClient } from './llm-client';

export interface DirectClientOptions {
  apiKey: string;
  /** OpenAI-compatible base URL; DashScope compatible mode by default. */
  llmBaseUrl?: string;
  model?: string;
  fallbackModel?: string | null;
  /** Per provider call; the caller's signal usually ends it sooner. */
  timeoutMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
}

export function createDirectLlmClient(options: DirectClientOptions): LlmClient {
  const clock = options.clock ?? systemClock;
  const core = createTransactionLlm({
    provider: createChatProvider({
      baseUrl: options.llmBaseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      clock,
      fetch: options.fetch,
    }),
    model: options.model ?? 'qwen-turbo',
    fallbackModel: options.fallbackModel === undefined ? defaultFallback(options) : options.fallbackModel,
  });
  const now = () => systemNow(new Date(clock.now()));

  return {
    async parseTransaction(request, { signal }) {
      const valid = ParseTransactionRequestSchema.safeParse(request);
      if (!valid.success) throw new LlmClientError('invalid', valid.error.issues[0]?.message ?? 'invalid request');
      return core.parse(valid.data, { now: now(), signal }).catch((err: unknown) => rethrow(err, signal));
    },
    async correctTransaction(request, { signal }) {
      const valid = CorrectTransactionRequestSchema.safeParse(request);
      if (!valid.success) throw new LlmClientError('invalid', valid.error.issues[0]?.message ?? 'invalid request');
      return core.correct(valid.data, { now: now(), signal }).catch((err: unknown) => rethrow(err, signal));
    },
  };
}

/**
 * qwen-plus backs up the default DashScope setup; with another provider or a model the user
 * chose, a guessed second model would only fail, so there is none unless configured.
 */
function defaultFallback(options: DirectClientOptions): string | null {
  const dashscope = !options.llmBaseUrl || /^https?:\/\/[^/]*dashscope\.aliyuncs\.com(\/|$)/.test(options.llmBaseUrl);
  return dashscope && !options.model ? 'qwen-plus' : null;
}

function rethrow(err: unknown, signal: AbortSignal): never {
  if (signal.aborted) throw new LlmClientError('aborted', 'request cancelled');
  if (err instanceof GatewayError) {
    if (err.network) throw new LlmClientError('network', err.message);
    // The user's own key refused by the provider is theirs to fix: keep that status, not the 502.
    const refused = err.cause instanceof UpstreamError && (err.cause.status === 401 || err.cause.status === 403) ? err.cause.status : null;
    throw new LlmClientError(err.code === 'llm_parse_failed' ? 'malformed' : 'http', err.message, refused ?? err.status);
  }
  throw err;
}

/**
 * ASR tokens in direct mode: the same DashScope temporary-key minting the gateway does,
 * for the ASR client's token provider (cached until 30 s before expiry).
 */
export function createDirectAsrTokenMint(options: {
  apiKey: string;
  dashscopeBaseUrl?: string;
  clock?: Clock;
  fetch?: typeof fetch;
}): () => Promise<AsrToken> {
  const broker = createAsrTokenBroker({
    apiKey: options.apiKey,
    baseUrl: options.dashscopeBaseUrl,
    clock: options.clock,
    fetch: options.fetch,
  });
  return () => broker.get();
}

// The gateway core: parse and correct over a chat provider, primary model then fallback.
// Used by the HTTP gateway and, in-process, by the desktop's direct mode.
import type {
  CorrectTransactionRequest,
  CorrectTransactionResponse,
  ParseContext,
  ParseTransactionRequest,
  ParseTransactionResponse,
} from '@shared/gateway';
import { systemClock, type Clock } from '@shared/clock';
import { localDate, parseZonedIso, type ZonedNow } from '@shared/time';
import type { ChatMessage, ChatProvider } from './chat-provider';
import { GatewayError, ModelReplyError, UpstreamError } from './errors';
import { extractJson } from './json-extract';
import { normalizeCorrectionReply, normalizeParseReply } from './normalize';
import { batchContext, commonValues, loadPrompts, renderPrompt, type PromptTemplates } from './prompts';

export interface TransactionLlmOptions {
  provider: ChatProvider;
  model: string;
  /** Tried when the primary model fails or answers unusably; empty = none. */
  fallbackModel?: string | null;
  prompts?: PromptTemplates;
  /** Structured log of each failed attempt (model, kind, message); never the user's text. */
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Retries of an upstream 5xx/429 per model; default none (the desktop's direct mode has its
   * own 3 s budget). The gateway passes DEFAULT_RETRY: 2 retries, jittered backoff from 200 ms.
   */
  retry?: RetryPolicy;
  /**
   * Time each model may use, retries included (the route's budget is this × the number of
   * models; time a model leaves unused goes to the next). Unset: only the provider's own
   * per-call timeout and the caller's signal bound a request.
   */
  budgetMsPerModel?: number;
  clock?: Clock;
}

export interface RetryPolicy {
  retries: number;
  /** Backoff before retry n (1-based) is baseDelayMs × 2^(n-1) × a random factor in [0.5, 1.5). */
  baseDelayMs: number;
  random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200 };
const NO_RETRY: RetryPolicy = { retries: 0, baseDelayMs: 0 };
/** A retry is only worth making with at least this much of the budget left after the backoff. */
const MIN_ATTEMPT_MS = 100;

export interface CallOptions {
  /** The wall clock used when the request carries no `context.now`. */
  now: ZonedNow;
  signal?: AbortSignal;
  /** This call's log (e.g. the HTTP request's, tagged with its ids); default the options' log. */
  log?: (entry: Record<string, unknown>) => void;
}

export interface TransactionLlm {
  parse(request: ParseTransactionRequest, options: CallOptions): Promise<ParseTransactionResponse>;
  correct(request: CorrectTransactionRequest, options: CallOptions): Promise<CorrectTransactionResponse>;
}

export function createTransactionLlm(options: TransactionLlmOptions): TransactionLlm {
  const prompts = loadPrompts(options.prompts);
  const models = [options.model, options.fallbackModel].filter((m): m is string => !!m && m.length > 0);
  const log = options.log ?? (() => {});
  const retry = options.retry ?? NO_RETRY;
  const random = retry.random ?? Math.random;
  const clock = options.clock ?? systemClock;

  async function withFallback<T>(
    route: string,
    messages: ChatMessage[],
    call: CallOptions,
    interpret: (json: unknown) => T,
  ): Promise<{ value: T; model: string }> {
    const { signal } = call;
    const logAttempt = call.log ?? log;
    const failures: { model: string; error: unknown }[] = [];
    const unique = [...new Set(models)];
    const start = clock.now();
    for (const [slot, model] of unique.entries()) {
      const slotEnd = options.budgetMsPerModel ? start + options.budgetMsPerModel * (slot + 1) : Infinity;
      for (let attempt = 0; ; attempt++) {
        const left = slotEnd - clock.now();
        try {
          if (left <= 0) throw new UpstreamError('timeout', 'no time left in the request budget');
          const timeoutMs = Number.isFinite(left) ? left : undefined;
          const reply = await options.provider.complete({ model, messages, jsonMode: true, signal, timeoutMs });
          return { value: interpret(extractJson(reply.content)), model };
        } catch (err) {
          if (err instanceof UpstreamError && err.code === 'aborted') {
            throw new GatewayError('upstream_error', 'request cancelled', { cause: err });
          }
          logAttempt({ event: 'llm_attempt_failed', route, model, attempt: attempt + 1, kind: kindOf(err), message: (err as Error).message });
          const backoff = retry.baseDelayMs * 2 ** attempt * (0.5 + random());
          if (attempt < retry.retries && retryable(err) && clock.now() + backoff + MIN_ATTEMPT_MS <= slotEnd) {
            await sleep(clock, backoff, signal);
            continue;
          }
          failures.push({ model, error: err });
          break;
        }
      }
    }
    // A bug of ours is not the provider's fault: let it surface as a 500.
    const unexpected = failures.find((f) => !(f.error instanceof UpstreamError || f.error instanceof ModelReplyError));
    if (unexpected) throw unexpected.error;
    const causes = failures.map((f) => `${f.model}: ${(f.error as Error).message}`).join('; ');
    if (failures.some((f) => f.error instanceof ModelReplyError)) {
      throw new GatewayError('llm_parse_failed', `the language model did not return a usable answer (${causes})`);
    }
    const network = failures.every((f) => f.error instanceof UpstreamError && f.error.code === 'network');
    const last = failures.at(-1)!.error as Error;
    throw new GatewayError('upstream_error', `the language model provider failed (${causes})`, { network, cause: last });
  }

  return {
    async parse(request, call) {
      const now = resolveNow(request.context, call.now);
      const today = localDate(now);
      const system = renderPrompt(prompts.parse, { ...commonValues(now, request.context), maxItems: '10' });
      const { value, model } = await withFallback(
        'parse',
        [
          { role: 'system', content: system },
          { role: 'user', content: request.text },
        ],
        call,
        (json) => normalizeParseReply(json, today),
      );
      return { transactions: value.transactions, model, ...(value.truncated ? { truncated: true } : {}) };
    },

    async correct(request, call) {
      const now = resolveNow(request.context, call.now);
      const system = renderPrompt(prompts.correct, {
        ...commonValues(now, request.context),
        batchContext: batchContext(request.currentBatch),
      });
      const indexes = new Set(request.currentBatch.map((item) => item.index));
      const { value, model } = await withFallback(
        'correct',
        [
          { role: 'system', content: system },
          { role: 'user', content: request.correctionText },
        ],
        call,
        (json) => normalizeCorrectionReply(json, indexes),
      );
      return { ...value, model };
    },
  };
}

function resolveNow(context: ParseContext | null | undefined, fallback: ZonedNow): ZonedNow {
  return (context?.now && parseZonedIso(context.now)) || fallback;
}

/** An upstream 5xx or 429 may pass; anything else would fail the same way again. */
function retryable(err: unknown): boolean {
  return err instanceof UpstreamError && err.code === 'http' && err.status !== undefined && (err.status >= 500 || err.status === 429);
}

/** Waits on the clock; the caller hanging up ends the wait as a cancelled request. */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => {
      clock.clearTimeout(timer);
      const cause = new UpstreamError('aborted', 'request cancelled by the caller');
      reject(new GatewayError('upstream_error', 'request cancelled', { cause }));
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', cancelled);
      resolve();
    }, ms);
    if (signal?.aborted) return cancelled();
    signal?.addEventListener('abort', cancelled, { once: true });
  });
}

function kindOf(err: unknown): string {
  if (err instanceof UpstreamError || err instanceof ModelReplyError) return err.code;
  return 'internal';
}

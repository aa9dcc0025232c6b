// The gateway core: parse and correct over a chat provider, primary model then fallback.
// Used by the HTTP gateway and, in-process, by the desktop's direct mode.
import type {
  CorrectTransactionRequest,
  CorrectTransactionResponse,
  ParseContext,
  ParseTransactionRequest,
  ParseTransactionResponse,
} from '@shared/gateway';
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
}

export interface CallOptions {
  /** The wall clock used when the request carries no `context.now`. */
  now: ZonedNow;
  signal?: AbortSignal;
}

export interface TransactionLlm {
  parse(request: ParseTransactionRequest, options: CallOptions): Promise<ParseTransactionResponse>;
  correct(request: CorrectTransactionRequest, options: CallOptions): Promise<CorrectTransactionResponse>;
}

export function createTransactionLlm(options: TransactionLlmOptions): TransactionLlm {
  const prompts = loadPrompts(options.prompts);
  const models = [options.model, options.fallbackModel].filter((m): m is string => !!m && m.length > 0);
  const log = options.log ?? (() => {});

  async function withFallback<T>(
    route: string,
    messages: ChatMessage[],
    signal: AbortSignal | undefined,
    interpret: (json: unknown) => T,
  ): Promise<{ value: T; model: string }> {
    const failures: unknown[] = [];
    for (const model of [...new Set(models)]) {
      try {
        const reply = await options.provider.complete({ model, messages, jsonMode: true, signal });
        return { value: interpret(extractJson(reply.content)), model };
      } catch (err) {
        if (err instanceof UpstreamError && err.code === 'aborted') {
          throw new GatewayError('upstream_error', 'request cancelled', { cause: err });
        }
        failures.push(err);
        log({ event: 'llm_attempt_failed', route, model, kind: kindOf(err), message: (err as Error).message });
      }
    }
    // A bug of ours is not the provider's fault: let it surface as a 500.
    const unexpected = failures.find((f) => !(f instanceof UpstreamError || f instanceof ModelReplyError));
    if (unexpected) throw unexpected;
    if (failures.some((f) => f instanceof ModelReplyError)) {
      throw new GatewayError('llm_parse_failed', 'the language model did not return a usable answer');
    }
    const network = failures.every((f) => f instanceof UpstreamError && f.code === 'network');
    const last = failures.at(-1) as Error;
    throw new GatewayError('upstream_error', `the language model provider failed: ${last.message}`, { network, cause: last });
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
        call.signal,
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
        call.signal,
        (json) => normalizeCorrectionReply(json, indexes),
      );
      return { ...value, model };
    },
  };
}

function resolveNow(context: ParseContext | null | undefined, fallback: ZonedNow): ZonedNow {
  return (context?.now && parseZonedIso(context.now)) || fallback;
}

function kindOf(err: unknown): string {
  if (err instanceof UpstreamError || err instanceof ModelReplyError) return err.code;
  return 'internal';
}

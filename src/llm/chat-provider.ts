// An OpenAI-compatible chat-completions client (DashScope compatible mode by default):
// POST {baseUrl}/chat/completions with a Bearer key, JSON mode via response_format.
import { z } from 'zod';
import { systemClock, type Clock } from '@shared/clock';
import { UpstreamError } from './errors';

export const DASHSCOPE_COMPATIBLE_BASE_URL = 'https://dashscope.aliyuncs.com/compatible-mode/v1';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Ask for a JSON object (response_format); dropped for models that refuse it. */
  jsonMode: boolean;
  signal?: AbortSignal;
  /** A shorter limit for this call (what is left of the caller's time budget). */
  timeoutMs?: number;
}

export interface ChatReply {
  content: string;
  model: string;
}

export interface ChatProvider {
  complete(request: ChatRequest): Promise<ChatReply>;
}

export interface ChatProviderOptions {
  baseUrl?: string;
  apiKey: string;
  /** Per call; the caller's signal may end it sooner. */
  timeoutMs: number;
  clock?: Clock;
  fetch?: typeof fetch;
}

const CompletionSchema = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

export function createChatProvider(options: ChatProviderOptions): ChatProvider {
  const baseUrl = (options.baseUrl ?? DASHSCOPE_COMPATIBLE_BASE_URL).replace(/\/+$/, '');
  const clock = options.clock ?? systemClock;
  const doFetch = options.fetch ?? globalThis.fetch;
  // Models that answered 400 to response_format: ask them again in plain mode, and from then
  // on rely on the prompt plus tolerant extraction.
  const noJsonMode = new Set<string>();

  async function call(request: ChatRequest, jsonMode: boolean): Promise<ChatReply> {
    const body: Record<string, unknown> = { model: request.model, messages: request.messages, temperature: 0.1 };
    if (jsonMode) body.response_format = { type: 'json_object' };
    const res = await fetchWithTimeout(
      doFetch,
      `${baseUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify(body),
      },
      { timeoutMs: Math.max(1, Math.min(options.timeoutMs, request.timeoutMs ?? Infinity)), clock, signal: request.signal },
    );
    if (!res.ok) {
      const detail = res.text.slice(0, 300);
      if (jsonMode && res.status === 400 && /response_format|json_object/i.test(detail)) {
        noJsonMode.add(request.model);
        return call(request, false);
      }
      throw new UpstreamError('http', `LLM provider answered ${res.status}: ${detail}`, res.status);
    }
    const parsed = CompletionSchema.safeParse(res.json);
    if (!parsed.success) throw new UpstreamError('bad_response', 'LLM provider answer is not a chat completion');
    return { content: parsed.data.choices[0]!.message.content ?? '', model: request.model };
  }

  return {
    complete(request) {
      return call(request, request.jsonMode && !noJsonMode.has(request.model));
    },
  };
}

export interface FetchedResponse {
  ok: boolean;
  status: number;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  text: string;
}

/**
 * fetch with a Clock-driven timeout and the caller's abort signal; reads the whole body
 * inside the time limit so a server that sends headers and then stalls is also cut off.
 * Failures become UpstreamError(network | timeout | aborted).
 */
export async function fetchWithTimeout(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit,
  limits: { timeoutMs: number; clock: Clock; signal?: AbortSignal },
): Promise<FetchedResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = limits.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (limits.signal?.aborted) controller.abort();
  limits.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const res = await doFetch(url, { ...init, signal: controller.signal });
    const raw = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    return { ok: res.ok, status: res.status, json, text: raw };
  } catch (err) {
    if (timedOut) throw new UpstreamError('timeout', `no answer within ${limits.timeoutMs} ms`);
    if (limits.signal?.aborted) throw new UpstreamError('aborted', 'request cancelled by the caller');
    throw new UpstreamError('network', `cannot reach ${new URL(url).host}: ${describe(err)}`);
  } finally {
    limits.clock.clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onCallerAbort);
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : '';
    return code ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}

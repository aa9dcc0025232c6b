// ASR token broker: mints DashScope temporary API keys with the server's permanent key
// (POST {base}/api/v1/tokens?expire_in_seconds=N, Bearer key → {token, expires_at}) and hands
// them out with the realtime ASR WebSocket URL (the plain endpoint; the client appends
// `?model=` from the answer's `model`, as the original service's clients do). A token is reused
// until 30 s before it expires.
// Reference: Alibaba Cloud Model Studio, "Generate a temporary API key" (TTL 1..1800 s).
import { z } from 'zod';
import { systemClock, type Clock } from '@shared/clock';
import type { AsrTokenResponse } from '@shared/gateway';
import { fetchWithTimeout } from './chat-provider';
import { UpstreamError } from './errors';

export const DASHSCOPE_BASE_URL = 'https://dashscope.aliyuncs.com';
export const ASR_MODEL = 'qwen3-asr-flash-realtime';
/** DashScope accepts 1–1800 s; the default is the longest. */
export const ASR_TOKEN_TTL_SECONDS = { default: 1800, min: 1, max: 1800 } as const;
/** A token is handed out only while it has more than this left: enough for one session. */
export const TOKEN_REUSE_MARGIN_MS = 30_000;

export interface AsrTokenBrokerOptions {
  apiKey: string;
  baseUrl?: string;
  model?: string;
  /** Lifetime asked for each token (`expire_in_seconds`), 1–1800; default 1800. */
  ttlSeconds?: number;
  timeoutMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
  /** Told whether each get() was served from the cached token or had to wait for a mint. */
  onResult?: (result: 'hit' | 'miss') => void;
}

export interface AsrTokenBroker {
  get(): Promise<AsrTokenResponse>;
}

const MintedSchema = z.object({ token: z.string().min(1), expires_at: z.number() });

/**
 * The realtime ASR endpoint that belongs to a DashScope REST base URL, without a query: the
 * model travels as its own field and the client appends `?model=` itself.
 */
export function realtimeWsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  url.pathname = '/api-ws/v1/realtime';
  url.search = '';
  url.hash = '';
  return url.toString();
}

export function createAsrTokenBroker(options: AsrTokenBrokerOptions): AsrTokenBroker {
  const baseUrl = (options.baseUrl ?? DASHSCOPE_BASE_URL).replace(/\/+$/, '');
  const model = options.model ?? ASR_MODEL;
  const clock = options.clock ?? systemClock;
  const ttlSeconds = options.ttlSeconds ?? ASR_TOKEN_TTL_SECONDS.default;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < ASR_TOKEN_TTL_SECONDS.min || ttlSeconds > ASR_TOKEN_TTL_SECONDS.max) {
    throw new RangeError(`ASR token lifetime must be ${ASR_TOKEN_TTL_SECONDS.min}–${ASR_TOKEN_TTL_SECONDS.max} s, got ${ttlSeconds}`);
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  let cached: AsrTokenResponse | null = null;
  // Concurrent requests during a refresh share one mint instead of each minting a token.
  let inflight: Promise<AsrTokenResponse> | null = null;

  async function mint(): Promise<AsrTokenResponse> {
    const res = await fetchWithTimeout(
      doFetch,
      `${baseUrl}/api/v1/tokens?expire_in_seconds=${ttlSeconds}`,
      { method: 'POST', headers: { authorization: `Bearer ${options.apiKey}` } },
      { timeoutMs: options.timeoutMs ?? 10_000, clock },
    );
    if (!res.ok) throw new UpstreamError('http', `token endpoint answered ${res.status}: ${res.text.slice(0, 200)}`, res.status);
    const parsed = MintedSchema.safeParse(res.json);
    if (!parsed.success) throw new UpstreamError('bad_response', 'token endpoint answer lacks token/expires_at');
    return {
      token: parsed.data.token,
      expiresAt: Math.floor(parsed.data.expires_at),
      model,
      wsUrl: realtimeWsUrl(baseUrl),
    };
  }

  return {
    async get() {
      if (cached && cached.expiresAt * 1000 - clock.now() > TOKEN_REUSE_MARGIN_MS) {
        options.onResult?.('hit');
        return cached;
      }
      options.onResult?.('miss');
      inflight ??= mint().finally(() => {
        inflight = null;
      });
      cached = await inflight;
      return cached;
    },
  };
}

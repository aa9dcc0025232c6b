// ASR token broker: mints DashScope temporary API keys with the server's permanent key
// (POST {base}/api/v1/tokens?expire_in_seconds=N, Bearer key → {token, expires_at}) and hands
// them out with the realtime ASR WebSocket URL. A token is reused until 30 s before it expires.
// Reference: Alibaba Cloud Model Studio, "Generate a temporary API key" (TTL 1..1800 s).
import { z } from 'zod';
import { systemClock, type Clock } from '@shared/clock';
import type { AsrTokenResponse } from '@shared/gateway';
import { fetchWithTimeout } from './chat-provider';
import { UpstreamError } from './errors';

export const DASHSCOPE_BASE_URL = 'https://dashscope.aliyuncs.com';
export const ASR_MODEL = 'qwen3-asr-flash-realtime';
const TOKEN_TTL_SECONDS = 1800;
const REUSE_MARGIN_MS = 30_000;

export interface AsrTokenBrokerOptions {
  apiKey: string;
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
}

export interface AsrTokenBroker {
  get(): Promise<AsrTokenResponse>;
}

const MintedSchema = z.object({ token: z.string().min(1), expires_at: z.number() });

/** The realtime ASR endpoint that belongs to a DashScope REST base URL. */
export function realtimeWsUrl(baseUrl: string, model: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  url.pathname = '/api-ws/v1/realtime';
  url.search = `?model=${encodeURIComponent(model)}`;
  return url.toString();
}

export function createAsrTokenBroker(options: AsrTokenBrokerOptions): AsrTokenBroker {
  const baseUrl = (options.baseUrl ?? DASHSCOPE_BASE_URL).replace(/\/+$/, '');
  const model = options.model ?? ASR_MODEL;
  const clock = options.clock ?? systemClock;
  const doFetch = options.fetch ?? globalThis.fetch;
  let cached: AsrTokenResponse | null = null;
  // Concurrent requests during a refresh share one mint instead of each minting a token.
  let inflight: Promise<AsrTokenResponse> | null = null;

  async function mint(): Promise<AsrTokenResponse> {
    const res = await fetchWithTimeout(
      doFetch,
      `${baseUrl}/api/v1/tokens?expire_in_seconds=${TOKEN_TTL_SECONDS}`,
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
      wsUrl: realtimeWsUrl(baseUrl, model),
    };
  }

  return {
    async get() {
      if (cached && cached.expiresAt * 1000 - clock.now() > REUSE_MARGIN_MS) return cached;
      inflight ??= mint().finally(() => {
        inflight = null;
      });
      cached = await inflight;
      return cached;
    },
  };
}

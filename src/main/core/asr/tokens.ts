// ASR tokens are short-lived credentials for the recognition socket. They come from the
// gateway (`POST /api/v1/asr/token`) or are minted in-process in direct mode; either way a
// token is reused while more than 30 s of validity remain, and dropped whenever a connect
// fails or a reconnect begins, so a revoked or expired token is never retried.
import { systemClock, type Clock } from '@shared/clock';
import type { AsrToken } from '@shared/domain';
import { AsrTokenResponseSchema, ErrorBodySchema, GATEWAY_PATHS } from '@shared/gateway';
import { errorMessage } from '@shared/errors';
import { AsrFailure } from './errors';

export interface TokenProvider {
  get(): Promise<AsrToken>;
  invalidate(): void;
}

export const TOKEN_REUSE_MARGIN_MS = 30_000;

export function createStaticTokenProvider(mint: () => Promise<AsrToken>, clock: Clock = systemClock): TokenProvider {
  let cached: AsrToken | null = null;
  let inflight: Promise<AsrToken> | null = null;
  let epoch = 0;
  return {
    get() {
      if (cached && cached.expiresAt * 1000 - clock.now() > TOKEN_REUSE_MARGIN_MS) return Promise.resolve(cached);
      if (!inflight) {
        const myEpoch = epoch;
        inflight = (async () => {
          try {
            const token = AsrTokenResponseSchema.parse(await mint());
            // A token invalidated while it was being fetched is handed out once but not cached.
            if (myEpoch === epoch) cached = token;
            return token;
          } catch (error) {
            throw error instanceof AsrFailure
              ? error
              : new AsrFailure('token_failed', `获取语音识别凭证失败：${errorMessage(error)}`, { cause: error });
          } finally {
            inflight = null;
          }
        })();
      }
      return inflight;
    },
    invalidate() {
      cached = null;
      epoch++;
    },
  };
}

export interface GatewayTokenOptions {
  gatewayUrl: string;
  apiKey?: string;
  clock?: Clock;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createGatewayTokenProvider(options: GatewayTokenOptions): TokenProvider {
  const doFetch = options.fetch ?? fetch;
  // Relative to the configured URL, so a gateway behind a path prefix (https://host/gw/) works.
  const base = options.gatewayUrl.endsWith('/') ? options.gatewayUrl : `${options.gatewayUrl}/`;
  const url = new URL(GATEWAY_PATHS.asrToken.replace(/^\//, ''), base).href;
  const clock = options.clock ?? systemClock;
  return createStaticTokenProvider(async () => {
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(), options.timeoutMs ?? 5000);
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { 'X-API-Key': options.apiKey } : {}) },
        body: '{}',
        signal: controller.signal,
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const err = ErrorBodySchema.safeParse(body);
        throw new AsrFailure(
          'token_failed',
          `网关拒绝签发语音识别凭证（${response.status}${err.success ? ` ${err.data.error}: ${err.data.message}` : ''}）`,
        );
      }
      const parsed = AsrTokenResponseSchema.safeParse(body);
      if (!parsed.success) throw new AsrFailure('token_failed', '网关返回的语音识别凭证格式不对');
      return parsed.data;
    } finally {
      clock.clearTimeout(timer);
    }
  }, clock);
}

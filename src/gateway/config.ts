// Gateway configuration from the environment (names documented in the README).
import { z } from 'zod';
import { DASHSCOPE_COMPATIBLE_BASE_URL } from './core/chat-provider';
import { DASHSCOPE_BASE_URL } from './core/asr-token';

export interface GatewayConfig {
  llm: {
    baseUrl: string;
    /** Null: parse/correct answer 503. */
    apiKey: string | null;
    model: string;
    fallbackModel: string | null;
    timeoutMs: number;
  };
  asr: {
    /** Null: token minting answers 503. */
    apiKey: string | null;
    baseUrl: string;
  };
  /** Null: no X-API-Key check. */
  gatewayApiKey: string | null;
  rateLimit: { asrPerMinute: number; llmPerMinute: number };
  port: number;
  host: string;
}

const optional = z
  .string()
  .optional()
  .transform((s) => (s && s.trim() ? s.trim() : undefined));
const intIn = (fallback: number, min: number, max: number) =>
  optional.transform((s, ctx) => {
    if (s === undefined) return fallback;
    const n = Number(s);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `expected an integer from ${min} to ${max}, got "${s}"` });
      return z.NEVER;
    }
    return n;
  });
const httpUrl = (fallback: string) =>
  optional.transform((s, ctx) => {
    if (s === undefined) return fallback;
    if (!/^https?:\/\/[^\s/]+/.test(s)) {
      ctx.addIssue({ code: 'custom', message: `expected an http(s) URL, got "${s}"` });
      return z.NEVER;
    }
    return s;
  });

const EnvSchema = z.object({
  LLM_BASE_URL: httpUrl(DASHSCOPE_COMPATIBLE_BASE_URL),
  LLM_API_KEY: optional,
  LLM_MODEL: optional,
  LLM_FALLBACK_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: intIn(10_000, 100, 600_000),
  DASHSCOPE_API_KEY: optional,
  DASHSCOPE_BASE_URL: httpUrl(DASHSCOPE_BASE_URL),
  GATEWAY_API_KEY: optional,
  RATE_LIMIT_ASR_PER_MIN: intIn(30, 1, 1_000_000),
  RATE_LIMIT_LLM_PER_MIN: intIn(60, 1, 1_000_000),
  PORT: intIn(8080, 0, 65535),
  HOST: optional,
});

/** Throws with every bad variable named when the environment is invalid. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid gateway configuration: ${problems}`);
  }
  const e = parsed.data;
  // LLM_FALLBACK_MODEL set to an empty string turns the fallback off; unset means qwen-plus.
  const fallback = e.LLM_FALLBACK_MODEL === undefined ? 'qwen-plus' : e.LLM_FALLBACK_MODEL.trim() || null;
  return {
    llm: {
      baseUrl: e.LLM_BASE_URL,
      apiKey: e.LLM_API_KEY ?? e.DASHSCOPE_API_KEY ?? null,
      model: e.LLM_MODEL ?? 'qwen-turbo',
      fallbackModel: fallback,
      timeoutMs: e.LLM_TIMEOUT_MS,
    },
    asr: { apiKey: e.DASHSCOPE_API_KEY ?? null, baseUrl: e.DASHSCOPE_BASE_URL },
    gatewayApiKey: e.GATEWAY_API_KEY ?? null,
    rateLimit: { asrPerMinute: e.RATE_LIMIT_ASR_PER_MIN, llmPerMinute: e.RATE_LIMIT_LLM_PER_MIN },
    port: e.PORT,
    host: e.HOST ?? '127.0.0.1',
  };
}

// Gateway configuration from the environment (names documented in the README).
import { isIP } from 'node:net';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { DASHSCOPE_COMPATIBLE_BASE_URL } from '../llm/chat-provider';
import { ASR_TOKEN_TTL_SECONDS, DASHSCOPE_BASE_URL } from '../llm/asr-token';

/**
 * Which peers may tell the client address (X-Forwarded-For / X-Real-IP): none, or the proxies at
 * these addresses / CIDR ranges (also `loopback`, `linklocal`, `uniquelocal`). There is no hop
 * count: it would believe whatever any direct client writes in X-Forwarded-For.
 */
export type TrustProxy = false | { addresses: string[] };

/**
 * Where per-install keys (`npm run gateway:keys`) live: in REDIS_URL's Redis (every instance
 * sees them) or in a file (a gateway without Redis). Null: only GATEWAY_API_KEY.
 */
export type AccountKeys = null | { store: 'redis' } | { store: 'file'; path: string };

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
    /** Lifetime of each minted token (`expire_in_seconds`). */
    tokenTtlSeconds: number;
  };
  /** Null: no X-API-Key check (unless accountKeys). The shared key: limited per address only. */
  gatewayApiKey: string | null;
  /** Set: the API routes require a per-install key (or gatewayApiKey when that is set too). */
  accountKeys: AccountKeys;
  /**
   * Per account for per-install keys, per client address for everything else; requests with a
   * per-install key also pass a per-address bucket of `*PerAddressPerMinute` (both must allow).
   * Failed authentications have their own bucket per address.
   */
  rateLimit: {
    asrPerMinute: number;
    llmPerMinute: number;
    asrPerAddressPerMinute: number;
    llmPerAddressPerMinute: number;
    authFailuresPerMinute: number;
  };
  trustProxy: TrustProxy;
  port: number;
  host: string;
  /**
   * Null: limits, failed-auth buckets and ASR tokens live in this process (one instance).
   * Set: shared by every instance through this Redis (several instances behind a balancer).
   */
  redisUrl: string | null;
  /** Null: no metrics listener; set: GET /metrics without a key on metricsHost:port. */
  metricsPort: number | null;
  /** Where the metrics listener binds (loopback unless the scraper is elsewhere). */
  metricsHost: string;
  /**
   * Null: the API port has no /metrics; set: it serves /metrics to `Authorization: Bearer <key>`
   * only (never to the client key, which every install holds).
   */
  metricsKey: string | null;
  /** A request (headers and body) must arrive in full within this; else 408. */
  requestTimeoutMs: number;
  /** After SIGTERM/SIGINT: how long the instance keeps serving while /readyz answers 503. */
  shutdownDrainMs: number;
  /** Then: how long the requests in flight may take before they are cut. */
  shutdownGraceMs: number;
  logLevel: LogLevel;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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

const redisUrl = optional.transform((s, ctx) => {
  if (s === undefined) return null;
  let url: URL | null = null;
  try {
    url = new URL(s);
  } catch {
    // reported below
  }
  if (!url || !/^rediss?:$/.test(url.protocol) || !url.hostname) {
    // The URL may hold a password: never echo it.
    ctx.addIssue({ code: 'custom', message: 'expected redis://[user:password@]host[:port][/db] or rediss://…' });
    return z.NEVER;
  }
  return s;
});

const logLevel = optional.transform((s, ctx): LogLevel => {
  if (s === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === s.toLowerCase());
  if (level) return level;
  ctx.addIssue({ code: 'custom', message: `expected one of ${LOG_LEVELS.join(', ')}, got "${s}"` });
  return z.NEVER;
});

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

const trustProxy = optional.transform((s, ctx): TrustProxy => {
  if (s === undefined || /^(false|off|no|0)$/i.test(s)) return false;
  const addresses = s
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (addresses.length && addresses.every(isProxyAddress)) return { addresses };
  ctx.addIssue({
    code: 'custom',
    message: /^\d+$/.test(s)
      ? `a hop count trusts X-Forwarded-For from any client; list your proxies' addresses/CIDRs instead, got "${s}"`
      : `expected a comma list of proxy addresses/CIDRs, got "${s}"`,
  });
  return z.NEVER;
});

const accountKeys = optional.transform((s, ctx): AccountKeys => {
  if (s === undefined || /^(false|off|no|0)$/i.test(s)) return null;
  if (s === 'redis') return { store: 'redis' };
  if (isAbsolute(s)) return { store: 'file', path: s };
  ctx.addIssue({ code: 'custom', message: `expected "redis" or an absolute path of a keys file, got "${s}"` });
  return z.NEVER;
});

const EnvSchema = z.object({
  LLM_BASE_URL: httpUrl(DASHSCOPE_COMPATIBLE_BASE_URL),
  LLM_API_KEY: optional,
  LLM_MODEL: optional,
  LLM_FALLBACK_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: intIn(10_000, 100, 600_000),
  DASHSCOPE_API_KEY: optional,
  DASHSCOPE_BASE_URL: httpUrl(DASHSCOPE_BASE_URL),
  ASR_TOKEN_TTL_SECONDS: intIn(ASR_TOKEN_TTL_SECONDS.default, ASR_TOKEN_TTL_SECONDS.min, ASR_TOKEN_TTL_SECONDS.max),
  GATEWAY_API_KEY: optional,
  GATEWAY_KEYS: accountKeys,
  RATE_LIMIT_ASR_PER_MIN: intIn(30, 1, 1_000_000),
  RATE_LIMIT_LLM_PER_MIN: intIn(60, 1, 1_000_000),
  // A household or an office behind one NAT: ten installs at their full rate.
  RATE_LIMIT_ASR_PER_ADDRESS_PER_MIN: intIn(300, 1, 1_000_000),
  RATE_LIMIT_LLM_PER_ADDRESS_PER_MIN: intIn(600, 1, 1_000_000),
  RATE_LIMIT_AUTH_FAILURES_PER_MIN: intIn(10, 1, 1_000_000),
  TRUST_PROXY: trustProxy,
  PORT: intIn(8080, 0, 65535),
  HOST: optional,
  REDIS_URL: redisUrl,
  // 0 stands for unset: no separate metrics listener.
  METRICS_PORT: intIn(0, 1, 65535),
  METRICS_HOST: optional,
  METRICS_KEY: optional,
  REQUEST_TIMEOUT_MS: intIn(30_000, 100, 600_000),
  // Long enough for a balancer that polls /readyz every 2 s to see two failures.
  SHUTDOWN_DRAIN_MS: intIn(5_000, 0, 600_000),
  // The default outlasts the longest request (primary and fallback model, LLM_TIMEOUT_MS each).
  SHUTDOWN_GRACE_MS: intIn(25_000, 0, 600_000),
  LOG_LEVEL: logLevel,
});

/** Throws with every bad variable named when the environment is invalid. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid gateway configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.GATEWAY_KEYS?.store === 'redis' && !e.REDIS_URL) {
    throw new Error('invalid gateway configuration: GATEWAY_KEYS: "redis" needs REDIS_URL (or name a keys file)');
  }
  if (e.METRICS_PORT && e.METRICS_PORT === e.PORT) {
    throw new Error(`invalid gateway configuration: METRICS_PORT: must differ from PORT (${e.PORT})`);
  }
  if (e.METRICS_KEY && e.METRICS_KEY === e.GATEWAY_API_KEY) {
    // Every install holds the client key; the metrics key must be the operator's alone.
    throw new Error('invalid gateway configuration: METRICS_KEY: must differ from GATEWAY_API_KEY');
  }
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
    asr: { apiKey: e.DASHSCOPE_API_KEY ?? null, baseUrl: e.DASHSCOPE_BASE_URL, tokenTtlSeconds: e.ASR_TOKEN_TTL_SECONDS },
    gatewayApiKey: e.GATEWAY_API_KEY ?? null,
    accountKeys: e.GATEWAY_KEYS,
    rateLimit: {
      asrPerMinute: e.RATE_LIMIT_ASR_PER_MIN,
      llmPerMinute: e.RATE_LIMIT_LLM_PER_MIN,
      asrPerAddressPerMinute: e.RATE_LIMIT_ASR_PER_ADDRESS_PER_MIN,
      llmPerAddressPerMinute: e.RATE_LIMIT_LLM_PER_ADDRESS_PER_MIN,
      authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_MIN,
    },
    trustProxy: e.TRUST_PROXY,
    port: e.PORT,
    host: e.HOST ?? '127.0.0.1',
    redisUrl: e.REDIS_URL,
    metricsPort: e.METRICS_PORT || null,
    metricsHost: e.METRICS_HOST ?? '127.0.0.1',
    metricsKey: e.METRICS_KEY ?? null,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logLevel: e.LOG_LEVEL,
  };
}

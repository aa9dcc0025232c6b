// `npm run gateway`: the AI gateway as a standalone server, configured from the environment.
import { buildGatewayApp } from './app';
import { loadGatewayConfig } from './config';
import { startMetricsListener } from './metrics';
import { stopGracefullyOnSignals } from './shutdown';

const USAGE = `Usage: npm run gateway [-- --help]

Starts the AI gateway (POST /api/v1/llm/parse-transaction, /api/v1/llm/correct-transaction,
/api/v1/asr/token; GET /healthz, /readyz, /metrics) and runs until SIGTERM or SIGINT.
Configured only by the environment:

  LLM_BASE_URL                      OpenAI-compatible base (default https://dashscope.aliyuncs.com/compatible-mode/v1)
  LLM_API_KEY                       the LLM key (default: DASHSCOPE_API_KEY; none: the LLM routes answer 503)
  LLM_MODEL, LLM_FALLBACK_MODEL     primary and fallback model (default qwen-turbo, qwen-plus; empty fallback = none)
  LLM_TIMEOUT_MS                    time per model, retries included (default 10000)
  DASHSCOPE_API_KEY                 ASR token minting (none: /api/v1/asr/token answers 503)
  DASHSCOPE_BASE_URL                (default https://dashscope.aliyuncs.com)
  ASR_TOKEN_TTL_SECONDS             lifetime of each ASR token, 1–1800 (default 1800)
  GATEWAY_API_KEY                   a key shared by all clients (X-API-Key), limited per address
  GATEWAY_KEYS                      per-install keys (npm run gateway:keys): redis, or a keys file's absolute path
  RATE_LIMIT_ASR_PER_MIN            per install key, else per client address (default 30)
  RATE_LIMIT_LLM_PER_MIN            per install key, else per client address (default 60)
  RATE_LIMIT_ASR_PER_ADDRESS_PER_MIN  all install keys at one address together (default 300)
  RATE_LIMIT_LLM_PER_ADDRESS_PER_MIN  all install keys at one address together (default 600)
  RATE_LIMIT_AUTH_FAILURES_PER_MIN  wrong or missing keys per client address (default 10)
  TRUST_PROXY                       your proxies' addresses/CIDRs, whose X-Forwarded-For counts (default none)
  PORT, HOST                        where to listen (default 8080, 127.0.0.1)
  REDIS_URL                         share limits and ASR tokens between instances (default: this process only)
  METRICS_PORT, METRICS_HOST        serve /metrics without a key on METRICS_HOST:METRICS_PORT (default off, 127.0.0.1)
  METRICS_KEY                       serve /metrics on the API port to Authorization: Bearer METRICS_KEY (default: not there)
  REQUEST_TIMEOUT_MS                a request must arrive in full within this, else 408 (default 30000)
  SHUTDOWN_DRAIN_MS                 after SIGTERM: keep serving, /readyz 503, this long (default 5000)
  SHUTDOWN_GRACE_MS                 then how long requests in flight may take (default 25000)
  LOG_LEVEL                         fatal, error, warn, info, debug, trace or silent (default info)
  TZ                                the day of requests without context.now (e.g. Asia/Shanghai)

Example:
  DASHSCOPE_API_KEY=sk-… GATEWAY_API_KEY=choose-one PORT=8080 npm run gateway

Exit: 0 after a clean stop, 1 when requests in flight were cut or it failed, 2 a bad variable.`;

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let config;
  try {
    config = loadGatewayConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const app = await buildGatewayApp({ config });
  if (!config.llm.apiKey) app.log.warn('no LLM_API_KEY/DASHSCOPE_API_KEY: LLM routes answer 503');
  if (!config.asr.apiKey) app.log.warn('no DASHSCOPE_API_KEY: /api/v1/asr/token answers 503');
  if (!config.gatewayApiKey && !config.accountKeys) app.log.warn('no GATEWAY_API_KEY or GATEWAY_KEYS: requests are not authenticated');
  if (!config.redisUrl) app.log.info('no REDIS_URL: rate limits and ASR tokens are this instance’s own');
  stopGracefullyOnSignals(app, { drainMs: config.shutdownDrainMs, graceMs: config.shutdownGraceMs });
  if (config.metricsPort) {
    // Without a key: for a scraper on the same host (or the network METRICS_HOST names).
    const listener = await startMetricsListener(app.gatewayMetrics.registry, { port: config.metricsPort, host: config.metricsHost });
    app.addHook('onClose', () => listener.close());
  }
  await app.listen({ port: config.port, host: config.host });
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});

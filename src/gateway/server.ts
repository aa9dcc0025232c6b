// `npm run gateway`: the AI gateway as a standalone server, configured from the environment.
import { createServer } from 'node:http';
import { buildGatewayApp, OPS_PATHS } from './app';
import { loadGatewayConfig } from './config';
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
  GATEWAY_API_KEY                   when set, the API routes require X-API-Key
  RATE_LIMIT_ASR_PER_MIN            per client address (default 30)
  RATE_LIMIT_LLM_PER_MIN            per client address (default 60)
  RATE_LIMIT_AUTH_FAILURES_PER_MIN  wrong or missing keys per client address (default 10)
  TRUST_PROXY                       a hop count or proxy addresses/CIDRs whose X-Forwarded-For counts (default off)
  PORT, HOST                        where to listen (default 8080, 127.0.0.1)
  REDIS_URL                         share limits and ASR tokens between instances (default: this process only)
  METRICS_PORT                      also serve /metrics on 127.0.0.1:METRICS_PORT without a key (default off)
  SHUTDOWN_GRACE_MS                 how long a stop waits for requests in flight (default 25000)
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
  if (!config.gatewayApiKey) app.log.warn('no GATEWAY_API_KEY: requests are not authenticated');
  if (!config.redisUrl) app.log.info('no REDIS_URL: rate limits and ASR tokens are this instance’s own');
  stopGracefullyOnSignals(app, { graceMs: config.shutdownGraceMs });
  if (config.metricsPort) {
    // Loopback only and without a key: for a scraper on the same host (or a sidecar).
    const registry = app.gatewayMetrics.registry;
    const metricsServer = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== OPS_PATHS.metrics) {
        res.writeHead(404).end();
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    const metricsPort = config.metricsPort;
    await new Promise<void>((resolve, reject) => {
      metricsServer.once('error', reject);
      metricsServer.listen(metricsPort, '127.0.0.1', resolve);
    });
    app.addHook('onClose', async () => {
      metricsServer.closeAllConnections();
      await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
    });
  }
  await app.listen({ port: config.port, host: config.host });
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// `npm run gateway`: the AI gateway as a standalone server, configured from the environment.
import { createServer } from 'node:http';
import { buildGatewayApp, OPS_PATHS } from './app';
import { loadGatewayConfig } from './config';
import { stopGracefullyOnSignals } from './shutdown';

async function main(): Promise<void> {
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

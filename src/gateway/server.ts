// `npm run gateway`: the AI gateway as a standalone server, configured from the environment.
import { buildGatewayApp } from './app';
import { loadGatewayConfig } from './config';

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
  const close = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});

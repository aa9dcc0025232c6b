// Starts the real gateway app on loopback against fake upstreams, for tests and tools.
import type { FastifyInstance } from 'fastify';
import type { Clock } from '@shared/clock';
import { buildGatewayApp, type GatewayAppOptions } from '../../../src/gateway/app';
import { loadGatewayConfig } from '../../../src/gateway/config';
import { startFakeChatServer, type ChatScript, type FakeChatServer } from './fake-chat-server';
import { startFakeTokenServer, type FakeTokenServer } from './fake-token-server';

export const TEST_LLM_KEY = 'sk-test-llm';
export const TEST_DASHSCOPE_KEY = 'sk-test-dashscope';

export interface GatewayHarness {
  url: string;
  app: FastifyInstance;
  chat: FakeChatServer;
  tokens: FakeTokenServer;
  /** JSON log lines written by the gateway. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startGatewayHarness(options: {
  script: ChatScript;
  env?: Record<string, string>;
  clock?: Clock;
  /** Listen on this port (0: any free one). */
  port?: number;
  /** Upstream retry policy (default: the gateway's own, 2 retries from 200 ms). */
  retry?: GatewayAppOptions['retry'];
  /** Wait before each 401 (default: the gateway's own, 250 ms). */
  authFailureDelayMs?: number;
}): Promise<GatewayHarness> {
  const clock = options.clock;
  const chat = await startFakeChatServer(options.script);
  const tokens = await startFakeTokenServer({
    apiKey: TEST_DASHSCOPE_KEY,
    nowMs: clock ? () => clock.now() : undefined,
  });
  const config = loadGatewayConfig({
    LLM_BASE_URL: chat.baseUrl,
    LLM_API_KEY: TEST_LLM_KEY,
    DASHSCOPE_API_KEY: TEST_DASHSCOPE_KEY,
    DASHSCOPE_BASE_URL: tokens.baseUrl,
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const app = await buildGatewayApp({
    config,
    clock,
    retry: options.retry,
    authFailureDelayMs: options.authFailureDelayMs,
    logger: {
      level: 'info',
      stream: {
        write(line: string) {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    },
  });
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return {
    url,
    app,
    chat,
    tokens,
    logs,
    async close() {
      // Upstreams first: a request still waiting on a hanging fake fails and lets the app close.
      await chat.close();
      await tokens.close();
      await app.close();
    },
  };
}

// Understanding (LLM with local fallback) and the LLM clients behind it.
export { createUnderstanding, CONFIDENCE_THRESHOLD, type UnderstandingConfig } from './understanding';
export { LlmClientError, type LlmClient, type LlmCallOptions, type LlmFailureKind } from './llm-client';
export { createGatewayLlmClient, type GatewayClientOptions } from './gateway-client';
export { createDirectLlmClient, createDirectAsrTokenMint, type DirectClientOptions } from './direct-client';

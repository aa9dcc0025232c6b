// Streaming ASR: DashScope realtime or FunASR 2pass over one client interface.
export { createAsrClient, RECONNECT_DELAYS_MS, type AsrClientOptions, type MeasuredAsrClient } from './client';
export { createGatewayTokenProvider, createStaticTokenProvider, TOKEN_REUSE_MARGIN_MS, type TokenProvider } from './tokens';
export { createPushToTalk, PTT_FINAL_TIMEOUT_MS, PTT_MIN_HOLD_MS, type PushToTalk, type PushToTalkResult } from './push-to-talk';
export { AsrFailure, type AsrErrorCode } from './errors';
export { DASHSCOPE_DEFAULT_MODEL, type AsrProtocolName } from './protocols';
export {
  createLocalAsrEngine,
  decodeWavFile,
  detectModelFiles,
  type LocalAsrEngine,
  type LocalAsrEngineOptions,
  type LocalAsrResult,
  type LocalModelFiles,
} from './local/index';

// Builds the real parts of a voice session (understanding, mic + VAD, streaming ASR, TTS)
// from the user's settings, with overrides for tests, the e2e bridge and tools/session.
import type { ZonedNow } from '@shared/time';
import { systemClock, type Clock } from '@shared/clock';
import { createVoiceInput } from '../audio/index';
import { createAsrClient, createGatewayTokenProvider, createStaticTokenProvider, type TokenProvider } from '../asr/index';
import { createDirectAsrTokenMint, createUnderstanding, type UnderstandingConfig } from '../llm/index';
import type { VoiceConfig } from '../settings/index';
import { createTts, type TtsOptions } from '../tts/index';
import type { AsrClient, LedgerPort, Tts, Understanding, UnderstandingContext, VoiceInput } from './ports';
import type { SessionParts } from './session';

export interface VoiceOverrides {
  /** Replaces the settings' LLM connection (e2e: offline or a loopback fake; tools: --llm). */
  understanding?: UnderstandingConfig;
  /** Replaces the settings' ASR connection (tools: --asr URL of a loopback server). */
  asr?: { protocol: 'dashscope' | 'funasr'; url?: string; gatewayUrl?: string; gatewayApiKey?: string; tokens?: TokenProvider };
  /** 'log' in tests; 'wav' with a path for tools/session --tts-wav. */
  tts?: TtsOptions;
  /** Replaces the microphone (tests drive a scripted one; tools feed WAV files). */
  createVoiceInput?: () => VoiceInput;
  /** Used for every timer of the session (FakeClock in tools/session and tests). */
  clock?: Clock;
  /** The user's wall clock; defaults to the clock's instant in this machine's zone. */
  now?: () => ZonedNow;
  log?: (message: string, err?: unknown) => void;
}

/** What the understanding may know about the ledger (user categories, accounts). */
export type ContextSource = () => Omit<UnderstandingContext, 'now'>;

/** The session parts for the current settings. Nothing touches the network or the mic here. */
export function buildSessionParts(config: VoiceConfig, ledger: LedgerPort, overrides: VoiceOverrides = {}, context?: ContextSource): SessionParts {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? (() => {});
  const understanding: Understanding = createUnderstanding({ ...(overrides.understanding ?? config.understanding), clock, log });
  const tts: Tts = createTts({
    enabled: config.tts.enabled,
    rate: config.tts.rate,
    ...overrides.tts,
    clock,
    onError: (e) => log(`tts ${e.code}: ${e.message}`),
  });
  const createAsr = asrFactory(config, overrides, clock, log);
  const createInput =
    overrides.createVoiceInput ??
    (() =>
      createVoiceInput({
        ...(config.input.deviceId !== undefined ? { deviceId: config.input.deviceId } : {}),
        silenceMs: config.input.silenceMs,
      }));
  return {
    understanding,
    tts,
    ledger,
    clock,
    ...(overrides.now ? { now: overrides.now } : {}),
    createVoiceInput: createInput,
    ...(createAsr ? { createAsrClient: createAsr } : {}),
    ...(context ? { context } : {}),
    log,
  };
}

type AsrFactory = (options: { shouldReconnect: () => boolean }) => AsrClient;

/** Undefined when no ASR is configured: speaking then reports 「语音识别未配置…」. */
function asrFactory(config: VoiceConfig, overrides: VoiceOverrides, clock: Clock, log: (message: string) => void): AsrFactory | undefined {
  const o = overrides.asr;
  if (o) {
    const tokens = o.tokens ?? (o.gatewayUrl ? createGatewayTokenProvider({ gatewayUrl: o.gatewayUrl, apiKey: o.gatewayApiKey, clock }) : undefined);
    return ({ shouldReconnect }) =>
      createAsrClient({ protocol: o.protocol, ...(o.url ? { url: o.url } : {}), ...(tokens ? { tokens } : {}), clock, shouldReconnect, log });
  }
  const { asr, understanding } = config;
  if (asr.protocol === 'funasr') {
    if (!asr.url) return undefined;
    const url = asr.url;
    return ({ shouldReconnect }) => createAsrClient({ protocol: 'funasr', url, clock, shouldReconnect, log });
  }
  let tokens: TokenProvider | undefined;
  if (asr.tokens === 'gateway' && understanding.gatewayUrl) {
    tokens = createGatewayTokenProvider({ gatewayUrl: understanding.gatewayUrl, apiKey: understanding.gatewayApiKey, clock });
  } else if (asr.tokens === 'direct' && understanding.apiKey) {
    tokens = createStaticTokenProvider(createDirectAsrTokenMint({ apiKey: understanding.apiKey, clock }), clock);
  }
  if (!tokens) return undefined;
  const provider = tokens;
  return ({ shouldReconnect }) => createAsrClient({ protocol: 'dashscope', tokens: provider, clock, shouldReconnect, log });
}

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
import type { AsrUnavailable } from './utterance-capture';
import type { LocalAsrEngine } from '../asr/local/index';

export interface VoiceOverrides {
  /** Replaces the settings' LLM connection (e2e: offline or a loopback fake; tools: --llm). */
  understanding?: UnderstandingConfig;
  /**
   * Replaces the settings' ASR connection (tools: --asr URL of a loopback server; 'local' with
   * a model folder, which needs a LocalRecognition to make the engine).
   */
  asr?:
    | { protocol: 'dashscope' | 'funasr'; url?: string; gatewayUrl?: string; gatewayApiKey?: string; tokens?: TokenProvider }
    | { protocol: 'local'; modelDir: string };
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

/** On-device recognition as the app keeps it across sessions (app-core's LocalEngineHolder). */
export interface LocalRecognition {
  /**
   * The active model folder now, asked whenever the mic is wanted: a model downloaded while a
   * session runs is used by that session. Absent: the folder in the VoiceConfig.
   */
  modelDir?: () => string | null;
  /** The one engine for a folder, shared by every session and utterance. */
  engine(modelDir: string): LocalAsrEngine;
}

export const ASR_MODEL_MISSING: AsrUnavailable = { code: 'asr_model_missing', message: '本地语音识别需要先下载语音模型' };

/** The session parts for the current settings. Nothing touches the network or the mic here. */
export function buildSessionParts(
  config: VoiceConfig,
  ledger: LedgerPort,
  overrides: VoiceOverrides = {},
  context?: ContextSource,
  local?: LocalRecognition,
): SessionParts {
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
  const { create: createAsr, unavailable } = asrFactory(config, overrides, clock, log, local);
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
    ...(unavailable ? { asrUnavailable: unavailable } : {}),
    ...(context ? { context } : {}),
    log,
  };
}

type AsrFactory = (options: { shouldReconnect: () => boolean }) => AsrClient;

interface AsrChoice {
  /** Undefined when no ASR is configured: speaking then reports 「语音识别未配置…」. */
  create?: AsrFactory;
  /** Asked whenever the mic is wanted, for a reason more precise than "not configured". */
  unavailable?: () => AsrUnavailable | null;
}

function localAsr(modelDir: () => string | null, local: LocalRecognition | undefined): AsrChoice {
  if (!local) return {};
  return {
    unavailable: () => (modelDir() === null ? ASR_MODEL_MISSING : null),
    create: () => {
      const dir = modelDir();
      // The capture asks `unavailable` first; a model deleted in between lands here.
      if (dir === null) throw new Error('no local speech model is ready');
      return local.engine(dir).createClient();
    },
  };
}

function asrFactory(
  config: VoiceConfig,
  overrides: VoiceOverrides,
  clock: Clock,
  log: (message: string) => void,
  local: LocalRecognition | undefined,
): AsrChoice {
  const o = overrides.asr;
  if (o?.protocol === 'local') return localAsr(() => o.modelDir, local);
  if (o) {
    const tokens = o.tokens ?? (o.gatewayUrl ? createGatewayTokenProvider({ gatewayUrl: o.gatewayUrl, apiKey: o.gatewayApiKey, clock }) : undefined);
    return {
      create: ({ shouldReconnect }) =>
        createAsrClient({ protocol: o.protocol, ...(o.url ? { url: o.url } : {}), ...(tokens ? { tokens } : {}), clock, shouldReconnect, log }),
    };
  }
  const { asr, understanding } = config;
  if (asr.protocol === 'local') {
    const fixed = asr.modelDir;
    return localAsr(local?.modelDir ?? (() => fixed), local);
  }
  if (asr.protocol === 'funasr') {
    if (!asr.url) return {};
    const url = asr.url;
    return { create: ({ shouldReconnect }) => createAsrClient({ protocol: 'funasr', url, clock, shouldReconnect, log }) };
  }
  let tokens: TokenProvider | undefined;
  if (asr.tokens === 'gateway' && understanding.gatewayUrl) {
    tokens = createGatewayTokenProvider({ gatewayUrl: understanding.gatewayUrl, apiKey: understanding.gatewayApiKey, clock });
  } else if (asr.tokens === 'direct' && understanding.apiKey) {
    tokens = createStaticTokenProvider(createDirectAsrTokenMint({ apiKey: understanding.apiKey, clock }), clock);
  }
  if (!tokens) return {};
  const provider = tokens;
  return { create: ({ shouldReconnect }) => createAsrClient({ protocol: 'dashscope', tokens: provider, clock, shouldReconnect, log }) };
}

/**
 * One LocalAsrEngine for the active model, kept across sessions so the model loads once: made
 * on first use, replaced (the old one disposed) when another folder is asked for.
 */
export class LocalEngineHolder {
  private held: LocalAsrEngine | null = null;
  /** Engines still stopping, so dispose() can wait for every worker. */
  private readonly stopping = new Set<Promise<void>>();

  constructor(
    private readonly create: (modelDir: string) => LocalAsrEngine,
    private readonly log: (message: string, err?: unknown) => void = () => {},
  ) {}

  engine(modelDir: string): LocalAsrEngine {
    if (this.held?.modelDir === modelDir) return this.held;
    this.release();
    this.held = this.create(modelDir);
    return this.held;
  }

  /** The active model changed: an engine for another folder goes now, not at the next utterance. */
  keepOnly(modelDir: string | null): void {
    if (this.held && this.held.modelDir !== modelDir) this.release();
  }

  /** Stops the engine of `modelDir` (its folder is about to be deleted) and waits for it. */
  async releaseModel(modelDir: string): Promise<void> {
    if (this.held?.modelDir === modelDir) this.release();
    await Promise.all(this.stopping);
  }

  async dispose(): Promise<void> {
    this.release();
    await Promise.all(this.stopping);
  }

  private release(): void {
    const old = this.held;
    this.held = null;
    if (!old) return;
    // Utterances still on the old engine report `closed`; nothing waits for its worker to stop.
    const stopped: Promise<void> = old
      .dispose()
      .catch((err: unknown) => this.log('local asr engine dispose failed', err))
      .finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
  }
}

import { effectiveAsrProvider, type SecretName, type Settings } from '@shared/ipc/app-settings';
import type { UnderstandingConfig } from '../llm/index';

/**
 * The settings translated into the options the voice parts take (createUnderstanding,
 * createAsrClient + token provider, createVoiceInput, createTts), so the session manager
 * never reads the settings file or a secret itself.
 */
export interface VoiceConfig {
  understanding: Pick<UnderstandingConfig, 'mode' | 'gatewayUrl' | 'gatewayApiKey' | 'apiKey' | 'llmBaseUrl' | 'model'>;
  asr:
    | {
        protocol: 'dashscope' | 'funasr';
        /** FunASR server URL; for DashScope the token answer carries the URL. */
        url?: string;
        /** Where DashScope tokens come from; 'none' means cloud ASR is not configured. */
        tokens: 'gateway' | 'direct' | 'none';
      }
    | {
        protocol: 'local';
        /** The model folder on-device recognition loads; null while no model is ready. */
        modelDir: string | null;
      };
  input: { deviceId?: number; silenceMs: number };
  tts: { enabled: boolean; rate: number };
}

/** `localModelDir`: the model manager's active model (null when none is ready). */
export function voiceConfigFromSettings(
  settings: Settings,
  secret: (name: SecretName) => string | null,
  localModelDir: string | null = null,
): VoiceConfig {
  const { connection, asr } = settings;
  const provider = effectiveAsrProvider(settings);
  const gatewayApiKey = secret('gatewayApiKey') ?? undefined;
  const apiKey = secret('dashscopeApiKey') ?? undefined;
  const understanding: VoiceConfig['understanding'] =
    connection.mode === 'gateway' && connection.gatewayUrl
      ? { mode: 'gateway', gatewayUrl: connection.gatewayUrl, ...(gatewayApiKey ? { gatewayApiKey } : {}) }
      : connection.mode === 'direct' && apiKey
        ? { mode: 'direct', apiKey, llmBaseUrl: connection.llmBaseUrl, model: connection.model }
        : { mode: 'offline' };
  const tokens: 'gateway' | 'direct' | 'none' = understanding.mode === 'gateway' ? 'gateway' : understanding.mode === 'direct' ? 'direct' : 'none';
  return {
    understanding,
    asr:
      provider === 'local'
        ? { protocol: 'local', modelDir: localModelDir }
        : provider === 'funasr'
          ? { protocol: 'funasr', ...(asr.funasrUrl ? { url: asr.funasrUrl } : {}), tokens: 'none' }
          : { protocol: 'dashscope', tokens },
    input: { ...(settings.microphone.deviceId !== null ? { deviceId: settings.microphone.deviceId } : {}), silenceMs: settings.vad.silenceMs },
    tts: { enabled: settings.tts.enabled, rate: settings.tts.rate },
  };
}

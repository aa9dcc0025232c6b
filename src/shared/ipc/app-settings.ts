import { z } from 'zod';

// Settings as the renderer sees and edits them. Secrets (API keys) travel only inward: the
// renderer may send a new key, it never receives one back — only whether one is stored and
// its last four characters.

export const CONNECTION_MODES = ['offline', 'gateway', 'direct'] as const;
export type ConnectionMode = (typeof CONNECTION_MODES)[number];

/** 'local': on-device recognition (sherpa-onnx) with a downloaded model. */
export const ASR_PROVIDERS = ['local', 'dashscope', 'funasr'] as const;
export type AsrProvider = (typeof ASR_PROVIDERS)[number];

export const SECRET_NAMES = ['gatewayApiKey', 'dashscopeApiKey'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export const VAD_SILENCE_MIN_MS = 500;
export const VAD_SILENCE_MAX_MS = 4000;
export const DEFAULT_HOTKEY = 'Ctrl+Alt+Space';

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((text) => text === '' || /^https?:\/\/[^\s/]+/i.test(text), '应为 http:// 或 https:// 开头的地址');
const wsUrl = z
  .string()
  .trim()
  .max(500)
  .refine((text) => text === '' || /^wss?:\/\/[^\s/]+/i.test(text), '应为 ws:// 或 wss:// 开头的地址');

/**
 * An Electron accelerator with at least one modifier, so a global hotkey never swallows a
 * plain key the user types elsewhere.
 */
export const hotkeySchema = z
  .string()
  .trim()
  .max(60)
  .regex(
    /^(?:(?:Ctrl|Control|Alt|Shift|Super|Meta|Cmd|Command|CmdOrCtrl|CommandOrControl|Option|AltGr)\+)+(?:[A-Z0-9]|F(?:[1-9]|1[0-9]|2[0-4])|Space|Enter|Tab|Backspace|Delete|Insert|Home|End|PageUp|PageDown|Up|Down|Left|Right|Escape|Plus|[-=,./;'`[\]\\])$/,
    '快捷键应为「修饰键+按键」，例如 Ctrl+Alt+Space',
  );

// Each section's fields without their defaults: the file's schema adds the defaults, a save
// takes any subset of them. (zod's .partial() keeps a field's .default(), so a save built from
// the file's schema would reset every field it did not send.)
const connectionFields = {
  mode: z.enum(CONNECTION_MODES),
  gatewayUrl: httpUrl,
  llmBaseUrl: httpUrl,
  model: z.string().trim().max(80),
};
const asrFields = {
  /** Absent until the user picks one: effectiveAsrProvider() decides then. */
  provider: z.enum(ASR_PROVIDERS),
  funasrUrl: wsUrl,
};
const microphoneFields = { deviceId: z.number().int().min(0).nullable() };
const vadFields = { silenceMs: z.number().int().min(VAD_SILENCE_MIN_MS).max(VAD_SILENCE_MAX_MS) };
const ttsFields = { enabled: z.boolean(), rate: z.number().min(0.5).max(2) };
const hotkeyFields = { pushToTalk: hotkeySchema };
/** A supermarket receipt: one draft per item line, or one for what was paid. */
export const RECEIPT_LINES = ['items', 'total'] as const;
export type ReceiptLines = (typeof RECEIPT_LINES)[number];
const picturesFields = { receiptLines: z.enum(RECEIPT_LINES) };

/** The non-secret settings, every field with a default so a partial file still loads. */
export const settingsSchema = z.object({
  connection: z
    .object({
      mode: connectionFields.mode.default('offline'),
      gatewayUrl: connectionFields.gatewayUrl.default(''),
      llmBaseUrl: connectionFields.llmBaseUrl.default('https://dashscope.aliyuncs.com/compatible-mode/v1'),
      model: connectionFields.model.default('qwen-turbo'),
    })
    .prefault({}),
  asr: z
    .object({
      provider: asrFields.provider.optional(),
      funasrUrl: asrFields.funasrUrl.default(''),
    })
    .prefault({}),
  microphone: z.object({ deviceId: microphoneFields.deviceId.default(null) }).prefault({}),
  vad: z.object({ silenceMs: vadFields.silenceMs.default(1000) }).prefault({}),
  tts: z
    .object({
      enabled: ttsFields.enabled.default(true),
      rate: ttsFields.rate.default(1),
    })
    .prefault({}),
  hotkey: z.object({ pushToTalk: hotkeyFields.pushToTalk.default(DEFAULT_HOTKEY) }).prefault({}),
  pictures: z.object({ receiptLines: picturesFields.receiptLines.default('items') }).prefault({}),
});

export type Settings = z.output<typeof settingsSchema>;

/** What a save may change: any subset (an absent field keeps what is stored); a secret string sets it, null deletes it. */
export const settingsSaveSchema = z
  .object({
    settings: z
      .object({
        connection: z.object(connectionFields).partial().strict().optional(),
        asr: z.object(asrFields).partial().strict().optional(),
        microphone: z.object(microphoneFields).partial().strict().optional(),
        vad: z.object(vadFields).partial().strict().optional(),
        tts: z.object(ttsFields).partial().strict().optional(),
        hotkey: z.object(hotkeyFields).partial().strict().optional(),
        pictures: z.object(picturesFields).partial().strict().optional(),
      })
      .strict()
      .default({}),
    secrets: z
      .object({
        gatewayApiKey: z.string().trim().min(8, '密钥太短').max(400).nullable().optional(),
        dashscopeApiKey: z.string().trim().min(8, '密钥太短').max(400).nullable().optional(),
      })
      .strict()
      .default({}),
  })
  .strict();

export type SettingsSaveInput = z.input<typeof settingsSaveSchema>;
export type SettingsPatch = z.output<typeof settingsSaveSchema>;

export interface SecretStatus {
  stored: boolean;
  /** e.g. ••••abcd; null when nothing is stored. */
  mask: string | null;
}

export interface SettingsView {
  settings: Settings;
  secrets: Record<SecretName, SecretStatus>;
  /** False where the OS offers no encrypted storage: keys cannot be saved then. */
  secretStorageAvailable: boolean;
  dataDir: string;
  /** How the global hotkey works on this desktop; absent where no shell registers one. */
  hotkey?: HotkeyStatus;
}

/**
 * 'hold': a keyboard hook sees the release (hold to talk). 'toggle': only presses are seen
 * (globalShortcut): press to start, the end of speech stops. 'none': no hotkey at all.
 */
export type HotkeyBackendName = 'hold' | 'toggle' | 'none';

/** Why the hotkey is not hold-to-talk: told once in 设置, never as a popup. */
export type HotkeyFallbackReason = 'wayland' | 'no-display' | 'hook-missing' | 'hook-failed' | 'invalid' | 'taken';

export interface HotkeyStatus {
  backend: HotkeyBackendName;
  accelerator: string;
  reason?: HotkeyFallbackReason;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** A Chinese sentence for the user. */
  message: string;
  latencyMs?: number;
}

export interface Microphone {
  id: number;
  name: string;
  isDefault: boolean;
}

/**
 * The recognition engine in use: the user's choice, else on-device recognition when no cloud
 * connection is configured (it needs no account), else DashScope so cloud users keep theirs.
 */
export function effectiveAsrProvider(settings: Pick<Settings, 'asr' | 'connection'>): AsrProvider {
  return settings.asr.provider ?? (settings.connection.mode === 'offline' ? 'local' : 'dashscope');
}

/** Masks a secret for display: only its last four characters survive. */
export function maskSecret(secret: string): string {
  return `••••${secret.slice(-4)}`;
}

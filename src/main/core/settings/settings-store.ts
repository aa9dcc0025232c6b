import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  SECRET_NAMES,
  maskSecret,
  settingsSchema,
  type SecretName,
  type SecretStatus,
  type Settings,
  type SettingsPatch,
  type SettingsView,
} from '@shared/ipc/app-settings';
import { CodedError } from '@shared/errors';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import type { SecretBox } from './secret-box';

export const SETTINGS_FILE = 'settings.json';

/** The file on disk: settings plus the encrypted secrets (base64 from the SecretBox). */
const fileSchema = z.object({
  version: z.literal(1).default(1),
  settings: z.unknown().optional(),
  secrets: z.record(z.string(), z.string()).default({}),
  /**
   * Written by every app that knows on-device recognition: its `asr.provider` is a choice the
   * user made. Older files stored the then-default 'dashscope' for everybody who saved anything.
   */
  asrProviderIsChoice: z.boolean().optional(),
});

/** An older file's 'dashscope' was the default, not a choice: forget it so the effective default applies. */
function withoutLegacyAsrDefault(settings: unknown): unknown {
  if (typeof settings !== 'object' || settings === null) return settings;
  const asr = (settings as { asr?: unknown }).asr;
  if (typeof asr !== 'object' || asr === null || (asr as { provider?: unknown }).provider !== 'dashscope') return settings;
  const { provider: _legacy, ...rest } = asr as Record<string, unknown>;
  return { ...settings, asr: rest };
}

/** A save the user must hear about (Chinese message), e.g. keys without a keyring. */
export class SettingsError extends CodedError<'settings_error'> {
  constructor(message: string) {
    super('settings_error', message);
  }
}

export interface SettingsStore {
  /** Current settings (defaults for anything missing). */
  get(): Settings;
  /** The decrypted secret, for the main process only; null when not stored or unreadable. */
  secret(name: SecretName): string | null;
  /** What the renderer may see: settings and masked secrets. */
  view(): SettingsView;
  /** Validated patch → merged, written atomically, listeners told. */
  save(patch: SettingsPatch): SettingsView;
  /** Settings and secrets as they would be after `patch`, without saving (connection test). */
  preview(patch: SettingsPatch): { settings: Settings; secret: (name: SecretName) => string | null };
  onChange(listener: (settings: Settings) => void): Unsubscribe;
}

export interface SettingsStoreOptions {
  dataDir: string;
  secretBox: SecretBox;
  log?: (message: string, err?: unknown) => void;
  /** For tests: a fixed suffix for the backup of a corrupt file. */
  now?: () => number;
}

function mergeSettings(base: Settings, patch: SettingsPatch['settings']): Settings {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(base) as (keyof Settings)[]) {
    merged[key] = { ...base[key], ...(patch[key] ?? {}) };
  }
  return settingsSchema.parse(merged);
}

/**
 * Settings in `<dataDir>/settings.json`. A missing file gives defaults; a corrupt one is
 * kept aside as settings.json.corrupt-<ms> (never silently destroyed) and defaults are used.
 * Invalid individual sections fall back to their defaults while valid ones are kept.
 */
export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const log = options.log ?? (() => {});
  const path = join(options.dataDir, SETTINGS_FILE);
  const listeners = new Listeners<{ change: (settings: Settings) => void }>((err) => log('settings listener failed', err));
  let settings: Settings;
  let secrets: Record<string, string>;

  ({ settings, secrets } = load());

  function load(): { settings: Settings; secrets: Record<string, string> } {
    if (!existsSync(path)) return { settings: settingsSchema.parse({}), secrets: {} };
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      const backup = `${path}.corrupt-${(options.now ?? Date.now)()}`;
      log(`settings file unreadable, moved to ${backup}`, err);
      try {
        renameSync(path, backup);
      } catch (renameErr) {
        log('could not move the corrupt settings file aside', renameErr);
      }
      return { settings: settingsSchema.parse({}), secrets: {} };
    }
    const file = fileSchema.safeParse(raw);
    if (!file.success) {
      log('settings file has an unexpected shape; using defaults', file.error);
      return { settings: settingsSchema.parse({}), secrets: {} };
    }
    const stored = file.data.asrProviderIsChoice ? file.data.settings : withoutLegacyAsrDefault(file.data.settings);
    return { settings: parseLenient(stored), secrets: file.data.secrets };
  }

  /** Section by section, so one bad value does not reset everything else. */
  function parseLenient(input: unknown): Settings {
    const whole = settingsSchema.safeParse(input ?? {});
    if (whole.success) return whole.data;
    const source = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(settingsSchema.shape) as (keyof Settings)[]) {
      const section = settingsSchema.shape[key].safeParse(source[key]);
      if (section.success) kept[key] = section.data;
      else log(`settings section "${key}" invalid; using its defaults`, section.error);
    }
    return settingsSchema.parse(kept);
  }

  function write(): void {
    mkdirSync(options.dataDir, { recursive: true });
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, settings, secrets, asrProviderIsChoice: true }, null, 2), { mode: 0o600 });
    renameSync(tmp, path);
  }

  function decrypt(cipher: string | undefined, name: string): string | null {
    if (cipher === undefined || !options.secretBox.available) return null;
    try {
      return options.secretBox.decrypt(cipher);
    } catch (err) {
      log(`stored secret ${name} cannot be decrypted`, err);
      return null;
    }
  }

  function status(name: SecretName): SecretStatus {
    const plain = decrypt(secrets[name], name);
    return { stored: plain !== null, mask: plain === null ? null : maskSecret(plain) };
  }

  function encryptPatch(patch: SettingsPatch['secrets']): Record<string, string> {
    const next = { ...secrets };
    for (const name of SECRET_NAMES) {
      const value = patch[name];
      if (value === undefined) continue;
      if (value === null) {
        delete next[name];
        continue;
      }
      if (!options.secretBox.available) {
        throw new SettingsError('这台电脑没有可用的系统密钥库，无法安全保存密钥。请改用离线模式，或在系统中启用密钥环后重试。');
      }
      next[name] = options.secretBox.encrypt(value);
    }
    return next;
  }

  const store: SettingsStore = {
    get: () => settings,
    secret: (name) => decrypt(secrets[name], name),
    view: () => ({
      settings,
      secrets: { gatewayApiKey: status('gatewayApiKey'), dashscopeApiKey: status('dashscopeApiKey') },
      secretStorageAvailable: options.secretBox.available,
      dataDir: options.dataDir,
    }),
    save(patch) {
      const nextSettings = mergeSettings(settings, patch.settings);
      const nextSecrets = encryptPatch(patch.secrets);
      const previous = { settings, secrets };
      settings = nextSettings;
      secrets = nextSecrets;
      try {
        write();
      } catch (err) {
        ({ settings, secrets } = previous);
        log('writing settings failed', err);
        throw new SettingsError('设置未能写入磁盘，请检查数据文件夹的权限或剩余空间后重试。');
      }
      listeners.emit('change', settings);
      return store.view();
    },
    preview(patch) {
      const previewSettings = mergeSettings(settings, patch.settings);
      return {
        settings: previewSettings,
        secret: (name) => {
          const given = patch.secrets[name];
          if (given === null) return null;
          if (typeof given === 'string') return given;
          return store.secret(name);
        },
      };
    },
    onChange: (listener) => listeners.on('change', listener),
  };
  return store;
}

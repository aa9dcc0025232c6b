import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppEvent } from '@shared/events';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import { createDispatch, createHandlers, type Dispatch } from './ipc/handlers';
import { LedgerHistory, openLedger, type Ledger } from './ledger/index';
import type { VoiceMode } from '@shared/domain';
import type { WindowAction } from '@shared/ipc/app';
import type { HotkeyStatus, Microphone } from '@shared/ipc/app-settings';
import { VoiceSessionManager } from './voice/session';
import { buildSessionParts, type VoiceOverrides } from './voice/wiring';
import { createSettingsStore, unavailableSecretBox, voiceConfigFromSettings, type SecretBox, type SettingsStore } from './settings/index';

/**
 * The composition root of the main process, without Electron: the shell (src/main/app)
 * and the browser e2e bridge both build the app through this, so the tests exercise the
 * same wiring a user runs.
 */
export interface AppCoreOptions {
  /** Folder holding ledger.db (Electron's userData in the app, a temp dir in tests). */
  dataDir: string;
  version: string;
  log?: (message: string, err?: unknown) => void;
  /**
   * Voice session overrides: e2e and tools pass an offline or loopback LLM, an ASR URL,
   * TTS engine 'log', a clock. Anything not given comes from the settings file.
   */
  voice?: VoiceOverrides & { mode?: VoiceMode };
  /** Electron safeStorage in the shell; absent means keys cannot be stored. */
  secretBox?: SecretBox;
  listMicrophones?: () => Promise<Microphone[]>;
  /** The shell's window control (quick entry close, bring main forward). */
  windowAction?: (action: WindowAction) => void;
  /** How the shell's global hotkey ended up working, shown in 设置. */
  hotkeyStatus?: () => HotkeyStatus | null;
}

export interface AppCore {
  dispatch: Dispatch;
  ledger: Ledger;
  /** The undoable ledger: the LedgerPort for voice saves and every write from the windows. */
  history: LedgerHistory;
  settings: SettingsStore;
  /** The voice session behind the voice commands (one orchestrator at a time). */
  voice: VoiceSessionManager;
  /** Subscribe to everything that must reach the windows. */
  onEvent(listener: (event: AppEvent) => void): Unsubscribe;
  emit(event: AppEvent): void;
  dispose(): Promise<void>;
}

/** Throws LedgerOpenError when the ledger file cannot be used (the shell shows it). */
export function createAppCore(options: AppCoreOptions): AppCore {
  const log = options.log ?? ((message, err) => console.error(message, err));
  // A first start (or a data folder chosen by SUIKOUJI_DATA_DIR) may find no folder yet.
  mkdirSync(options.dataDir, { recursive: true });
  const databasePath = join(options.dataDir, 'ledger.db');
  const ledger = openLedger({ path: databasePath });
  const settings = createSettingsStore({ dataDir: options.dataDir, secretBox: options.secretBox ?? unavailableSecretBox, log });
  const listeners = new Listeners<{ event: (event: AppEvent) => void }>((err) => log('event listener failed', err));
  const emit = (event: AppEvent) => listeners.emit('event', event);
  const history = new LedgerHistory(ledger, {
    onChange: (reason) => emit({ channel: 'ledger', event: { type: 'changed', reason } }),
  });
  const { mode: voiceMode, ...voiceOverrides } = options.voice ?? {};
  // Voice saves go through the history so the ledger's undo can take them back too.
  const voice = new VoiceSessionManager({
    emit: (event) => emit({ channel: 'voice', event }),
    ...(voiceMode ? { mode: voiceMode } : {}),
    parts: () =>
      buildSessionParts(
        voiceConfigFromSettings(settings.get(), (name) => settings.secret(name)),
        history,
        { log, ...voiceOverrides },
        // The user's own categories and accounts help the LLM and the local rules place words.
        () => ({
          customCategories: ledger
            .categories()
            .filter((c) => !c.preset && !c.hidden)
            .map(({ name, type }) => ({ name, type })),
          accounts: ledger.accounts().map((a) => a.name),
        }),
      ),
  });
  const stopWatchingSettings = settings.onChange(() => voice.reconfigure());
  const dispatch = createDispatch(
    createHandlers({
      ledger,
      history,
      voice,
      appInfo: () => ({ version: options.version, dataDir: options.dataDir, databasePath }),
      settings,
      ...(options.listMicrophones ? { listMicrophones: options.listMicrophones } : {}),
      ...(options.windowAction ? { windowAction: options.windowAction } : {}),
      ...(options.hotkeyStatus ? { hotkeyStatus: options.hotkeyStatus } : {}),
    }),
    log,
  );
  return {
    dispatch,
    ledger,
    history,
    settings,
    voice,
    emit,
    onEvent: (listener) => listeners.on('event', listener),
    async dispose() {
      stopWatchingSettings();
      await voice.dispose();
      listeners.clear();
      ledger.close();
    },
  };
}

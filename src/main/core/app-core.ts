import { join } from 'node:path';
import type { AppEvent } from '../../shared/events';
import { createDispatch, createHandlers, type Dispatch } from './ipc/handlers';
import { openLedger, type Ledger } from './ledger/index';
// ledger history (ledger-app engineer) ->
import { LedgerHistory } from './ledger/index';
// <- ledger history
// settings wiring (UI/shell engineer) ->
import type { WindowAction } from '../../shared/ipc/app';
import type { Microphone } from '../../shared/ipc/app-settings';
import { createSettingsStore, unavailableSecretBox, type SecretBox, type SettingsStore } from './settings/index';
// <- settings wiring

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
  // settings wiring (UI/shell engineer) ->
  /** Electron safeStorage in the shell; absent means keys cannot be stored. */
  secretBox?: SecretBox;
  listMicrophones?: () => Promise<Microphone[]>;
  /** The shell's window control (quick entry close, bring main forward). */
  windowAction?: (action: WindowAction) => void;
  // <- settings wiring
}

export interface AppCore {
  dispatch: Dispatch;
  ledger: Ledger;
  // ledger history (ledger-app engineer) ->
  /** The undoable ledger: the LedgerPort for voice saves and every write from the windows. */
  history: LedgerHistory;
  // <- ledger history
  settings: SettingsStore;
  /** Subscribe to everything that must reach the windows. */
  onEvent(listener: (event: AppEvent) => void): () => void;
  emit(event: AppEvent): void;
  dispose(): Promise<void>;
}

/** Throws LedgerOpenError when the ledger file cannot be used (the shell shows it). */
export function createAppCore(options: AppCoreOptions): AppCore {
  const log = options.log ?? ((message, err) => console.error(message, err));
  const databasePath = join(options.dataDir, 'ledger.db');
  const ledger = openLedger({ path: databasePath });
  const settings = createSettingsStore({ dataDir: options.dataDir, secretBox: options.secretBox ?? unavailableSecretBox, log });
  const listeners = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        log('event listener failed', err);
      }
    }
  };
  // ledger history (ledger-app engineer) ->
  const history = new LedgerHistory(ledger, {
    onChange: (reason) => emit({ channel: 'ledger', event: { type: 'changed', reason } }),
  });
  // <- ledger history
  const dispatch = createDispatch(
    createHandlers({
      ledger,
      history,
      appInfo: () => ({ version: options.version, dataDir: options.dataDir, databasePath }),
      settings,
      ...(options.listMicrophones ? { listMicrophones: options.listMicrophones } : {}),
      ...(options.windowAction ? { windowAction: options.windowAction } : {}),
    }),
    log,
  );
  return {
    dispatch,
    ledger,
    history,
    settings,
    emit,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      listeners.clear();
      ledger.close();
    },
  };
}

import type { z } from 'zod';
import type { AppEvent } from '../events';
import { appSchemas, type AppOutputs } from './app';
import { backupSchemas, type BackupOutputs } from './backups';
import { bookSchemas, type BookOutputs } from './books';
import { ledgerSchemas, type LedgerOutputs } from './ledger';
import { modelSchemas, type ModelOutputs } from './models';
import type { CommandName } from './names';
import { pictureSchemas, type PictureOutputs } from './pictures';
import { recurringSchemas, type RecurringOutputs } from './recurring';
import { syncSchemas, type SyncOutputs } from './sync';
import { voiceSchemas, type VoiceOutputs } from './voice';

// The typed command map behind IPC (one entry per command, as in Actual Budget's
// handlers.ts), assembled from one file per area. Inputs are zod schemas because the
// renderer is untrusted: the handler table parses every input before a handler runs.

export const commandSchemas = {
  ...appSchemas,
  ...ledgerSchemas,
  ...voiceSchemas,
  ...backupSchemas,
  ...modelSchemas,
  ...syncSchemas,
  ...bookSchemas,
  ...recurringSchemas,
  ...pictureSchemas,
} satisfies Record<CommandName, z.ZodType>;

export type CommandOutputs = AppOutputs &
  LedgerOutputs &
  VoiceOutputs &
  BackupOutputs &
  ModelOutputs &
  SyncOutputs &
  BookOutputs &
  RecurringOutputs &
  PictureOutputs;

export type CommandInput<K extends CommandName> = z.input<(typeof commandSchemas)[K]>;
export type ParsedInput<K extends CommandName> = z.output<(typeof commandSchemas)[K]>;

export interface IpcError {
  /** Stable machine code, e.g. validation_failed, not_found, ledger_error. */
  code: string;
  /** A Chinese sentence a user can act on. */
  message: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** The object the preload exposes on window (and the e2e shim reproduces exactly). */
export type SuikoujiApi = {
  [K in CommandName]: (input: CommandInput<K>) => Promise<IpcResult<CommandOutputs[K]>>;
} & {
  onEvent(listener: (event: AppEvent) => void): () => void;
};

export type { AppInfo } from './app';
export type { BackupInfo, BackupListing } from './backups';
export type { BookInfo, BookListing } from './books';
export type { Attachment, PictureSupport } from './pictures';
export type { CategoryTotal, MonthSummary, Page } from './ledger';
export type { RecurringDraft, RecurringRuleInfo } from './recurring';
export type { ModelEvent, ModelInfo, ModelListing, ModelProgress, ModelState } from './models';
export type { SyncDevice, SyncError, SyncRemoteInfo, SyncSetup, SyncStatus, SyncTestResult } from './sync';
export type { VoiceAction, VoiceSnapshot } from './voice';
export type { CommandName } from './names';

import type { z } from 'zod';
import { commandSchemas, type IpcResult } from '@shared/ipc/index';
import { COMMAND_NAMES, type CommandName } from '@shared/ipc/names';
import { LedgerNotFoundError, LedgerValidationError } from '../ledger/index';
import { createAppHandlers, type AppHandlerDeps } from './app-handlers';
import { createBackupHandlers, type BackupHandlerDeps } from './backup-handlers';
import { createBookHandlers, type BookHandlerDeps } from './book-handlers';
import { createLedgerHandlers, type LedgerHandlerDeps } from './ledger-handlers';
import { createModelHandlers, type ModelHandlerDeps } from './model-handlers';
import { createPictureHandlers, type PictureHandlerDeps } from './picture-handlers';
import { createRecurringHandlers, type RecurringHandlerDeps } from './recurring-handlers';
import { createSyncHandlers, type SyncHandlerDeps } from './sync-handlers';
import { CommandError, type Handlers } from './types';
import { createVoiceHandlers, type VoiceHandlerDeps } from './voice-handlers';

/** What the handlers need; the Electron shell and the e2e bridge both build one of these. */
export type HandlerDeps = AppHandlerDeps &
  LedgerHandlerDeps &
  VoiceHandlerDeps &
  BackupHandlerDeps &
  ModelHandlerDeps &
  SyncHandlerDeps &
  BookHandlerDeps &
  RecurringHandlerDeps &
  PictureHandlerDeps;

export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    ...createAppHandlers(deps),
    ...createLedgerHandlers(deps),
    ...createVoiceHandlers(deps),
    ...createBackupHandlers(deps),
    ...createModelHandlers(deps),
    ...createSyncHandlers(deps),
    ...createBookHandlers(deps),
    ...createRecurringHandlers(deps),
    ...createPictureHandlers(deps),
  };
}

export type Dispatch = (name: unknown, input: unknown) => Promise<IpcResult<unknown>>;

function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && (COMMAND_NAMES as readonly string[]).includes(name);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '输入'}: ${issue.message}`)
    .join('；');
}

/**
 * The single entry point for untrusted input: unknown commands and inputs that fail their
 * zod schema are rejected here, before any handler runs; handler failures become error
 * results instead of crossing the boundary as exceptions.
 */
export function createDispatch(handlers: Handlers | (() => Handlers), log: (message: string, err: unknown) => void = () => {}): Dispatch {
  // A getter: with several books, the commands run against the book that is current now.
  const current = typeof handlers === 'function' ? handlers : () => handlers;
  return async (name, input) => {
    if (!isCommandName(name)) {
      return { ok: false, error: { code: 'unknown_command', message: `未知的命令：${String(name).slice(0, 40)}` } };
    }
    const parsed = commandSchemas[name].safeParse(input ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: 'validation_failed', message: `输入无效（${describeIssues(parsed.error)}）` } };
    }
    try {
      const handler = current()[name] as (input: unknown) => unknown;
      return { ok: true, value: await handler(parsed.data) };
    } catch (err) {
      if (err instanceof CommandError || err instanceof LedgerValidationError || err instanceof LedgerNotFoundError) {
        return { ok: false, error: { code: err.code, message: err.message } };
      }
      log(`command ${name} failed`, err);
      return { ok: false, error: { code: 'internal_error', message: '操作失败，请重试；如果一直失败，请查看日志。' } };
    }
  };
}

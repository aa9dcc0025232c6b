import { z } from 'zod';
import type { TransactionRow, TransactionType } from './domain';
import type { AppEvent } from './events';
import type { CommandName } from './ipc-names';

// The typed command map behind IPC (one entry per command, as in Actual Budget's
// handlers.ts). Inputs are zod schemas because the renderer is untrusted: the handler table
// parses every input with them before a handler runs.

const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
const txType = z.enum(['EXPENSE', 'INCOME', 'TRANSFER']);

export const commandSchemas = {
  appInfo: z.object({}).strict(),
  listTransactions: z
    .object({
      from: ymd.optional(),
      to: ymd.optional(),
      limit: z.number().int().min(1).max(500).default(50),
      offset: z.number().int().min(0).default(0),
      type: txType.optional(),
      category: z.string().max(50).optional(),
    })
    .strict(),
  searchTransactions: z
    .object({
      query: z.string().trim().min(1).max(100),
      limit: z.number().int().min(1).max(500).default(50),
    })
    .strict(),
  monthSummary: z
    .object({
      month: z.string().regex(/^\d{4}-\d{2}$/, 'expected YYYY-MM'),
    })
    .strict(),
} satisfies Record<CommandName, z.ZodType>;

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface CategoryTotal {
  type: TransactionType;
  category: string;
  totalFen: number;
  count: number;
}

export interface MonthSummary {
  month: string;
  expenseFen: number;
  incomeFen: number;
  transferFen: number;
  byCategory: CategoryTotal[];
}

export interface AppInfo {
  version: string;
  dataDir: string;
  databasePath: string;
}

export interface CommandOutputs {
  appInfo: AppInfo;
  listTransactions: Page<TransactionRow>;
  searchTransactions: TransactionRow[];
  monthSummary: MonthSummary;
}

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

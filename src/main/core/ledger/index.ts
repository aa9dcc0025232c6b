import { Ledger, type LedgerOptions } from './ledger';

export { Ledger, type LedgerOptions } from './ledger';
export type { ImportRow, ListQuery, RawTransaction, TransactionPatch } from './types';
export type { BudgetInput } from './budgets';
export type { ManualEntry } from './entries';
export type { CatchUpResult, RecurringRuleInput, RecurringRulePatch } from './recurring';
export {
  LedgerNotFoundError,
  LedgerOpenError,
  LedgerRuleError,
  LedgerValidationError,
  LedgerWriteRefusedError,
  READ_ONLY_MESSAGE,
  type LedgerOpenErrorCode,
} from './errors';
export { SCHEMA_VERSION } from './migrations';
export { LedgerHistory, type ChangeReason, type LedgerHistoryOptions } from './history';
export { exportCsv, BOM, CSV_HEADER } from './csv-export';
export { ImportError, parseImport, type ParsedImport } from './csv-import';

/** Opens (creating and migrating when needed) the ledger at `path` (':memory:' in tests). */
export function openLedger(options: LedgerOptions): Ledger {
  return new Ledger(options);
}

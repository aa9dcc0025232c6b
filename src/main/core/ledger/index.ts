import { Ledger, type LedgerOptions } from './ledger';

export { Ledger, type LedgerOptions, type ListQuery, type TransactionPatch } from './ledger';
export { LedgerNotFoundError, LedgerOpenError, LedgerValidationError } from './errors';
export { SCHEMA_VERSION } from './migrations';

/** Opens (creating and migrating when needed) the ledger at `path` (':memory:' in tests). */
export function openLedger(options: LedgerOptions): Ledger {
  return new Ledger(options);
}

// What every import file is read into before its layout is recognised: rows of text cells,
// each with the line (CSV) or row number (workbook) it came from, for error messages.
import type { TransactionType } from '@shared/domain';
import type { CategoryCandidate } from '../../categories/index';

export interface TableRow {
  /** 1-based line of a CSV, or row number of a workbook's sheet. */
  line: number;
  /** Cells as text: a workbook's date cell as `YYYY-MM-DD HH:MM:SS`, a number cell as its shortest decimal. */
  cells: string[];
}

/** What reading a bill needs from the ledger it goes into. */
export interface ImportContext {
  categories: readonly CategoryCandidate[];
  /** Names of the user's accounts. */
  accounts: readonly string[];
  /** The category the user chose for a merchant's rows before, keyed by merchantKey(type, merchant). */
  merchantCategories: ReadonlyMap<string, string>;
  /** The ledger's side of refunds that cross bills; without it a bill is read on its own. */
  refunds?: RefundLedger;
}

/** An imported purchase in the ledger that a refund in a later bill may return. */
export interface LedgerPurchase {
  id: string;
  /** `YYYY-MM-DD HH:MM:SS`, local time as the bill wrote it. */
  stamp: string;
  amountFen: number;
  /** What refunds linked to it already return. */
  refundedFen: number;
  merchant: string;
  description: string;
}

/** An imported refund in the ledger whose purchase is not there (待关联). */
export interface WaitingRefund {
  id: string;
  stamp: string;
  amountFen: number;
  merchant: string;
  description: string;
  /** The id its purchase is expected under (no row has it yet). */
  refundOf: string;
}

export interface RefundLedger {
  /** Imported purchases of this account between the two days (inclusive). */
  purchases(account: string, from: string, to: string): LedgerPurchase[];
  /** Imported refunds of this account still waiting for their purchase. */
  waiting(account: string): WaitingRefund[];
}

export function merchantKey(type: TransactionType, merchant: string): string {
  return `${type}:${merchant}`;
}

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
}

export function merchantKey(type: TransactionType, merchant: string): string {
  return `${type}:${merchant}`;
}

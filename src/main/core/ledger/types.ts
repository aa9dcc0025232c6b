// The row, patch and query shapes the ledger's parts and its callers share. A leaf: the parts
// import their types from here, never from the Ledger facade that assembles them.
import type { LedgerFlow, TransactionRow, TransactionType } from '@shared/domain';
import type { ImportRowDto, LedgerFilter, ListCursor } from '@shared/ipc/ledger';

/** A page of the list: `limit` rows (default 50) past `after` (absent: from the newest). */
export interface ListQuery extends LedgerFilter {
  limit?: number;
  after?: ListCursor;
}

/** What a save wrote: the rows as the app shows them and as stored (what undo puts back). */
export interface SavedBatch {
  rows: TransactionRow[];
  raw: RawTransaction[];
}

/** A stored row exactly as in the table, so undo/redo can put it back bit for bit. */
export interface RawTransaction {
  id: string;
  amount_fen: number;
  currency: string;
  type: TransactionType;
  category_id: number;
  account_id: number;
  description: string;
  occurred_at: string;
  occurred_date: string;
  occurred_ms: number;
  source: string;
  created_at: string;
  updated_at: string;
  to_account_id: number | null;
  counterparty: string;
  flow: LedgerFlow | null;
  person_id: number | null;
  refund_of: string | null;
  reimbursable: 0 | 1;
  reimbursed_by: string | null;
  /** A recurring rule's occurrence: the rule's key and the day (see migration 7). */
  recurrence_key: string | null;
  /** The name of the computer that recorded the row (记账人, migration 12); null before then. Optional: older snapshots lack it. */
  recorded_by?: string | null;
  /**
   * Not a column: the row's tags by name, in order (transaction_tags), so an undo puts them
   * back too — by name, making a tag again that was deleted meanwhile. Absent: leave them.
   */
  tags?: string[];
}

/**
 * [date, occurredAt, type, category, amountFen, account, description, occurredMs, rowid,
 * toAccount, counterparty, flow, reimbursable, id, refundOf, reimbursedBy, tags, parentCategory]. toAccount and
 * counterparty name a TRANSFER's target (null and '' otherwise); a debt or write-off names
 * its person in counterparty. tags are joined with TAG_SEPARATOR (null: none); parentCategory
 * is a sub-category's parent (null: top level). Raw tuples: an export reads up to a million of them.
 */
export type ExportRow = [
  string,
  string,
  TransactionType,
  string,
  number,
  string,
  string,
  number,
  number,
  string | null,
  string,
  LedgerFlow | null,
  0 | 1,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
];

/** The named cells of an export row, for the writers (CSV and xlsx). */
export function exportCells(row: ExportRow) {
  return {
    date: row[0],
    time: row[1].slice(11, 19),
    type: row[2],
    category: row[3],
    amountFen: row[4],
    account: row[5],
    description: row[6],
    toAccount: row[9],
    counterparty: row[10],
    flow: row[11],
    reimbursable: row[12],
    id: row[13],
    refundOf: row[14],
    reimbursedBy: row[15],
    tags: row[16],
    parentCategory: row[17],
  };
}

/** Where the previous export chunk ended. */
export interface ExportCursor {
  date: string;
  ms: number;
  rowid: number;
}

/** One row of an import file, already validated (time HH:MM:SS in the user's current offset). */
/** A row read from an import file; a bill's row has its identity in the bill as its id (see bills/bill-rows.ts). */
export type ImportRow = Omit<ImportRowDto, 'index' | 'status' | 'pendingRefund'>;

export interface TransactionPatch {
  amountFen?: number;
  type?: TransactionType;
  category?: string;
  account?: string;
  description?: string;
  date?: string;
  /** For a TRANSFER: the account it goes to (clears the counterparty). */
  toAccount?: string;
  /** For a TRANSFER: who outside the user's accounts it goes to (clears the to-account). */
  counterparty?: string;
  /** A plain expense: 待报销 or not. */
  reimbursable?: boolean;
  /** A refund: the expense it returns (null: none). */
  refundOf?: string | null;
  /** The row's whole tag set, replacing the old one. */
  tags?: string[];
}

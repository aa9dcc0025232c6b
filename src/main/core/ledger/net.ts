// Net spending and income. The summaries sum every row under its own type from the covering
// indexes; the few rows that count otherwise (refunds, reimbursements, 待报销) are read from
// one partial index and corrected here, so the hot sums stay index-only at any ledger size.
import type Database from 'better-sqlite3';
import type { LedgerFlow, TransactionType } from '@shared/domain';
import type { ImportRow } from './types';

/** Marked rows of one day, type, category and kind, summed. */
export interface MarkedGroup {
  date: string;
  type: TransactionType;
  categoryId: number;
  flow: LedgerFlow | null;
  reimbursable: 0 | 1;
  /** 1: refunds waiting for their purchase (待关联: it is in no bill imported yet), which count nothing until it arrives. */
  awaiting: 0 | 1;
  fen: number;
  n: number;
}

/** A correction to a sum that counted every row under its own type: add fen and n. */
export interface Adjustment {
  type: TransactionType;
  fen: number;
  n: number;
}

/** Whether 待报销 expenses count as spending (default: no, they are paid back). */
export interface NetOptions {
  includeReimbursed?: boolean;
}

export const MARKED = '(t.flow IS NOT NULL OR t.reimbursable = 1)';

/**
 * An imported refund linked to a purchase the ledger does not hold (yet): it returns money
 * never spent in these books. A refund the user recorded stays netted in its category even
 * when its expense is gone: they said it was a refund.
 */
export const AWAITING =
  "(t.flow = 'refund' AND t.source = 'import' AND t.refund_of IS NOT NULL AND NOT EXISTS (SELECT 1 FROM transactions p WHERE p.id = t.refund_of))";

/** The marked rows selected by `where` (over `transactions t`, may be empty), grouped. */
export function markedGroups(db: Database.Database, where: string, params: readonly unknown[]): MarkedGroup[] {
  const clause = where ? `${where} AND ${MARKED}` : `WHERE ${MARKED}`;
  return db
    .prepare(
      `SELECT t.occurred_date AS date, t.type, t.category_id AS categoryId, t.flow, t.reimbursable, ${AWAITING} AS awaiting,
         SUM(t.amount_fen) AS fen, COUNT(*) AS n
       FROM transactions t INDEXED BY transactions_marked ${clause}
       GROUP BY t.occurred_date, t.type, t.category_id, t.flow, t.reimbursable, awaiting`,
    )
    .all(...params) as MarkedGroup[];
}

/**
 * How a group's rows count, less how the plain sums counted them (fen under their type, one
 * row each): a 待报销 expense (and a refund of one) not at all unless asked for; a refund as
 * negative spending in its category, unless it waits for its purchase (then not at all); a
 * reimbursement not as income. Debts are transfers and a write-off is plain spending: nothing
 * to correct.
 */
export function adjustments(g: Omit<MarkedGroup, 'date' | 'categoryId'>, options: NetOptions = {}): Adjustment[] {
  const asCounted: Adjustment = { type: g.type, fen: -g.fen, n: -g.n };
  if (g.awaiting === 1) return [asCounted];
  if (g.reimbursable === 1 && !options.includeReimbursed) return [asCounted];
  if (g.flow === 'refund') return [{ type: 'EXPENSE', fen: -2 * g.fen, n: 0 }];
  if (g.flow === 'reimbursement') return [asCounted];
  return [];
}

/**
 * adjustments() summed in the database, for sums over many rows (the 统计 page's): the marked
 * rows `where` selects (over `transactions t`, `t.occurred_date` at least), as one line per
 * `key` (an expression over t) and type corrected: the fen and the count to add to that type's
 * plain sum. A row that counts nothing takes its amount and itself off its own type; a counted
 * refund takes twice its amount off spending; other marked rows count as plain. Few lines leave
 * the database (one per key and type, not one per kind of row): that is the point. net.test.ts
 * holds it to adjustments()'s answers.
 */
export function correctionsSql(key: string, where: string, options: NetOptions = {}): string {
  const uncounted = `(t.flow = 'reimbursement'${options.includeReimbursed ? '' : ' OR t.reimbursable = 1'} OR ${AWAITING})`;
  // Materialized so the rule (a lookup of the refunded row for a refund) runs once per row.
  return `WITH m AS MATERIALIZED (
      SELECT ${key} AS key, t.type, t.flow, t.amount_fen AS fen, ${uncounted} AS uncounted
      FROM transactions t INDEXED BY transactions_marked ${where} AND ${MARKED})
    SELECT key, IIF(uncounted, type, 'EXPENSE') AS type, SUM(IIF(uncounted, -fen, -2 * fen)) AS fen, -SUM(uncounted) AS n
    FROM m WHERE uncounted OR flow = 'refund' GROUP BY key, 2`;
}

/**
 * Spending and income of rows about to be written, as 统计 counts them: each row under its
 * type, corrected by the same adjustments as 统计's sums — a refund off spending unless it
 * waits for its purchase, a 待报销 expense and a reimbursement not counted; transfers are neither.
 */
export function countedTotals(
  rows: readonly ImportRow[],
  awaiting: (row: ImportRow) => boolean = () => false,
): { expenseFen: number; incomeFen: number } {
  const fen: Record<TransactionType, number> = { EXPENSE: 0, INCOME: 0, TRANSFER: 0 };
  for (const r of rows) {
    fen[r.type] += r.amountFen;
    const group = {
      type: r.type,
      flow: r.flow ?? null,
      reimbursable: r.reimbursable ? 1 : 0,
      awaiting: r.flow === 'refund' && awaiting(r) ? 1 : 0,
      fen: r.amountFen,
      n: 1,
    } as const;
    for (const a of adjustments(group)) fen[a.type] += a.fen;
  }
  return { expenseFen: fen.EXPENSE, incomeFen: fen.INCOME };
}

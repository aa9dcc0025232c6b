import type Database from 'better-sqlite3';
import type { LedgerPurchase, RefundLedger, WaitingRefund } from './bills/table';

/**
 * What a bill's refunds need to know of the ledger: the purchases earlier imports brought in
 * (a refund in this bill may return one), and the refunds earlier imports brought in before
 * their purchase (a purchase in this bill may be theirs). Reads only.
 */
export class ImportRefunds implements RefundLedger {
  private readonly purchaseRows: Database.Statement;
  private readonly waitingRows: Database.Statement;
  private readonly exists: Database.Statement;

  constructor(db: Database.Database) {
    // occurred_at is the bill's local time with its offset: the stamp is that local time.
    const facts = `t.id, replace(substr(t.occurred_at, 1, 19), 'T', ' ') AS stamp, t.amount_fen AS amountFen,
      COALESCE(m.merchant, '') AS merchant, t.description`;
    this.purchaseRows = db.prepare(
      `SELECT ${facts},
         COALESCE((SELECT SUM(x.amount_fen) FROM transactions x WHERE x.refund_of = t.id AND x.flow = 'refund'), 0) AS refundedFen
       FROM transactions t JOIN accounts a ON a.id = t.account_id LEFT JOIN imported_merchants m ON m.transaction_id = t.id
       WHERE a.name = ? AND t.occurred_date BETWEEN ? AND ? AND t.source = 'import' AND t.type = 'EXPENSE' AND t.flow IS NULL`,
    );
    this.waitingRows = db.prepare(
      `SELECT ${facts}, t.refund_of AS refundOf
       FROM transactions t INDEXED BY transactions_refunds JOIN accounts a ON a.id = t.account_id
         LEFT JOIN imported_merchants m ON m.transaction_id = t.id
       WHERE t.refund_of IS NOT NULL AND t.flow = 'refund' AND t.source = 'import' AND a.name = ?
         AND NOT EXISTS (SELECT 1 FROM transactions p WHERE p.id = t.refund_of)`,
    );
    this.exists = db.prepare('SELECT 1 FROM transactions WHERE id = ?').pluck();
  }

  purchases(account: string, from: string, to: string): LedgerPurchase[] {
    return this.purchaseRows.all(account, from, to) as LedgerPurchase[];
  }

  waiting(account: string): WaitingRefund[] {
    return this.waitingRows.all(account) as WaitingRefund[];
  }

  /** Whether the ledger holds a row of this id. */
  has(id: string): boolean {
    return this.exists.get(id) !== undefined;
  }
}

// Text search (the searchTransactions command): Ledger.search against one hand-written
// statement — the same joins for the row's names (category and its parent, accounts, person,
// the refunded expense, the reimbursement), the row's tags in their order from a correlated
// group_concat, the same LIKE on description or category name newest first with LIMIT — and
// each row turned into the same TransactionRow (optional fields only where the app sets them).
import type { TransactionRow } from '@shared/domain';
import type { PairFactory } from './pair';

/** One in 997 descriptions holds it: the newest 50 lie among ≈ 50 000 rows, read newest first. */
const TEXT = '条目996';
const LIMIT = 50;

type Cells = [
  string,
  number,
  string,
  TransactionRow['type'],
  string,
  string,
  string,
  string,
  string,
  TransactionRow['source'],
  string,
  string,
  string | null,
  string,
  TransactionRow['flow'] | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
];

const search: PairFactory = ({ ledger, db }) => {
  const stmt = db
    .prepare(
      `SELECT t.id, t.amount_fen, t.currency, t.type, c.name, a.name, t.description, t.occurred_at, t.occurred_date, t.source,
         t.created_at, t.updated_at, ta.name, t.counterparty, t.flow, p.name, rf.id, t.refund_of, rf.occurred_date, rf.description,
         rf.amount_fen, t.reimbursable, rb.id, pc.name, t.recorded_by,
         (SELECT group_concat(g.name, ';' ORDER BY tt.rowid) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.transaction_id = t.id)
       FROM transactions t
       JOIN categories c ON c.id = t.category_id
       LEFT JOIN categories pc ON pc.id = c.parent_id
       JOIN accounts a ON a.id = t.account_id
       LEFT JOIN accounts ta ON ta.id = t.to_account_id
       LEFT JOIN people p ON p.id = t.person_id
       LEFT JOIN transactions rf ON rf.id = t.refund_of
       LEFT JOIN transactions rb ON rb.id = t.reimbursed_by
       WHERE t.description LIKE @pattern ESCAPE '\\' OR c.name LIKE @pattern ESCAPE '\\'
       ORDER BY t.occurred_date DESC, t.occurred_ms DESC LIMIT @limit`,
    )
    .raw(true);
  const pattern = `%${TEXT.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return {
    name: 'ratios.search',
    project: () => ledger.search(TEXT, LIMIT),
    raw: () =>
      (stmt.all({ pattern, limit: LIMIT }) as Cells[]).map((r) => {
        const row: TransactionRow = {
          id: r[0],
          amountFen: r[1],
          currency: r[2],
          type: r[3],
          category: r[4],
          account: r[5],
          description: r[6],
          occurredAt: r[7],
          date: r[8],
          source: r[9],
          createdAt: r[10],
          updatedAt: r[11],
        };
        if (r[3] === 'TRANSFER') {
          row.toAccount = r[12];
          row.counterparty = r[13];
        }
        if (r[14]) row.flow = r[14];
        if (r[15] !== null) row.person = r[15];
        if (r[14] === 'refund') {
          row.refundOf = r[16];
          if (r[16] !== null) row.refundTarget = { date: r[18]!, description: r[19]!, amountFen: r[20]! };
          if (r[9] === 'import' && r[17] !== null && r[16] === null) row.awaitingPurchase = true;
        }
        if (r[21] === 1) row.reimbursable = true;
        if (r[22] !== null) row.reimbursedBy = r[22];
        if (r[23] !== null) row.parentCategory = r[23];
        if (r[25] !== null) row.tags = r[25].split(';');
        if (r[24] !== null) row.recordedBy = r[24];
        return row;
      }),
  };
};

export default search;

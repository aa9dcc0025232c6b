// Text search (the searchTransactions command): Ledger.search against one hand-written
// statement — the same joins for the row's names (category and its parent, accounts, person,
// the refunded expense, the reimbursement), the row's tags in their order from a correlated
// group_concat, the same LIKE on description or category name newest first with LIMIT — and
// each row turned into the same TransactionRow (optional fields only where the app sets them).
import type { PairFactory } from './pair';
import { COLUMNS, toRow, type Cells } from './raw-rows';

/** One in 997 descriptions holds it: the newest 50 lie among ≈ 50 000 rows, read newest first. */
const TEXT = '条目996';
const LIMIT = 50;

const search: PairFactory = ({ ledger, db }) => {
  const stmt = db
    .prepare(
      `${COLUMNS}
       WHERE t.description LIKE @pattern ESCAPE '\\' OR c.name LIKE @pattern ESCAPE '\\'
       ORDER BY t.occurred_date DESC, t.occurred_ms DESC LIMIT @limit`,
    )
    .raw(true);
  const pattern = `%${TEXT.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return {
    name: 'ratios.search',
    project: () => ledger.search(TEXT, LIMIT),
    raw: () => (stmt.all({ pattern, limit: LIMIT }) as Cells[]).map(toRow),
  };
};

export default search;

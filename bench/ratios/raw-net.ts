// Hand-written SQL for the net sums the month summary and the 统计 page show, shared by their
// raw sides. Net as the app counts it: a refund (an EXPENSE row, flow 'refund') is negative
// spending in its category, unless it is an imported refund whose purchase is not in the
// ledger (then it counts nothing); a 待报销 expense (reimbursable = 1) and a reimbursement
// (flow 'reimbursement') count nothing; a row counts under its category only when their types
// agree. The plain sums are read from the (type, category_id, occurred_date, amount_fen) index
// one category at a time, and the few marked rows (flows, 待报销) from their partial index and
// subtracted: both index-only, which is what a hand-writer who knows the schema writes.
import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import type { CategoryRollup, CategoryTotal, TrendPoint } from '@shared/ipc/ledger';

/** 1 when the row counts nothing (see above), over `transactions t`. */
const UNCOUNTED = `(t.reimbursable = 1 OR t.flow = 'reimbursement'
  OR (t.flow = 'refund' AND t.source = 'import' AND t.refund_of IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM transactions p WHERE p.id = t.refund_of)))`;

/** The marked rows of the range @from..@to, over `transactions t`: only they differ from a plain sum. */
const MARKED_IN_RANGE = `FROM transactions t INDEXED BY transactions_marked
  WHERE t.occurred_date BETWEEN @from AND @to AND (t.flow IS NOT NULL OR t.reimbursable = 1)`;

/**
 * Per category with counted rows in @from..@to: plain sum and count from the category's index
 * range, less the marked rows' correction (an uncounted row: its amount and itself; a counted
 * refund: twice its amount, once to take it out and once as negative), largest first, ties in
 * the user's category order.
 */
const CATEGORY_TOTALS = `
  WITH plain AS (
    SELECT c.id, SUM(t.amount_fen) AS fen, COUNT(*) AS n
    FROM categories c CROSS JOIN transactions t INDEXED BY transactions_by_type_category_day
    WHERE t.type = c.type AND t.category_id = c.id AND t.occurred_date BETWEEN @from AND @to
    GROUP BY c.id),
  fix AS (
    SELECT t.category_id AS id,
      SUM(CASE WHEN ${UNCOUNTED} THEN -t.amount_fen WHEN t.flow = 'refund' THEN -2 * t.amount_fen ELSE 0 END) AS fen,
      SUM(CASE WHEN ${UNCOUNTED} THEN -1 ELSE 0 END) AS n
    ${MARKED_IN_RANGE} AND t.type = (SELECT type FROM categories WHERE id = t.category_id)
    GROUP BY t.category_id)
  SELECT c.type, c.name AS category, plain.fen + IFNULL(fix.fen, 0) AS totalFen, plain.n + IFNULL(fix.n, 0) AS count, p.name AS parent
  FROM plain JOIN categories c ON c.id = plain.id LEFT JOIN fix ON fix.id = plain.id LEFT JOIN categories p ON p.id = c.parent_id
  WHERE plain.n + IFNULL(fix.n, 0) > 0
  ORDER BY totalFen DESC, c.sort_order, c.sync_id, c.id`;

/**
 * Every day of @from..@to (a recursive calendar, zeros included) with its net spending and income:
 * the plain sums per day in the (occurred_date, type, category_id, amount_fen) index's order,
 * corrected by the marked rows of the day.
 */
const DAILY_TREND = `
  WITH RECURSIVE calendar(day) AS (SELECT @from UNION ALL SELECT date(day, '+1 day') FROM calendar WHERE day < @to),
  plain AS (
    SELECT t.occurred_date AS day,
      SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen ELSE 0 END) AS expense,
      SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen ELSE 0 END) AS income
    FROM transactions t INDEXED BY transactions_by_day_type_category WHERE t.occurred_date BETWEEN @from AND @to
    GROUP BY t.occurred_date),
  fix AS (
    SELECT t.occurred_date AS day,
      SUM(CASE WHEN t.type = 'EXPENSE' AND ${UNCOUNTED} THEN -t.amount_fen WHEN t.flow = 'refund' THEN -2 * t.amount_fen ELSE 0 END) AS expense,
      SUM(CASE WHEN t.type = 'INCOME' AND ${UNCOUNTED} THEN -t.amount_fen ELSE 0 END) AS income
    ${MARKED_IN_RANGE}
    GROUP BY t.occurred_date)
  SELECT calendar.day AS key, IFNULL(plain.expense, 0) + IFNULL(fix.expense, 0) AS expenseFen,
    IFNULL(plain.income, 0) + IFNULL(fix.income, 0) AS incomeFen
  FROM calendar LEFT JOIN plain ON plain.day = calendar.day LEFT JOIN fix ON fix.day = calendar.day
  ORDER BY calendar.day`;

/** The two statements, prepared once as a hand-writer would. */
export function rawNet(db: Database.Database) {
  const totals = db.prepare(CATEGORY_TOTALS);
  const trend = db.prepare(DAILY_TREND);
  return {
    categoryTotals(from: string, to: string): CategoryTotal[] {
      const rows = totals.all({ from, to }) as (CategoryTotal & { parent: string | null })[];
      for (const r of rows) if (r.parent === null) delete (r as CategoryTotal).parent;
      return rows;
    },
    dailyTrend: (from: string, to: string) => trend.all({ from, to }) as TrendPoint[],
  };
}

export function sumOf(lines: readonly CategoryTotal[], type: TransactionType): number {
  let fen = 0;
  for (const l of lines) if (l.type === type) fen += l.totalFen;
  return fen;
}

/** The 统计 page's roll-up, written out: lines grouped under their top-level category, groups largest first. */
export function rollUpRaw(lines: readonly CategoryTotal[]): CategoryRollup[] {
  const groups = new Map<string, CategoryRollup & { nested: boolean }>();
  for (const l of lines) {
    const top = l.parent ?? l.category;
    const key = `${l.type}:${top}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { type: l.type, category: top, totalFen: 0, count: 0, children: [], nested: false }));
    g.totalFen += l.totalFen;
    g.count += l.count;
    g.children.push({ ...l });
    if (l.parent !== undefined) g.nested = true;
  }
  const out: CategoryRollup[] = [];
  for (const { nested, ...g } of groups.values()) out.push(nested ? g : { ...g, children: [] });
  return out.sort((a, b) => b.totalFen - a.totalFen);
}

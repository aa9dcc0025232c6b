import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import type { CategoryTotal, MonthSummary } from '@shared/ipc/index';
import type { DayTotal, LedgerFilter, PeriodStats, TrendPoint } from '@shared/ipc/ledger';
import { addDays } from '@shared/time';
import type { LedgerTotals } from '../voice/ports';
import { filterClause } from './filter';
import { adjustments, markedGroups, type Adjustment, type NetOptions } from './net';

/**
 * The read-side summaries of the transactions: sums in integer fen, never rows. Spending is
 * net (./net.ts): refunds lower it, reimbursements are not income, 待报销 is left out unless
 * `includeReimbursed`.
 */
export class Stats {
  constructor(private readonly db: Database.Database) {}

  /** Totals by type and category for a calendar month (YYYY-MM), sums in integer fen. */
  monthSummary(month: string, options: NetOptions = {}): MonthSummary {
    const byCategory = this.categoryTotals(`${month}-01`, `${month}-31`, options);
    const sum = (type: TransactionType) => byCategory.filter((c) => c.type === type).reduce((n, c) => n + c.totalFen, 0);
    return { month, expenseFen: sum('EXPENSE'), incomeFen: sum('INCOME'), transferFen: sum('TRANSFER'), byCategory };
  }

  /** Without a type: income and expense rows together; transfers only when asked for by type. */
  totals(query: { from: string; to: string; type?: TransactionType; category?: string } & NetOptions): LedgerTotals {
    const filtered = filterClause(query);
    const where = query.type ? filtered.where : `${filtered.where ? `${filtered.where} AND` : 'WHERE'} +t.type <> 'TRANSFER'`;
    const params = filtered.params;
    const r = this.db
      .prepare(`SELECT COALESCE(SUM(t.amount_fen), 0) AS totalFen, COUNT(*) AS count FROM transactions t ${where}`)
      .get(...params) as LedgerTotals;
    let { totalFen, count } = r;
    for (const g of markedGroups(this.db, where, params)) {
      for (const a of adjustments(g, query)) {
        if (query.type ? a.type !== query.type : a.type === 'TRANSFER') continue;
        totalFen += a.fen;
        count += a.n;
      }
    }
    return { totalFen, count };
  }

  /** The days of the filtered set, newest first, with their totals: the list's day headers. */
  days(query: LedgerFilter = {}): DayTotal[] {
    const { where, params } = filterClause(query);
    const days = this.db
      .prepare(
        `SELECT t.occurred_date AS date, COUNT(*) AS count,
           COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
           COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
         FROM transactions t ${where} GROUP BY t.occurred_date ORDER BY t.occurred_date DESC`,
      )
      .all(...params) as DayTotal[];
    const byDate = new Map(days.map((d) => [d.date, d]));
    for (const g of markedGroups(this.db, where, params)) applyTo(byDate.get(g.date), adjustments(g));
    return days;
  }

  /** Totals, per-category sums and a zero-filled trend for an inclusive day range, all in fen. */
  periodStats(query: { from: string; to: string; granularity: 'day' | 'month' } & NetOptions): PeriodStats {
    const { from, to, granularity } = query;
    const byCategory = this.categoryTotals(from, to, query);
    const keyLength = granularity === 'month' ? 7 : 10;
    // Grouped by day in index order (no sort), then rolled up to months here: ≤ 366 rows.
    const days = this.db
      .prepare(
        `SELECT t.occurred_date AS key,
           COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
           COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
         FROM transactions t WHERE t.occurred_date BETWEEN ? AND ? GROUP BY t.occurred_date`,
      )
      .all(from, to) as TrendPoint[];
    const byDay = new Map(days.map((d) => [d.key, d]));
    for (const g of markedGroups(this.db, 'WHERE t.occurred_date BETWEEN ? AND ?', [from, to])) applyTo(byDay.get(g.date), adjustments(g, query));
    const byKey = new Map<string, TrendPoint>();
    for (const d of days) {
      const key = d.key.slice(0, keyLength);
      const point = byKey.get(key) ?? { key, expenseFen: 0, incomeFen: 0 };
      point.expenseFen += d.expenseFen;
      point.incomeFen += d.incomeFen;
      byKey.set(key, point);
    }
    const trend: TrendPoint[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const key = day.slice(0, keyLength);
      if (trend.at(-1)?.key === key) continue;
      trend.push(byKey.get(key) ?? { key, expenseFen: 0, incomeFen: 0 });
    }
    const sum = (type: TransactionType) => byCategory.filter((c) => c.type === type).reduce((n, c) => n + c.totalFen, 0);
    const expenseFen = sum('EXPENSE');
    const incomeFen = sum('INCOME');
    return {
      from,
      to,
      expenseFen,
      incomeFen,
      transferFen: sum('TRANSFER'),
      balanceFen: incomeFen - expenseFen,
      count: byCategory.reduce((n, c) => n + c.count, 0),
      byCategory,
      trend,
    };
  }

  /**
   * Sum and count per category over an inclusive day range, largest first. One short range
   * read per category on (type, category_id, occurred_date, amount_fen) beats a GROUP BY,
   * which would sort every row of the range.
   */
  private categoryTotals(from: string, to: string, options: NetOptions): CategoryTotal[] {
    const categories = this.db.prepare('SELECT id, name, type FROM categories ORDER BY sort_order, sync_id, id').all() as {
      id: number;
      name: string;
      type: TransactionType;
    }[];
    const sum = this.db.prepare(
      `SELECT COALESCE(SUM(amount_fen), 0) AS totalFen, COUNT(*) AS count FROM transactions
       WHERE type = ? AND category_id = ? AND occurred_date BETWEEN ? AND ?`,
    );
    const corrections = new Map<string, Adjustment>();
    for (const g of markedGroups(this.db, 'WHERE t.occurred_date BETWEEN ? AND ?', [from, to])) {
      for (const a of adjustments(g, options)) {
        const key = `${a.type}:${g.categoryId}`;
        const c = corrections.get(key) ?? { type: a.type, fen: 0, n: 0 };
        c.fen += a.fen;
        c.n += a.n;
        corrections.set(key, c);
      }
    }
    const totals: CategoryTotal[] = [];
    for (const c of categories) {
      const r = sum.get(c.type, c.id, from, to) as { totalFen: number; count: number };
      const fix = corrections.get(`${c.type}:${c.id}`);
      const totalFen = r.totalFen + (fix?.fen ?? 0);
      const count = r.count + (fix?.n ?? 0);
      if (count > 0) totals.push({ type: c.type, category: c.name, totalFen, count });
    }
    // Stable sort keeps the user's category order among equal sums.
    return totals.sort((a, b) => b.totalFen - a.totalFen);
  }
}

/** Corrects a day's (or trend point's) expense and income by the marked rows' adjustments. */
function applyTo(point: { expenseFen: number; incomeFen: number } | undefined, list: readonly Adjustment[]): void {
  if (!point) return;
  for (const a of list) {
    if (a.type === 'EXPENSE') point.expenseFen += a.fen;
    else if (a.type === 'INCOME') point.incomeFen += a.fen;
  }
}

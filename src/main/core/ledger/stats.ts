import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import type { CategoryTotal, MonthSummary } from '@shared/ipc/index';
import type { CategoryRollup, DayTotal, LedgerFilter, PeriodStats, TrendPoint } from '@shared/ipc/ledger';
import { addDays } from '@shared/time';
import type { LedgerTotals } from '../voice/ports';
import { filterClause, TAG_CLAUSE } from './filter';
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

  /**
   * Totals, per-category sums (and their roll-up under top-level categories) and a
   * zero-filled trend for an inclusive day range, all in fen; with `tag`, of its rows only.
   */
  periodStats(query: { from: string; to: string; granularity: 'day' | 'month'; tag?: string } & NetOptions): PeriodStats {
    const { from, to, granularity } = query;
    const byCategory = this.categoryTotals(from, to, query, query.tag);
    const keyLength = granularity === 'month' ? 7 : 10;
    const range = rangeWhere(from, to, query.tag);
    // Grouped by day in index order (no sort), then rolled up to months here: ≤ 366 rows.
    const days = this.db
      .prepare(
        `SELECT t.occurred_date AS key,
           COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
           COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
         FROM transactions t ${range.where} GROUP BY t.occurred_date`,
      )
      .all(...range.params) as TrendPoint[];
    const byDay = new Map(days.map((d) => [d.key, d]));
    for (const g of markedGroups(this.db, range.where, range.params)) applyTo(byDay.get(g.date), adjustments(g, query));
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
      byParent: rollUp(byCategory),
      trend,
    };
  }

  /**
   * Sum and count per category over an inclusive day range, largest first; a sub-category's
   * line names its parent. One short range read per category on (type, category_id,
   * occurred_date, amount_fen) beats a GROUP BY, which would sort every row of the range.
   * With a tag, its links are read instead and grouped: a tag holds few rows of a period.
   */
  private categoryTotals(from: string, to: string, options: NetOptions, tag?: string): CategoryTotal[] {
    const categories = this.db
      .prepare('SELECT c.id, c.name, c.type, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id ORDER BY c.sort_order, c.sync_id, c.id')
      .all() as {
      id: number;
      name: string;
      type: TransactionType;
      parent: string | null;
    }[];
    const range = rangeWhere(from, to, tag);
    const sumOf = tag ? this.taggedSums(range) : this.categorySum(from, to);
    const corrections = new Map<string, Adjustment>();
    for (const g of markedGroups(this.db, range.where, range.params)) {
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
      const r = sumOf(c.type, c.id);
      const fix = corrections.get(`${c.type}:${c.id}`);
      const totalFen = r.totalFen + (fix?.fen ?? 0);
      const count = r.count + (fix?.n ?? 0);
      if (count > 0) totals.push({ type: c.type, category: c.name, totalFen, count, ...(c.parent !== null ? { parent: c.parent } : {}) });
    }
    // Stable sort keeps the user's category order among equal sums.
    return totals.sort((a, b) => b.totalFen - a.totalFen);
  }

  /** The plain sum of one category's rows of a type in the range, from the covering index. */
  private categorySum(from: string, to: string): (type: TransactionType, categoryId: number) => { totalFen: number; count: number } {
    const sum = this.db.prepare(
      `SELECT COALESCE(SUM(amount_fen), 0) AS totalFen, COUNT(*) AS count FROM transactions
       WHERE type = ? AND category_id = ? AND occurred_date BETWEEN ? AND ?`,
    );
    return (type, categoryId) => sum.get(type, categoryId, from, to) as { totalFen: number; count: number };
  }

  /** The plain sums of the tagged rows in the range, by type and category, read at once. */
  private taggedSums(range: { where: string; params: unknown[] }): (type: TransactionType, categoryId: number) => { totalFen: number; count: number } {
    const rows = this.db
      .prepare(
        `SELECT t.type, t.category_id AS categoryId, SUM(t.amount_fen) AS totalFen, COUNT(*) AS count
         FROM transactions t ${range.where} GROUP BY t.type, t.category_id`,
      )
      .all(...range.params) as { type: TransactionType; categoryId: number; totalFen: number; count: number }[];
    const byKey = new Map(rows.map((r) => [`${r.type}:${r.categoryId}`, r]));
    return (type, categoryId) => byKey.get(`${type}:${categoryId}`) ?? { totalFen: 0, count: 0 };
  }
}

/** The rows of an inclusive day range, of one tag's when given, as a WHERE over `transactions t`. */
function rangeWhere(from: string, to: string, tag: string | undefined): { where: string; params: unknown[] } {
  return tag
    ? { where: `WHERE t.occurred_date BETWEEN ? AND ? AND ${TAG_CLAUSE}`, params: [from, to, tag] }
    : { where: 'WHERE t.occurred_date BETWEEN ? AND ?', params: [from, to] };
}

/**
 * Category lines rolled up under their top-level categories (see CategoryRollup): a parent's
 * line sums its own rows and its children's, lines within and the roll-ups largest first.
 */
export function rollUp(byCategory: readonly CategoryTotal[]): CategoryRollup[] {
  const groups = new Map<string, CategoryTotal[]>();
  for (const line of byCategory) {
    const key = `${line.type}:${line.parent ?? line.category}`;
    const group = groups.get(key);
    if (group) group.push(line);
    else groups.set(key, [line]);
  }
  const rollups: CategoryRollup[] = [];
  for (const lines of groups.values()) {
    const first = lines[0]!;
    const hasChild = lines.some((l) => l.parent !== undefined);
    rollups.push({
      type: first.type,
      category: first.parent ?? first.category,
      totalFen: lines.reduce((n, l) => n + l.totalFen, 0),
      count: lines.reduce((n, l) => n + l.count, 0),
      // byCategory is largest first already; a stable filter keeps that order.
      children: hasChild ? lines.map((l) => ({ ...l })) : [],
    });
  }
  return rollups.sort((a, b) => b.totalFen - a.totalFen);
}

/** Corrects a day's (or trend point's) expense and income by the marked rows' adjustments. */
function applyTo(point: { expenseFen: number; incomeFen: number } | undefined, list: readonly Adjustment[]): void {
  if (!point) return;
  for (const a of list) {
    if (a.type === 'EXPENSE') point.expenseFen += a.fen;
    else if (a.type === 'INCOME') point.incomeFen += a.fen;
  }
}

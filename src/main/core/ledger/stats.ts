import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import type { CategoryTotal, MonthSummary } from '@shared/ipc/index';
import type { CategoryRollup, DayTotal, LedgerFilter, PeriodStats, TrendPoint } from '@shared/ipc/ledger';
import { addDays } from '@shared/time';
import type { LedgerTotals } from '../voice/ports';
import { filterClause } from './filter';
import { adjustments, AWAITING, correctionsSql, markedGroups, type Adjustment, type MarkedGroup, type NetOptions } from './net';

/**
 * The read-side summaries of the transactions: sums in integer fen, never rows. Spending is
 * net (./net.ts): refunds lower it, reimbursements are not income, 待报销 is left out unless
 * `includeReimbursed`.
 */
export class Stats {
  /** Statements by their SQL: the summaries run the same few on every view of 首页 and 统计. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Totals by type and category for a calendar month (YYYY-MM), sums in integer fen. */
  monthSummary(month: string, options: NetOptions = {}): MonthSummary {
    const byCategory = this.categoryTotals(this.range(`${month}-01`, `${month}-31`, options));
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
    const range = query.tag === undefined ? this.range(from, to, query) : this.taggedRange(from, to, query.tag, query);
    const byCategory = this.categoryTotals(range);
    const keyLength = granularity === 'month' ? 7 : 10;
    const days = range.days();
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
   * Sum and count per category over the range, largest first, net (./net.ts); a
   * sub-category's line names its parent.
   */
  private categoryTotals(range: RangeSums): CategoryTotal[] {
    const categories = this.prepared(
      'SELECT c.id, c.name, c.type, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id ORDER BY c.sort_order, c.sync_id, c.id',
    ).all() as { id: number; name: string; type: TransactionType; parent: string | null }[];
    const sums = range.byCategory();
    const totals: CategoryTotal[] = [];
    for (const c of categories) {
      const r = sums.get(`${c.type}:${c.id}`);
      if (r && r.count > 0)
        totals.push({ type: c.type, category: c.name, totalFen: r.totalFen, count: r.count, ...(c.parent !== null ? { parent: c.parent } : {}) });
    }
    // Stable sort keeps the user's category order among equal sums.
    return totals.sort((a, b) => b.totalFen - a.totalFen);
  }

  /**
   * Every row of an inclusive day range, read from the indexes and summed in the database:
   * the categories as the outer loop, each one short range read on (type, category_id,
   * occurred_date, amount_fen) — a GROUP BY over the range would sort every row of it; the
   * days in index order; the marked rows from their own index, as one correction per category
   * or day (./net.ts). Few lines come back: reading rows into JS is what costs here.
   */
  private range(from: string, to: string, options: NetOptions): RangeSums {
    const where = 'WHERE t.occurred_date BETWEEN ? AND ?';
    const corrections = (key: string) => this.prepared(correctionsSql(key, where, options)).all(from, to) as SumLine[];
    return {
      byCategory: () => {
        const rows = this.prepared(
          `SELECT c.type, c.id AS key, SUM(t.amount_fen) AS fen, COUNT(*) AS n
           FROM categories c CROSS JOIN transactions t
           WHERE t.type = c.type AND t.category_id = c.id AND t.occurred_date BETWEEN ? AND ? GROUP BY c.id`,
        ).all(from, to) as SumLine[];
        const sums = new Map<string, Sums>();
        const add = (r: SumLine) => {
          const key = `${r.type}:${r.key}`;
          const sum = sums.get(key);
          if (sum) {
            sum.totalFen += r.fen;
            sum.count += r.n;
          } else sums.set(key, { totalFen: r.fen, count: r.n });
        };
        rows.forEach(add);
        corrections('t.category_id').forEach(add);
        return sums;
      },
      days: () => {
        // Grouped by day in index order (no sort), then rolled up to months by the caller: ≤ 366 rows.
        const days = this.prepared(
          `SELECT t.occurred_date AS key,
             COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
             COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
           FROM transactions t WHERE t.occurred_date BETWEEN ? AND ? GROUP BY t.occurred_date`,
        ).all(from, to) as TrendPoint[];
        const byDay = new Map(days.map((d) => [d.key, d]));
        for (const c of corrections('t.occurred_date')) applyTo(byDay.get(String(c.key)), [c]);
        return days;
      },
    };
  }

  /**
   * The rows of a range carrying a tag, read ONCE and summed here in every shape the
   * statistics need. Read from whichever side is smaller: the tag's links, each looked up
   * in the table (a tag of a trip), or the range's rows, each looked up in the links'
   * primary key (a tag on a good part of the books) — two lookups a row either way.
   */
  private taggedRange(from: string, to: string, tag: string, options: NetOptions): RangeSums {
    const tagId = this.db.prepare('SELECT id FROM tags WHERE name = ?').pluck().get(tag) as number | undefined;
    const select = `SELECT t.occurred_date AS date, t.type, t.category_id AS categoryId, t.flow, t.reimbursable, ${AWAITING} AS awaiting, t.amount_fen AS fen`;
    let rows: (Omit<MarkedGroup, 'n'> & { fen: number })[] = [];
    if (tagId !== undefined) {
      const links = this.db.prepare('SELECT COUNT(*) FROM transaction_tags WHERE tag_id = ?').pluck().get(tagId) as number;
      const inRange = this.db.prepare('SELECT COUNT(*) FROM transactions WHERE occurred_date BETWEEN ? AND ?').pluck().get(from, to) as number;
      rows = (
        links <= inRange
          ? this.db
              .prepare(
                `${select} FROM transaction_tags tt CROSS JOIN transactions t ON t.id = tt.transaction_id
                 WHERE tt.tag_id = ? AND t.occurred_date BETWEEN ? AND ?`,
              )
              .all(tagId, from, to)
          : this.db
              .prepare(
                `${select} FROM transactions t INDEXED BY transactions_by_day
                 WHERE t.occurred_date BETWEEN ? AND ?
                   AND EXISTS (SELECT 1 FROM transaction_tags tt WHERE tt.transaction_id = t.id AND tt.tag_id = ?)`,
              )
              .all(from, to, tagId)
      ) as typeof rows;
    }
    const sums = new Map<string, { totalFen: number; count: number }>();
    const days = new Map<string, TrendPoint>();
    const marked = new Map<string, MarkedGroup>();
    for (const r of rows) {
      const key = `${r.type}:${r.categoryId}`;
      const s = sums.get(key) ?? { totalFen: 0, count: 0 };
      s.totalFen += r.fen;
      s.count += 1;
      sums.set(key, s);
      const d = days.get(r.date) ?? { key: r.date, expenseFen: 0, incomeFen: 0 };
      if (r.type === 'EXPENSE') d.expenseFen += r.fen;
      else if (r.type === 'INCOME') d.incomeFen += r.fen;
      days.set(r.date, d);
      if (r.flow !== null || r.reimbursable === 1) {
        const groupKey = `${r.date}:${key}:${r.flow}:${r.reimbursable}:${r.awaiting}`;
        const g = marked.get(groupKey) ?? { ...r, fen: 0, n: 0 };
        g.fen += r.fen;
        g.n += 1;
        marked.set(groupKey, g);
      }
    }
    for (const g of marked.values()) {
      const list = adjustments(g, options);
      applyTo(days.get(g.date), list);
      for (const a of list) {
        const key = `${a.type}:${g.categoryId}`;
        const s = sums.get(key) ?? { totalFen: 0, count: 0 };
        s.totalFen += a.fen;
        s.count += a.n;
        sums.set(key, s);
      }
    }
    return { byCategory: () => sums, days: () => [...days.values()] };
  }
}

interface Sums {
  totalFen: number;
  count: number;
}

/** A sum or a correction (./net.ts) from the database: `key` a category id or a day, `type` the type it counts under. */
interface SumLine {
  key: number | string;
  type: TransactionType;
  fen: number;
  n: number;
}

/** The rows of a range as the statistics read them, net (./net.ts): per type and category id, and per day. */
interface RangeSums {
  byCategory(): Map<string, Sums>;
  days(): TrendPoint[];
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

import type Database from 'better-sqlite3';
import type { BudgetAlert, BudgetLevel, BudgetLine, BudgetStatus } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { isCalendarMonth, toZonedIso, type ZonedNow } from '@shared/time';
import { LedgerRuleError } from './errors';
import { adjustments, markedGroups } from './net';

/** One line of a month's budget set: a category's budget, or the total (categoryId null). */
export interface BudgetInput {
  categoryId: number | null;
  amountFen: number;
}

type Threshold = BudgetAlert['threshold'];

function level(spentFen: number, budgetFen: number): BudgetLevel {
  if (spentFen >= budgetFen) return 'over';
  // spent / budget ≥ 80 % in integers, so no float lands 79.999… on the wrong side.
  return spentFen * 5 >= budgetFen * 4 ? 'warn' : 'ok';
}

function line(categoryId: number | null, category: string | null, budgetFen: number, spentFen: number): BudgetLine {
  return { categoryId, category, budgetFen, spentFen, percent: Math.floor((spentFen * 100) / budgetFen), level: level(spentFen, budgetFen) };
}

function reached(l: BudgetLine): Threshold[] {
  if (l.level === 'over') return [80, 100];
  return l.level === 'warn' ? [80] : [];
}

function assertMonth(month: string): void {
  if (!isCalendarMonth(month)) throw new LedgerRuleError('invalid_month', `月份无效（${month}）`);
}

/**
 * Monthly budgets per expense category plus an optional total. A month that never had its
 * budgets set takes those of the latest earlier month that did (lazy inheritance, as the
 * original app does); setting an empty list gives a month — and the months after it — none.
 * Spent sums read the (type, category_id, occurred_date, amount_fen) index per budgeted
 * category and the (occurred_date, type, …) index for the total: one month's range each.
 */
export class Budgets {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {}

  /** Replaces the month's own budgets with `items` in one transaction. */
  set(month: string, items: readonly BudgetInput[]): BudgetStatus {
    assertMonth(month);
    const expense = new Set((this.db.prepare("SELECT id FROM categories WHERE type = 'EXPENSE'").all() as { id: number }[]).map((c) => c.id));
    const seen = new Set<number | null>();
    for (const item of items) {
      if (!Number.isInteger(item.amountFen) || item.amountFen <= 0) throw new LedgerRuleError('invalid_budget', '预算金额必须大于0');
      if (item.amountFen > MAX_AMOUNT_YUAN * 100) throw new LedgerRuleError('invalid_budget', '预算金额超过上限（1亿元）');
      if (item.categoryId !== null && !expense.has(item.categoryId)) throw new LedgerRuleError('invalid_budget', '预算只能设给支出分类');
      if (seen.has(item.categoryId)) throw new LedgerRuleError('invalid_budget', item.categoryId === null ? '总预算重复' : '同一分类的预算重复');
      seen.add(item.categoryId);
    }
    const insert = this.db.prepare('INSERT INTO budgets (month, category_id, amount_fen) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO budget_months (month, updated_at) VALUES (?, ?) ON CONFLICT (month) DO UPDATE SET updated_at = excluded.updated_at')
        .run(month, toZonedIso(this.clock()));
      this.db.prepare('DELETE FROM budgets WHERE month = ?').run(month);
      for (const item of items) insert.run(month, item.categoryId, item.amountFen);
    })();
    return this.status(month);
  }

  status(month: string): BudgetStatus {
    assertMonth(month);
    const source = (
      this.db.prepare('SELECT month FROM budget_months WHERE month <= ? ORDER BY month DESC LIMIT 1').get(month) as { month: string } | undefined
    )?.month;
    const empty: BudgetStatus = { month, source: source ?? null, inherited: source !== undefined && source !== month, lines: [], total: null };
    if (source === undefined) return empty;
    const budgets = this.db
      .prepare(
        `SELECT b.category_id AS categoryId, c.name AS category, b.amount_fen AS amountFen
         FROM budgets b LEFT JOIN categories c ON c.id = b.category_id
         WHERE b.month = ? ORDER BY c.sort_order, c.id`,
      )
      .all(source) as { categoryId: number | null; category: string | null; amountFen: number }[];
    const from = `${month}-01`;
    const to = `${month}-31`;
    const byCategory = this.db.prepare(
      `SELECT COALESCE(SUM(amount_fen), 0) AS n FROM transactions
       WHERE type = 'EXPENSE' AND category_id = ? AND occurred_date BETWEEN ? AND ?`,
    );
    // Spending net of refunds and without 待报销, as in the statistics (./net.ts).
    const corrections = new Map<number | null, number>();
    for (const g of markedGroups(this.db, 'WHERE t.occurred_date BETWEEN ? AND ?', [from, to])) {
      for (const a of adjustments(g)) {
        if (a.type !== 'EXPENSE') continue;
        corrections.set(g.categoryId, (corrections.get(g.categoryId) ?? 0) + a.fen);
        corrections.set(null, (corrections.get(null) ?? 0) + a.fen);
      }
    }
    // A parent's budget covers its sub-categories: 餐饮's spending includes 早餐's.
    const children = new Map<number, number[]>();
    for (const [id, parent] of this.db.prepare('SELECT id, parent_id FROM categories WHERE parent_id IS NOT NULL').raw(true).all() as [number, number][]) {
      const list = children.get(parent);
      if (list) list.push(id);
      else children.set(parent, [id]);
    }
    const spent = (categoryId: number) =>
      [categoryId, ...(children.get(categoryId) ?? [])].reduce(
        (n, id) => n + (byCategory.get(id, from, to) as { n: number }).n + (corrections.get(id) ?? 0),
        0,
      );
    const lines: BudgetLine[] = [];
    let total: BudgetLine | null = null;
    for (const b of budgets) {
      if (b.categoryId === null) {
        const correction = corrections.get(null) ?? 0;
        const all = this.db
          .prepare(`SELECT COALESCE(SUM(amount_fen), 0) AS n FROM transactions WHERE occurred_date BETWEEN ? AND ? AND type = 'EXPENSE'`)
          .get(from, to) as { n: number };
        total = line(null, null, b.amountFen, all.n + correction);
      } else {
        lines.push(line(b.categoryId, b.category, b.amountFen, spent(b.categoryId)));
      }
    }
    return { ...empty, lines, total };
  }

  /**
   * The thresholds (80, 100) reached in `month` that never fired before, recorded so each
   * fires once per category, month and threshold: an undo that drops below and a redo that
   * crosses again stay silent. A line that reaches both at once reports only 100 (its 80 is
   * recorded too, so it never comes afterwards).
   */
  crossedAlerts(month: string): BudgetAlert[] {
    const status = this.status(month);
    const lines = status.total ? [...status.lines, status.total] : status.lines;
    if (lines.length === 0) return [];
    const fired = new Set(
      (
        this.db.prepare('SELECT category_id AS c, threshold AS t FROM budget_alerts WHERE month = ?').all(month) as { c: number | null; t: number }[]
      ).map((r) => `${r.c}:${r.t}`),
    );
    const record = this.db.prepare('INSERT INTO budget_alerts (month, category_id, threshold, fired_at) VALUES (?, ?, ?, ?)');
    const stamp = toZonedIso(this.clock());
    const alerts: BudgetAlert[] = [];
    this.db.transaction(() => {
      for (const l of lines) {
        const fresh = reached(l).filter((t) => !fired.has(`${l.categoryId}:${t}`));
        for (const t of fresh) record.run(month, l.categoryId, t, stamp);
        const top = fresh.at(-1);
        if (top !== undefined) {
          alerts.push({
            month,
            categoryId: l.categoryId,
            category: l.category,
            threshold: top,
            percent: l.percent,
            spentFen: l.spentFen,
            budgetFen: l.budgetFen,
          });
        }
      }
    })();
    return alerts;
  }
}

import { afterEach, describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import type { PeriodStats } from '@shared/ipc/ledger';
import { openLedger, type Ledger } from './index';
import { item, NOW } from '../../../../test/support/ledger-fixtures';
import { prng } from '../../../../test/support/prng';

// A random category tree (made, moved, some moves refused) and random rows — plain, refunds,
// 待报销, with random tags — against a plain recomputation from the stored rows: every
// byParent line of periodStats is its own rows plus its children's, to the fen, its children
// lines add up to it, and the lines of a type add up to that type's total; with and without
// a tag filter.

const TAGS = ['出差', '装修', '孩子', '旅行'];

let ledger: Ledger;
afterEach(() => ledger.close());

interface Stored {
  type: TransactionType;
  category: number;
  fen: number;
  flow: string | null;
  reimbursable: number;
  tags: string | null;
}

/** What a row adds to its category's net line (fen, rows), as the statistics count it. */
function counted(r: Stored): { fen: number; n: number } {
  if (r.reimbursable === 1 || r.flow === 'reimbursement') return { fen: 0, n: 0 };
  return { fen: r.flow === 'refund' ? -r.fen : r.fen, n: 1 };
}

function check(stats: PeriodStats, rows: readonly Stored[], label: string): void {
  const categories = ledger.listCategories();
  const byId = new Map(categories.map((c) => [c.id, c]));
  const top = (id: number) => byId.get(id)!.parentId ?? id;
  for (const type of ['EXPENSE', 'INCOME'] as const) {
    const expected = new Map<number, { fen: number; n: number }>();
    for (const r of rows.filter((x) => x.type === type)) {
      const c = counted(r);
      const t = expected.get(top(r.category)) ?? { fen: 0, n: 0 };
      t.fen += c.fen;
      t.n += c.n;
      expected.set(top(r.category), t);
    }
    const lines = stats.byParent.filter((p) => p.type === type);
    for (const line of lines) {
      const parent = categories.find((c) => c.type === type && c.name === line.category)!;
      expect(parent.parentId, `${label} ${line.category} is top-level`).toBeNull();
      expect(line.totalFen, `${label} ${line.category}`).toBe(expected.get(parent.id)?.fen);
      expect(line.count, `${label} ${line.category} count`).toBe(expected.get(parent.id)?.n);
      if (line.children.length > 0) {
        expect(
          line.children.reduce((n, c) => n + c.totalFen, 0),
          `${label} ${line.category} children`,
        ).toBe(line.totalFen);
        for (const c of line.children) expect(c.parent ?? c.category, `${label} ${c.category}`).toBe(line.category);
      } else {
        expect(stats.byCategory.filter((c) => c.type === type && c.parent === line.category), label).toEqual([]);
      }
    }
    // Every top-level category with rows has its line; none is there twice.
    const withRows = [...expected].filter(([, t]) => t.n > 0).map(([id]) => byId.get(id)!.name);
    expect(new Set(lines.map((l) => l.category)).size, label).toBe(lines.length);
    for (const name of withRows) expect(lines.map((l) => l.category), `${label} ${name}`).toContain(name);
    const total = type === 'EXPENSE' ? stats.expenseFen : stats.incomeFen;
    expect(
      lines.reduce((n, l) => n + l.totalFen, 0),
      `${label} ${type} total`,
    ).toBe(total);
    expect(total, `${label} ${type} recomputed`).toBe([...expected.values()].reduce((n, t) => n + t.fen, 0));
    // Largest first.
    for (let i = 1; i < lines.length; i++) expect(lines[i - 1]!.totalFen, label).toBeGreaterThanOrEqual(lines[i]!.totalFen);
  }
}

describe.each([5, 25, 2026])('a random category tree (seed %i)', (seed) => {
  it('rolls every child up into its parent exactly, with and without a tag filter', () => {
    ledger = openLedger({ path: ':memory:', now: () => NOW });
    const rnd = prng(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const ofType = (type: TransactionType) => ledger.listCategories().filter((c) => c.type === type);

    for (let i = 0; i < 12; i++) {
      const type: TransactionType = rnd() < 0.75 ? 'EXPENSE' : 'INCOME';
      const parents = ofType(type).filter((c) => c.parentId === null);
      const parentId = rnd() < 0.6 ? pick(parents).id : undefined;
      ledger.addCategory(`类${i}`, type, parentId);
    }
    // Random moves, the refused ones (a parent with children, a child as parent) included.
    for (let i = 0; i < 10; i++) {
      const all = ledger.listCategories().filter((c) => c.type !== 'TRANSFER');
      const c = pick(all);
      const target = rnd() < 0.3 ? null : pick(ofType(c.type)).id;
      try {
        ledger.setCategoryParent(c.id, target);
      } catch {
        // A move the tree's rules refuse leaves it as it was.
      }
    }

    const days = Array.from({ length: 28 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')}`);
    for (let i = 0; i < 300; i++) {
      const type: TransactionType = rnd() < 0.8 ? 'EXPENSE' : 'INCOME';
      const category = pick(ofType(type)).name;
      const kind = rnd();
      const tags = TAGS.filter(() => rnd() < 0.3);
      const base = item({ type, category, amount: Math.floor(rnd() * 50_000 + 1) / 100, date: pick(days), tags });
      const parsed =
        type === 'EXPENSE' && kind < 0.1
          ? { ...base, flow: 'refund' as const }
          : type === 'EXPENSE' && kind < 0.2
            ? { ...base, reimbursable: true }
            : base;
      ledger.saveBatch([parsed]);
    }

    const stored = ledger.database
      .prepare(
        `SELECT t.type, t.category_id AS category, t.amount_fen AS fen, t.flow, t.reimbursable,
           (SELECT group_concat(g.name) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.transaction_id = t.id) AS tags
         FROM transactions t WHERE t.occurred_date BETWEEN '2026-02-01' AND '2026-02-28'`,
      )
      .all() as Stored[];
    expect(stored.length).toBe(300);
    const period = { from: '2026-02-01', to: '2026-02-28', granularity: 'day' as const };
    // The run exercises what it claims: sub-categories with rows, refunds and 待报销.
    expect(stored.some((r) => r.flow === 'refund') && stored.some((r) => r.reimbursable === 1)).toBe(true);
    const all = ledger.periodStats(period);
    expect(all.byParent.filter((l) => l.children.length > 0).length).toBeGreaterThan(1);
    check(all, stored, 'all');
    for (const tag of TAGS) {
      const rows = stored.filter((r) => (r.tags ?? '').split(',').includes(tag));
      const stats = ledger.periodStats({ ...period, tag });
      check(stats, rows, tag);
      expect(stats.trend.reduce((n, p) => n + p.expenseFen, 0), `${tag} trend`).toBe(stats.expenseFen);
    }
  });
});

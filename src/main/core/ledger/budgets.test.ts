import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BudgetAlert } from '@shared/ipc/ledger';
import { LedgerHistory, LedgerRuleError, openLedger, type Ledger } from './index';
import { entry, item, NOW } from '../../../../test/support/ledger-fixtures';

// NOW is 2026-02-17: February is the month budget alerts are about.
let ledger: Ledger;
let history: LedgerHistory;
let alerts: BudgetAlert[][];
let id: (name: string) => number;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  alerts = [];
  history = new LedgerHistory(ledger, { onBudgetAlert: (a) => alerts.push(a) });
  const expense = new Map(
    ledger
      .listCategories()
      .filter((c) => c.type === 'EXPENSE')
      .map((c) => [c.name, c.id]),
  );
  id = (name) => expense.get(name)!;
});
afterEach(() => ledger.close());

const spend = (yuan: number, over: Parameters<typeof item>[0] = {}) => history.saveBatch([item({ amount: yuan, date: '2026-02-05', ...over })]);
const fired = () => alerts.flat().map((a) => [a.category ?? '总预算', a.threshold, a.percent]);

describe('budget status', () => {
  it('sums the month’s expenses exactly per budgeted category and in total, leaving out income, transfers and other months', () => {
    ledger.addAccount('银行卡');
    ledger.setBudgets('2026-02', [
      { categoryId: id('餐饮'), amountFen: 1000_00 },
      { categoryId: null, amountFen: 2000_00 },
      { categoryId: id('交通'), amountFen: 100_00 },
    ]);
    ledger.addTransaction(entry({ amountFen: 799_99, date: '2026-02-01' }));
    ledger.addTransaction(entry({ amountFen: 1, date: '2026-02-28' }));
    ledger.addTransaction(entry({ category: '交通', amountFen: 100_00, date: '2026-02-10' }));
    ledger.addTransaction(entry({ category: '购物', amountFen: 50_00, date: '2026-02-11' }));
    ledger.addTransaction(entry({ amountFen: 999_00, date: '2026-01-31' }));
    ledger.addTransaction(entry({ amountFen: 999_00, date: '2026-03-01' }));
    ledger.addTransaction(entry({ type: 'INCOME', category: '工资', amountFen: 999_00 }));
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 999_00, toAccount: '银行卡' }));
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 999_00, counterparty: '房东' }));

    expect(ledger.budgetStatus('2026-02')).toEqual({
      month: '2026-02',
      source: '2026-02',
      inherited: false,
      lines: [
        { categoryId: id('餐饮'), category: '餐饮', budgetFen: 1000_00, spentFen: 800_00, percent: 80, level: 'warn' },
        { categoryId: id('交通'), category: '交通', budgetFen: 100_00, spentFen: 100_00, percent: 100, level: 'over' },
      ],
      total: { categoryId: null, category: null, budgetFen: 2000_00, spentFen: 950_00, percent: 47, level: 'ok' },
    });
  });

  it('puts 79.99 % at ok and 99.99 % at warn (percent rounds down, levels compare exact fen)', () => {
    ledger.setBudgets('2026-02', [{ categoryId: id('餐饮'), amountFen: 100_00 }]);
    ledger.addTransaction(entry({ amountFen: 79_99 }));
    expect(ledger.budgetStatus('2026-02').lines[0]).toMatchObject({ percent: 79, level: 'ok' });
    ledger.addTransaction(entry({ amountFen: 20_00 }));
    expect(ledger.budgetStatus('2026-02').lines[0]).toMatchObject({ spentFen: 99_99, percent: 99, level: 'warn' });
  });

  it('replaces a month’s set in one call; an empty list leaves it (and the months after) without budgets', () => {
    ledger.setBudgets('2026-01', [{ categoryId: id('餐饮'), amountFen: 500_00 }]);
    expect(ledger.budgetStatus('2025-12')).toEqual({ month: '2025-12', source: null, inherited: false, lines: [], total: null });
    // Lazy inheritance: February and May have none of their own and take January's.
    expect(ledger.budgetStatus('2026-02')).toMatchObject({ source: '2026-01', inherited: true, lines: [{ category: '餐饮', budgetFen: 500_00 }] });
    expect(ledger.budgetStatus('2026-05')).toMatchObject({ source: '2026-01', inherited: true });

    ledger.setBudgets('2026-03', [
      { categoryId: id('交通'), amountFen: 80_00 },
      { categoryId: null, amountFen: 3000_00 },
    ]);
    expect(ledger.budgetStatus('2026-02').source).toBe('2026-01');
    expect(ledger.budgetStatus('2026-05')).toMatchObject({ source: '2026-03', lines: [{ category: '交通' }], total: { budgetFen: 3000_00 } });

    ledger.setBudgets('2026-03', [{ categoryId: id('购物'), amountFen: 10_00 }]);
    expect(ledger.budgetStatus('2026-03')).toMatchObject({ inherited: false, lines: [{ category: '购物', budgetFen: 10_00 }], total: null });

    ledger.setBudgets('2026-04', []);
    expect(ledger.budgetStatus('2026-04')).toEqual({ month: '2026-04', source: '2026-04', inherited: false, lines: [], total: null });
    expect(ledger.budgetStatus('2026-06')).toMatchObject({ source: '2026-04', lines: [], total: null });
  });

  it.each([
    [[{ categoryId: null, amountFen: 0 }], '预算金额必须大于0'],
    [[{ categoryId: 1, amountFen: -100 }], '预算金额必须大于0'],
    [[{ categoryId: 1, amountFen: 10_000_000_001 }], '预算金额超过上限（1亿元）'],
    [[{ categoryId: 9999, amountFen: 100 }], '预算只能设给支出分类'],
    [
      [
        { categoryId: 1, amountFen: 100 },
        { categoryId: 1, amountFen: 200 },
      ],
      '同一分类的预算重复',
    ],
    [
      [
        { categoryId: null, amountFen: 100 },
        { categoryId: null, amountFen: 200 },
      ],
      '总预算重复',
    ],
  ])('refuses %j: %s, keeping the month as it was', (items, message) => {
    ledger.setBudgets('2026-02', [{ categoryId: id('餐饮'), amountFen: 300_00 }]);
    expect(() => ledger.setBudgets('2026-02', items)).toThrow(new LedgerRuleError('invalid_budget', message));
    expect(ledger.budgetStatus('2026-02').lines.map((l) => l.budgetFen)).toEqual([300_00]);
  });

  it('refuses an income category and drops the budgets of a category that is deleted', () => {
    const salary = ledger.listCategories().find((c) => c.name === '工资')!;
    expect(() => ledger.setBudgets('2026-02', [{ categoryId: salary.id, amountFen: 100 }])).toThrow('预算只能设给支出分类');
    const coffee = ledger.addCategory('咖啡', 'EXPENSE');
    ledger.setBudgets('2026-02', [
      { categoryId: coffee.id, amountFen: 100_00 },
      { categoryId: id('餐饮'), amountFen: 100_00 },
    ]);
    ledger.deleteCategory(coffee.id);
    expect(ledger.budgetStatus('2026-02').lines.map((l) => l.category)).toEqual(['餐饮']);
  });
});

describe('budget alerts', () => {
  beforeEach(() => {
    ledger.setBudgets('2026-02', [
      { categoryId: id('餐饮'), amountFen: 100_00 },
      { categoryId: null, amountFen: 1000_00 },
    ]);
  });

  it('a voice save crosses 80 % then 100 %, each once per category and month', () => {
    spend(50);
    expect(alerts).toEqual([]);
    spend(32);
    expect(alerts).toEqual([
      [{ month: '2026-02', categoryId: id('餐饮'), category: '餐饮', threshold: 80, percent: 82, spentFen: 82_00, budgetFen: 100_00 }],
    ]);
    spend(5);
    expect(alerts).toHaveLength(1);
    spend(13);
    expect(fired()).toEqual([
      ['餐饮', 80, 82],
      ['餐饮', 100, 100],
    ]);
    spend(700, { category: '交通' });
    expect(fired().at(-1)).toEqual(['总预算', 80, 80]);
    spend(1, { category: '餐饮' });
    expect(alerts).toHaveLength(3);
    expect(ledger.crossedAlerts('2026-02')).toEqual([]);
  });

  it('an edit that pushes spending past a threshold alerts; undo below and redo above do not alert again', () => {
    const [row] = spend(10);
    history.updateTransaction(row!.id, { amountFen: 85_00 });
    expect(fired()).toEqual([['餐饮', 80, 85]]);
    history.undo();
    expect(ledger.budgetStatus('2026-02').lines[0]!.level).toBe('ok');
    history.redo();
    expect(alerts).toHaveLength(1);
    // Moving the row to another category is an edit too: 交通 has no budget, the total does.
    history.updateTransaction(row!.id, { amountFen: 1000_00, category: '交通' });
    expect(fired().at(-1)).toEqual(['总预算', 100, 100]);
  });

  it('a save that jumps past both thresholds reports 100 only and never reports 80 later', () => {
    spend(120);
    expect(fired()).toEqual([['餐饮', 100, 120]]);
    history.undo();
    spend(85);
    expect(fired()).toEqual([['餐饮', 100, 120]]);
  });

  it('the manual form, an undone delete and an import alert like a voice save', async () => {
    const row = history.addTransaction(entry({ amountFen: 80_00, date: '2026-02-16' }));
    expect(fired()).toEqual([['餐饮', 80, 80]]);
    ledger.setBudgets('2026-02', [{ categoryId: id('餐饮'), amountFen: 160_00 }]);
    history.remove([row.id]);
    history.addTransaction(entry({ amountFen: 60_00 }));
    expect(alerts).toHaveLength(1);
    // Undoing the add and the delete brings back 80 of 160 (50 %); redoing both leaves 60.
    history.undo();
    history.undo();
    expect(ledger.budgetStatus('2026-02').lines[0]!.spentFen).toBe(80_00);
    history.redo();
    history.redo();
    expect(alerts).toHaveLength(1);
    const csv = '\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n2026-02-09,12:00:00,支出,餐饮,100,钱包,聚餐\r\n';
    await history.importFile(new TextEncoder().encode(csv));
    expect(fired().at(-1)).toEqual(['餐饮', 100, 100]);
  });

  it('stays silent for past months and for thresholds already reached when the budget was set', () => {
    spend(500, { date: '2026-01-20' });
    expect(ledger.budgetStatus('2026-01')).toMatchObject({ source: null, lines: [] });
    ledger.setBudgets('2026-01', [{ categoryId: id('餐饮'), amountFen: 10_00 }]);
    spend(5, { date: '2026-01-21' });
    expect(alerts).toEqual([]);

    spend(90);
    expect(fired()).toEqual([['餐饮', 80, 90]]);
    // Lowered below what is spent: the editor shows red; the next save does not announce it.
    ledger.setBudgets('2026-02', [{ categoryId: id('餐饮'), amountFen: 50_00 }]);
    spend(1);
    expect(alerts).toHaveLength(1);
  });

  it('alerts for an inherited budget in the month it is spent in', () => {
    ledger.setBudgets('2026-02', []);
    ledger.setBudgets('2025-12', [{ categoryId: id('餐饮'), amountFen: 10_00 }]);
    expect(ledger.budgetStatus('2026-02')).toMatchObject({ source: '2026-02', lines: [] });
    ledger.setBudgets('2026-02', [{ categoryId: id('交通'), amountFen: 10_00 }]);
    ledger.database.prepare("DELETE FROM budget_months WHERE month = '2026-02'").run();
    expect(ledger.budgetStatus('2026-02')).toMatchObject({ source: '2025-12', inherited: true });
    spend(9);
    expect(alerts).toEqual([
      [{ month: '2026-02', categoryId: id('餐饮'), category: '餐饮', threshold: 80, percent: 90, spentFen: 9_00, budgetFen: 10_00 }],
    ]);
  });
});

describe('a history nobody listens to for alerts', () => {
  it('uses up no threshold, so the first listener still hears it', () => {
    const food = ledger.listCategories().find((c) => c.name === '餐饮')!;
    ledger.setBudgets('2026-02', [{ categoryId: food.id, amountFen: 10_00 }]);
    new LedgerHistory(ledger).saveBatch([item({ amount: 9, date: '2026-02-03' })]);
    expect(ledger.database.prepare('SELECT COUNT(*) AS n FROM budget_alerts').get()).toEqual({ n: 0 });
    history.saveBatch([item({ amount: 0.5, date: '2026-02-03' })]);
    expect(alerts).toEqual([[expect.objectContaining({ category: '餐饮', threshold: 80, percent: 95 })]]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv, LedgerHistory, openLedger, type ChangeReason, type Ledger, type RawTransaction } from './index';
import { item, NOW } from '../../../../test/support/ledger-fixtures';

let ledger: Ledger;
let history: LedgerHistory;
let reasons: ChangeReason[];

/** Every stored column of every row, so "restored" means bit for bit. */
const snapshot = (): RawTransaction[] => ledger.database.prepare('SELECT * FROM transactions ORDER BY id').all() as RawTransaction[];

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  reasons = [];
  history = new LedgerHistory(ledger, { onChange: (r) => reasons.push(r) });
  history.saveBatch([item({ description: '早饭' }), item({ amount: 12, category: '交通', description: '地铁' })]);
  reasons = [];
});
afterEach(() => ledger.close());

describe('LedgerHistory', () => {
  it('places a category exactly where its save files it (the voice drafts read that back)', () => {
    ledger.addCategory('宠物用品', 'EXPENSE');
    for (const [name, type] of [
      ['饮品', 'EXPENSE'],
      ['洗浴', 'EXPENSE'],
      ['宠物', 'EXPENSE'],
      ['餐饮', 'INCOME'],
      ['奖励', 'INCOME'],
    ] as const) {
      const placed = history.placeCategory(name, type, item().description);
      const [row] = history.saveBatch([item({ category: name, type })]);
      expect([name, placed]).toEqual([name, row!.category]);
    }
    expect(history.placeCategory('饮品', 'EXPENSE')).toBe('餐饮');
    expect(history.placeCategory('洗浴', 'EXPENSE')).toBe('其他');
  });

  it('undoes and redoes a save, announcing each change', () => {
    const before = snapshot();
    const saved = history.saveBatch([item({ amount: 35 }), item({ amount: 9000, type: 'INCOME', category: '工资' })]);
    const after = snapshot();
    expect(history.state()).toMatchObject({ canUndo: true, canRedo: false, undoLabel: '记账 2 笔' });
    expect(history.undo()).toMatchObject({ done: '记账 2 笔', redoLabel: '记账 2 笔' });
    expect(snapshot()).toEqual(before);
    expect(history.redo()).toMatchObject({ done: '记账 2 笔', canRedo: false });
    expect(snapshot()).toEqual(after);
    expect(ledger.getMany(saved.map((r) => r.id))).toEqual(saved);
    expect(reasons).toEqual(['save', 'undo', 'save']);
  });

  it('undoes an edit back to the exact previous row, and redoes it', () => {
    const before = snapshot();
    const target = ledger.search('地铁')[0]!;
    history.updateTransaction(target.id, { amountFen: 1500, type: 'INCOME', date: '2026-02-03', description: '退款' });
    const after = snapshot();
    expect(after).not.toEqual(before);
    history.undo();
    expect(snapshot()).toEqual(before);
    history.redo();
    expect(snapshot()).toEqual(after);
    expect(reasons).toEqual(['edit', 'undo', 'edit']);
  });

  it('undoes a delete, putting back the same ids and stamps', () => {
    const before = snapshot();
    const ids = before.map((r) => r.id);
    expect(history.remove(ids)).toBe(2);
    expect(ledger.count()).toBe(0);
    expect(history.state().undoLabel).toBe('删除 2 笔');
    history.undo();
    expect(snapshot()).toEqual(before);
    history.redo();
    expect(ledger.count()).toBe(0);
  });

  it('undoes an import', async () => {
    const other = openLedger({ path: ':memory:', now: () => NOW });
    other.saveBatch([item({ amount: 1, date: '2025-01-01' }), item({ amount: 2, date: '2025-01-02' })]);
    const bytes = new TextEncoder().encode(exportCsv(other).text);
    other.close();
    const before = snapshot();
    expect((await history.importFile(bytes)).imported).toBe(2);
    const after = snapshot();
    history.undo();
    expect(snapshot()).toEqual(before);
    history.redo();
    expect(snapshot()).toEqual(after);
    expect(reasons).toEqual(['import', 'undo', 'import']);
  });

  it('voice 「撤销」: deleting exactly the last save is its undo, and leaves no redo that would save the drafts twice', () => {
    const before = snapshot();
    const saved = history.saveBatch([item({ amount: 7 }), item({ amount: 8 })]);
    expect(history.deleteTransactions([saved[1]!.id, saved[0]!.id])).toBe(2);
    expect(snapshot()).toEqual(before);
    expect(history.state()).toMatchObject({ canRedo: false });
    expect(history.redo()).toMatchObject({ done: null });
    expect(snapshot()).toEqual(before);
    expect(reasons).toEqual(['save', 'undo']);
  });

  it('deleting other ids through the port is an ordinary undoable delete', () => {
    const saved = history.saveBatch([item({ amount: 7 }), item({ amount: 8 })]);
    expect(history.deleteTransactions([saved[0]!.id])).toBe(1);
    expect(history.state().undoLabel).toBe('删除 1 笔');
    history.undo();
    expect(ledger.getTransaction(saved[0]!.id)).toEqual(saved[0]);
  });

  it('a new change clears the redo stack; undo with nothing to undo changes nothing', () => {
    history.saveBatch([item()]);
    history.undo();
    history.saveBatch([item({ amount: 1 })]);
    expect(history.state().canRedo).toBe(false);
    history.undo();
    history.undo();
    const snap = snapshot();
    expect(history.undo()).toEqual({ canUndo: false, canRedo: true, undoLabel: null, redoLabel: '记账 2 笔', done: null });
    expect(snapshot()).toEqual(snap);
  });

  it('keeps at most `limit` entries', () => {
    const small = new LedgerHistory(ledger, { limit: 2 });
    for (let i = 1; i <= 4; i++) small.saveBatch([item({ amount: i })]);
    small.undo();
    small.undo();
    expect(small.state().canUndo).toBe(false);
    expect(ledger.count()).toBe(4);
  });

  it('passes totals through for spoken queries', () => {
    expect(history.totals({ from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE' })).toEqual({ totalFen: 7200, count: 2 });
  });
});

describe('LedgerHistory.latestBudgetAlerts', () => {
  // 60 of 餐饮 is spent already (beforeEach).
  it('holds what the latest change reported to onBudgetAlert, and nothing after a change that crossed nothing', () => {
    const reported: unknown[] = [];
    const listened = new LedgerHistory(ledger, { onBudgetAlert: (alerts) => reported.push(alerts) });
    const meals = ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!.id;
    ledger.setBudgets('2026-02', [{ categoryId: meals, amountFen: 100000 }]);
    expect(listened.latestBudgetAlerts()).toEqual([]);
    listened.saveBatch([item({ amount: 760, description: '聚餐' })]);
    const crossed = listened.latestBudgetAlerts();
    expect(crossed.map((a) => [a.category, a.threshold, a.percent])).toEqual([['餐饮', 80, 82]]);
    expect(reported).toEqual([crossed]);
    listened.saveBatch([item({ amount: 1, description: '糖' })]);
    expect(listened.latestBudgetAlerts()).toEqual([]);
    // A save the ledger refuses leaves no alerts of an earlier one behind.
    listened.saveBatch([item({ amount: 200, description: '晚饭' })]);
    expect(listened.latestBudgetAlerts()).toHaveLength(1);
    expect(() => listened.saveBatch([item({ amount: -1 })])).toThrow();
    expect(listened.latestBudgetAlerts()).toEqual([]);
  });

  it('stays empty without a listener, and records nothing for later', () => {
    const meals = ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!.id;
    ledger.setBudgets('2026-02', [{ categoryId: meals, amountFen: 100000 }]);
    history.saveBatch([item({ amount: 760, description: '聚餐' })]);
    expect(history.latestBudgetAlerts()).toEqual([]);
    expect(ledger.crossedAlerts('2026-02').map((a) => a.threshold)).toEqual([80]);
  });
});

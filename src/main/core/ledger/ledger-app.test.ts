import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerRuleError, openLedger, type Ledger } from './index';
import { item, NOW } from '../../../../test/support/ledger-fixtures';

let ledger: Ledger;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  ledger.addAccount('招商银行');
  ledger.saveBatch([
    item({ amount: 60, date: '2026-02-01', description: '火锅' }),
    item({ amount: 30, category: '交通', date: '2026-02-10', description: '打车去机场' }),
    item({ amount: 9000, type: 'INCOME', category: '工资', date: '2026-02-15', description: '二月工资', account: '招商银行' }),
    item({ amount: 19.99, category: '购物', date: '2026-01-31', description: '袜子' }),
    item({ amount: 0.01, date: '2026-02-28', description: '找零' }),
    item({ amount: 12.5, date: '2026-02-10', description: '早餐' }),
  ]);
});

afterEach(() => ledger.close());

describe('list filters', () => {
  it('filters by account and by an inclusive amount range in fen', () => {
    expect(ledger.list({ account: '招商银行' }).rows.map((r) => r.description)).toEqual(['二月工资']);
    expect(
      ledger
        .list({ minFen: 1250, maxFen: 6000 })
        .rows.map((r) => r.description)
        .sort(),
    ).toEqual(['早餐', '火锅', '袜子', '打车去机场'].sort());
    expect(
      ledger
        .list({ minFen: 1251, maxFen: 5999 })
        .rows.map((r) => r.description)
        .sort(),
    ).toEqual(['打车去机场', '袜子'].sort());
  });

  it('searches description and category name together with the other filters', () => {
    expect(ledger.list({ text: '机场' }).rows.map((r) => r.description)).toEqual(['打车去机场']);
    expect(ledger.list({ text: '交通' }).rows.map((r) => r.description)).toEqual(['打车去机场']);
    expect(ledger.list({ text: '餐', from: '2026-02-01', to: '2026-02-28' }).rows.map((r) => r.description)).toEqual(['找零', '早餐', '火锅']);
    expect(ledger.count({ text: '_' })).toBe(0);
  });

  it('groups the filtered set by day with daily totals, newest first', () => {
    expect(ledger.days({ from: '2026-02-01', to: '2026-02-28' })).toEqual([
      { date: '2026-02-28', count: 1, expenseFen: 1, incomeFen: 0 },
      { date: '2026-02-15', count: 1, expenseFen: 0, incomeFen: 900000 },
      { date: '2026-02-10', count: 2, expenseFen: 4250, incomeFen: 0 },
      { date: '2026-02-01', count: 1, expenseFen: 6000, incomeFen: 0 },
    ]);
    expect(ledger.days({ category: '交通' })).toEqual([{ date: '2026-02-10', count: 1, expenseFen: 3000, incomeFen: 0 }]);
  });

  it('counts match the rows the list pages through for every filter', () => {
    for (const f of [{}, { type: 'EXPENSE' as const }, { text: '餐' }, { account: '钱包', minFen: 100 }]) {
      let listed = 0;
      for (let page = ledger.list({ ...f, limit: 2 }); ; page = ledger.list({ ...f, limit: 2, after: page.next })) {
        listed += page.rows.length;
        if (!page.next) break;
      }
      expect(ledger.count(f)).toBe(listed);
      expect(ledger.days(f).reduce((n, d) => n + d.count, 0)).toBe(ledger.count(f));
    }
  });
});

describe('period statistics', () => {
  it('totals a month in exact fen with a zero-filled daily trend', () => {
    const s = ledger.periodStats({ from: '2026-02-01', to: '2026-02-28', granularity: 'day' });
    expect(s.expenseFen).toBe(6000 + 3000 + 1 + 1250);
    expect(s.incomeFen).toBe(900000);
    expect(s.balanceFen).toBe(900000 - 10251);
    expect(s.count).toBe(5);
    expect(s.trend).toHaveLength(28);
    expect(s.trend[0]).toEqual({ key: '2026-02-01', expenseFen: 6000, incomeFen: 0 });
    expect(s.trend[9]).toEqual({ key: '2026-02-10', expenseFen: 4250, incomeFen: 0 });
    expect(s.trend[1]).toEqual({ key: '2026-02-02', expenseFen: 0, incomeFen: 0 });
    expect(s.byCategory.find((c) => c.category === '餐饮')).toEqual({ type: 'EXPENSE', category: '餐饮', totalFen: 7251, count: 3 });
  });

  it('trends a year by month', () => {
    const s = ledger.periodStats({ from: '2026-01-01', to: '2026-12-31', granularity: 'month' });
    expect(s.trend.map((p) => p.key)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
    expect(s.trend[0]).toEqual({ key: '2026-01', expenseFen: 1999, incomeFen: 0 });
    expect(s.trend[1]!.expenseFen).toBe(10251);
  });
});

describe('categories and accounts', () => {
  const byName = (name: string, type = 'EXPENSE') => ledger.listCategories().find((c) => c.name === name && c.type === type)!;

  it('adds a category at the end of its type and rejects a duplicate name', () => {
    const added = ledger.addCategory(' 咖啡 ', 'EXPENSE');
    expect(added).toMatchObject({ name: '咖啡', type: 'EXPENSE', preset: false, hidden: false, count: 0 });
    expect(
      ledger
        .listCategories()
        .filter((c) => c.type === 'EXPENSE')
        .at(-1)!.name,
    ).toBe('咖啡');
    expect(() => ledger.addCategory('咖啡', 'EXPENSE')).toThrow(/已有名为「咖啡」/);
    expect(ledger.addCategory('咖啡', 'INCOME').type).toBe('INCOME');
  });

  it('renames a category and its transactions follow', () => {
    ledger.renameCategory(byName('交通').id, '出行');
    expect(ledger.list({ category: '出行' }).rows.map((r) => r.description)).toEqual(['打车去机场']);
    expect(() => ledger.renameCategory(byName('出行').id, '餐饮')).toThrow(LedgerRuleError);
  });

  it('hides presets and in-use categories but never deletes them', () => {
    expect(() => ledger.deleteCategory(byName('宠物').id)).toThrow(/预设分类不能删除/);
    const custom = ledger.addCategory('咖啡', 'EXPENSE');
    ledger.saveBatch([item({ category: '咖啡' })]);
    expect(() => ledger.deleteCategory(custom.id)).toThrow(/还有1笔记录，请先选择把它们移到哪个分类/);
    expect(ledger.setCategoryHidden(custom.id, true).hidden).toBe(true);
    expect(ledger.setCategoryHidden(byName('餐饮').id, true).hidden).toBe(true);
    expect(() => ledger.setCategoryHidden(byName('其他').id, true)).toThrow(/不能隐藏/);
    const unused = ledger.addCategory('临时', 'EXPENSE');
    expect(ledger.deleteCategory(unused.id)).toBe(0);
    expect(ledger.listCategories().some((c) => c.name === '临时')).toBe(false);
  });

  it('deletes a used category only by moving its rows to a category of the same type the user picked', () => {
    const coffee = ledger.addCategory('咖啡', 'EXPENSE');
    ledger.saveBatch([item({ category: '咖啡', amount: 12 }), item({ category: '咖啡', amount: 8 })]);
    expect(() => ledger.deleteCategory(coffee.id, coffee.id)).toThrow(/不能把记录移到要删除的分类本身/);
    expect(() => ledger.deleteCategory(coffee.id, byName('工资', 'INCOME').id)).toThrow(/不是同一类型/);
    expect(ledger.listCategories().find((c) => c.id === coffee.id)?.count).toBe(2);
    const before = byName('餐饮').count;
    expect(ledger.deleteCategory(coffee.id, byName('餐饮').id)).toBe(2);
    expect(ledger.listCategories().some((c) => c.name === '咖啡')).toBe(false);
    expect(byName('餐饮').count).toBe(before + 2);
  });

  it('reorders one type and refuses a list that is not exactly that type', () => {
    const income = ledger.listCategories().filter((c) => c.type === 'INCOME');
    const reversed = [...income].reverse().map((c) => c.id);
    expect(ledger.reorderCategories('INCOME', reversed).map((c) => c.name)).toEqual(['其他', '红包', '兼职', '奖金', '工资']);
    expect(() => ledger.reorderCategories('INCOME', reversed.slice(1))).toThrow(/不一致/);
    expect(() => ledger.reorderCategories('INCOME', [...reversed.slice(1), byName('餐饮').id])).toThrow(/不一致/);
  });

  it('manages accounts: default 钱包, add, rename, switch default, delete only unused non-default', () => {
    expect(ledger.listAccounts().map((a) => [a.name, a.isDefault, a.count])).toEqual([
      ['钱包', true, 5],
      ['招商银行', false, 1],
    ]);
    const cash = ledger.addAccount('现金');
    expect(() => ledger.addAccount('现金')).toThrow(/已有名为/);
    ledger.renameAccount(cash.id, '零钱');
    ledger.setDefaultAccount(cash.id);
    const [row] = ledger.saveBatch([item()]);
    expect(row!.account).toBe('零钱');
    expect(() => ledger.deleteAccount(cash.id)).toThrow(/默认账户不能删除/);
    const bank = ledger.listAccounts().find((a) => a.name === '招商银行')!;
    expect(() => ledger.deleteAccount(bank.id)).toThrow('该账户有 1 笔记录，不能删除，可以归档');
  });
});

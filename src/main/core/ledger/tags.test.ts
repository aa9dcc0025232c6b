import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv, LedgerHistory, openLedger, type Ledger } from './index';
import { entry, item, NOW } from '../../../../test/support/ledger-fixtures';

// Tags and sub-categories: the tree's rules, tags on rows through every write path (and
// undo), the filters, the roll-up statistics, budgets of a parent, and our CSV round trip.

let ledger: Ledger;
let history: LedgerHistory;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  history = new LedgerHistory(ledger);
});
afterEach(() => ledger.close());

const cat = (name: string, l: Ledger = ledger) => l.listCategories().find((c) => c.name === name)!;
const tagged = (tag: string) =>
  ledger
    .list({ tag, limit: 100 })
    .rows.map((r) => r.description)
    .sort();

describe('sub-categories', () => {
  it('makes a child under a top-level category of its type, and lists each category with its parent', () => {
    const food = cat('餐饮');
    const breakfast = ledger.addCategory('早餐', 'EXPENSE', food.id);
    expect(breakfast).toMatchObject({ name: '早餐', type: 'EXPENSE', parentId: food.id, count: 0 });
    expect(cat('餐饮').parentId).toBeNull();
    expect(ledger.listCategories().every((c) => c.parentId === null || c.parentId === food.id)).toBe(true);
  });

  it('refuses a parent that is a child, of another type, itself, or a child for a category that has children', () => {
    const food = cat('餐饮');
    const breakfast = ledger.addCategory('早餐', 'EXPENSE', food.id);
    expect(() => ledger.addCategory('豆浆', 'EXPENSE', breakfast.id)).toThrow('「早餐」本身是子分类，不能再有子分类（最多两级）');
    expect(() => ledger.addCategory('稿费', 'INCOME', food.id)).toThrow('「稿费」与「餐饮」不是同一类型的分类');
    expect(() => ledger.setCategoryParent(food.id, food.id)).toThrow('分类不能放在自己下面');
    expect(() => ledger.setCategoryParent(food.id, cat('购物').id)).toThrow('「餐饮」下有子分类，不能再放到别的分类下面（最多两级）');
    expect(() => ledger.setCategoryParent(cat('购物').id, breakfast.id)).toThrow('「早餐」本身是子分类');
    expect(() => ledger.setCategoryParent(cat('工资').id, food.id)).toThrow('「工资」与「餐饮」不是同一类型的分类');
    // Names stay unique per type across the tree.
    expect(() => ledger.addCategory('购物', 'EXPENSE', food.id)).toThrow('已有名为「购物」的分类');
    // Moving back to the top level, and under another parent, works.
    expect(ledger.setCategoryParent(breakfast.id, null).parentId).toBeNull();
    expect(ledger.setCategoryParent(breakfast.id, cat('购物').id).parentId).toBe(cat('购物').id);
  });

  it('refuses to delete a parent that has sub-categories, and deletes it once they are gone', () => {
    const parent = ledger.addCategory('爱好', 'EXPENSE');
    const child = ledger.addCategory('猫粮', 'EXPENSE', parent.id);
    expect(() => ledger.deleteCategory(parent.id)).toThrow('「爱好」下还有1个子分类，请先把它们移走或删除');
    ledger.deleteCategory(child.id);
    ledger.deleteCategory(parent.id);
    expect(ledger.listCategories().some((c) => c.name === '爱好')).toBe(false);
  });

  it('names a row’s parent, and a category filter naming a parent selects its children’s rows too', () => {
    const food = cat('餐饮');
    ledger.addCategory('早餐', 'EXPENSE', food.id);
    history.saveBatch([
      item({ category: '早餐', description: '豆浆' }),
      item({ description: '午饭' }),
      item({ category: '交通', description: '地铁' }),
    ]);
    const rows = ledger.list({ category: '餐饮' }).rows;
    expect(rows.map((r) => [r.description, r.category, r.parentCategory]).sort()).toEqual([
      ['午饭', '餐饮', undefined],
      ['豆浆', '早餐', '餐饮'],
    ]);
    expect(ledger.list({ category: '早餐' }).rows.map((r) => r.description)).toEqual(['豆浆']);
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', category: '餐饮' })).toEqual({ totalFen: 120_00, count: 2 });
  });
});

describe('tags on rows', () => {
  it('saves tags from the form, the voice card and an edit: trimmed, # dropped, duplicates collapsed, in order', () => {
    const a = history.addTransaction(entry({ note: 'a', tags: [' #出差 ', '＃报销', '出差', '  '] }));
    expect(a.tags).toEqual(['出差', '报销']);
    const [b, c] = history.saveBatch([item({ description: 'b', tags: ['装修'] }), item({ description: 'c' })]);
    expect(b!.tags).toEqual(['装修']);
    expect(c!.tags).toBeUndefined();
    expect(history.updateTransaction(c!.id, { tags: ['出差', '#装修'] }).tags).toEqual(['出差', '装修']);
    // Replacing the set keeps the tags that stay in their place and drops the others.
    expect(history.updateTransaction(a.id, { tags: ['旅行', '出差'] }).tags).toEqual(['出差', '旅行']);
    expect(history.updateTransaction(a.id, { tags: [] }).tags).toBeUndefined();
    // An edit without tags leaves them.
    expect(history.updateTransaction(c!.id, { amountFen: 5 }).tags).toEqual(['出差', '装修']);
    expect(tagged('出差')).toEqual(['c']);
    expect(ledger.count({ tag: '装修' })).toBe(2);
    expect(() => history.addTransaction(entry({ tags: ['a;b'] }))).toThrow('标签不能包含「;」');
  });

  it('lists tags most used first, renames one, merges one renamed onto another, and deletes one leaving its rows', () => {
    history.saveBatch([
      item({ description: '1', tags: ['出差', '报销'] }),
      item({ description: '2', tags: ['出差'] }),
      item({ description: '3', tags: ['差旅'] }),
    ]);
    expect(ledger.listTags().map((t) => [t.name, t.count])).toEqual([
      ['出差', 2],
      ['报销', 1],
      ['差旅', 1],
    ]);
    const id = (name: string) => ledger.listTags().find((t) => t.name === name)!.id;
    expect(ledger.renameTag(id('报销'), '#待报')).toMatchObject({ name: '待报', count: 1 });
    // Onto an existing name: one tag, carried once by each row.
    const merged = ledger.renameTag(id('出差'), '差旅');
    expect(merged).toMatchObject({ name: '差旅', count: 3 });
    expect(ledger.listTags().map((t) => t.name)).toEqual(['差旅', '待报']);
    expect(tagged('差旅')).toEqual(['1', '2', '3']);
    expect(ledger.deleteTag(id('差旅'))).toBe(3);
    expect(ledger.count()).toBe(3);
    expect(ledger.list({}).rows.find((r) => r.description === '1')!.tags).toEqual(['待报']);
    expect(() => ledger.renameTag(9999, 'x')).toThrow('这个标签不存在');
  });

  it('puts tags back on undo of a delete and of an edit, and forward again on redo', () => {
    const row = history.addTransaction(entry({ tags: ['出差', '报销'] }));
    history.updateTransaction(row.id, { tags: ['装修'] });
    history.undo();
    expect(ledger.getTransaction(row.id)!.tags).toEqual(['出差', '报销']);
    history.redo();
    expect(ledger.getTransaction(row.id)!.tags).toEqual(['装修']);
    history.remove([row.id]);
    // The tag is gone meanwhile: undo makes it again.
    ledger.deleteTag(ledger.listTags().find((t) => t.name === '装修')!.id);
    history.undo();
    expect(ledger.getTransaction(row.id)!.tags).toEqual(['装修']);
    // An edit of another field leaves tags changed since alone.
    history.updateTransaction(row.id, { amountFen: 7 });
    ledger.updateTransaction(row.id, { tags: ['后来'] });
    history.undo();
    expect(ledger.getTransaction(row.id)).toMatchObject({ amountFen: 1000, tags: ['后来'] });
  });
});

describe('statistics of the tree and of a tag', () => {
  beforeEach(() => {
    const food = cat('餐饮');
    ledger.addCategory('早餐', 'EXPENSE', food.id);
    ledger.addCategory('夜宵', 'EXPENSE', food.id);
    history.saveBatch([
      item({ category: '早餐', amount: 10, tags: ['出差'] }),
      item({ category: '早餐', amount: 5 }),
      item({ category: '夜宵', amount: 30, tags: ['出差'] }),
      item({ category: '餐饮', amount: 20 }),
      item({ category: '交通', amount: 100, tags: ['出差'] }),
      item({ category: '购物', amount: 7 }),
      item({ type: 'INCOME', category: '工资', amount: 1000 }),
    ]);
  });
  const period = { from: '2026-02-01', to: '2026-02-28', granularity: 'month' as const };

  it('gives child lines their parent and rolls them up under it, largest first', () => {
    const stats = ledger.periodStats(period);
    expect(stats.byCategory.filter((c) => c.type === 'EXPENSE')).toEqual([
      { type: 'EXPENSE', category: '交通', totalFen: 100_00, count: 1 },
      { type: 'EXPENSE', category: '夜宵', totalFen: 30_00, count: 1, parent: '餐饮' },
      { type: 'EXPENSE', category: '餐饮', totalFen: 20_00, count: 1 },
      { type: 'EXPENSE', category: '早餐', totalFen: 15_00, count: 2, parent: '餐饮' },
      { type: 'EXPENSE', category: '购物', totalFen: 7_00, count: 1 },
    ]);
    expect(stats.byParent.filter((c) => c.type === 'EXPENSE')).toEqual([
      { type: 'EXPENSE', category: '交通', totalFen: 100_00, count: 1, children: [] },
      {
        type: 'EXPENSE',
        category: '餐饮',
        totalFen: 65_00,
        count: 4,
        children: [
          { type: 'EXPENSE', category: '夜宵', totalFen: 30_00, count: 1, parent: '餐饮' },
          { type: 'EXPENSE', category: '餐饮', totalFen: 20_00, count: 1 },
          { type: 'EXPENSE', category: '早餐', totalFen: 15_00, count: 2, parent: '餐饮' },
        ],
      },
      { type: 'EXPENSE', category: '购物', totalFen: 7_00, count: 1, children: [] },
    ]);
    expect(stats.expenseFen).toBe(172_00);
    expect(ledger.monthSummary('2026-02').byCategory.find((c) => c.category === '早餐')).toMatchObject({ parent: '餐饮', totalFen: 15_00 });
  });

  it('restricts totals, trend and lines to the rows of a tag', () => {
    const stats = ledger.periodStats({ ...period, tag: '出差' });
    expect(stats).toMatchObject({ expenseFen: 140_00, incomeFen: 0, count: 3, trend: [{ key: '2026-02', expenseFen: 140_00, incomeFen: 0 }] });
    expect(stats.byParent.map((p) => [p.category, p.totalFen, p.children.map((c) => c.category)])).toEqual([
      ['交通', 100_00, []],
      ['餐饮', 40_00, ['夜宵', '早餐']],
    ]);
    expect(ledger.periodStats({ ...period, tag: '没有' })).toMatchObject({ expenseFen: 0, count: 0, byCategory: [], byParent: [] });
  });

  it('counts a parent’s sub-categories in its budget and its alerts', () => {
    const status = ledger.setBudgets('2026-02', [
      { categoryId: cat('餐饮').id, amountFen: 70_00 },
      { categoryId: cat('早餐').id, amountFen: 100_00 },
    ]);
    expect(status.lines.map((l) => [l.category, l.spentFen, l.level])).toEqual([
      ['餐饮', 65_00, 'warn'],
      ['早餐', 15_00, 'ok'],
    ]);
    const alerts = ledger.crossedAlerts('2026-02');
    expect(alerts).toEqual([]);
    history.saveBatch([item({ category: '夜宵', amount: 10, date: '2026-02-16' })]);
    expect(ledger.crossedAlerts('2026-02').map((a) => [a.category, a.threshold])).toEqual([['餐饮', 100]]);
  });
});

describe('tags and the tree in our CSV', () => {
  it('exports tags and parents at the end and imports them into an empty ledger as the same tags and tree', async () => {
    const food = cat('餐饮');
    ledger.addCategory('早餐', 'EXPENSE', food.id);
    const pets = ledger.addCategory('爱好', 'EXPENSE');
    ledger.addCategory('猫粮', 'EXPENSE', pets.id);
    history.saveBatch([
      item({ category: '早餐', description: '豆浆', tags: ['出差', '报销'] }),
      item({ category: '猫粮', description: '罐头', tags: ['=猫'] }),
      item({ description: '午饭' }),
    ]);
    const { text } = exportCsv(ledger);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]!.endsWith(',标签,父分类,附件')).toBe(true);
    expect(lines.find((l) => l.includes('豆浆'))).toMatch(/,出差;报销,餐饮,$/);
    expect(lines.find((l) => l.includes('罐头'))).toMatch(/,'=猫,爱好,$/);

    const target = openLedger({ path: ':memory:', now: () => NOW });
    try {
      expect(await new LedgerHistory(target).importFile(new TextEncoder().encode(text))).toMatchObject({ imported: 3, duplicates: 0 });
      const tree = (l: Ledger) =>
        l
          .listCategories()
          .filter((c) => c.parentId !== null)
          .map((c) => [c.name, l.category(c.parentId!).name])
          .sort();
      expect(tree(target)).toEqual(tree(ledger));
      expect(tree(target)).toEqual([
        ['早餐', '餐饮'],
        ['猫粮', '爱好'],
      ]);
      const tagsOf = (l: Ledger) =>
        l
          .list({ limit: 10 })
          .rows.map((r) => [r.description, r.tags ?? []])
          .sort();
      expect(tagsOf(target)).toEqual(tagsOf(ledger));
      expect(target.listTags().map((t) => [t.name, t.count])).toEqual(ledger.listTags().map((t) => [t.name, t.count]));
    } finally {
      target.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerHistory, LedgerRuleError, openLedger, type Ledger } from './index';
import { merchantKey } from './bills/table';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { billRow, entry, NOW } from '../../../../test/support/ledger-fixtures';

// The merchant memory of bill imports: an imported row keeps its merchant, moving it to
// another category makes a rule for that merchant, and 设置 lists and deletes the rules.

const STAMP = '2026-02-17T12:30:00+08:00';

let ledger: Ledger;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
});
afterEach(() => ledger.close());

const categoryId = (name: string) => ledger.listCategories().find((c) => c.name === name && c.type === 'EXPENSE')!.id;

describe('merchant memory', () => {
  it('learns the category the user moves an imported row to, per merchant and type', () => {
    const { ids } = ledger.importRows([
      billRow(),
      billRow({ line: 3, merchant: '滴滴出行', amountFen: 1800, description: '快车' }),
      billRow({ line: 4, merchant: '  ', amountFen: 900, description: '没有商户' }),
    ]);
    expect(ledger.merchantRules()).toEqual([]);

    ledger.updateTransaction(ids[0]!, { category: '餐饮' });
    ledger.updateTransaction(ids[1]!, { category: '交通' });
    // A row without a merchant teaches nothing; neither does an edit that keeps the category.
    ledger.updateTransaction(ids[2]!, { category: '购物' });
    ledger.updateTransaction(ids[0]!, { category: '餐饮', description: '晚饭' });

    // By pinyin: 滴 (dī) before 上 (shàng).
    expect(ledger.merchantRules()).toEqual([
      { merchant: '滴滴出行', type: 'EXPENSE', category: '交通', updatedAt: STAMP },
      { merchant: '上海交通大学第一食堂', type: 'EXPENSE', category: '餐饮', updatedAt: STAMP },
    ]);
    expect(ledger.merchantCategories()).toEqual(
      new Map([
        [merchantKey('EXPENSE', '上海交通大学第一食堂'), '餐饮'],
        [merchantKey('EXPENSE', '滴滴出行'), '交通'],
      ]),
    );

    // The latest choice wins.
    ledger.updateTransaction(ids[1]!, { category: '娱乐' });
    expect(ledger.merchantCategories().get(merchantKey('EXPENSE', '滴滴出行'))).toBe('娱乐');
  });

  it('learns under the new type when an edit changes type and category together', () => {
    const { ids } = ledger.importRows([billRow({ merchant: '某某公司' })]);
    // Only the type: the category is re-filed for it, not chosen, so nothing is learned.
    ledger.updateTransaction(ids[0]!, { type: 'INCOME' });
    expect(ledger.merchantRules()).toEqual([]);
    ledger.updateTransaction(ids[0]!, { type: 'INCOME', category: '工资' });
    expect(ledger.merchantRules()).toMatchObject([{ merchant: '某某公司', type: 'INCOME', category: '工资' }]);
  });

  it('learns nothing from a row entered by hand', () => {
    const row = ledger.addTransaction(entry({ category: '其他' }));
    ledger.updateTransaction(row.id, { category: '餐饮' });
    expect(ledger.merchantRules()).toEqual([]);
    expect(ledger.merchantCategories().size).toBe(0);
  });

  it('keeps the rule when the edit is undone, through the history as the app edits', () => {
    const history = new LedgerHistory(ledger);
    const { ids } = ledger.importRows([billRow()]);
    history.updateTransaction(ids[0]!, { category: '餐饮' });
    history.undo();
    expect(ledger.getTransaction(ids[0]!)!.category).toBe('其他');
    expect(ledger.merchantRules()).toMatchObject([{ merchant: '上海交通大学第一食堂', category: '餐饮' }]);
  });

  it('deletes a rule, and refuses one that does not exist', () => {
    const { ids } = ledger.importRows([billRow()]);
    ledger.updateTransaction(ids[0]!, { category: '餐饮' });
    ledger.deleteMerchantRule('上海交通大学第一食堂', 'EXPENSE');
    expect(ledger.merchantRules()).toEqual([]);
    expect(() => ledger.deleteMerchantRule('上海交通大学第一食堂', 'EXPENSE')).toThrow(LedgerRuleError);
    expect(() => ledger.deleteMerchantRule('上海交通大学第一食堂', 'EXPENSE')).toThrow('「上海交通大学第一食堂」的分类规则不存在或已被删除');
    // The row still has its merchant: the next edit learns again.
    ledger.updateTransaction(ids[0]!, { category: '购物' });
    expect(ledger.merchantRules()).toMatchObject([{ category: '购物' }]);
  });

  it('drops the rule with its category, and the merchant with its row', () => {
    const canteen = ledger.addCategory('食堂', 'EXPENSE');
    const { ids } = ledger.importRows([billRow(), billRow({ line: 3, merchant: '瑞幸咖啡', amountFen: 1500 })]);
    ledger.updateTransaction(ids[0]!, { category: '食堂' });
    ledger.updateTransaction(ids[1]!, { category: '餐饮' });
    ledger.deleteCategory(canteen.id, categoryId('餐饮'));
    expect(ledger.merchantRules()).toMatchObject([{ merchant: '瑞幸咖啡', category: '餐饮' }]);

    // The row's merchant goes with it (a foreign key, enforced: the delete would fail without the cascade).
    ledger.deleteTransaction(ids[1]!);
    ledger.deleteMerchantRule('瑞幸咖啡', 'EXPENSE');
    expect(ledger.merchantRules()).toEqual([]);
  });

  it('lists the rules in the order of a Chinese index', () => {
    const { ids } = ledger.importRows(
      ['滴滴出行', '阿里云', '美团'].map((merchant, i) => billRow({ line: i + 2, merchant, amountFen: 100 * (i + 1) })),
    );
    for (const id of ids) ledger.updateTransaction(id, { category: '购物' });
    expect(ledger.merchantRules().map((r) => r.merchant)).toEqual(['阿里云', '滴滴出行', '美团']);
  });
});

describe('a ledger from before migration 9', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-migrate9-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gains the merchant tables and keeps its rows, which teach nothing', () => {
    const path = join(dir, 'v8.db');
    const old = new Database(path);
    old.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.filter((m) => m.version <= 8)) old.exec(m.up);
    old.pragma('user_version = 8');
    old
      .prepare(
        `INSERT INTO transactions (id, amount_fen, type, category_id, account_id, occurred_at, occurred_date, occurred_ms, source, created_at, updated_at)
         VALUES ('old', 1500, 'EXPENSE', (SELECT id FROM categories WHERE name = '其他' AND type = 'EXPENSE'), 1,
                 '2026-02-01T08:00:00+08:00', '2026-02-01', 0, 'import', 'x', 'x')`,
      )
      .run();
    old.close();

    const migrated = openLedger({ path, now: () => NOW });
    try {
      expect(migrated.schemaVersion).toBe(SCHEMA_VERSION);
      migrated.updateTransaction('old', { category: '餐饮' });
      expect(migrated.getTransaction('old')!.category).toBe('餐饮');
      expect(migrated.merchantRules()).toEqual([]);
      const { ids } = migrated.importRows([billRow({ merchant: '美团' })]);
      migrated.updateTransaction(ids[0]!, { category: '餐饮' });
      expect(migrated.merchantCategories()).toEqual(new Map([[merchantKey('EXPENSE', '美团'), '餐饮']]));
    } finally {
      migrated.close();
    }
  });
});

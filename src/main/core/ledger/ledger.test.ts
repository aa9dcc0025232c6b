import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParseResult } from '@shared/domain';
import { LedgerOpenError, LedgerValidationError, openLedger, SCHEMA_VERSION, type Ledger } from './index';
import { item as baseItem, NOW } from '../../../../test/support/ledger-fixtures';

// Undated items: the ledger files them on the day they are saved.
const item = (over: Partial<ParseResult> = {}): ParseResult => baseItem({ date: null, ...over });

let dir: string;
let ledger: Ledger;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-ledger-'));
  ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
});

afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Ledger: schema and seeds', () => {
  it('migrates a fresh file to the latest version in WAL mode', () => {
    expect(ledger.schemaVersion).toBe(SCHEMA_VERSION);
    expect(ledger.database.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('seeds the default categories and the 钱包 account', () => {
    const expense = ledger.categories('EXPENSE');
    expect(expense.filter((c) => !c.hidden).map((c) => c.name)).toEqual([
      '餐饮',
      '交通',
      '购物',
      '账单',
      '娱乐',
      '医疗',
      '教育',
      '住房',
      '人情往来',
      '其他',
    ]);
    expect(expense.filter((c) => c.hidden).map((c) => c.name)).toEqual(['宠物', '旅行']);
    expect(ledger.categories('INCOME').map((c) => c.name)).toEqual(['工资', '奖金', '兼职', '红包', '其他']);
    expect(ledger.accounts()).toEqual([{ name: '钱包', isDefault: true }]);
  });

  it('reopens an existing file without re-seeding', () => {
    ledger.saveBatch([item()]);
    ledger.close();
    ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
    expect(ledger.categories('INCOME')).toHaveLength(5);
    expect(ledger.count()).toBe(1);
  });

  it('refuses a file that is not SQLite and leaves it untouched', () => {
    const path = join(dir, 'notes.db');
    writeFileSync(path, 'these are my notes, not a database');
    expect(() => openLedger({ path })).toThrow(LedgerOpenError);
    try {
      openLedger({ path });
    } catch (err) {
      expect((err as LedgerOpenError).code).toBe('not_a_database');
      expect((err as Error).message).toContain('文件未被改动');
    }
    expect(readFileSync(path, 'utf8')).toBe('these are my notes, not a database');
  });

  it('creates a new ledger under a temporary name, so a crash while creating leaves no half-made ledger.db', () => {
    const path = join(dir, 'new.db');
    // What a crash in the middle of an earlier creation leaves behind.
    writeFileSync(`${path}.creating`, '');
    writeFileSync(`${path}.creating-journal`, 'x');
    const ledger = openLedger({ path });
    expect(ledger.schemaVersion).toBe(SCHEMA_VERSION);
    ledger.close();
    expect(existsSync(`${path}.creating`)).toBe(false);
    expect(existsSync(`${path}.creating-journal`)).toBe(false);
  });

  it('refuses a database from a newer app version and does not modify it', () => {
    const path = join(dir, 'future.db');
    const db = new Database(path);
    db.exec('CREATE TABLE future_stuff (x)');
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const before = readFileSync(path);
    expect(() => openLedger({ path })).toThrow(/更新版本/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('Ledger.saveBatch', () => {
  it('saves every item in one call and returns the rows in order, amounts in fen', () => {
    const rows = ledger.saveBatch([
      item({ amount: 60, description: '吃饭' }),
      item({ amount: 28.5, category: '交通', description: '打车' }),
      item({ amount: 9000, type: 'INCOME', category: '工资', description: '工资' }),
    ]);
    expect(rows.map((r) => [r.amountFen, r.type, r.category, r.description])).toEqual([
      [6000, 'EXPENSE', '餐饮', '吃饭'],
      [2850, 'EXPENSE', '交通', '打车'],
      [900000, 'INCOME', '工资', '工资'],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    expect(rows[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[0]!.account).toBe('钱包');
    expect(rows[0]!.occurredAt).toBe('2026-02-17T12:30:00+08:00');
    expect(rows[0]!.currency).toBe('CNY');
  });

  it('uses the parsed date at the current time of day, in the user offset', () => {
    const [row] = ledger.saveBatch([item({ date: '2026-02-15' })]);
    expect(row!.date).toBe('2026-02-15');
    expect(row!.occurredAt).toBe('2026-02-15T12:30:00+08:00');
  });

  it('maps categories: exact → partial → shared characters → the type’s 其他; a hidden one by the item’s words', () => {
    const rows = ledger.saveBatch([
      item({ category: '交通出行' }),
      item({ category: '饮品' }),
      item({ category: '洗浴' }),
      item({ category: null }),
      item({ type: 'INCOME', category: '红包' }),
      item({ type: 'INCOME', category: '理财收益' }),
      item({ category: '宠物' }),
    ]);
    expect(rows.map((r) => `${r.type}:${r.category}`)).toEqual([
      'EXPENSE:交通',
      'EXPENSE:餐饮',
      'EXPENSE:其他',
      'EXPENSE:其他',
      'INCOME:红包',
      'INCOME:其他',
      // 宠物 is hidden: the pickers could not offer it again, so the item's 吃饭 files it.
      'EXPENSE:餐饮',
    ]);
  });

  it('never files an income under an expense category', () => {
    const [row] = ledger.saveBatch([item({ type: 'INCOME', category: '餐饮' })]);
    expect(row!.category).toBe('其他');
    expect(row!.type).toBe('INCOME');
  });

  it.each([
    [{ amount: null }, '缺少金额'],
    [{ amount: 0 }, '金额必须大于0'],
    [{ amount: -5 }, '金额必须大于0'],
    [{ amount: Number.NaN }, '金额不是有效数字'],
    [{ amount: Number.POSITIVE_INFINITY }, '金额不是有效数字'],
    [{ amount: 100_000_001 }, '金额超过上限'],
    [{ type: 'GIFT' as never }, '类型无效'],
    [{ date: '2026-02-30' }, '日期无效'],
  ])('rejects the whole batch when one item is bad (%o) and names the item', (bad, reason) => {
    ledger.saveBatch([item({ description: 'existing' })]);
    let error: unknown;
    try {
      ledger.saveBatch([item(), item(), item(bad as Partial<ParseResult>), item()]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(LedgerValidationError);
    expect((error as LedgerValidationError).itemIndex).toBe(2);
    expect((error as Error).message).toContain('第3笔');
    expect((error as Error).message).toContain(reason);
    expect(ledger.count()).toBe(1);
  });

  it('rolls back when the database itself fails mid-batch', () => {
    ledger.database.exec(
      `CREATE TRIGGER fail_third BEFORE INSERT ON transactions WHEN NEW.description = 'boom'
       BEGIN SELECT RAISE(ABORT, 'disk says no'); END;`,
    );
    expect(() => ledger.saveBatch([item(), item({ description: 'boom' })])).toThrow(/disk says no/);
    expect(ledger.count()).toBe(0);
  });

  it('returns the saved rows exactly as a read of them gives them, and as stored for undo', () => {
    ledger.addAccount('招行');
    const food = ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    ledger.addCategory('早餐', 'EXPENSE', food.id);
    ledger.recordedBy = '书房电脑';
    // Plain items are not read back; a money flow is (its person's name is the ledger's).
    const plain = [
      item({ category: '早餐', tags: ['出差', '#报销'] }),
      item({ account: '招行', description: '刷卡', date: '2026-02-10', reimbursable: true }),
      item({ type: 'TRANSFER', category: null, description: '转到招行' }),
      item({ type: 'TRANSFER', category: null, description: '给房东转房租' }),
    ];
    const lend = [item({ type: 'TRANSFER', flow: 'lend', counterparty: ' 小李 ', category: null, description: '借给小李' })];
    for (const batch of [plain, lend, [...plain, ...lend]]) {
      const saved = ledger.saveBatchWithRaw(batch);
      const ids = saved.rows.map((r) => r.id);
      expect(ids).toHaveLength(batch.length);
      expect(saved.rows).toEqual(ledger.getMany(ids));
      expect(saved.raw).toEqual(ledger.rawRows(ids));
    }
    expect(ledger.list({ limit: 1 }).rows[0]).toMatchObject({ person: '小李', recordedBy: '书房电脑' });
  });

  it('accepts the upper bound of 100 000 000 yuan exactly', () => {
    const [row] = ledger.saveBatch([item({ amount: 100_000_000 })]);
    expect(row!.amountFen).toBe(10_000_000_000);
  });
});

describe('Ledger queries', () => {
  beforeEach(() => {
    ledger.saveBatch([
      item({ amount: 60, date: '2026-02-01', description: '火锅' }),
      item({ amount: 30, category: '交通', date: '2026-02-10', description: '打车' }),
      item({ amount: 9000, type: 'INCOME', category: '工资', date: '2026-02-15', description: '二月工资' }),
      item({ amount: 19.99, category: '购物', date: '2026-01-31', description: '袜子' }),
      item({ amount: 0.01, date: '2026-02-28', description: '找零' }),
    ]);
  });

  it('lists newest first within an inclusive range, a page at a time after the one before', () => {
    const page = ledger.list({ from: '2026-02-01', to: '2026-02-28', limit: 2 });
    expect(page.rows.map((r) => r.description)).toEqual(['找零', '二月工资']);
    const next = ledger.list({ from: '2026-02-01', to: '2026-02-28', limit: 2, after: page.next! });
    expect(next.rows.map((r) => r.description)).toEqual(['打车', '火锅']);
    // A full page may be the last: the one after it is empty and has no next.
    expect(ledger.list({ from: '2026-02-01', to: '2026-02-28', limit: 2, after: next.next! })).toEqual({ rows: [], next: null });
    expect(ledger.list({ from: '2026-02-01', to: '2026-02-28', limit: 3, after: page.next! }).next).toBeNull();
  });

  it('filters by type and category', () => {
    expect(ledger.list({ type: 'INCOME' }).rows.map((r) => r.description)).toEqual(['二月工资']);
    expect(ledger.list({ category: '交通' }).rows.map((r) => r.description)).toEqual(['打车']);
  });

  it('searches description and category text, treating % and _ literally', () => {
    expect(ledger.search('工资').map((r) => r.description)).toEqual(['二月工资']);
    expect(ledger.search('交通').map((r) => r.description)).toEqual(['打车']);
    expect(ledger.search('%')).toEqual([]);
  });

  it('summarises a month by type and category in exact fen', () => {
    const s = ledger.monthSummary('2026-02');
    expect(s.expenseFen).toBe(6000 + 3000 + 1);
    expect(s.incomeFen).toBe(900000);
    expect(s.byCategory).toEqual([
      { type: 'INCOME', category: '工资', totalFen: 900000, count: 1 },
      { type: 'EXPENSE', category: '餐饮', totalFen: 6001, count: 2 },
      { type: 'EXPENSE', category: '交通', totalFen: 3000, count: 1 },
    ]);
    expect(ledger.monthSummary('2026-01').expenseFen).toBe(1999);
  });

  it('totals a range for spoken queries', () => {
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE' })).toEqual({ totalFen: 9001, count: 3 });
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE', category: '餐饮' }).totalFen).toBe(6001);
    expect(ledger.totals({ from: '2025-01-01', to: '2025-01-31' })).toEqual({ totalFen: 0, count: 0 });
  });

  it('updates one transaction and re-files the category when the type changes', () => {
    const target = ledger.search('打车')[0]!;
    const updated = ledger.updateTransaction(target.id, { amountFen: 3500, date: '2026-02-11', description: '打车回家' });
    expect(updated).toMatchObject({ amountFen: 3500, date: '2026-02-11', description: '打车回家', category: '交通' });
    expect(updated.occurredAt.startsWith('2026-02-11T')).toBe(true);
    const flipped = ledger.updateTransaction(target.id, { type: 'INCOME' });
    expect(flipped).toMatchObject({ type: 'INCOME', category: '其他' });
  });

  it('rejects bad updates without changing the row', () => {
    const target = ledger.search('打车')[0]!;
    expect(() => ledger.updateTransaction(target.id, { amountFen: 0 })).toThrow(LedgerValidationError);
    expect(() => ledger.updateTransaction(target.id, { account: '不存在的卡' })).toThrow(/账户不存在/);
    expect(() => ledger.updateTransaction('nope', { amountFen: 1 })).toThrow(/不存在/);
    expect(ledger.getTransaction(target.id)).toEqual(target);
  });

  it('deletes one transaction, and several atomically', () => {
    const [a, b] = ledger.list({ limit: 2 }).rows;
    ledger.deleteTransaction(a!.id);
    expect(ledger.getTransaction(a!.id)).toBeUndefined();
    expect(() => ledger.deleteTransaction(a!.id)).toThrow(/不存在/);
    expect(ledger.deleteTransactions([b!.id, 'missing'])).toBe(1);
    expect(ledger.count()).toBe(3);
  });
});

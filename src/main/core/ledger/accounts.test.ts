import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerHistory, LedgerRuleError, openLedger, type Ledger } from './index';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { entry, item, NOW } from '../../../../test/support/ledger-fixtures';
import { toZonedNow, type ZonedNow } from '@shared/time';
import { createDispatch } from '../ipc/handlers';
import { createLedgerHandlers } from '../ipc/ledger-handlers';
import type { Handlers } from '../ipc/types';

let ledger: Ledger;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
});
afterEach(() => ledger.close());

const balances = () => ledger.accountBalances().accounts.map((a) => [a.name, a.balanceFen]);

const CASH = { kind: 'cash', statementDay: null, dueDay: null, creditLimitFen: null };

describe('accounts with balances', () => {
  it('balance = initial + income + transfers in − expense − transfers out; own transfers keep the total', () => {
    ledger.addAccount('银行卡', 500_00);
    ledger.addAccount('信用卡', -200_00);
    ledger.addTransaction(entry({ amountFen: 30_00 }));
    ledger.addTransaction(entry({ type: 'INCOME', category: '工资', amountFen: 1000_00, account: '银行卡' }));
    const before = ledger.accountBalances().totalFen;
    expect(before).toBe(500_00 - 200_00 - 30_00 + 1000_00);

    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 100_00, account: '银行卡', toAccount: '钱包' }));
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 80_00, account: '银行卡', toAccount: '信用卡' }));
    expect(ledger.accountBalances().totalFen).toBe(before);

    // A transfer to someone outside the user's accounts is money leaving.
    const [rent] = [
      ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 50_00, account: '银行卡', counterparty: '房东' })),
    ];
    expect(rent).toMatchObject({ type: 'TRANSFER', category: '转账', account: '银行卡', toAccount: null, counterparty: '房东' });
    expect(balances()).toEqual([
      ['钱包', -30_00 + 100_00],
      ['银行卡', 500_00 + 1000_00 - 100_00 - 80_00 - 50_00],
      ['信用卡', -200_00 + 80_00],
    ]);
    expect(ledger.accountBalances().totalFen).toBe(before - 50_00);
  });

  it('keeps the running totals right through edits, undo and redo', () => {
    const history = new LedgerHistory(ledger);
    ledger.addAccount('银行卡', 0);
    const row = history.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 70_00, account: '钱包', toAccount: '银行卡' }));
    expect(balances()).toEqual([
      ['钱包', -70_00],
      ['银行卡', 70_00],
    ]);
    history.updateTransaction(row.id, { amountFen: 20_00, account: '银行卡', toAccount: '钱包' });
    expect(balances()).toEqual([
      ['钱包', 20_00],
      ['银行卡', -20_00],
    ]);
    // Leaving TRANSFER drops the transfer target: an expense names one account only.
    const expense = history.updateTransaction(row.id, { type: 'EXPENSE', category: '餐饮' });
    expect(expense.toAccount).toBeUndefined();
    expect(ledger.rawRows([row.id])[0]).toMatchObject({ to_account_id: null, counterparty: '' });
    expect(balances()).toEqual([
      ['钱包', 0],
      ['银行卡', -20_00],
    ]);
    history.undo();
    history.undo();
    expect(balances()).toEqual([
      ['钱包', -70_00],
      ['银行卡', 70_00],
    ]);
    history.undo();
    expect(balances()).toEqual([
      ['钱包', 0],
      ['银行卡', 0],
    ]);
    history.redo();
    expect(balances()).toEqual([
      ['钱包', -70_00],
      ['银行卡', 70_00],
    ]);
    expect(() => history.updateTransaction(row.id, { toAccount: '钱包' })).toThrow(/同一个账户/);
  });

  it('archives an account: history and balance stay, new entries cannot use it, voice saves land in the default', () => {
    const bank = ledger.addAccount('银行卡', 100_00);
    ledger.saveBatch([item({ account: '银行卡', amount: 10 })]);
    const archived = ledger.archiveAccount(bank.id, true);
    expect(archived).toMatchObject({ name: '银行卡', archived: true, count: 1, balanceFen: 90_00 });
    expect(ledger.count({ account: '银行卡' })).toBe(1);
    expect(ledger.accountBalances().totalFen).toBe(90_00);
    expect(() => ledger.addTransaction(entry({ account: '银行卡' }))).toThrow('账户「银行卡」已归档');
    expect(() => ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, toAccount: '银行卡' }))).toThrow('账户「银行卡」已归档');
    const [walletRow] = ledger.saveBatch([item({ account: '银行卡' })]);
    expect(walletRow!.account).toBe('钱包');
    // An edit may keep a row in its archived account but move none into one.
    const [bankRow] = ledger.list({ account: '银行卡' }).rows;
    expect(ledger.updateTransaction(bankRow!.id, { account: '银行卡', amountFen: 12_00 }).amountFen).toBe(12_00);
    expect(() => ledger.updateTransaction(walletRow!.id, { account: '银行卡' })).toThrow('账户「银行卡」已归档');
    expect(ledger.listAccounts().find((a) => a.id === bank.id)?.archived).toBe(true);
    expect(() => ledger.setDefaultAccount(bank.id)).toThrow(/已归档/);
    expect(ledger.archiveAccount(bank.id, false).archived).toBe(false);
    expect(ledger.addTransaction(entry({ account: '银行卡' })).account).toBe('银行卡');
  });

  it('never archives the default account nor the preset 钱包, even renamed and no longer the default', () => {
    const bank = ledger.addAccount('银行卡');
    ledger.setDefaultAccount(bank.id);
    expect(() => ledger.archiveAccount(bank.id, true)).toThrow(new LedgerRuleError('account_in_use', '「银行卡」是默认账户，不能归档'));
    const wallet = ledger.accountBalances().accounts.find((a) => a.name === '钱包')!;
    expect(wallet).toMatchObject({ preset: true, isDefault: false });
    ledger.renameAccount(wallet.id, '我的钱包');
    expect(() => ledger.archiveAccount(wallet.id, true)).toThrow(new LedgerRuleError('account_in_use', '「我的钱包」是预设账户，不能归档'));
    expect(() => ledger.deleteAccount(wallet.id)).toThrow(new LedgerRuleError('account_in_use', '「我的钱包」是预设账户，不能删除'));
    expect(
      ledger
        .accountBalances()
        .accounts.filter((a) => a.preset)
        .map((a) => a.name),
    ).toEqual(['我的钱包']);
  });

  it('refuses to delete an account that any row names, on either side of a transfer, with the count', () => {
    const bank = ledger.addAccount('银行卡');
    for (let i = 0; i < 12; i++) ledger.addTransaction(entry({ account: '银行卡' }));
    expect(() => ledger.deleteAccount(bank.id)).toThrow('该账户有 12 笔记录，不能删除，可以归档');
    const target = ledger.addAccount('零钱通');
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, toAccount: '零钱通' }));
    expect(() => ledger.deleteAccount(target.id)).toThrow('该账户有 1 笔记录，不能删除，可以归档');
    const unused = ledger.addAccount('空账户', 5_00);
    ledger.deleteAccount(unused.id);
    expect(ledger.listAccounts().map((a) => a.name)).toEqual(['钱包', '银行卡', '零钱通']);
  });
});

describe('a ledger from before migration 4', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-migrate4-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gets its account totals from the rows it already has', () => {
    const path = join(dir, 'v3.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 3)) old.exec(m.up);
    old.pragma('user_version = 3');
    old.prepare("INSERT INTO accounts (name, sort_order, created_at) VALUES ('银行卡', 1, '2026-01-01T00:00:00Z')").run();
    const insert = old.prepare(
      `INSERT INTO transactions (id, amount_fen, type, category_id, account_id, occurred_at, occurred_date, occurred_ms, source, created_at, updated_at)
       VALUES (?, ?, ?, (SELECT id FROM categories WHERE type = ? LIMIT 1), ?, '2026-02-01T08:00:00+08:00', '2026-02-01', 0, 'local', 'x', 'x')`,
    );
    insert.run('a', 1500, 'EXPENSE', 'EXPENSE', 1);
    insert.run('b', 100000, 'INCOME', 'INCOME', 2);
    insert.run('c', 300, 'TRANSFER', 'TRANSFER', 2);
    old.close();

    const migrated = openLedger({ path, now: () => NOW });
    try {
      expect(migrated.schemaVersion).toBe(SCHEMA_VERSION);
      expect(migrated.accountBalances()).toEqual({
        accounts: [
          { id: 1, name: '钱包', isDefault: true, count: 1, initialBalanceFen: 0, balanceFen: -1500, archived: false, preset: true, ...CASH },
          {
            id: 2,
            name: '银行卡',
            isDefault: false,
            count: 2,
            initialBalanceFen: 0,
            balanceFen: 100000 - 300,
            archived: false,
            preset: false,
            ...CASH,
          },
        ],
        totalFen: -1500 + 100000 - 300,
      });
    } finally {
      migrated.close();
    }
  });
});

describe('the 记一笔 form', () => {
  it('stores the day and time in the user offset as a manual row that undo takes back', () => {
    const history = new LedgerHistory(ledger);
    const row = history.addTransaction(entry({ amountFen: 1250, date: '2026-02-16', time: '21:05', note: ' 夜宵 ' }));
    expect(row).toMatchObject({
      amountFen: 1250,
      type: 'EXPENSE',
      category: '餐饮',
      account: '钱包',
      description: '夜宵',
      occurredAt: '2026-02-16T21:05:00+08:00',
      date: '2026-02-16',
      source: 'manual',
    });
    expect(ledger.rawRows([row.id])[0]!.occurred_ms).toBe(Date.parse('2026-02-16T13:05:00Z'));
    expect(history.state().undoLabel).toBe('记账 1 笔');
    history.undo();
    expect(ledger.getTransaction(row.id)).toBeUndefined();
    history.redo();
    expect(ledger.getTransaction(row.id)).toMatchObject({ occurredAt: '2026-02-16T21:05:00+08:00' });
  });

  it.each([
    [{ amountFen: 0 }, '金额必须大于0'],
    [{ amountFen: -5 }, '金额必须大于0'],
    [{ amountFen: 10_000_000_001 }, '金额超过上限（1亿元）'],
    [{ date: '2026-02-30' }, '日期无效（2026-02-30）'],
    [{ time: '24:00' }, '时间无效（24:00）'],
    [{ category: '工资' }, '没有名为「工资」的支出分类'],
    [{ account: '火星银行' }, '账户不存在（火星银行）'],
    [{ counterparty: '房东' }, '只有转账才有转入账户或对方'],
    [{ type: 'TRANSFER', category: undefined }, '转账需要填写转入账户或对方（二选一）'],
    [{ type: 'TRANSFER', category: undefined, toAccount: '钱包', counterparty: '房东' }, '转账需要填写转入账户或对方（二选一）'],
    [{ type: 'TRANSFER', category: undefined, toAccount: '钱包' }, '转出和转入不能是同一个账户'],
  ] as const)('refuses %j: %s, and saves nothing', (over, message) => {
    expect(() => ledger.addTransaction(entry(over))).toThrow(new LedgerRuleError('invalid_transaction', message));
    expect(ledger.count()).toBe(0);
  });

  it('offers the three categories used most recently first (by entry, hidden ones left out)', () => {
    expect(ledger.recentCategories('EXPENSE')).toEqual([]);
    for (const category of ['交通', '餐饮', '购物', '餐饮', '娱乐']) ledger.addTransaction(entry({ category, date: '2020-01-01' }));
    ledger.addTransaction(entry({ type: 'INCOME', category: '工资' }));
    expect(ledger.recentCategories('EXPENSE').map((c) => c.name)).toEqual(['娱乐', '餐饮', '购物']);
    expect(ledger.recentCategories('EXPENSE', 5).map((c) => c.name)).toEqual(['娱乐', '餐饮', '购物', '交通']);
    expect(ledger.recentCategories('INCOME').map((c) => c.name)).toEqual(['工资']);
    const shopping = ledger.listCategories().find((c) => c.name === '购物')!;
    ledger.setCategoryHidden(shopping.id, true);
    expect(ledger.recentCategories('EXPENSE').map((c) => c.name)).toEqual(['娱乐', '餐饮', '交通']);
  });
});

describe('statistics leave transfers out of income and expense', () => {
  it('month summary, period stats, day headers and spoken totals', () => {
    ledger.addAccount('银行卡');
    ledger.addTransaction(entry({ amountFen: 30_00, date: '2026-02-03' }));
    ledger.addTransaction(entry({ type: 'INCOME', category: '工资', amountFen: 500_00, date: '2026-02-03' }));
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 200_00, date: '2026-02-03', toAccount: '银行卡' }));
    ledger.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen: 7_00, date: '2026-02-04', counterparty: '同事' }));

    expect(ledger.monthSummary('2026-02')).toMatchObject({ expenseFen: 30_00, incomeFen: 500_00, transferFen: 207_00 });
    const stats = ledger.periodStats({ from: '2026-02-01', to: '2026-02-28', granularity: 'day' });
    expect(stats).toMatchObject({ expenseFen: 30_00, incomeFen: 500_00, transferFen: 207_00, balanceFen: 470_00 });
    expect(stats.trend.find((p) => p.key === '2026-02-03')).toEqual({ key: '2026-02-03', expenseFen: 30_00, incomeFen: 500_00 });
    expect(stats.trend.find((p) => p.key === '2026-02-04')).toEqual({ key: '2026-02-04', expenseFen: 0, incomeFen: 0 });
    expect(ledger.days({ from: '2026-02-04', to: '2026-02-04' })).toEqual([{ date: '2026-02-04', count: 1, expenseFen: 0, incomeFen: 0 }]);
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28' })).toEqual({ totalFen: 530_00, count: 2 });
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', type: 'TRANSFER' })).toEqual({ totalFen: 207_00, count: 2 });
  });
});

describe('credit cards: 本期账单, 还款日 and 可用额度', () => {
  let dir: string;
  let card: Ledger;
  let now: ZonedNow;
  const at = (day: string) => (now = toZonedNow(`${day}T10:00:00+08:00`));
  const spend = (date: string, yuan: number) => card.addTransaction(entry({ account: '信用卡', date, amountFen: yuan * 100 }));
  const repay = (date: string, yuan: number) =>
    card.addTransaction(entry({ type: 'TRANSFER', category: undefined, account: '钱包', toAccount: '信用卡', date, amountFen: yuan * 100 }));
  const statement = () => card.cardStatements()[0]!;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-cards-'));
    at('2026-09-20');
    card = openLedger({ path: join(dir, 'ledger.db'), now: () => now });
  });
  afterEach(() => {
    card.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bills the closed period: what was carried, plus spending, minus repayments; what is left, 未出账, days to pay, 可用额度', () => {
    card.addAccount('信用卡', 0, { statementDay: 5, dueDay: 23, creditLimitFen: 10_000_00 });
    spend('2026-10-03', 200); // previous bill (closes 10-05)
    spend('2026-10-10', 1000);
    repay('2026-10-23', 200); // pays the previous bill
    spend('2026-11-05', 300); // the statement day is in the period
    spend('2026-11-06', 80); // the day after: 未出账
    repay('2026-11-08', 500);
    // A row on another account changes nothing here.
    card.addTransaction(entry({ date: '2026-10-12', amountFen: 99_00 }));

    at('2026-11-10');
    expect(statement()).toEqual({
      accountId: card.listAccounts().find((a) => a.name === '信用卡')!.id,
      owedFen: 880_00,
      availableFen: 10_000_00 - 880_00,
      bill: {
        from: '2026-10-06',
        to: '2026-11-05',
        closed: true,
        carriedFen: 200_00,
        spentFen: 1300_00,
        repaidFen: 200_00,
        billFen: 1300_00,
        leftFen: 800_00,
        unbilledFen: 80_00,
        dueDate: '2026-11-23',
        daysLeft: 13,
      },
    });
    at('2026-11-23');
    expect(statement().bill).toMatchObject({ dueDate: '2026-11-23', daysLeft: 0, leftFen: 800_00 });
    at('2026-11-25');
    expect(statement().bill).toMatchObject({ dueDate: '2026-11-23', daysLeft: -2, leftFen: 800_00 });
    repay('2026-11-25', 800);
    expect(statement().bill).toMatchObject({ billFen: 1300_00, leftFen: 0 });

    // The next statement: the 80 spent after 11-05, and the 1300 repaid since, against what was owed on 11-05.
    at('2026-12-06');
    expect(statement().bill).toMatchObject({
      from: '2026-11-06',
      to: '2026-12-05',
      carriedFen: 1300_00,
      spentFen: 80_00,
      repaidFen: 1300_00,
      billFen: 80_00,
      leftFen: 80_00,
      unbilledFen: 0,
      dueDate: '2026-12-23',
      daysLeft: 17,
    });
    expect(statement()).toMatchObject({ owedFen: 80_00, availableFen: 10_000_00 - 80_00 });
  });

  it('before the first statement date shows the open period so far, due after it closes', () => {
    at('2026-11-10');
    card.addAccount('信用卡', -150_00, { statementDay: 5, dueDay: 23, creditLimitFen: null });
    spend('2026-11-10', 100);
    repay('2026-11-10', 30);
    expect(statement()).toMatchObject({
      owedFen: 220_00,
      availableFen: null,
      bill: {
        from: '2026-11-06',
        to: '2026-12-05',
        closed: false,
        carriedFen: 150_00,
        spentFen: 100_00,
        repaidFen: 30_00,
        billFen: 220_00,
        leftFen: 220_00,
        unbilledFen: 0,
        dueDate: '2026-12-23',
        daysLeft: 43,
      },
    });
    // A row dated before the card was made gives it a statement that has closed.
    spend('2026-11-01', 10);
    expect(statement().bill).toMatchObject({ from: '2026-10-06', to: '2026-11-05', closed: true, carriedFen: 150_00, billFen: 160_00 });
  });

  it('crosses the year end and clamps 账单日 31 in short months', () => {
    card.addAccount('信用卡', 0, { statementDay: 31, dueDay: 10 });
    spend('2026-12-31', 40); // 12-31 closes the December bill
    spend('2027-01-01', 7);
    at('2027-01-02');
    expect(statement().bill).toMatchObject({
      from: '2026-12-01',
      to: '2026-12-31',
      billFen: 40_00,
      unbilledFen: 7_00,
      dueDate: '2027-01-10',
      daysLeft: 8,
    });
    at('2027-03-01');
    expect(statement().bill).toMatchObject({ from: '2027-02-01', to: '2027-02-28', carriedFen: 47_00, billFen: 47_00, dueDate: '2027-03-10' });
  });

  it('a card without 账单日 has no bill; over its 额度 the available amount goes negative; a cash account has none', () => {
    const visa = card.addAccount('信用卡', -600_00, { statementDay: null, dueDay: null, creditLimitFen: 500_00 });
    expect(statement()).toEqual({ accountId: visa.id, owedFen: 600_00, availableFen: -100_00, bill: null });
    card.addAccount('银行卡', 100_00);
    expect(card.cardStatements()).toHaveLength(1);
  });

  it('keeps the 额度 when terms leave it out, drops it with the card, and refuses a bad one', () => {
    const visa = card.addAccount('信用卡');
    expect(card.setCard(visa.id, { statementDay: 5, dueDay: 23, creditLimitFen: 2000_00 })).toMatchObject({
      kind: 'credit',
      creditLimitFen: 2000_00,
    });
    expect(card.setCard(visa.id, { statementDay: 6, dueDay: 24 })).toMatchObject({ statementDay: 6, creditLimitFen: 2000_00 });
    expect(card.setCard(visa.id, { statementDay: 6, dueDay: 24, creditLimitFen: null })).toMatchObject({ creditLimitFen: null });
    card.setCard(visa.id, { statementDay: 6, dueDay: 24, creditLimitFen: 100 });
    expect(card.setCard(visa.id, null)).toMatchObject({ kind: 'cash', statementDay: null, creditLimitFen: null });
    expect(() => card.setCard(visa.id, { statementDay: 5, dueDay: 23, creditLimitFen: -1 })).toThrow('额度应为0到1亿元之间的金额');
    // A refused card makes no account.
    expect(() => card.addAccount('万事达', 0, { statementDay: 32, dueDay: 1 })).toThrow('账单日和还款日应为每月1–31日');
    expect(card.listAccounts().map((a) => a.name)).toEqual(['钱包', '信用卡']);
  });

  it('refuses bad terms at the IPC boundary in Chinese and creates nothing', async () => {
    const dispatch = createDispatch(createLedgerHandlers({ ledger: card }) as Handlers);
    const refused = async (input: unknown) => {
      const result = (await dispatch('addAccount', input)) as { ok: boolean; error?: { message: string } };
      expect(result.ok).toBe(false);
      return result.error!.message;
    };
    const terms = { statementDay: 5, dueDay: 23 };
    expect(await refused({ name: '信用卡', card: { ...terms, creditLimitYuan: -1 } })).toContain('额度不能为负');
    expect(await refused({ name: '信用卡', card: { ...terms, creditLimitYuan: 100.005 } })).toContain('额度最多两位小数');
    expect(await refused({ name: '信用卡', card: { statementDay: 0, dueDay: 23 } })).toContain('账单日和还款日应为每月1–31日');
    expect(await refused({ name: '信用卡', card: { statementDay: 5, dueDay: 32 } })).toContain('账单日和还款日应为每月1–31日');
    expect(await refused({ name: '信用卡', card: { statementDay: 5.5, dueDay: 23 } })).toBeTruthy();
    expect(card.listAccounts().map((a) => a.name)).toEqual(['钱包']);

    const made = (await dispatch('addAccount', { name: '信用卡', card: { ...terms, creditLimitYuan: 8000.5 } })) as {
      ok: true;
      value: { id: number };
    };
    expect(made.ok).toBe(true);
    expect(card.listAccounts()[1]).toMatchObject({ kind: 'credit', statementDay: 5, dueDay: 23, creditLimitFen: 8000_50 });
    expect(await dispatch('setCard', { id: made.value.id, terms: { ...terms, creditLimitYuan: 0.001 } })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('额度最多两位小数') },
    });
    expect(await dispatch('cardStatements', {})).toMatchObject({ ok: true, value: [{ accountId: made.value.id, availableFen: 8000_50 }] });
  });
});

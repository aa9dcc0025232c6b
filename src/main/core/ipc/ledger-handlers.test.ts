import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import type {
  AccountBalance,
  AccountBalances,
  AccountInfo,
  BudgetAlert,
  BudgetStatus,
  CardReminder,
  CategoryInfo,
  PeriodStats,
  TagInfo,
  HistoryState,
  MerchantRule,
  Page,
  PeopleBalances,
  RecentCategory,
  RefundCandidate,
  SettlementProposal,
} from '@shared/ipc/ledger';
import { LedgerHistory, openLedger, type Ledger } from '../ledger/index';
import { createDispatch, type Dispatch } from './handlers';
import { createLedgerHandlers } from './ledger-handlers';
import type { Handlers } from './types';
import { refused, valueOf } from '../../../../test/support/dispatch';
import { billRow, item, NOW } from '../../../../test/support/ledger-fixtures';

// The 记一笔, balance and budget commands through the real dispatch: zod at the boundary,
// then the ledger's rules, answered as sentences the window shows as they are.
let ledger: Ledger;
let dispatch: Dispatch;
let alerts: BudgetAlert[][];

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  alerts = [];
  const history = new LedgerHistory(ledger, { onBudgetAlert: (a) => alerts.push(a) });
  // Only the ledger area is under test; a command of another area is never dispatched here.
  dispatch = createDispatch(createLedgerHandlers({ ledger, history }) as Handlers);
});
afterEach(() => ledger.close());

const value = <T>(name: string, input: unknown) => valueOf<T>(dispatch, name, input);

describe('记一笔 and accounts', () => {
  it('adds a form entry in yuan, undoable, and a transfer that keeps the total', async () => {
    const bank = await value<AccountInfo>('addAccount', { name: '银行卡', initialBalanceYuan: 1000.5 });
    expect(bank).toMatchObject({ name: '银行卡', count: 0 });
    const row = await value<TransactionRow>('addTransaction', {
      amountYuan: 12.34,
      type: 'EXPENSE',
      category: '餐饮',
      date: '2026-02-16',
      time: '12:05',
      note: '午饭',
    });
    expect(row).toMatchObject({ amountFen: 1234, occurredAt: '2026-02-16T12:05:00+08:00', source: 'manual', account: '钱包' });
    expect(await value<HistoryState>('historyState', {})).toMatchObject({ canUndo: true, undoLabel: '记账 1 笔' });

    await value('addTransaction', { amountYuan: 100, type: 'TRANSFER', date: '2026-02-16', time: '12:06', account: '银行卡', toAccount: '钱包' });
    const balances = await value<AccountBalances>('accountBalances', {});
    expect(balances.accounts.map((a) => [a.name, a.balanceFen, a.archived])).toEqual([
      ['钱包', -1234 + 100_00, false],
      ['银行卡', 1000_50 - 100_00, false],
    ]);
    expect(balances.totalFen).toBe(1000_50 - 1234);

    await value('undo', {});
    expect((await value<AccountBalances>('accountBalances', {})).totalFen).toBe(1000_50 - 1234);
    expect(ledger.count()).toBe(1);
  });

  it('refuses bad amounts at the boundary and rule breaks with the ledger’s sentence, saving nothing', async () => {
    const form = { type: 'EXPENSE', date: '2026-02-16', time: '12:05' };
    for (const amountYuan of [0, -1, 1e9, 0.001, Number.NaN]) {
      expect(await dispatch('addTransaction', { ...form, amountYuan }), String(amountYuan)).toMatchObject(refused('validation_failed', /amountYuan/));
    }
    expect(await dispatch('addTransaction', { ...form, amountYuan: '12+3' })).toMatchObject(refused('validation_failed', /amountYuan/));
    expect(await dispatch('addTransaction', { ...form, amountYuan: 5, time: '25:00' })).toMatchObject(refused('validation_failed', /时间应为 HH:MM/));
    expect(await dispatch('addTransaction', { ...form, amountYuan: 5, type: 'TRANSFER' })).toMatchObject(
      refused('invalid_transaction', '转账需要填写转入账户或对方（二选一）'),
    );
    expect(await dispatch('addTransaction', { ...form, amountYuan: 5, account: '火星' })).toMatchObject(
      refused('invalid_transaction', '账户不存在（火星）'),
    );
    expect(ledger.count()).toBe(0);
  });

  it('archives and unarchives; the default cannot be archived; a used account cannot be deleted', async () => {
    const bank = await value<AccountInfo>('addAccount', { name: '银行卡' });
    expect(await value<AccountInfo>('addAccount', { name: '现金' })).toMatchObject({ name: '现金' });
    await value('addTransaction', { amountYuan: 5, type: 'EXPENSE', date: '2026-02-16', time: '12:05', account: '银行卡' });
    expect(await value<AccountBalance>('archiveAccount', { id: bank.id, archived: true })).toMatchObject({
      archived: true,
      count: 1,
      balanceFen: -500,
    });
    expect(await dispatch('addTransaction', { amountYuan: 5, type: 'EXPENSE', date: '2026-02-16', time: '12:05', account: '银行卡' })).toMatchObject(
      refused('invalid_transaction', '账户「银行卡」已归档'),
    );
    expect(await dispatch('deleteAccount', { id: bank.id })).toMatchObject(refused('account_in_use', '该账户有 1 笔记录，不能删除，可以归档'));
    expect(await dispatch('archiveAccount', { id: 1, archived: true })).toMatchObject(refused('account_in_use', '「钱包」是预设账户，不能归档'));
    expect(await value<AccountBalance>('archiveAccount', { id: bank.id, archived: false })).toMatchObject({ archived: false });
    expect(await dispatch('archiveAccount', { id: 999, archived: true })).toMatchObject(refused('not_found', '这个账户不存在'));
    expect(await dispatch('addAccount', { name: '借呗', initialBalanceYuan: 0.005 })).toMatchObject(
      refused('validation_failed', /初始余额最多两位小数/),
    );
  });

  it('lists the categories used most recently first', async () => {
    for (const category of ['交通', '购物', '餐饮']) {
      await value('addTransaction', { amountYuan: 5, type: 'EXPENSE', category, date: '2026-02-16', time: '12:05' });
    }
    expect((await value<RecentCategory[]>('recentCategories', { type: 'EXPENSE' })).map((c) => c.name)).toEqual(['餐饮', '购物', '交通']);
    expect((await value<RecentCategory[]>('recentCategories', { type: 'EXPENSE', limit: 1 })).map((c) => c.name)).toEqual(['餐饮']);
    expect(await dispatch('recentCategories', { type: 'EXPENSE', limit: 0 })).toMatchObject(refused('validation_failed', /limit/));
  });
});

describe('budgets', () => {
  it('sets a month in one call, reports status and inheritance, and alerts once when the form crosses 80 %', async () => {
    const food = ledger.listCategories().find((c) => c.name === '餐饮')!;
    const set = await value<BudgetStatus>('setBudgets', {
      month: '2026-02',
      items: [
        { categoryId: food.id, amountYuan: 100 },
        { categoryId: null, amountYuan: 2000.5 },
      ],
    });
    expect(set).toMatchObject({
      source: '2026-02',
      inherited: false,
      lines: [{ category: '餐饮', budgetFen: 100_00 }],
      total: { budgetFen: 2000_50 },
    });
    expect(await value<BudgetStatus>('budgetStatus', { month: '2026-03' })).toMatchObject({ source: '2026-02', inherited: true });

    const spend = { amountYuan: 81, type: 'EXPENSE', category: '餐饮', date: '2026-02-16', time: '12:05' };
    await value('addTransaction', spend);
    expect(alerts).toEqual([
      [{ month: '2026-02', categoryId: food.id, category: '餐饮', threshold: 80, percent: 81, spentFen: 81_00, budgetFen: 100_00 }],
    ]);
    await value('undo', {});
    await value('redo', {});
    expect(alerts).toHaveLength(1);
    expect(await value<BudgetStatus>('budgetStatus', { month: '2026-02' })).toMatchObject({
      lines: [{ spentFen: 81_00, percent: 81, level: 'warn' }],
    });

    expect(await value<BudgetStatus>('setBudgets', { month: '2026-02', items: [] })).toMatchObject({ lines: [], total: null });
  });

  it('refuses 0, negative and sub-fen budgets, and rule breaks, keeping what was set', async () => {
    for (const amountYuan of [0, -5, 0.001]) {
      expect(await dispatch('setBudgets', { month: '2026-02', items: [{ categoryId: null, amountYuan }] }), String(amountYuan)).toMatchObject(
        refused('validation_failed', /预算金额/),
      );
    }
    expect(await dispatch('setBudgets', { month: '2026-13', items: [] })).toMatchObject(refused('validation_failed', /month/));
    const salary = ledger.listCategories().find((c) => c.name === '工资')!;
    expect(await dispatch('setBudgets', { month: '2026-02', items: [{ categoryId: salary.id, amountYuan: 5 }] })).toMatchObject(
      refused('invalid_budget', '预算只能设给支出分类'),
    );
    expect(await value<BudgetStatus>('budgetStatus', { month: '2026-02' })).toMatchObject({ source: null, lines: [], total: null });
  });
});

describe('借贷, 待报销, refunds and cards', () => {
  it('lists people, writes off a bad debt (undoable), and refuses more than is owed', async () => {
    ledger.saveBatch([item({ amount: 1000, type: 'TRANSFER', flow: 'lend', counterparty: '小李' })]);
    const people = await value<PeopleBalances>('listPeople', {});
    expect(people).toMatchObject({ owedToMeFen: 1000_00, iOweFen: 0, people: [{ name: '小李', balanceFen: 1000_00 }] });
    const personId = people.people[0]!.id;
    expect(await dispatch('writeOff', { personId, amountFen: 2000_00 })).toEqual(refused('invalid_transaction', '小李只欠 1000.00 元'));
    expect(await dispatch('writeOff', { personId, amountFen: -1 })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    await value('writeOff', { personId, amountFen: 400_00 });
    expect((await value<PeopleBalances>('listPeople', {})).owedToMeFen).toBe(600_00);
    await value('undo', {});
    expect((await value<PeopleBalances>('listPeople', {})).owedToMeFen).toBe(1000_00);
  });

  it('proposes a settlement, offers refund candidates, marks 待报销 in the editor and makes a card', async () => {
    const [taxi] = ledger.saveBatch([item({ amount: 80, category: '交通', description: '出差打车', reimbursable: true })]);
    expect(await value<SettlementProposal>('proposeSettlement', { amountFen: 100_00 })).toEqual({
      ids: [taxi!.id],
      settledFen: 80_00,
      leftOverFen: 20_00,
      stillOwedFen: 0,
    });
    const [meal] = ledger.saveBatch([item({ amount: 60, description: '外卖' })]);
    expect((await value<RefundCandidate[]>('refundCandidates', { text: '外卖退了', amountFen: 10_00 }))[0]).toMatchObject({ id: meal!.id });
    await value('updateTransaction', { id: meal!.id, patch: { reimbursable: true } });
    expect((await value<{ totalFen: number }>('pendingReimbursements', {})).totalFen).toBe(140_00);
    expect((await value<{ expenseFen: number }>('monthSummary', { month: '2026-02', includeReimbursed: true })).expenseFen).toBe(140_00);

    const card = await value<AccountInfo>('addAccount', { name: '信用卡' });
    expect(await dispatch('setCard', { id: card.id, terms: { statementDay: 0, dueDay: 10 } })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('账单日和还款日') },
    });
    expect(await value<AccountInfo>('setCard', { id: card.id, terms: { statementDay: 1, dueDay: 10 } })).toMatchObject({
      kind: 'credit',
      dueDay: 10,
    });
    expect(await value<CardReminder[]>('cardReminders', {})).toEqual([]);
  });
});

describe('tags and sub-categories', () => {
  it('makes and moves sub-categories, tags rows from the form and the editor, and lists, renames and deletes tags', async () => {
    const food = (await value<CategoryInfo[]>('listCategories', {})).find((c) => c.name === '餐饮')!;
    const breakfast = await value<CategoryInfo>('addCategory', { name: '早餐', type: 'EXPENSE', parentId: food.id });
    expect(breakfast).toMatchObject({ parentId: food.id });
    const row = await value<TransactionRow>('addTransaction', {
      amountYuan: 8,
      type: 'EXPENSE',
      category: '早餐',
      date: '2026-02-16',
      time: '08:00',
      tags: ['#出差', '出差', ' 报销 '],
    });
    expect(row).toMatchObject({ category: '早餐', parentCategory: '餐饮', tags: ['出差', '报销'] });
    expect((await value<TransactionRow>('updateTransaction', { id: row.id, patch: { tags: ['出差'] } })).tags).toEqual(['出差']);
    expect(await value<TagInfo[]>('listTags', {})).toMatchObject([
      { name: '出差', count: 1 },
      { name: '报销', count: 0 },
    ]);
    const stats = await value<PeriodStats>('periodStats', { from: '2026-02-01', to: '2026-02-28', granularity: 'day', tag: '出差' });
    expect(stats.byParent).toMatchObject([{ category: '餐饮', totalFen: 800, children: [{ category: '早餐', parent: '餐饮' }] }]);
    expect((await value<Page<TransactionRow>>('listTransactions', { tag: '出差' })).rows.map((r) => r.id)).toEqual([row.id]);

    const [trip, refund] = await value<TagInfo[]>('listTags', {});
    expect(await value<TagInfo>('renameTag', { id: refund!.id, name: '#出差' })).toMatchObject({ id: trip!.id, name: '出差', count: 1 });
    expect(await value('deleteTag', { id: trip!.id })).toEqual({ deleted: true, rows: 1 });
    expect(await value<CategoryInfo>('setCategoryParent', { id: breakfast.id, parentId: null })).toMatchObject({ parentId: null });
  });

  it('refuses malformed input at the boundary and tree breaks with the ledger’s sentence', async () => {
    const food = (await value<CategoryInfo[]>('listCategories', {})).find((c) => c.name === '餐饮')!;
    expect(await dispatch('addCategory', { name: '早餐', type: 'EXPENSE', parentId: 'x' })).toMatchObject(refused('validation_failed', /parentId/));
    expect(await dispatch('setCategoryParent', { id: food.id })).toMatchObject(refused('validation_failed', /parentId/));
    expect(await dispatch('setCategoryParent', { id: food.id, parentId: food.id })).toMatchObject(
      refused('invalid_category', '分类不能放在自己下面'),
    );
    expect(await dispatch('renameTag', { id: 1, name: '##' })).toMatchObject(refused('validation_failed', /标签不能为空/));
    expect(await dispatch('renameTag', { id: 1, name: '长'.repeat(21) })).toMatchObject(refused('validation_failed', /标签最多20个字/));
    expect(await dispatch('deleteTag', { id: 1, extra: true })).toMatchObject(refused('validation_failed', /extra/));
    expect(await dispatch('deleteTag', { id: 1 })).toMatchObject(refused('not_found', '这个标签不存在'));
    const form = { amountYuan: 1, type: 'EXPENSE', date: '2026-02-16', time: '08:00' };
    expect(await dispatch('addTransaction', { ...form, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).toMatchObject(
      refused('validation_failed', /一笔最多20个标签/),
    );
    expect(await dispatch('addTransaction', { ...form, tags: 'x' })).toMatchObject(refused('validation_failed', /tags/));
    expect(await dispatch('periodStats', { from: '2026-02-01', to: '2026-02-28', granularity: 'day', tag: 5 })).toMatchObject(
      refused('validation_failed', /tag/),
    );
    expect(ledger.count()).toBe(0);
  });
});

describe('merchant rules of bill imports', () => {
  it('lists the rules the user’s edits made, and deletes one', async () => {
    const { ids } = ledger.importRows([billRow({ account: '钱包', merchant: '美团' })]);
    expect(await value<MerchantRule[]>('merchantRules', {})).toEqual([]);
    await value('updateTransaction', { id: ids[0], patch: { category: '餐饮' } });
    expect(await value<MerchantRule[]>('merchantRules', {})).toEqual([
      { merchant: '美团', type: 'EXPENSE', category: '餐饮', updatedAt: '2026-02-17T12:30:00+08:00' },
    ]);
    expect(await value('deleteMerchantRule', { merchant: '美团', type: 'EXPENSE' })).toEqual({ deleted: true });
    expect(await value<MerchantRule[]>('merchantRules', {})).toEqual([]);
  });

  it('refuses malformed input at the boundary and a rule that is not there in Chinese', async () => {
    expect(await dispatch('merchantRules', { extra: true })).toMatchObject(refused('validation_failed', /extra/));
    expect(await dispatch('deleteMerchantRule', { merchant: '美团' })).toMatchObject(refused('validation_failed', /type/));
    expect(await dispatch('deleteMerchantRule', { merchant: '  ', type: 'EXPENSE' })).toMatchObject(refused('validation_failed', /商户名不能为空/));
    expect(await dispatch('deleteMerchantRule', { merchant: '美团', type: 'EXPENSE' })).toMatchObject(
      refused('not_found', '「美团」的分类规则不存在或已被删除'),
    );
  });
});

import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { fakeRule, recurringOf, type FakeRecurring } from '../../../../../test/support/renderer/fake-recurring-api';
import { localDay } from '../../lib/entry/entry';
import { fieldsOf, nextText, ruleAmount, rulePatch, ruleRequest, blankFields } from './rule-form';
import RecurringPage from './RecurringPage.svelte';

// The 周期记账 page against the fake's rules and offers; main's rules (catch-up, the dates an
// edit restarts from) are tested in src/main/core, end to end in e2e/recurring.spec.ts.
let fake: FakeLedgerApi;
let state: FakeRecurring;
const today = localDay(new Date());
const year = Number(today.slice(0, 4));

const rent = fakeRule(1, {
  type: 'EXPENSE',
  amountYuan: 3000,
  category: '住房',
  description: '房租',
  recurrence: { every: 'month', day: 5 },
  startDate: `${year + 1}-01-01`,
});

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  state = recurringOf(fake);
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const page = () => within(screen.getByRole('region', { name: '周期记账' }));
const item = async (name: string) => within(await page().findByRole('listitem', { name }));
const dialog = () => within(screen.getByRole('dialog', { name: /规则/ }));

describe('the rules', () => {
  it('lists each rule with its label, category, amount, account, next date and mode', async () => {
    state.rules = [
      rent,
      {
        ...fakeRule(2, {
          type: 'INCOME',
          amountYuan: 12000.5,
          category: '工资',
          recurrence: { every: 'month', day: -1 },
          startDate: today,
          mode: 'draft',
        }),
        paused: true,
      },
    ];
    render(RecurringPage);
    const row = await item('房租');
    expect(row.getByText('每月5日 · 住房 · ¥3,000.00')).toBeTruthy();
    expect(row.getByText('钱包')).toBeTruthy();
    expect(row.getByText(`下次 ${year + 1}年1月5日`)).toBeTruthy();
    expect(row.getByText('自动记账')).toBeTruthy();
    expect(row.getByRole('button', { name: '暂停' })).toBeTruthy();
    const salary = await item('工资');
    expect(salary.getByText('每月月末 · 工资 · ¥12,000.50')).toBeTruthy();
    expect(salary.getByText('提醒确认')).toBeTruthy();
    expect(salary.getAllByText('已暂停')).toHaveLength(2);
    expect(salary.getByRole('button', { name: '恢复' })).toBeTruthy();
  });

  it('says what the page is for when there is no rule', async () => {
    render(RecurringPage);
    expect(await page().findByText('还没有周期记账规则。')).toBeTruthy();
  });

  it('新建规则: a weekly rule with a count, to confirm, sent as the form says it', async () => {
    render(RecurringPage);
    await page().findByText('还没有周期记账规则。');
    await fireEvent.click(page().getByRole('button', { name: '新建规则' }));
    await fireEvent.click(dialog().getByRole('button', { name: '保存' }));
    expect(await dialog().findByText('请输入金额')).toBeTruthy();
    expect(fake.inputsOf('addRecurring')).toEqual([]);

    await fireEvent.input(dialog().getByLabelText('金额'), { target: { value: '88' } });
    await fireEvent.change(dialog().getByLabelText('分类'), { target: { value: '娱乐' } });
    await fireEvent.input(dialog().getByLabelText('备注'), { target: { value: '会员' } });
    await fireEvent.change(dialog().getByLabelText('重复'), { target: { value: 'week' } });
    await fireEvent.change(dialog().getByLabelText('星期'), { target: { value: '5' } });
    await fireEvent.click(dialog().getByLabelText('记满次数'));
    await fireEvent.input(dialog().getByLabelText('次数'), { target: { value: '12' } });
    await fireEvent.click(dialog().getByLabelText('提醒确认'));
    await fireEvent.click(dialog().getByRole('button', { name: '保存' }));

    await page().findByRole('listitem', { name: '会员' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.inputsOf('addRecurring')).toEqual([
      {
        type: 'EXPENSE',
        amountYuan: 88,
        category: '娱乐',
        account: '钱包',
        description: '会员',
        recurrence: { every: 'week', day: 5 },
        startDate: today,
        maxCount: 12,
        mode: 'draft',
      },
    ]);
    expect((await item('会员')).getByText('每周五 · 娱乐 · ¥88.00')).toBeTruthy();
  });

  it('编辑 sends only what changed; a refusal is shown in the dialog', async () => {
    state.rules = [rent];
    render(RecurringPage);
    await fireEvent.click((await item('房租')).getByRole('button', { name: '编辑' }));
    expect((dialog().getByLabelText('金额') as HTMLInputElement).value).toBe('3000');
    expect((dialog().getByLabelText('日期') as HTMLSelectElement).value).toBe('5');
    await fireEvent.input(dialog().getByLabelText('金额'), { target: { value: '3200' } });
    fake.failNext('updateRecurring', { code: 'invalid_transaction', message: '账户「钱包」不存在或已归档' });
    await fireEvent.click(dialog().getByRole('button', { name: '保存' }));
    expect(await dialog().findByRole('alert')).toHaveProperty('textContent', '账户「钱包」不存在或已归档');
    await fireEvent.click(dialog().getByRole('button', { name: '保存' }));
    expect(await (await item('房租')).findByText('每月5日 · 住房 · ¥3,200.00')).toBeTruthy();
    expect(fake.inputsOf('updateRecurring').at(-1)).toEqual({ id: 1, patch: { amountYuan: 3200 } });
  });

  it('暂停 and 恢复; 删除 asks first, and 取消 keeps the rule', async () => {
    state.rules = [rent];
    render(RecurringPage);
    await fireEvent.click((await item('房租')).getByRole('button', { name: '暂停' }));
    await (await item('房租')).findByRole('button', { name: '恢复' });
    expect(state.rules[0]!.paused).toBe(true);
    await fireEvent.click((await item('房租')).getByRole('button', { name: '恢复' }));
    await (await item('房租')).findByRole('button', { name: '暂停' });

    await fireEvent.click((await item('房租')).getByRole('button', { name: '删除' }));
    const ask = within(screen.getByRole('alertdialog', { name: '删除规则「房租」？' }));
    await fireEvent.click(ask.getByRole('button', { name: '取消' }));
    expect(state.rules).toHaveLength(1);
    await fireEvent.click((await item('房租')).getByRole('button', { name: '删除' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    expect(await page().findByText('还没有周期记账规则。')).toBeTruthy();
    expect(fake.inputsOf('deleteRecurring')).toEqual([{ id: 1 }]);
  });
});

describe('the offers of rules that ask first', () => {
  it('shows them at the top; 记上 saves one, 忽略 drops one', async () => {
    const offer = (date: string) => ({
      ruleId: 1,
      date,
      recurrenceKey: `${rent.key}:${date}`,
      type: 'EXPENSE' as const,
      amountFen: 3000_00,
      category: '住房',
      account: '钱包',
      description: '房租',
      label: '每月5日',
    });
    state.rules = [{ ...rent, mode: 'draft' }];
    // Last year's days: written in full whatever today is (this year's would be 今天 on 1月5日).
    state.offers = [offer(`${year - 1}-01-05`), offer(`${year - 1}-02-05`)];
    render(RecurringPage);
    const offers = () => within(screen.getByRole('region', { name: '待确认' }));
    await page().findByRole('region', { name: '待确认' });
    await fireEvent.click(within(await offers().findByRole('listitem', { name: `${year - 1}年1月5日 房租` })).getByRole('button', { name: '记上' }));
    await vi.waitFor(() => expect(offers().queryByRole('listitem', { name: `${year - 1}年1月5日 房租` })).toBeNull());
    expect(fake.rows).toMatchObject([{ date: `${year - 1}-01-05`, amountFen: 3000_00, category: '住房', source: 'recurring' }]);
    await fireEvent.click(within(offers().getByRole('listitem', { name: `${year - 1}年2月5日 房租` })).getByRole('button', { name: '忽略' }));
    await vi.waitFor(() => expect(page().queryByRole('region', { name: '待确认' })).toBeNull());
    expect(fake.rows).toHaveLength(1);
    expect(fake.inputsOf('dismissRecurringDraft')).toEqual([{ recurrenceKey: `${rent.key}:${year - 1}-02-05` }]);
  });
});

describe('the form’s pure parts', () => {
  it('formats amounts and next dates, and refuses a form that cannot be saved', () => {
    expect(ruleAmount(3000_00)).toBe('¥3,000.00');
    expect(ruleAmount(1234567_89)).toBe('¥1,234,567.89');
    expect(ruleAmount(5)).toBe('¥0.05');
    expect(nextText({ nextDate: '2026-12-05' }, '2026-11-26')).toBe('下次 12月5日');
    expect(nextText({ nextDate: '2026-11-26' }, '2026-11-26')).toBe('下次 今天');
    expect(nextText({ nextDate: '2027-01-05' }, '2026-11-26')).toBe('下次 2027年1月5日');
    expect(nextText({ nextDate: null }, '2026-11-26')).toBe('已结束');
    expect(ruleAmount(-50_00)).toBe('\u2212¥50.00');
    const form = { ...blankFields('2026-11-26', '钱包'), amount: '30', category: '住房' };
    expect(ruleRequest({ ...form, endKind: 'date', end: '2026-01-01' })).toMatchObject({ ok: false, field: 'end', error: '结束日期早于开始日期' });
    expect(ruleRequest({ ...form, endKind: 'count', count: '0' })).toMatchObject({ ok: false, field: 'count' });
    expect(ruleRequest({ ...form, type: 'TRANSFER' })).toMatchObject({ ok: false, field: 'toAccount' });
    const yearly = ruleRequest({ ...form, every: 'year', month: 2, monthDay: -1 });
    expect(yearly).toMatchObject({ ok: true, request: { recurrence: { every: 'year', month: 2, day: -1 } } });
    // An unchanged schedule is not sent: it would restart the rule's dates from today.
    const same = ruleRequest({ ...form, amount: '3000', description: '房租', start: rent.start, monthDay: 5 });
    if (!same.ok) throw new Error(same.error);
    expect(rulePatch(rent, same.request)).toEqual({});
    // 编辑 starts from the rule as stored: its amount as typed, its day from the schedule.
    expect(fieldsOf({ ...rent, amountFen: 1234_50 })).toMatchObject({ amount: '1234.50', monthDay: 5 });
    expect(blankFields('2026-11-26', '钱包')).toMatchObject({ monthDay: 26, month: 11 });
  });
});

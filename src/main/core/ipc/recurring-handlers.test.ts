import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import type { RecurringDraft, RecurringRuleInfo } from '@shared/recurrence';
import { toZonedNow, type ZonedNow } from '@shared/time';
import { LedgerHistory, openLedger, type Ledger } from '../ledger/index';
import { createDispatch, type Dispatch } from './handlers';
import { createRecurringHandlers } from './recurring-handlers';
import type { Handlers } from './types';
import { refused, valueOf } from '../../../../test/support/dispatch';

// The 周期记账 commands through the real dispatch: zod at the boundary, the ledger's rules
// behind it, a fake clock for the days.
let ledger: Ledger;
let dispatch: Dispatch;
let now: ZonedNow;
let changes: string[];
const at = (day: string) => toZonedNow(`${day}T09:30:00+08:00`);

beforeEach(() => {
  now = at('2026-03-10');
  changes = [];
  ledger = openLedger({ path: ':memory:', now: () => now });
  const history = new LedgerHistory(ledger, { onChange: (reason) => changes.push(reason) });
  // Only the recurring area is under test.
  dispatch = createDispatch(createRecurringHandlers({ ledger, history }) as Handlers);
});
afterEach(() => ledger.close());

const value = <T>(name: string, input: unknown) => valueOf<T>(dispatch, name, input);

const rent = {
  type: 'EXPENSE',
  amountYuan: 3000,
  category: '住房',
  description: '房租',
  recurrence: { every: 'month', day: 5 },
  startDate: '2026-04-01',
};
const recurringRows = () => ledger.list({}).rows.filter((r) => r.source === 'recurring');

describe('rules', () => {
  it('adds a rule in yuan, lists it with label and next date, edits, pauses and deletes it', async () => {
    const rule = await value<RecurringRuleInfo>('addRecurring', rent);
    expect(rule).toMatchObject({ label: '每月5日', amountFen: 3000_00, account: '钱包', nextDate: '2026-04-05', mode: 'save', paused: false });
    expect(changes).toContain('recurring');
    expect((await value<RecurringRuleInfo[]>('listRecurring', {})).map((r) => r.id)).toEqual([rule.id]);

    const edited = await value<RecurringRuleInfo>('updateRecurring', {
      id: rule.id,
      patch: { amountYuan: 3200.5, recurrence: { every: 'month', day: -1 }, maxCount: 12, mode: 'draft' },
    });
    expect(edited).toMatchObject({ amountFen: 3200_50, label: '每月月末', count: 12, mode: 'draft', nextDate: '2026-04-30' });
    expect(await value<RecurringRuleInfo>('setRecurringPaused', { id: rule.id, paused: true })).toMatchObject({ paused: true });
    expect(await value('deleteRecurring', { id: rule.id })).toEqual({ deleted: true });
    expect(await value('listRecurring', {})).toEqual([]);
    expect(await dispatch('deleteRecurring', { id: rule.id })).toMatchObject(refused('not_found', /不存在/));
  });

  it('makes an occurrence already due as soon as the rule is added, once', async () => {
    await value('addRecurring', { ...rent, startDate: '2026-03-01' });
    expect(recurringRows().map((r) => [r.date, r.amountFen])).toEqual([['2026-03-05', 3000_00]]);
    await value('listRecurring', {});
    expect(recurringRows()).toHaveLength(1);
  });

  it('refuses malformed input at the boundary, in Chinese, and saves nothing', async () => {
    const bad: [unknown, RegExp][] = [
      [{ ...rent, amountYuan: 0 }, /金额必须大于0/],
      [{ ...rent, amountYuan: 1.234 }, /两位小数/],
      [{ ...rent, amountFen: 300000 }, /amountFen/],
      [{ ...rent, type: 'GIFT' }, /类型/],
      [{ ...rent, recurrence: { every: 'fortnight' } }, /重复周期/],
      [{ ...rent, recurrence: { every: 'month', day: 32 } }, /1日到31日/],
      [{ ...rent, recurrence: { every: 'week', day: 8 } }, /周一到周日/],
      [{ ...rent, recurrence: { every: 'year', month: 2, day: 30 } }, /2月没有30日/],
      [{ ...rent, recurrence: { every: 'month', day: 5, hour: 9 } }, /hour/],
      [{ ...rent, startDate: '2026-02-30' }, /真实存在的日期/],
      [{ ...rent, endDate: '2026-12-31', maxCount: 3 }, /只能选一个/],
      [{ ...rent, maxCount: 0 }, /至少是1次/],
      [{ ...rent, mode: 'maybe' }, /自动记账或提醒确认/],
      [{ ...rent, description: 'x'.repeat(201) }, /200/],
    ];
    for (const [input, message] of bad)
      expect(await dispatch('addRecurring', input), JSON.stringify(input)).toMatchObject(refused('validation_failed', message));
    expect(await dispatch('updateRecurring', { id: 1, patch: { every: 'day' } })).toMatchObject(refused('validation_failed', /every/));
    expect(await dispatch('setRecurringPaused', { id: -1, paused: true })).toMatchObject(refused('validation_failed', /规则无效/));
    expect(await dispatch('dismissRecurringDraft', { recurrenceKey: "x'; DROP TABLE" })).toMatchObject(refused('validation_failed', /标识无效/));
    // The ledger's own rules answer with its sentence.
    expect(await dispatch('addRecurring', { ...rent, account: '不存在的卡' })).toMatchObject(refused('invalid_transaction', /不存在的卡/));
    expect(await dispatch('addRecurring', { ...rent, endDate: '2026-01-01' })).toMatchObject(refused('invalid_transaction', /结束日期早于开始日期/));
    expect(ledger.recurringRules()).toEqual([]);
  });
});

describe('offers of draft-mode rules', () => {
  it('lists the waiting offers; 记上 saves one once (with the user’s amount), 忽略 drops one for good', async () => {
    await value('addRecurring', { ...rent, startDate: '2026-01-01', mode: 'draft' });
    const offers = await value<RecurringDraft[]>('recurringDrafts', {});
    expect(offers.map((d) => d.date)).toEqual(['2026-01-05', '2026-02-05', '2026-03-05']);
    expect(recurringRows()).toEqual([]);

    const row = await value<TransactionRow>('confirmRecurringDraft', { recurrenceKey: offers[0]!.recurrenceKey, amountYuan: 2999 });
    expect(row).toMatchObject({ date: '2026-01-05', amountFen: 2999_00, category: '住房', source: 'recurring' });
    expect(await dispatch('confirmRecurringDraft', { recurrenceKey: offers[0]!.recurrenceKey })).toMatchObject(
      refused('not_found', /已经记上或忽略/),
    );
    expect(await value('dismissRecurringDraft', { recurrenceKey: offers[1]!.recurrenceKey })).toEqual({ dismissed: true });
    expect(await dispatch('dismissRecurringDraft', { recurrenceKey: offers[1]!.recurrenceKey })).toMatchObject(
      refused('not_found', /已经记上或忽略/),
    );

    now = at('2026-03-11');
    ledger.catchUpRecurring(now);
    expect((await value<RecurringDraft[]>('recurringDrafts', {})).map((d) => d.date)).toEqual(['2026-03-05']);
    expect(recurringRows().map((r) => r.amountFen)).toEqual([2999_00]);
  });
});

import { describe, expect, it } from 'vitest';
import type { PendingReimbursement } from '@shared/ipc/ledger';
import { defaultTicks, flowRequest, inListOrder, settlementOf, suggestedPeople, type FlowFields } from './flows';

const fields = (over: Partial<FlowFields> = {}): FlowFields => ({
  flow: 'lend',
  amountText: '1000',
  counterparty: ' 小李 ',
  account: '钱包',
  date: '2026-02-10',
  note: '',
  settles: [],
  ...over,
});

const waiting = (id: string, yuan: number): PendingReimbursement => ({
  id,
  amountFen: yuan * 100,
  paidFen: 0,
  description: id,
  date: '2026-02-01',
  category: '交通',
});
const pending = [waiting('taxi', 80), waiting('hotel', 600), waiting('meal', 50)];

describe('flowRequest', () => {
  it('sends a debt with its person, account, day and note; a reimbursement with its ticks and no person', () => {
    expect(flowRequest(fields({ note: ' 周转 ' }))).toEqual({
      ok: true,
      request: { flow: 'lend', amountYuan: 1000, counterparty: '小李', account: '钱包', date: '2026-02-10', note: '周转' },
    });
    expect(flowRequest(fields({ flow: 'reimbursement', amountText: '500', settles: ['taxi', 'hotel'] }))).toEqual({
      ok: true,
      request: { flow: 'reimbursement', amountYuan: 500, settles: ['taxi', 'hotel'], account: '钱包', date: '2026-02-10' },
    });
  });

  it('stops at a missing person or a bad amount', () => {
    expect(flowRequest(fields({ counterparty: '  ' }))).toEqual({ ok: false, field: 'counterparty', error: '请填写是谁，例如：小李' });
    expect(flowRequest(fields({ amountText: '0' }))).toMatchObject({ ok: false, field: 'amount' });
  });
});

describe('settling 待报销', () => {
  it('ticks the oldest as far as the amount reaches, the last in part, and says 还差 for them', () => {
    expect(defaultTicks(500_00, pending)).toEqual(['taxi', 'hotel']);
    expect(defaultTicks(null, pending)).toEqual([]);
    expect(settlementOf(500_00, pending, ['taxi', 'hotel'])).toMatchObject({ settledFen: 500_00, stillOwedFen: 180_00, leftOverFen: 0 });
  });

  it('says 多出 when the ticked ones are paid in full and money is left', () => {
    expect(settlementOf(100_00, pending, ['taxi'])).toMatchObject({ stillOwedFen: 0, leftOverFen: 20_00 });
    expect(settlementOf(100_00, pending, [])).toMatchObject({ leftOverFen: 100_00 });
  });

  it('keeps the ticks in the list order, whatever order they were ticked in', () => {
    expect(inListOrder(pending, ['meal', 'taxi'])).toEqual(['taxi', 'meal']);
  });
});

it('offers first those who owe the user for 收回 and those the user owes for 还款', () => {
  const people = [
    { name: '我哥', balanceFen: -3000_00 },
    { name: '小李', balanceFen: 700_00 },
  ];
  expect(suggestedPeople('collect', people)).toEqual(['小李', '我哥']);
  expect(suggestedPeople('repay', [...people].reverse())).toEqual(['我哥', '小李']);
});

// Shared by the ledger's tests: one instant, one parse result, one form entry, one recurring rule
// and one imported bill row to vary.
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import type { ImportRow, ManualEntry, RecurringRuleInput } from '@core/ledger/index';

export const NOW = toZonedNow('2026-02-17T12:30:00+08:00');

export const item = (over: Partial<ParseResult> = {}): ParseResult => ({
  amount: 60,
  type: 'EXPENSE',
  category: '餐饮',
  description: '吃饭',
  date: '2026-02-01',
  account: null,
  confidence: 0.9,
  source: 'llm',
  ...over,
});

/** One entry of the 记一笔 form: 10 yuan of 餐饮 from 钱包 on 2026-02-10 08:15. */
export const entry = (over: Partial<ManualEntry> = {}): ManualEntry => ({
  amountFen: 1000,
  type: 'EXPENSE',
  category: '餐饮',
  date: '2026-02-10',
  time: '08:15',
  ...over,
});

/** A rule of 房租 3000 on the 5th of every month from 2026-01-01. */
export const rentRule = (over: Partial<RecurringRuleInput> = {}): RecurringRuleInput => ({
  type: 'EXPENSE',
  amountFen: 3000_00,
  category: '住房',
  description: '房租',
  rule: { every: 'month', day: 5 },
  start: '2026-01-01',
  ...over,
});

/** A row as a bill import hands it to the ledger, with the merchant its category memory keys by. */
export const billRow = (over: Partial<ImportRow> = {}): ImportRow => ({
  line: 2,
  date: '2026-02-01',
  time: '12:00:00',
  type: 'EXPENSE',
  category: '其他',
  amountFen: 2500,
  account: '支付宝',
  description: '午饭',
  merchant: '上海交通大学第一食堂',
  ...over,
});

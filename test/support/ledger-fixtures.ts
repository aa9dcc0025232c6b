// Shared by the ledger's tests: one instant and one parse result to vary.
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';

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

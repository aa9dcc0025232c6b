// Local (offline) understanding: parse, Layer-1 intent classification, correction and ledger
// questions. Pure functions of their input and `now`; no I/O, so they run anywhere in microseconds.
import {
  MAX_BATCH_ITEMS,
  type BatchItem,
  type ClassifyResult,
  type CorrectionResult,
  type LedgerQuery,
  type ParseResult,
  type TransactionType,
} from '@shared/domain';
import type { ZonedNow } from '@shared/time';
import { correctLocal as correctWithRules } from './correction';
import { classifyIntent as classifyWithRules } from './intent';
import { readAmountReply as readReply } from './amount-reply';
import { toParseResult } from './parse';
import { detectBudgetQuery as detectBudgetQueryWithRules, detectQuery as detectQueryWithRules, type BudgetQuery } from './query';
import { splitUtterance } from './split';

export interface LocalNlpOptions {
  now: ZonedNow;
  customCategories?: { name: string; type: TransactionType }[];
  /** The book's account names: said as the payer (or misheard: 招航卡) they are the item's account. */
  accounts?: readonly string[];
}

/** Offline: the items of one utterance in the order spoken (at most MAX_BATCH_ITEMS), source 'local'. */
export interface LocalParseOutput {
  results: ParseResult[];
  /** More items were said than MAX_BATCH_ITEMS; `results` holds the first ones. */
  truncated: boolean;
}

export function parseLocal(text: string, options: LocalNlpOptions): LocalParseOutput {
  const { items, truncated } = splitUtterance(text, options.now, options.customCategories ?? [], MAX_BATCH_ITEMS, options.accounts);
  return { results: items.map(toParseResult), truncated };
}

/**
 * The utterance is only an amount, as in a reply to 「第1笔打车多少钱？」: 二十八, 28块钱, 就28 → 28,
 * 两块五 → 2.5. Null when it says anything else (打车28, 第二笔28, 改成28, 确认).
 */
export function readAmountReply(text: string): number | null {
  return readReply(text);
}

/** Layer 1 of the confirmation dialogue. `batchSize` is the number of items on the card. */
export function classifyIntent(text: string, batchSize: number): ClassifyResult {
  return classifyWithRules(text, batchSize);
}

/** Same shape as /correct-transaction; indexes point into `pending`, -1 = append. */
export function correctLocal(text: string, pending: readonly BatchItem[], options: LocalNlpOptions): CorrectionResult {
  return correctWithRules(text, pending, options);
}

/** 「这个月花了多少」 → the period, type and category to total; null when it is not a question (or one about budgets). */
export function detectQuery(text: string, now: ZonedNow): LedgerQuery | null {
  return detectQueryWithRules(text, now);
}

export type { BudgetQuery };
export { detectDebtQuery, type DebtQuery } from './debt-query';

/** 「这个月预算还剩多少」「餐饮预算用了多少」「还能花多少」 → the month and category; null for anything else. */
export function detectBudgetQuery(
  text: string,
  now: ZonedNow,
  customCategories: readonly { name: string; type: TransactionType }[] = [],
): BudgetQuery | null {
  return detectBudgetQueryWithRules(text, now, customCategories);
}

// Local (offline) understanding: parse, Layer-1 intent classification, correction and ledger
// questions. Pure functions of their input and `now`; no I/O, so they run anywhere in microseconds.
import type { BatchItem, ClassifyResult, CorrectionResult, LedgerQuery, ParseResult, TransactionType } from '@shared/domain';
import type { ZonedNow } from '@shared/time';
import { correctLocal as correctWithRules } from './correction';
import { classifyIntent as classifyWithRules } from './intent';
import { parseUtterance, toParseResult } from './parse';
import { detectQuery as detectQueryWithRules } from './query';

export interface LocalNlpOptions {
  now: ZonedNow;
  customCategories?: { name: string; type: TransactionType }[];
}

/** Offline: 0 or 1 result, source 'local'. */
export interface LocalParseOutput {
  results: ParseResult[];
  multipleDetected: boolean;
}

export function parseLocal(text: string, options: LocalNlpOptions): LocalParseOutput {
  const { item, multipleDetected } = parseUtterance(text, options.now, options.customCategories ?? []);
  return { results: item ? [toParseResult(item)] : [], multipleDetected };
}

/** Layer 1 of the confirmation dialogue. `batchSize` is the number of items on the card. */
export function classifyIntent(text: string, batchSize: number): ClassifyResult {
  return classifyWithRules(text, batchSize);
}

/** Same shape as /correct-transaction; indexes point into `pending`, -1 = append. */
export function correctLocal(text: string, pending: readonly BatchItem[], options: LocalNlpOptions): CorrectionResult {
  return correctWithRules(text, pending, options);
}

/** 「这个月花了多少」 → the period, type and category to total; null when it is not a question. */
export function detectQuery(text: string, now: ZonedNow): LedgerQuery | null {
  return detectQueryWithRules(text, now);
}

// The judge rules of ../shared/golden/README.md, so the tests grade answers exactly as the
// acceptance run does.
import type { NlpAnswer } from './protocol';

export interface GoldenCase {
  id: string;
  op: 'parse' | 'classify' | 'correct' | 'query';
  text: string;
  expect: Record<string, unknown>;
  [key: string]: unknown;
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && typeof actual === 'number') return Math.abs(actual - expected) <= 1e-9;
  return actual === expected;
}

function anyOf(actual: unknown, expected: unknown): boolean {
  return Array.isArray(expected) ? expected.some((e) => sameValue(actual, e)) : sameValue(actual, expected);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One expected field of a transaction: tags compare as a set; an object (recurrence) passes when
 * each of its keys does, a null key meaning the answer leaves it out; anything else as anyOf.
 */
function fieldMatches(key: string, actual: unknown, expected: unknown): boolean {
  if (key === 'tags' && Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    const got = new Set(actual);
    return got.size === new Set(expected).size && expected.every((t) => got.has(t));
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return false;
    return Object.entries(expected).every(([k, e]) => (e === null ? actual[k] == null : anyOf(actual[k], e)));
  }
  return anyOf(actual, expected);
}

/**
 * A transaction's field; an optional field the answer leaves out (flow, counterparty) counts as
 * null, so this project's corpora can say "no flow here" with `"flow": null`.
 */
function fieldOf(transaction: Record<string, unknown>, key: string): unknown {
  return transaction[key] ?? null;
}

/** Null when the answer passes, else why it fails. */
export function judge(c: GoldenCase, answer: NlpAnswer): string | null {
  if ('error' in answer) return `error: ${answer.error}`;
  const got = JSON.stringify(answer);
  if (c.op === 'parse') {
    if (!('transactions' in answer)) return `not a parse answer: ${got}`;
    const transactions = answer.transactions as Record<string, unknown>[];
    // "items": exactly these transactions in this order; "count" alone: only how many.
    if ('items' in c.expect || 'count' in c.expect) {
      const items = c.expect.items as Record<string, unknown>[] | undefined;
      for (const count of [items?.length, c.expect.count as number | undefined]) {
        if (count !== undefined && transactions.length !== count) return `count: got ${transactions.length} transactions, expected ${count}: ${got}`;
      }
      for (const [i, item] of (items ?? []).entries()) {
        for (const [key, expected] of Object.entries(item)) {
          const actual = fieldOf(transactions[i]!, key);
          if (!fieldMatches(key, actual, expected))
            return `item ${i} ${key}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}: ${got}`;
        }
      }
      return null;
    }
    const first = transactions[0];
    for (const [key, expected] of Object.entries(c.expect)) {
      if (key === 'amount' && expected === null && (!first || first.amount === null)) continue;
      if (!first) return `no transaction, expected ${key}=${JSON.stringify(expected)}`;
      if (!fieldMatches(key, fieldOf(first, key), expected)) return `${key}: got ${JSON.stringify(first[key])}, expected ${JSON.stringify(expected)}`;
    }
    return null;
  }
  if (c.op === 'classify') {
    if (!('intent' in answer) || 'corrections' in answer) return `not a classify answer: ${got}`;
    const layer2 = ['correction', 'newInput'];
    const wanted = Array.isArray(c.expect.intent) ? (c.expect.intent as string[]) : [c.expect.intent as string];
    const accepts = wanted.some((w) => w === answer.intent || (layer2.includes(w) && layer2.includes(answer.intent)));
    if (!accepts) return `intent: got ${answer.intent}, expected ${JSON.stringify(c.expect.intent)}`;
    if ('index' in c.expect && !sameValue('index' in answer ? answer.index : undefined, c.expect.index)) {
      return `index: got ${JSON.stringify('index' in answer ? answer.index : undefined)}, expected ${JSON.stringify(c.expect.index)}`;
    }
    return null;
  }
  if (c.op === 'query') return judgeQuestion(c.expect, answer, got);
  if (!('corrections' in answer)) return `not a correct answer: ${got}`;
  if (!anyOf(answer.intent, c.expect.intent)) return `intent: got ${answer.intent}, expected ${JSON.stringify(c.expect.intent)}`;
  const expected = (c.expect.corrections ?? []) as { index: number; updatedFields: Record<string, unknown> }[];
  for (const e of expected) {
    const match = answer.corrections.find((a) => a.index === e.index);
    if (!match) return `no correction for index ${e.index}: ${got}`;
    for (const [field, value] of Object.entries(e.updatedFields)) {
      const actual = (match.updatedFields as Record<string, unknown>)[field];
      if (!sameValue(actual, value)) return `index ${e.index} ${field}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`;
    }
  }
  const allowed = new Set(expected.map((e) => e.index));
  const stray = answer.corrections.find((a) => !allowed.has(a.index));
  if (stray) return `unexpected correction of index ${stray.index}: ${got}`;
  return null;
}

/**
 * query (this project's corpus, not the shared golden format): `"expect": {"budget": {...},
 * "query": null}`. For each of query (a question about spending) and budget (one about the
 * month's budgets) that `expect` names, null means the words are no such question and an
 * object's every key is compared with the question read.
 */
function judgeQuestion(expect: Record<string, unknown>, answer: NlpAnswer, got: string): string | null {
  if (!('query' in answer)) return `not a query answer: ${got}`;
  for (const kind of ['budget', 'query'] as const) {
    if (!(kind in expect)) continue;
    const expected = expect[kind] as Record<string, unknown> | null;
    const actual = answer[kind] as Record<string, unknown> | null;
    if (expected === null) {
      if (actual !== null) return `expected no ${kind}: ${got}`;
      continue;
    }
    if (actual === null) return `no ${kind}, expected ${JSON.stringify(expected)}: ${got}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!anyOf(actual[key], value)) return `${kind} ${key}: got ${JSON.stringify(actual[key])}, expected ${JSON.stringify(value)}`;
    }
  }
  return null;
}

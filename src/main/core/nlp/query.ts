// Questions about the ledger (「这个月花了多少」「今天吃饭花了多少」「上周收入多少」) → a LedgerQuery,
// and about budgets (「这个月预算还剩多少」「这个月还能花多少」) → a BudgetQuery, answered from the
// local database instead of being booked as a transaction.
import type { LedgerQuery, TransactionType } from '@shared/domain';
import { addDays, formatYmd, localDate, type ZonedNow } from '@shared/time';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAmounts, moneyMentions } from './amounts';
import { findDates, mondayOf } from './dates';
import {
  BUDGET_QUESTION_WORDS,
  BUDGET_WORDS,
  HOW_MUCH_WORDS,
  QUESTION_WORDS,
  SPENDABLE_WORDS,
  TOTAL_PARTICLES,
  TOTAL_PREFIXES,
  TOTAL_SUFFIXES,
  TOTAL_WORDS,
} from './lexicon/queries';
import { ASKED_INCOME, ASKED_TRANSFER } from './lexicon/transaction-types';
import { anyOf } from './lexicon/words';
import { isPunctuation, normalizeText } from './normalize';
import { parseNumeral } from './numbers';

const QUESTION = new RegExp(anyOf(QUESTION_WORDS));
const ASKS_INCOME = new RegExp(anyOf(ASKED_INCOME));
const ASKS_TRANSFER = new RegExp(anyOf(ASKED_TRANSFER));

interface Period {
  from: string;
  to: string;
  label: string;
}

function lastDayOf(y: number, m: number): string {
  return addDays(formatYmd(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1), -1);
}

function readPeriod(text: string, now: ZonedNow): { period: Period; rest: string; named: boolean } {
  const today = localDate(now);
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const monday = mondayOf(today);
  const table: [RegExp, (match: RegExpExecArray) => Period | null][] = [
    [
      /(?:最近|近|过去)(\d{1,3}|[一二两三四五六七八九十]{1,3})(?:天|日)/,
      (x) => {
        const n = parseNumeral(x[1]!);
        return n && n > 0 ? { from: addDays(today, -(n - 1)), to: today, label: `最近${n}天` } : null;
      },
    ],
    [/(?:最近|近|过去)(?:一|1)(?:周|个星期|星期)/, () => ({ from: addDays(today, -6), to: today, label: '最近一周' })],
    [/上上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, () => ({ from: addDays(monday, -14), to: addDays(monday, -8), label: '上上周' })],
    [/上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, () => ({ from: addDays(monday, -7), to: addDays(monday, -1), label: '上周' })],
    [/(?:这|本)(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, () => ({ from: monday, to: today, label: '这周' })],
    [
      /上(?:个)?月(?!\d|[一二三四五六七八九十]+[号日])/,
      () => {
        const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1];
        return { from: formatYmd(py, pm, 1), to: lastDayOf(py, pm), label: '上个月' };
      },
    ],
    [/(?:这|本)(?:个)?月(?!\d|[一二三四五六七八九十]+[号日])/, () => ({ from: formatYmd(y, m, 1), to: today, label: '这个月' })],
    [/今年|本年/, () => ({ from: formatYmd(y, 1, 1), to: today, label: '今年' })],
    [/去年/, () => ({ from: formatYmd(y - 1, 1, 1), to: formatYmd(y - 1, 12, 31), label: '去年' })],
    [
      /(?<![\d一二三四五六七八九十年])(\d{1,2}|[一二三四五六七八九十]{1,3})月份?(?!\d|[一二三四五六七八九十]+[号日])/,
      (x) => {
        const month = parseNumeral(x[1]!);
        if (!month || month < 1 || month > 12) return null;
        const year = month > m ? y - 1 : y;
        return { from: formatYmd(year, month, 1), to: lastDayOf(year, month), label: `${month}月` };
      },
    ],
  ];
  for (const [pattern, make] of table) {
    const match = pattern.exec(text);
    if (!match) continue;
    const period = make(match);
    if (period) return { period, rest: text.slice(0, match.index) + text.slice(match.index + match[0].length), named: true };
  }
  const day = findDates(text, now).find((d) => d.date !== null);
  if (day) {
    const label = text.slice(day.start, day.end);
    return { period: { from: day.date!, to: day.date!, label }, rest: text.slice(0, day.start) + text.slice(day.end), named: true };
  }
  return { period: { from: formatYmd(y, m, 1), to: today, label: '这个月' }, rest: text, named: false };
}

// 本月支出, 本周收入, 上个月餐饮开销: a period and a total word with nothing else ask for the total.
const TOTAL_SOMEWHERE = new RegExp(anyOf(TOTAL_WORDS));
const TOTAL_WORD = new RegExp(`^${anyOf(TOTAL_PREFIXES)}?(?:的)?(?:总)?${anyOf(TOTAL_WORDS)}${anyOf(TOTAL_SUFFIXES)}?${anyOf(TOTAL_PARTICLES)}?$`);

function asksForTotal(rest: string, customCategories: readonly CategoryRef[]): boolean {
  let words = '';
  for (const ch of rest) if (!isPunctuation(ch)) words += ch;
  words = words.replace(/^的/, '');
  const category = matchCategoryWord(words, customCategories);
  // Only the category's own word may stand before the total word (餐饮支出, 打车的开销).
  if (category && category.start === 0) words = words.slice(category.keyword.length).replace(/^的/, '');
  return TOTAL_WORD.test(words);
}

export function detectQuery(rawText: string, now: ZonedNow, customCategories: readonly CategoryRef[] = []): LedgerQuery | null {
  const text = normalizeText(rawText);
  // 这个月还能花多少 asks what the budget leaves, not what was spent.
  if (readBudgetQuestion(text, now, customCategories)) return null;
  const question = QUESTION.test(text);
  if (!question && !TOTAL_SOMEWHERE.test(text)) return null;
  // 一共花了200 states an amount: that is a transaction, not a question.
  if (moneyMentions(findAmounts(text, findDates(text, now))).length > 0) return null;
  const { period, rest, named } = readPeriod(text, now);
  if (!question && !(named && asksForTotal(rest, customCategories))) return null;
  let type: TransactionType | null = ASKS_INCOME.test(rest) ? 'INCOME' : ASKS_TRANSFER.test(rest) ? 'TRANSFER' : null;
  const category = type === 'TRANSFER' ? null : matchCategoryWord(rest, customCategories, (c) => !type || c.type === type);
  type ??= category?.type ?? 'EXPENSE';
  return { from: period.from, to: period.to, type, category: category?.name ?? null, periodLabel: period.label };
}

/** A question about a month's budget: the whole month's, or one expense category's. */
export interface BudgetQuery {
  /** YYYY-MM */
  month: string;
  /** The expense category asked about, or null for the month as a whole. */
  category: string | null;
  /** How the month is said in the answer: 本月, 上个月, 1月, 2025年12月. */
  periodLabel: string;
}

const BUDGET_WORD = new RegExp(anyOf(BUDGET_WORDS));
const BUDGET_QUESTION = new RegExp(anyOf(BUDGET_QUESTION_WORDS));
const SPENDABLE = new RegExp(`${anyOf(SPENDABLE_WORDS)}.*${anyOf(HOW_MUCH_WORDS)}`);

/**
 * 「这个月预算还剩多少」「餐饮预算用了多少」「本月还能花多少」 → the month and category to answer
 * from the budgets; null for anything else, and for words that state an amount (预算500 sets
 * or books, it does not ask). Budgets are monthly: a week or a day asks about its month, a
 * period across months (今年) about the current one.
 */
export function detectBudgetQuery(rawText: string, now: ZonedNow, customCategories: readonly CategoryRef[] = []): BudgetQuery | null {
  return readBudgetQuestion(normalizeText(rawText), now, customCategories);
}

function readBudgetQuestion(text: string, now: ZonedNow, customCategories: readonly CategoryRef[]): BudgetQuery | null {
  if (!(BUDGET_WORD.test(text) && BUDGET_QUESTION.test(text)) && !SPENDABLE.test(text)) return null;
  if (moneyMentions(findAmounts(text, findDates(text, now))).length > 0) return null;
  const { period, rest } = readPeriod(text, now);
  const current = localDate(now).slice(0, 7);
  const month = period.from.slice(0, 7) === period.to.slice(0, 7) ? period.from.slice(0, 7) : current;
  // Only the words before 预算 (or 还能花) name a category: 餐饮预算, 吃饭还能花多少.
  const asked = BUDGET_WORD.exec(rest) ?? SPENDABLE.exec(rest);
  const named = asked ? rest.slice(0, asked.index) : '';
  const category = named ? matchCategoryWord(named, customCategories, (c) => c.type === 'EXPENSE') : null;
  return { month, category: category?.name ?? null, periodLabel: monthLabel(month, current) };
}

function monthLabel(month: string, current: string): string {
  if (month === current) return '本月';
  if (month === addDays(`${current}-01`, -1).slice(0, 7)) return '上个月';
  const label = `${Number(month.slice(5, 7))}月`;
  return month.slice(0, 4) === current.slice(0, 4) ? label : `${month.slice(0, 4)}年${label}`;
}

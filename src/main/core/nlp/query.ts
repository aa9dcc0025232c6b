// Questions about the ledger (「这个月花了多少」「今天吃饭花了多少」「上周收入多少」) → a LedgerQuery
// answered from the local database instead of being booked as a transaction.
import type { LedgerQuery, TransactionType } from '@shared/domain';
import { addDays, formatYmd, localDate, type ZonedNow } from '@shared/time';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAmounts, moneyMentions } from './amounts';
import { findDates, mondayOf } from './dates';
import { QUESTION_WORDS, TOTAL_PARTICLES, TOTAL_PREFIXES, TOTAL_SUFFIXES, TOTAL_WORDS } from './lexicon/queries';
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

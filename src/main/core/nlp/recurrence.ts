// A repeating rule said with an entry: 每天 → every day, 每周五 → every week on Friday (5),
// 每个月五号 → every month on the 5th, 每个月月底 → on its last day (-1), 每年三月 → every year in
// March. Only these words make a rule: 每人, 每个, 每次 are prices, and 上个月五号 is one day.
// A rule holds for the money of its own clause. Said in another clause, it holds only when that
// clause is about the payment (每个月五号，房租三千; 每个月交房租，三千): 每天都加班到很晚，今天打车
// 七十四 tells a habit, and a day or period named with the amount (今天, 这个月) makes it one
// payment. A wish (每周都想去游泳) is no rule.
import type { Recurrence } from '@shared/domain';
import { matchCategoryWord } from '../categories/index';
import { WEEKDAY_INDEX, type DateMention } from './dates';
import { describe } from './description';
import {
  EVERY_DAY,
  EVERY_MONTH,
  EVERY_WEEK,
  EVERY_YEAR,
  FROM_NOW_ON,
  MONTH_END,
  ONCE,
  ONE_TIME,
  PAYING,
  SCHEDULE_WORDS,
  WISHES,
} from './lexicon/recurrence';
import { anyOf } from './lexicon/words';
import { isPunctuation, type Span } from './normalize';
import { parseNumeral } from './numbers';

export interface RecurrenceMention extends Span {
  recurrence: Recurrence;
}

const NUM = '(?:\\d{1,2}|[一二两三四五六七八九十]{1,3})';
// 每周一次, 每周三次, 每周五十: a count or an amount, not a weekday.
const WEEKDAY = '[一二三四五六日天1-7](?![零〇一二两三四五六七八九十百千万\\d次趟回遍])';
// 从下个月开始每个月: when the rule starts is said before it (the rule has no start of its own).
const RULE = new RegExp(
  `(?:${anyOf(FROM_NOW_ON)}|从[^，,。每]{1,6}?(?:开始|起))?(?:${[
    `(?<day>${anyOf(EVERY_DAY)})`,
    `(?<week>${anyOf(EVERY_WEEK)})(?<weekday>${WEEKDAY})?`,
    `(?<month>${anyOf(EVERY_MONTH)})的?(?:(?<monthDay>${NUM})[号日]|(?<monthEnd>${anyOf(MONTH_END)}))?`,
    `(?<year>${anyOf(EVERY_YEAR)})的?(?:(?<yearMonth>${NUM})月份?(?:(?<yearDay>${NUM})[号日])?)?`,
  ].join('|')})${anyOf(ONCE)}?${anyOf(SCHEDULE_WORDS)}?`,
  'g',
);
const WISH = new RegExp(`^${anyOf(WISHES)}`);
const ONE_TIME_WORD = new RegExp(anyOf(ONE_TIME));
const PAYING_WORD = new RegExp(anyOf(PAYING));

/** The longest each month runs in any year (2月29日 repeats in leap years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function numberIn(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = parseNumeral(text);
  return value !== null && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/** A rule's weekday counts Monday as 1. */
function weekday(text: string | undefined): number | undefined {
  const index = text === undefined ? undefined : WEEKDAY_INDEX[text];
  return index === undefined ? undefined : index + 1;
}

function ruleOf(g: Record<string, string | undefined>): Recurrence {
  if (g.day) return { every: 'day' };
  if (g.week) {
    const day = weekday(g.weekday);
    return day === undefined ? { every: 'week' } : { every: 'week', day };
  }
  if (g.month) {
    const day = g.monthEnd ? -1 : numberIn(g.monthDay, 1, 31);
    return day === undefined ? { every: 'month' } : { every: 'month', day };
  }
  const month = numberIn(g.yearMonth, 1, 12);
  if (month === undefined) return { every: 'year' };
  const day = numberIn(g.yearDay, 1, MONTH_DAYS[month - 1]!);
  return day === undefined ? { every: 'year', month } : { every: 'year', month, day };
}

/** Every rule said in normalized text, in order. */
export function findRecurrences(text: string): RecurrenceMention[] {
  if (!text.includes('每') && !text.includes('天天')) return [];
  const found: RecurrenceMention[] = [];
  RULE.lastIndex = 0;
  for (let m = RULE.exec(text); m !== null; m = RULE.exec(text)) {
    found.push({ start: m.index, end: m.index + m[0].length, recurrence: ruleOf(m.groups!) });
  }
  return found;
}

/** The clause around `at`: from the punctuation before it to the punctuation after it. */
function clauseAt(text: string, at: number): Span {
  let start = at;
  while (start > 0 && !isPunctuation(text[start - 1])) start--;
  let end = at;
  while (end < text.length && !isPunctuation(text[end])) end++;
  return { start, end };
}

function inside(s: Span, clause: Span): boolean {
  return s.start >= clause.start && s.end <= clause.end;
}

/** The words of a clause that no extractor claimed, without fillers. */
function wordsOf(text: string, clause: Span, claimed: readonly Span[]): string {
  const own = claimed
    .filter((s) => s.start < clause.end && s.end > clause.start)
    .map((s) => ({ start: s.start - clause.start, end: s.end - clause.start }));
  return describe(text.slice(clause.start, clause.end), own);
}

export interface ScopeSpans {
  /** The amounts that were paid, in order. */
  amounts: readonly Span[];
  dates: readonly DateMention[];
  /** Everything that is no item's words (dates, amounts, rules, tags). */
  claimed: readonly Span[];
}

/**
 * What a rule said outside the clause of the money means for it: it holds, or the money is paid
 * once (今天, 又 said with it), or the rule's clause tells a habit that is no payment (加班).
 */
function scopeFrom(text: string, rule: Span, money: Span, spans: ScopeSpans): 'holds' | 'once' | 'habit' {
  const clause = clauseAt(text, money.start);
  const moneyWords = wordsOf(text, clause, spans.claimed);
  if (moneyWords === '') return 'holds';
  const rest = wordsOf(text, clauseAt(text, rule.start), spans.claimed);
  const aboutPaying = rest === '' || PAYING_WORD.test(rest) || matchCategoryWord(rest) !== null;
  if (!aboutPaying) return 'habit';
  return spans.dates.some((d) => inside(d, clause)) || ONE_TIME_WORD.test(moneyWords) ? 'once' : 'holds';
}

export interface RulesInScope {
  rules: RecurrenceMention[];
  /** Clauses that tell a habit (每天都加班到很晚) beside the money: context, no item's words. */
  habits: Span[];
}

/** The rules of `rules` that hold for the money said with them (see the header). */
export function rulesInScope(text: string, rules: readonly RecurrenceMention[], spans: ScopeSpans): RulesInScope {
  const scope: RulesInScope = { rules: [], habits: [] };
  for (const rule of rules) {
    if (WISH.test(text.slice(rule.end, rule.end + 2))) continue;
    const clause = clauseAt(text, rule.start);
    const money = spans.amounts.find((a) => a.start >= clause.end) ?? spans.amounts.findLast((a) => a.end <= clause.start);
    const scoped = spans.amounts.some((a) => inside(a, clause)) || money === undefined ? 'holds' : scopeFrom(text, rule, money, spans);
    if (scoped === 'holds') scope.rules.push(rule);
    if (scoped === 'habit') scope.habits.push(clause);
  }
  return scope;
}

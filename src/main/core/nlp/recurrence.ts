// A repeating rule said with an entry: 每天 → every day, 每周五 → every week on Friday (5),
// 每个月五号 → every month on the 5th, 每个月月底 → on its last day (-1), 每年三月 → every year in
// March. Only these words make a rule: 每人, 每个, 每次 are prices, and 上个月五号 is one day.
import type { Recurrence } from '@shared/domain';
import { WEEKDAY_INDEX } from './dates';
import { EVERY_DAY, EVERY_MONTH, EVERY_WEEK, EVERY_YEAR, MONTH_END, ONCE } from './lexicon/recurrence';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';
import { parseNumeral } from './numbers';

export interface RecurrenceMention extends Span {
  recurrence: Recurrence;
}

const NUM = '(?:\\d{1,2}|[一二两三四五六七八九十]{1,3})';
// 每周一次, 每周三次, 每周五十: a count or an amount, not a weekday.
const WEEKDAY = '[一二三四五六日天1-7](?![零〇一二两三四五六七八九十百千万\\d次趟回遍])';
const RULE = new RegExp(
  `(?:${[
    `(?<day>${anyOf(EVERY_DAY)})`,
    `(?<week>${anyOf(EVERY_WEEK)})(?<weekday>${WEEKDAY})?`,
    `(?<month>${anyOf(EVERY_MONTH)})的?(?:(?<monthDay>${NUM})[号日]|(?<monthEnd>${anyOf(MONTH_END)}))?`,
    `(?<year>${anyOf(EVERY_YEAR)})的?(?:(?<yearMonth>${NUM})月份?(?:(?<yearDay>${NUM})[号日])?)?`,
  ].join('|')})${anyOf(ONCE)}?`,
  'g',
);

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

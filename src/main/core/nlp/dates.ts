// Day words relative to `now` in its own UTC offset: 今天/昨天/前天/大前天, N天前, 上周X, 这周X,
// bare 周X (most recent not after today), M月D号, YYYY年M月D日, D号, 上个月D号.
import { addDays, isCalendarDate, localDate, type ZonedNow } from '@shared/time';
import { HOLIDAYS, NOT_DAY_WORDS, NOT_HOUR_WORDS, RELATIVE_DAYS } from './lexicon/dates';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';
import { parseNumeral } from './numbers';
import { startTable } from './starts';

export interface DateMention extends Span {
  /** YYYY-MM-DD, or null when the words name no single day (上个月, 上周). */
  date: string | null;
}

const NUM = '(?:\\d{1,4}|[零〇一二两三四五六七八九十]{1,4})';
const WEEKDAY = '([一二三四五六日天1-7])';
/** 一…日/天 and 1–7 as days from Monday (0), as 周一…周日 say them. */
export const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  一: 0,
  二: 1,
  三: 2,
  四: 3,
  五: 4,
  六: 5,
  日: 6,
  天: 6,
  '1': 0,
  '2': 1,
  '3': 2,
  '4': 3,
  '5': 4,
  '6': 5,
  '7': 6,
};

const longestFirst = (list: readonly string[]) => [...list].sort((a, b) => b.length - a.length);
const HOLIDAY_NAMES = longestFirst(Object.keys(HOLIDAYS)).join('|');
const RELATIVE_DAY_NAMES = anyOf(longestFirst(Object.keys(RELATIVE_DAYS)));

// One alternation, longest forms first, so a single left-to-right pass claims each phrase once.
const DATE_SOURCE = [
  `(?<iso>(?<iy>\\d{4})[-/.](?<im>\\d{1,2})[-/.](?<id>\\d{1,2}))`,
  `(?<slash>(?<![\\d./])(?<sm>\\d{1,2})\\/(?<sd>\\d{1,2})(?![\\d./个斤只块元份杯]))`,
  `(?<full>(?<fy>\\d{4}|[零〇一二三四五六七八九]{4}|今年|去年|前年)年?(?<fm>${NUM})月(?<fd>${NUM})[日号]?)`,
  `(?<md>(?<mm>${NUM})月(?:份)?(?<mdd>${NUM})(?<mds>[日号])?)`,
  `(?<rel>${RELATIVE_DAY_NAMES}(?:(?<=儿)个)?)`,
  `(?<ago>(?<an>${NUM})(?<au>天|日|周|个星期|星期|个礼拜|礼拜)(?:前|之前|以前))`,
  `(?<wk>(?<wp>上上|上|这|本|下)?个?(?:周|星期|礼拜)${WEEKDAY})`,
  // 周末, 月底, 前两天, 2月份 name no single day, but they are time words, not the item.
  `(?<vague>(?:上上|上|这|本|下)?个?周末|(?:上上个?|上个?|这个?|本|下个?)?月(?:底|初|末)|前(?:两|几)天|这(?:两|几)天|最近|前阵子|前段时间|(?:(?:\\d{4}|[零〇一二三四五六七八九]{4})年|今年|去年|前年)(?:${NUM}月份?)?(?![0-9零〇一二两三四五六七八九十号日])|(?:${NUM})月份?(?![0-9零〇一二两三四五六七八九十号日]))`,
  // 十一 is also a number: only 国庆/十一 right before 期间/假期/的/去/出 or at the start.
  // A holiday name run into a number (十五一共 is 十五 and 一共) or after a money unit (五块五一斤:
  // the jiao, then a count) is no holiday.
  `(?<holiday>(?<![零〇一二两三四五六七八九十百千\\d块元毛角])(?:${HOLIDAY_NAMES.replace('|十一', '')})|^十一(?=期间|假期|的|去|出|回))`,
  `(?<mon>(?<mp>上上个?月|上个?月|这个?月|本月)(?:的)?(?:(?<mnd>${NUM})[号日])?)`,
  // A time of day (8点, 九点半, 10点20分) is no date; 三点五块 is money, so no digit or money unit may follow.
  `(?<tod>(?<th>${NUM})(?:点(?!${anyOf(NOT_HOUR_WORDS)})|时)(?:半|一刻|三刻|${NUM}分|钟)?(?![0-9零〇一二两三四五六七八九十块元毛角钱分]))`,
  `(?<week>上上周|上周|上星期|上礼拜|这周|本周|这星期|这礼拜|下周)`,
  `(?<day>(?<dd>${NUM})[号日](?!${anyOf(NOT_DAY_WORDS)}))`,
].join('|');

// Every character a date phrase can start with: the scan tries the phrases only there.
const DATE_STARTS = startTable([
  ...'0123456789零〇一二两三四五六七八九十',
  ...'今去前上这本下个周星礼月最',
  ...Object.keys(RELATIVE_DAYS).map((w) => w[0]!),
  ...Object.keys(HOLIDAYS).map((w) => w[0]!),
]);

/**
 * The pattern with its named groups numbered, and each name's number. V8 builds a fresh object
 * of all forty names for every match's `groups`; reading the numbered captures costs nothing.
 */
function numberGroups<Name extends string>(source: string, names: readonly Name[]): { pattern: RegExp; group: Record<Name, number> } {
  const group: Partial<Record<string, number>> = {};
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '(' && !inClass) {
      const name = /^\?<([a-z]+)>/.exec(source.slice(i + 1, i + 20));
      if (name) group[name[1]!] = ++count;
      else if (source[i + 1] !== '?') count++;
    }
  }
  const missing = names.filter((n) => group[n] === undefined);
  if (missing.length > 0) throw new Error(`date pattern has no group ${missing.join(', ')}`);
  return { pattern: new RegExp(source.replace(/\(\?<([a-z]+)>/g, '('), 'y'), group: group as Record<Name, number> };
}

const { pattern: DATE_PATTERN, group: G } = numberGroups(DATE_SOURCE, [
  'iso',
  'iy',
  'im',
  'id',
  'slash',
  'sm',
  'sd',
  'full',
  'fy',
  'fm',
  'fd',
  'md',
  'mm',
  'mdd',
  'mds',
  'rel',
  'ago',
  'an',
  'au',
  'wk',
  'wp',
  'vague',
  'holiday',
  'mon',
  'mp',
  'mnd',
  'tod',
  'th',
  'week',
  'day',
  'dd',
]);

function ymd(y: number, m: number, d: number): string | null {
  const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return isCalendarDate(text) ? text : null;
}

function splitYmd(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** Monday = 0 … Sunday = 6. */
function weekdayOf(date: string): number {
  const [y, m, d] = splitYmd(date);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

function monthShift(y: number, m: number, delta: number): [number, number] {
  const index = y * 12 + (m - 1) + delta;
  return [Math.floor(index / 12), (index % 12) + 1];
}

function num(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = parseNumeral(text);
  return v !== null && Number.isInteger(v) ? v : null;
}

/** Day D of this month, or of last month when that day is still ahead. */
export function resolveDayOfMonth(day: number, today: string): string | null {
  const [y, m, d] = splitYmd(today);
  if (day <= d) return ymd(y, m, day);
  const [py, pm] = monthShift(y, m, -1);
  return ymd(py, pm, day);
}

/** Month M day D without a year: this year, or last year when it is still ahead. */
export function resolveMonthDay(month: number, day: number, today: string): string | null {
  const year = Number(today.slice(0, 4));
  const thisYear = ymd(year, month, day);
  if (thisYear === null) return ymd(year - 1, month, day);
  return thisYear > today ? ymd(year - 1, month, day) : thisYear;
}

/** Monday of the week that holds `date`. */
export function mondayOf(date: string): string {
  return addDays(date, -weekdayOf(date));
}

/** Today and the days around it, as day words name them. */
interface Calendar {
  /** Local days since the epoch of `now`: the key the calendar is kept under. */
  epochDay: number;
  today: string;
  /** Monday = 0 … Sunday = 6. */
  weekday: number;
  /** Days from today → YYYY-MM-DD. */
  shifted: Map<number, string>;
}

// Day arithmetic through Date costs microseconds a word, and an utterance of a week's items
// names ten days: the days around today are worked out once and kept until the day changes.
let calendar: Calendar | null = null;

function calendarOf(now: ZonedNow): Calendar {
  const epochDay = Math.floor((now.epochMs + now.offsetMinutes * 60_000) / 86_400_000);
  if (calendar?.epochDay !== epochDay) {
    const today = localDate(now);
    calendar = { epochDay, today, weekday: weekdayOf(today), shifted: new Map() };
  }
  return calendar;
}

function dayFrom(cal: Calendar, days: number): string {
  let day = cal.shifted.get(days);
  if (day === undefined) {
    day = addDays(cal.today, days);
    // Spoken offsets are few (a week or two, N天前 up to ten years): the map stays small.
    cal.shifted.set(days, day);
  }
  return day;
}

// The numerals of a date's number, and what can follow them in one (3月, 5号, 三天前, 8点,
// 2026-3-5, 3/5). An amount's numerals are followed by none of these: a date cannot start anywhere
// in their run, which is skipped whole. Holidays written in numerals (五一) are the exception.
const NUMERAL = '0123456789零〇一二两三四五六七八九十';
const NUMERALS = startTable(NUMERAL);
const AFTER_NUMERAL = startTable('年月天日周个星礼点时号-/.');
const NUMERAL_HOLIDAYS = Object.keys(HOLIDAYS).filter((h) => NUMERAL.includes(h[0]!));

/** Where the numeral run from `at` ends when no date can start in it (the scan skips it), else `at`. */
function amountRunAt(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && NUMERALS[text.charCodeAt(end)] === 1) end++;
  if (AFTER_NUMERAL[text.charCodeAt(end)] === 1) return at;
  for (let k = at; k < end; k++) for (const h of NUMERAL_HOLIDAYS) if (k + h.length <= end && text.startsWith(h, k)) return at;
  return end;
}

/** The next date phrase from DATE_PATTERN.lastIndex, as a global exec would find it. */
function nextDate(text: string, skipRuns: boolean): RegExpExecArray | null {
  for (let i = DATE_PATTERN.lastIndex; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (DATE_STARTS[code] !== 1) continue;
    if (skipRuns && NUMERALS[code] === 1) {
      const past = amountRunAt(text, i);
      if (past > i) {
        i = past - 1;
        continue;
      }
    }
    DATE_PATTERN.lastIndex = i;
    const m = DATE_PATTERN.exec(text);
    if (m !== null) return m;
  }
  DATE_PATTERN.lastIndex = 0;
  return null;
}

/** All day mentions in normalized text, in order. */
export function findDates(text: string, now: ZonedNow): DateMention[] {
  return scanDates(text, now, true);
}

/** findDates trying the pattern at every start character: what the skip must never change (tests). */
export function findDatesAtEveryStart(text: string, now: ZonedNow): DateMention[] {
  return scanDates(text, now, false);
}

function scanDates(text: string, now: ZonedNow, skipRuns: boolean): DateMention[] {
  const cal = calendarOf(now);
  const { today } = cal;
  const [ty, tm] = splitYmd(today);
  const found: DateMention[] = [];
  DATE_PATTERN.lastIndex = 0;
  for (let m = nextDate(text, skipRuns); m !== null; m = nextDate(text, skipRuns)) {
    const span = { start: m.index, end: m.index + m[0].length };
    let date: string | null = null;
    if (m[G.iso]) {
      date = ymd(Number(m[G.iy]), Number(m[G.im]), Number(m[G.id]));
    } else if (m[G.slash]) {
      const month = Number(m[G.sm]);
      const day = Number(m[G.sd]);
      if (month < 1 || month > 12) continue;
      date = resolveMonthDay(month, day, today);
    } else if (m[G.full]) {
      const rel = { 今年: 0, 去年: -1, 前年: -2 }[m[G.fy] as '今年'];
      const year = rel !== undefined ? ty + rel : num(m[G.fy]);
      const month = num(m[G.fm]);
      const day = num(m[G.fd]);
      if (year !== null && month !== null && day !== null) date = ymd(year, month, day);
    } else if (m[G.md]) {
      const month = num(m[G.mm]);
      const day = num(m[G.mdd]);
      // Without 日/号 the day must not run into money (3月5块 is not a date).
      const next = text.slice(span.end, span.end + 2);
      if (!m[G.mds] && /^(块|元|毛|角|圆|万|千|百|\.|点)/.test(next)) {
        // Claim only the month: the number after it is an amount.
        const monthEnd = m.index + m[0].indexOf('月') + 1;
        found.push({ start: span.start, end: monthEnd, date: null });
        DATE_PATTERN.lastIndex = monthEnd;
        continue;
      }
      if (month !== null && day !== null && month >= 1 && month <= 12) date = resolveMonthDay(month, day, today);
    } else if (m[G.rel]) {
      const rel = m[G.rel]!;
      date = dayFrom(cal, RELATIVE_DAYS[rel.endsWith('个') ? rel.slice(0, -1) : rel]!);
    } else if (m[G.ago]) {
      const n = num(m[G.an]);
      const days = m[G.au] === '天' || m[G.au] === '日' ? n : n === null ? null : n * 7;
      if (days !== null && days <= 3660) date = dayFrom(cal, -days);
    } else if (m[G.wk]) {
      const wd = WEEKDAY_INDEX[m[0].slice(-1)]!;
      // From today's Monday (-weekday): 上上 two weeks back, 上 one, 这/本 this week, 下 the next.
      const week = { 上上: -14, 上: -7, 这: 0, 本: 0, 下: 7 }[m[G.wp] as '上'];
      date = dayFrom(cal, week !== undefined ? wd + week - cal.weekday : -((cal.weekday - wd + 7) % 7));
    } else if (m[G.mon]) {
      const day = num(m[G.mnd]);
      const delta = m[G.mp]!.startsWith('上上') ? -2 : m[G.mp]!.startsWith('上') ? -1 : 0;
      if (day !== null) {
        const [y, mo] = monthShift(ty, tm, delta);
        date = ymd(y, mo, day);
      }
    } else if (m[G.holiday]) {
      const [month, day] = HOLIDAYS[m[G.holiday]!]!;
      date = resolveMonthDay(month, day, today);
    } else if (m[G.tod]) {
      // 三十点 is no hour: leave the number to the amount reader.
      const hour = num(m[G.th]);
      if (hour === null || hour > 24) {
        DATE_PATTERN.lastIndex = span.start + m[G.th]!.length;
        continue;
      }
    } else if (m[G.day]) {
      const day = num(m[G.dd]);
      if (day !== null && day >= 1 && day <= 31) date = resolveDayOfMonth(day, today);
      else continue;
    }
    found.push({ start: span.start, end: span.end, date });
  }
  return found;
}

/** The first mention that names a day. */
export function firstDate(mentions: readonly DateMention[]): string | null {
  return mentions.find((d) => d.date !== null)?.date ?? null;
}

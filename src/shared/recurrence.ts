// Recurring entries (周期记账): when a rule falls due. Pure calendar arithmetic on local days
// (YYYY-MM-DD in the user's zone, from localDate of a ZonedNow): a rule never looks at
// instants, so a DST change can neither skip nor double a day.
import type { Recurrence, TransactionType } from './domain';
import { formatYmd, isCalendarDate } from './time';

export type { Recurrence, RecurrenceEvery } from './domain';

/** A rule with where it starts and, optionally, where it ends: a last day or a number of occurrences. */
export interface Schedule {
  rule: Recurrence;
  start: string;
  end?: string | null;
  count?: number | null;
}

export type RecurringMode = 'save' | 'draft';

/** What the ledger creates at each occurrence; its category and account by name. */
export interface RecurringTemplate {
  type: TransactionType;
  amountFen: number;
  category: string;
  account: string;
  /** TRANSFER only: the user's account the money goes to (null: out of the user's accounts). */
  toAccount?: string | null;
  description: string;
}

/** A rule as the rules page shows it. */
export interface RecurringRuleInfo extends RecurringTemplate, Schedule {
  id: number;
  /** The same on every device: occurrences are keyed by it. */
  key: string;
  mode: RecurringMode;
  paused: boolean;
  /** The next occurrence still to come, or null when the rule has ended. */
  nextDate: string | null;
  /** Occurrences made so far (saved, or offered as drafts). */
  createdCount: number;
  /** 「每月5日」 */
  label: string;
}

/** A due occurrence of a draft-mode rule, offered to the user to confirm (once). */
export interface RecurringDraft extends RecurringTemplate {
  ruleId: number;
  date: string;
  /** The occurrence's key: confirming saves it under this key, so it can exist only once. */
  recurrenceKey: string;
  label: string;
}

const WEEKDAYS = ['一', '二', '三', '四', '五', '六', '日'] as const;
/** Days of each month in a leap year: the days a yearly rule may name. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

// ---- days as numbers ------------------------------------------------------------------
// Days since 1970-01-01 (proleptic Gregorian, H. Hinnant's civil algorithms): integer
// arithmetic that neither Date's two-digit years nor a time zone can disturb.

function dayNumber(ymd: string): number {
  const [y0, m, d] = [Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)), Number(ymd.slice(8, 10))];
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function fromDayNumber(n: number): string {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return formatYmd(yoe + era * 400 + (m <= 2 ? 1 : 0), m, d);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (1–12) of a year. */
function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : MONTH_DAYS[month - 1]!;
}

/** 1 = Monday … 7 = Sunday. */
export function weekday(ymd: string): number {
  // 1970-01-01 was a Thursday (4).
  return ((((dayNumber(ymd) + 3) % 7) + 7) % 7) + 1;
}

// ---- rules ------------------------------------------------------------------------------

/** Why a rule cannot be kept (Chinese, for the user), or null when it is sound. */
export function recurrenceProblem(rule: Recurrence): string | null {
  const { every, day, month } = rule;
  const whole = (n: number | undefined, lo: number, hi: number) => n === undefined || (Number.isInteger(n) && n >= lo && n <= hi);
  switch (every) {
    case 'day':
      return day === undefined && month === undefined ? null : '每天的规则不带日期';
    case 'week':
      if (month !== undefined) return '每周的规则不带月份';
      return whole(day, 1, 7) ? null : '星期要在周一到周日之间';
    case 'month':
      if (month !== undefined) return '每月的规则不带月份';
      return day === -1 || whole(day, 1, 31) ? null : '日期要在1日到31日之间，或者月末';
    case 'year':
      if (!whole(month, 1, 12)) return '月份要在1月到12月之间';
      if (day === -1 || day === undefined) return null;
      if (!whole(day, 1, 31)) return '日期要在1日到31日之间，或者月末';
      return month === undefined || day <= MONTH_DAYS[month - 1]! ? null : `${month}月没有${day}日`;
    default:
      return '重复周期只能是每天、每周、每月或每年';
  }
}

/** The rule with its missing day and month taken from the start date: what it will do, said in full. */
export function completeRule(rule: Recurrence, start: string): Recurrence {
  const startDay = Number(start.slice(8, 10));
  switch (rule.every) {
    case 'day':
      return { every: 'day' };
    case 'week':
      return { every: 'week', day: rule.day ?? weekday(start) };
    case 'month':
      return { every: 'month', day: rule.day ?? startDay };
    case 'year':
      return { every: 'year', month: rule.month ?? Number(start.slice(5, 7)), day: rule.day ?? startDay };
  }
}

/**
 * A rule said in a sentence (「每个月五号交房租三千」) with the day it was said on: the rule
 * completed from that day, starting at the beginning of that day's period (its month, its
 * week, its year), so this period's occurrence is made at once when it is due by now and
 * waits for its day otherwise. Nothing before this period is made: the user told us from now on.
 */
export function spokenSchedule(rule: Recurrence, said: string): Schedule {
  const full = completeRule(rule, said);
  const start =
    full.every === 'month'
      ? `${said.slice(0, 8)}01`
      : full.every === 'year'
        ? `${said.slice(0, 5)}01-01`
        : full.every === 'week'
          ? fromDayNumber(dayNumber(said) - weekday(said) + 1)
          : said;
  return { rule: full, start, end: null };
}

/** 每天 / 每周五 / 每月5日 / 每月月末 / 每年3月 / 每年3月15日: how a rule is shown and read back. */
export function recurrenceLabel(rule: Recurrence): string {
  const dayText = (day: number) => (day === -1 ? '月末' : `${day}日`);
  switch (rule.every) {
    case 'day':
      return '每天';
    case 'week':
      return rule.day === undefined ? '每周' : `每周${WEEKDAYS[rule.day - 1]}`;
    case 'month':
      return rule.day === undefined ? '每月' : `每月${dayText(rule.day)}`;
    case 'year':
      return `每年${rule.month === undefined ? '' : `${rule.month}月`}${rule.day === undefined ? '' : dayText(rule.day)}`;
  }
}

// ---- occurrences ------------------------------------------------------------------------

/**
 * The k-th occurrence (0-based) ignoring end and count, and the first k whose occurrence is
 * on or after a day: each kind of rule is a line of periods (days, weeks, months, years), so
 * both are arithmetic and a rule forty years old costs what a new one does.
 */
interface Line {
  nth(k: number): string;
  indexFrom(ymd: string): number;
}

function lineOf(schedule: Schedule): Line {
  const rule = completeRule(schedule.rule, schedule.start);
  const start = dayNumber(schedule.start);
  switch (rule.every) {
    case 'day':
      return { nth: (k) => fromDayNumber(start + k), indexFrom: (ymd) => Math.max(0, dayNumber(ymd) - start) };
    case 'week': {
      const first = start + ((rule.day! - weekday(schedule.start) + 7) % 7);
      return { nth: (k) => fromDayNumber(first + 7 * k), indexFrom: (ymd) => Math.max(0, Math.ceil((dayNumber(ymd) - first) / 7)) };
    }
    case 'month':
    case 'year': {
      // Periods are months (y·12 + m − 1) or years; the occurrence of a period is its day, clamped.
      const monthly = rule.every === 'month';
      const periodOf = (ymd: string) => (monthly ? Number(ymd.slice(0, 4)) * 12 + Number(ymd.slice(5, 7)) - 1 : Number(ymd.slice(0, 4)));
      const inPeriod = (p: number) => {
        const [y, m] = monthly ? [Math.floor(p / 12), (p % 12) + 1] : [p, rule.month!];
        const last = daysInMonth(y, m);
        return formatYmd(y, m, rule.day === -1 ? last : Math.min(rule.day!, last));
      };
      const firstPeriod = inPeriod(periodOf(schedule.start)) >= schedule.start ? periodOf(schedule.start) : periodOf(schedule.start) + 1;
      return {
        nth: (k) => inPeriod(firstPeriod + k),
        indexFrom: (ymd) => {
          const p = periodOf(ymd);
          return Math.max(0, p - firstPeriod + (inPeriod(p) < ymd ? 1 : 0));
        },
      };
    }
  }
}

/**
 * The occurrences from `from` to `to` (inclusive local days), oldest first: on or after the
 * start, on or before the end, and among the first `count`. Month days past a month's end
 * fall on its last day (31 → 2月28日/29日); a yearly 2月29日 falls on 2月28日 in other years.
 */
export function occurrences(schedule: Schedule, from: string, to: string, limit = Number.POSITIVE_INFINITY): string[] {
  const line = lineOf(schedule);
  const last = schedule.end && schedule.end < to ? schedule.end : to;
  const out: string[] = [];
  for (let k = line.indexFrom(from > schedule.start ? from : schedule.start); out.length < limit; k++) {
    if (schedule.count != null && k >= schedule.count) break;
    const day = line.nth(k);
    if (day > last) break;
    out.push(day);
  }
  return out;
}

/** The first occurrence strictly after `after`, or null when the rule has ended by then. */
export function nextOccurrence(schedule: Schedule, after: string): string | null {
  const day = fromDayNumber(dayNumber(after) + 1);
  const line = lineOf(schedule);
  const k = line.indexFrom(day > schedule.start ? day : schedule.start);
  if (schedule.count != null && k >= schedule.count) return null;
  const next = line.nth(k);
  return schedule.end && next > schedule.end ? null : next;
}

/** Why a schedule cannot be kept (Chinese), or null. */
export function scheduleProblem(schedule: Schedule): string | null {
  if (!isCalendarDate(schedule.start)) return `开始日期无效（${schedule.start}）`;
  if (schedule.end != null) {
    if (!isCalendarDate(schedule.end)) return `结束日期无效（${schedule.end}）`;
    if (schedule.end < schedule.start) return '结束日期早于开始日期';
  }
  if (schedule.count != null && (!Number.isInteger(schedule.count) || schedule.count < 1)) return '次数至少是1次';
  return recurrenceProblem(schedule.rule);
}

import { describe, expect, it } from 'vitest';
import { prng } from '../../test/support/prng';
import {
  completeRule,
  nextOccurrence,
  occurrences,
  recurrenceLabel,
  recurrenceProblem,
  scheduleProblem,
  spokenSchedule,
  weekday,
  type Recurrence,
  type Schedule,
} from './recurrence';
import { addDays, localDate, type ZonedNow } from './time';

describe('month ends and leap years', () => {
  it('clamps a 31st to each month’s last day, February of leap years included', () => {
    const s: Schedule = { rule: { every: 'month', day: 31 }, start: '2027-11-01' };
    expect(occurrences(s, '2027-11-01', '2028-05-31')).toEqual([
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
      '2028-05-31',
    ]);
  });

  it('puts a 30th of February on its last day and -1 (月末) always on the last day', () => {
    expect(occurrences({ rule: { every: 'month', day: 30 }, start: '2026-01-30' }, '2026-01-01', '2026-03-31')).toEqual([
      '2026-01-30',
      '2026-02-28',
      '2026-03-30',
    ]);
    expect(occurrences({ rule: { every: 'month', day: -1 }, start: '2026-01-01' }, '2026-01-01', '2026-04-30')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
  });

  it('moves a yearly 2月29日 to 2月28日 in other years, never into March', () => {
    const s: Schedule = { rule: { every: 'year', month: 2, day: 29 }, start: '2024-02-29' };
    expect(occurrences(s, '2024-01-01', '2029-12-31')).toEqual(['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29', '2029-02-28']);
    expect(occurrences({ ...s, start: '2100-01-01' }, '2100-01-01', '2100-12-31')).toEqual(['2100-02-28']);
  });

  it('starts on the first occurrence on or after the start day', () => {
    expect(occurrences({ rule: { every: 'month', day: 5 }, start: '2026-03-06' }, '2026-01-01', '2026-05-31')).toEqual(['2026-04-05', '2026-05-05']);
    expect(occurrences({ rule: { every: 'month', day: -1 }, start: '2026-02-28' }, '2026-01-01', '2026-03-31')).toEqual(['2026-02-28', '2026-03-31']);
    // 2026-03-06 is a Friday.
    expect(occurrences({ rule: { every: 'week', day: 5 }, start: '2026-03-06' }, '2026-03-01', '2026-03-20')).toEqual([
      '2026-03-06',
      '2026-03-13',
      '2026-03-20',
    ]);
    expect(occurrences({ rule: { every: 'week', day: 1 }, start: '2026-03-06' }, '2026-03-01', '2026-03-20')).toEqual(['2026-03-09', '2026-03-16']);
  });

  it('stops at the end date and after count occurrences, counted from the start', () => {
    const s: Schedule = { rule: { every: 'month', day: 5 }, start: '2026-01-01', count: 3 };
    expect(occurrences(s, '2026-01-01', '2026-12-31')).toEqual(['2026-01-05', '2026-02-05', '2026-03-05']);
    expect(occurrences(s, '2026-02-10', '2026-12-31')).toEqual(['2026-03-05']);
    expect(nextOccurrence(s, '2026-03-05')).toBeNull();
    expect(nextOccurrence({ ...s, count: null, end: '2026-04-04' }, '2026-03-05')).toBeNull();
    expect(nextOccurrence({ ...s, count: null, end: '2026-04-05' }, '2026-03-05')).toBe('2026-04-05');
  });

  it('finds the next occurrence strictly after a day, across years', () => {
    const s: Schedule = { rule: { every: 'year', month: 3, day: 15 }, start: '2020-01-01' };
    expect(nextOccurrence(s, '2026-03-14')).toBe('2026-03-15');
    expect(nextOccurrence(s, '2026-03-15')).toBe('2027-03-15');
    expect(nextOccurrence({ rule: { every: 'day' }, start: '2026-03-01' }, '2025-01-01')).toBe('2026-03-01');
  });
});

describe('rules as they are said', () => {
  it('labels each kind of rule in Chinese', () => {
    expect(recurrenceLabel({ every: 'day' })).toBe('每天');
    expect(recurrenceLabel({ every: 'week', day: 5 })).toBe('每周五');
    expect(recurrenceLabel({ every: 'week', day: 7 })).toBe('每周日');
    expect(recurrenceLabel({ every: 'month', day: 5 })).toBe('每月5日');
    expect(recurrenceLabel({ every: 'month', day: -1 })).toBe('每月月末');
    expect(recurrenceLabel({ every: 'year', month: 3 })).toBe('每年3月');
    expect(recurrenceLabel({ every: 'year', month: 3, day: 15 })).toBe('每年3月15日');
  });

  it('takes a missing day or month from the start date', () => {
    expect(completeRule({ every: 'month' }, '2026-01-31')).toEqual({ every: 'month', day: 31 });
    expect(completeRule({ every: 'week' }, '2026-03-06')).toEqual({ every: 'week', day: 5 });
    expect(completeRule({ every: 'year', month: 3 }, '2026-01-15')).toEqual({ every: 'year', month: 3, day: 15 });
    expect(completeRule({ every: 'year' }, '2026-07-04')).toEqual({ every: 'year', month: 7, day: 4 });
  });

  it('refuses rules and schedules that cannot be kept, saying why', () => {
    expect(recurrenceProblem({ every: 'month', day: 32 })).toMatch('1日到31日');
    expect(recurrenceProblem({ every: 'month', day: 0 })).not.toBeNull();
    expect(recurrenceProblem({ every: 'week', day: 8 })).toMatch('周一到周日');
    expect(recurrenceProblem({ every: 'year', month: 2, day: 30 })).toBe('2月没有30日');
    expect(recurrenceProblem({ every: 'year', month: 2, day: 29 })).toBeNull();
    expect(recurrenceProblem({ every: 'year', month: 13 })).toMatch('1月到12月');
    expect(recurrenceProblem({ every: 'fortnight' } as unknown as Recurrence)).not.toBeNull();
    expect(scheduleProblem({ rule: { every: 'day' }, start: '2026-02-30' })).toMatch('开始日期无效');
    expect(scheduleProblem({ rule: { every: 'day' }, start: '2026-03-01', end: '2026-02-01' })).toBe('结束日期早于开始日期');
    expect(scheduleProblem({ rule: { every: 'day' }, start: '2026-03-01', count: 0 })).toBe('次数至少是1次');
  });
});

/** The day-by-day reference: every day from the start, kept when the rule says it, with Date doing the calendar. */
function naive(schedule: Schedule, to: string): string[] {
  const rule = completeRule(schedule.rule, schedule.start);
  const out: string[] = [];
  for (let day = schedule.start; day <= to && (!schedule.end || day <= schedule.end); day = addDays(day, 1)) {
    const d = new Date(`${day}T00:00:00Z`);
    const [y, m, dom] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const wanted = (want: number) => dom === (want === -1 ? last : Math.min(want, last));
    const hit =
      rule.every === 'day' ||
      (rule.every === 'week' && ((d.getUTCDay() + 6) % 7) + 1 === rule.day) ||
      (rule.every === 'month' && wanted(rule.day!)) ||
      (rule.every === 'year' && m === rule.month && wanted(rule.day!));
    if (hit) out.push(day);
  }
  return schedule.count == null ? out : out.slice(0, schedule.count);
}

function randomDay(rnd: () => number, from: string, spanDays: number): string {
  return addDays(from, Math.floor(rnd() * spanDays));
}

describe('random rules against a day-by-day walk', () => {
  // Fixed seeds (this file also type-checks for the browser, without `process`): a failure names its seed and case.
  it.each([1, 2, 3, 4])('gives the same occurrences and next dates (seed %i)', (SEED) => {
    const rnd = prng(SEED);
    for (let i = 0; i < 200; i++) {
      const every = (['day', 'week', 'month', 'year'] as const)[Math.floor(rnd() * 4)]!;
      const month = 1 + Math.floor(rnd() * 12);
      const monthDays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
      const rule: Recurrence =
        every === 'day'
          ? { every }
          : every === 'week'
            ? rnd() < 0.2
              ? { every }
              : { every, day: 1 + Math.floor(rnd() * 7) }
            : every === 'month'
              ? { every, ...(rnd() < 0.2 ? {} : { day: rnd() < 0.2 ? -1 : 25 + Math.floor(rnd() * 7) - (rnd() < 0.5 ? 24 : 0) }) }
              : { every, month, ...(rnd() < 0.2 ? {} : { day: rnd() < 0.2 ? -1 : 1 + Math.floor(rnd() * monthDays) }) };
      const start = randomDay(rnd, '2019-01-01', 3000);
      const to = randomDay(rnd, start, every === 'year' ? 4000 : 900);
      const schedule: Schedule = {
        rule,
        start,
        end: rnd() < 0.3 ? randomDay(rnd, start, 1200) : null,
        count: rnd() < 0.3 ? 1 + Math.floor(rnd() * 20) : null,
      };
      const context = `seed ${SEED}, case ${i}: ${JSON.stringify(schedule)} to ${to}`;
      const all = naive(schedule, to);
      expect(occurrences(schedule, schedule.start, to), context).toEqual(all);
      const from = randomDay(rnd, start, 900);
      expect(occurrences(schedule, from, to), `${context} from ${from}`).toEqual(all.filter((d) => d >= from));
      const after = randomDay(rnd, addDays(start, -30), 900);
      const next = naive(schedule, addDays(after, 800)).find((d) => d > after) ?? null;
      // Beyond what the reference walked, a later next date exists or the rule ended.
      const got = nextOccurrence(schedule, after);
      if (next !== null) expect(got, `${context} after ${after}`).toBe(next);
      else if (got !== null) expect(got > addDays(after, 800), `${context} after ${after}`).toBe(true);
    }
  });

  it('numbers weekdays Monday 1 to Sunday 7 across centuries', () => {
    for (const [day, expected] of [
      ['2026-03-02', 1],
      ['2026-03-08', 7],
      ['2000-02-29', 2],
      ['1970-01-01', 4],
      ['1969-12-31', 3],
      ['2100-03-01', 1],
    ] as const) {
      expect(weekday(day), day).toBe(expected);
    }
  });
});

/** The instant in an IANA zone as the app holds it: the zone's offset then, from the platform's tz data. */
const formats = new Map<string, Intl.DateTimeFormat>();
function zonedNow(epochMs: number, zone: string): ZonedNow {
  let format = formats.get(zone);
  if (!format) formats.set(zone, (format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(new Date(epochMs)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offsetMinutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { epochMs, offsetMinutes };
}

describe('local days across DST changes', () => {
  it.each(['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe'])(
    '%s: a daily rule checked every 20 minutes for a year makes each local day once, none skipped',
    (zone) => {
      const schedule: Schedule = { rule: { every: 'day' }, start: '2026-01-01' };
      const made: string[] = [];
      let next: string | null = '2026-01-01';
      const offsets = new Set<number>();
      for (let t = Date.parse('2026-01-01T12:00:00Z'); t < Date.parse('2027-01-01T12:00:00Z'); t += 20 * 60_000) {
        const now = zonedNow(t, zone);
        offsets.add(now.offsetMinutes);
        const today = localDate(now);
        if (next === null || next > today) continue;
        made.push(...occurrences(schedule, next, today));
        next = nextOccurrence(schedule, today);
      }
      // The zone did change its offset: the walk crossed both DST changes.
      expect(offsets.size).toBe(2);
      expect(made.length).toBe(366);
      made.forEach((day, i) => expect(day).toBe(addDays('2026-01-01', i)));
    },
  );

  it.each([
    ['Europe/Berlin', '2026-03-29'],
    ['Europe/Berlin', '2026-10-25'],
    ['America/New_York', '2026-03-08'],
    ['America/New_York', '2026-11-01'],
  ])('%s: a monthly rule on the day the clocks change (%s) falls on that local day, once', (zone, date) => {
    const schedule: Schedule = { rule: { every: 'month', day: Number(date.slice(8)) }, start: '2026-01-01' };
    const seen: string[] = [];
    let next: string | null = nextOccurrence(schedule, addDays(date, -3));
    for (let t = Date.parse(`${addDays(date, -1)}T00:00:00Z`); t < Date.parse(`${addDays(date, 2)}T00:00:00Z`); t += 15 * 60_000) {
      const today = localDate(zonedNow(t, zone));
      if (next === null || next > today) continue;
      seen.push(...occurrences(schedule, next, today));
      next = nextOccurrence(schedule, today);
    }
    expect(seen).toEqual([date]);
  });
});

describe('a rule said on a day (spokenSchedule)', () => {
  it("starts at the beginning of the period it was said in, so this period's occurrence is the first", () => {
    // 2026-02-18 is a Wednesday.
    expect(spokenSchedule({ every: 'month', day: 5 }, '2026-02-18')).toEqual({ rule: { every: 'month', day: 5 }, start: '2026-02-01', end: null });
    expect(spokenSchedule({ every: 'week', day: 1 }, '2026-02-18')).toEqual({ rule: { every: 'week', day: 1 }, start: '2026-02-16', end: null });
    expect(spokenSchedule({ every: 'week', day: 7 }, '2026-02-22')).toMatchObject({ start: '2026-02-16' });
    expect(spokenSchedule({ every: 'year', month: 3, day: 15 }, '2026-02-18')).toMatchObject({ start: '2026-01-01' });
    expect(spokenSchedule({ every: 'day' }, '2026-02-18')).toMatchObject({ start: '2026-02-18' });
  });

  it('takes what the sentence left open from the day it was said', () => {
    expect(spokenSchedule({ every: 'month' }, '2026-02-18').rule).toEqual({ every: 'month', day: 18 });
    expect(spokenSchedule({ every: 'week' }, '2026-02-18').rule).toEqual({ every: 'week', day: 3 });
    expect(spokenSchedule({ every: 'year', month: 3 }, '2026-02-18').rule).toEqual({ every: 'year', month: 3, day: 18 });
  });

  it("makes this period's occurrence due at once only when its day has come", () => {
    const past = spokenSchedule({ every: 'month', day: 5 }, '2026-02-18');
    expect(occurrences(past, past.start, '2026-02-18')).toEqual(['2026-02-05']);
    const ahead = spokenSchedule({ every: 'month', day: -1 }, '2026-02-18');
    expect(occurrences(ahead, ahead.start, '2026-02-18')).toEqual([]);
    expect(nextOccurrence(ahead, '2026-02-18')).toBe('2026-02-28');
  });
});

// Time helpers that keep the user's UTC offset attached to every instant.
// A "zoned ISO" string looks like 2026-02-17T12:00:00+08:00.

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface ZonedNow {
  /** The instant. */
  epochMs: number;
  /** Minutes east of UTC (China: 480). */
  offsetMinutes: number;
}

function pad(n: number, width = 2): string {
  return String(Math.trunc(Math.abs(n))).padStart(width, '0');
}

/**
 * The years the app keeps: every day it stores, shows or computes is YYYY-MM-DD with a
 * four-digit year, 0001–9999 (year 0 is not a calendar year people write).
 */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/** True for a year the app can represent (MIN_YEAR–MAX_YEAR). */
export function isRepresentableYear(year: number): boolean {
  return Number.isInteger(year) && year >= MIN_YEAR && year <= MAX_YEAR;
}

/**
 * A year as ISO 8601 writes it: four digits (0001, 0999, 2026), and — outside 0000–9999 —
 * the expanded form with a sign and six digits (+010000, -000001), as Date#toISOString does.
 * Formatting never throws; isCalendarDate and parseZonedIso then refuse the expanded form.
 */
function formatYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return (year < 0 ? '-' : '+') + pad(year, 6);
}

/** Formats a calendar day from its parts (month 1–12), e.g. formatYmd(1, 2, 3) → 0001-02-03. */
export function formatYmd(year: number, month: number, day: number): string {
  return `${formatYear(year)}-${pad(month)}-${pad(day)}`;
}

/** Midnight UTC of a day; unlike Date.UTC, years 0–99 stay themselves (not 1900–1999). */
function utcDay(year: number, monthIndex: number, day: number): Date {
  const t = new Date(0);
  t.setUTCFullYear(year, monthIndex, day);
  return t;
}

export function parseOffset(text: string): number {
  if (text === 'Z') return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.abs(offsetMinutes) / 60)}:${pad(Math.abs(offsetMinutes) % 60)}`;
}

/**
 * Parses an ISO instant that carries an offset; returns null for anything else: a day that
 * is not in the calendar (02-30), a time past 23:59:59, year 0000 (the app keeps the years
 * 0001–9999, and the text's own year is its local year).
 */
export function parseZonedIso(text: string): ZonedNow | null {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m || !isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`)) return null;
  // Date.parse rolls 24:00 and 12:60 over to the next hour or day instead of refusing them.
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return null;
  if (m[8] !== 'Z' && (Number(m[8]!.slice(1, 3)) > 23 || Number(m[8]!.slice(-2)) > 59)) return null;
  const epochMs = Date.parse(text);
  if (!Number.isFinite(epochMs)) return null;
  return { epochMs, offsetMinutes: parseOffset(m[8]!) };
}

/** The local wall clock of this machine as a ZonedNow. */
export function systemNow(date: Date = new Date()): ZonedNow {
  return { epochMs: date.getTime(), offsetMinutes: -date.getTimezoneOffset() };
}

/**
 * Formats an instant in the given offset, e.g. 2026-02-17T12:00:00+08:00 or, in year 1,
 * 0001-02-17T12:00:00+08:00. Throws a RangeError only for an instant that is not a date at
 * all (NaN, beyond ±8.64e15 ms); check isRepresentableYear for what the app can store.
 */
export function toZonedIso(now: ZonedNow): string {
  const local = new Date(now.epochMs + now.offsetMinutes * 60_000);
  if (!Number.isFinite(local.getTime())) throw new RangeError(`not a representable instant: ${now.epochMs} ms, offset ${now.offsetMinutes}`);
  return (
    formatYmd(local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()) +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    formatOffset(now.offsetMinutes)
  );
}

/** The calendar day (YYYY-MM-DD) of an instant in its offset. */
export function localDate(now: ZonedNow): string {
  const iso = toZonedIso(now);
  return iso.slice(0, iso.indexOf('T'));
}

/** Accepts a zoned ISO string or a ZonedNow; throws on an ISO string without an offset. */
export function toZonedNow(input: string | ZonedNow): ZonedNow {
  if (typeof input !== 'string') return input;
  const parsed = parseZonedIso(input);
  if (!parsed) throw new RangeError(`expected an ISO 8601 instant with a UTC offset, got "${input}"`);
  return parsed;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when text is a real calendar day in YYYY-MM-DD form, in the years 0001–9999. */
export function isCalendarDate(text: string): boolean {
  const m = YMD.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isRepresentableYear(y)) return false;
  const probe = utcDay(y, mo - 1, d);
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** True when text is a real month in YYYY-MM form (01–12), in the years 0001–9999. */
export function isCalendarMonth(text: string): boolean {
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  return m !== null && isRepresentableYear(Number(m[1])) && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/**
 * Adds whole days to a YYYY-MM-DD calendar day. A result outside 0001–9999 comes back in
 * ISO's expanded form (+010000-01-01), which isCalendarDate refuses: callers near the ends
 * of the calendar check the result instead of catching.
 */
export function addDays(ymd: string, days: number): string {
  const m = YMD.exec(ymd);
  if (!m) throw new RangeError(`not a calendar day: ${ymd}`);
  const t = utcDay(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  if (!Number.isFinite(t.getTime())) throw new RangeError(`not a representable day: ${ymd} + ${days}`);
  return formatYmd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** 「2月16日」: a calendar day (YYYY-MM-DD) as it is said and shown. */
export function monthDayText(ymd: string): string {
  return `${Number(ymd.slice(5, 7))}月${Number(ymd.slice(8, 10))}日`;
}

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

/** Parses an ISO instant that carries an offset; returns null for anything else. */
export function parseZonedIso(text: string): ZonedNow | null {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return null;
  const epochMs = Date.parse(text);
  if (!Number.isFinite(epochMs)) return null;
  return { epochMs, offsetMinutes: parseOffset(m[8]!) };
}

/** The local wall clock of this machine as a ZonedNow. */
export function systemNow(date: Date = new Date()): ZonedNow {
  return { epochMs: date.getTime(), offsetMinutes: -date.getTimezoneOffset() };
}

/** Formats an instant in the given offset, e.g. 2026-02-17T12:00:00+08:00. */
export function toZonedIso(now: ZonedNow): string {
  const local = new Date(now.epochMs + now.offsetMinutes * 60_000);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    formatOffset(now.offsetMinutes)
  );
}

/** The calendar day (YYYY-MM-DD) of an instant in its offset. */
export function localDate(now: ZonedNow): string {
  return toZonedIso(now).slice(0, 10);
}

/** Accepts a zoned ISO string or a ZonedNow; throws on an ISO string without an offset. */
export function toZonedNow(input: string | ZonedNow): ZonedNow {
  if (typeof input !== 'string') return input;
  const parsed = parseZonedIso(input);
  if (!parsed) throw new RangeError(`expected an ISO 8601 instant with a UTC offset, got "${input}"`);
  return parsed;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when text is a real calendar day in YYYY-MM-DD form. */
export function isCalendarDate(text: string): boolean {
  const m = YMD.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** Adds whole days to a YYYY-MM-DD calendar day. */
export function addDays(ymd: string, days: number): string {
  const m = YMD.exec(ymd);
  if (!m) throw new RangeError(`not a calendar day: ${ymd}`);
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

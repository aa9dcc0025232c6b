import { describe, expect, it } from 'vitest';
import { addDays, formatYmd, isCalendarDate, isCalendarMonth, localDate, parseZonedIso, toZonedIso, toZonedNow } from './time';

describe('years 0001–9999', () => {
  it.each([
    '0001-01-01T00:00:00+08:00',
    '0001-02-17T12:00:00+08:00',
    '0099-12-31T23:59:59+08:00',
    '0999-06-30T08:00:00-05:00',
    '1000-01-01T00:00:00+00:00',
    '2026-02-17T12:00:00+08:00',
    '9999-12-31T23:59:59-12:00',
    '9999-12-31T23:59:59+14:00',
  ])('round-trips %s through parse and format', (text) => {
    expect(toZonedIso(toZonedNow(text))).toBe(text);
    expect(localDate(toZonedNow(text))).toBe(text.slice(0, 10));
  });

  it('refuses year 0000 and what is not an instant with an offset', () => {
    expect(parseZonedIso('0000-12-31T12:00:00+08:00')).toBeNull();
    expect(parseZonedIso('2026-02-17T12:00:00')).toBeNull();
    expect(parseZonedIso('+010000-01-01T00:00:00Z')).toBeNull();
    expect(() => toZonedNow('0000-01-01T00:00:00Z')).toThrow(RangeError);
  });

  it('writes a year outside the range in the expanded ISO form, never as a short or 5-digit year', () => {
    const lastInstant = Date.parse('9999-12-31T23:59:59Z');
    expect(toZonedIso({ epochMs: lastInstant, offsetMinutes: 480 })).toBe('+010000-01-01T07:59:59+08:00');
    const first = Date.parse('0001-01-01T00:00:00Z');
    expect(toZonedIso({ epochMs: first, offsetMinutes: -60 })).toBe('0000-12-31T23:00:00-01:00');
    expect(formatYmd(-1, 12, 31)).toBe('-000001-12-31');
    expect(() => toZonedIso({ epochMs: Number.NaN, offsetMinutes: 0 })).toThrow(RangeError);
  });

  it('checks calendar days with the real calendar of every year, 1–99 included', () => {
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true); // year 4 is a leap year
    expect(isCalendarDate('0100-02-29')).toBe(false); // 100 is not
    expect(isCalendarDate('0050-03-01')).toBe(true); // Date.UTC would read 1950
    expect(isCalendarDate('9999-12-31')).toBe(true);
    for (const bad of ['0000-01-01', '2026-02-30', '2026-13-01', '2026-00-10', '2026-1-01', '+010000-01-01', '2026-02-29']) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
    expect(isCalendarMonth('0001-01')).toBe(true);
    expect(isCalendarMonth('9999-12')).toBe(true);
    for (const bad of ['2026-13', '2026-00', '0000-05', '2026-1', '2026-02-01']) expect(isCalendarMonth(bad), bad).toBe(false);
  });

  it('adds days across years below 100 and says when the result leaves the calendar', () => {
    expect(addDays('0001-01-01', 30)).toBe('0001-01-31');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(addDays('0001-03-01', -1)).toBe('0001-02-28');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('9999-12-31', 1)).toBe('+010000-01-01');
    expect(isCalendarDate(addDays('9999-12-31', 1))).toBe(false);
    expect(addDays('0001-01-01', -1)).toBe('0000-12-31');
    expect(isCalendarDate(addDays('0001-01-01', -1))).toBe(false);
    expect(() => addDays('999-01-01', 1)).toThrow(RangeError);
  });
});

describe('parseZonedIso', () => {
  it.each([
    '2026-02-30T12:00:00+08:00',
    '2026-02-17T24:00:00+08:00',
    '2026-02-17T12:60:00+08:00',
    '2026-02-17T12:00:60+08:00',
    '2026-02-17T12:00:00+24:00',
    '2026-02-17T12:00:00+08:60',
  ])('refuses %s instead of rolling it over', (text) => expect(parseZonedIso(text)).toBeNull());
  it('keeps what it always read', () => {
    expect(parseZonedIso('2026-02-17T12:00:00Z')).toEqual({ epochMs: Date.parse('2026-02-17T12:00:00Z'), offsetMinutes: 0 });
    expect(parseZonedIso('2026-02-17T12:00+0530')).toEqual({ epochMs: Date.parse('2026-02-17T06:30:00Z'), offsetMinutes: 330 });
    expect(parseZonedIso('2026-02-17T12:00:00.123456-03:00')?.offsetMinutes).toBe(-180);
  });
});

import { describe, expect, it } from 'vitest';
import { calendarDate, fenAmount, hasFenPrecision, ledgerName, monthString, startsLikeFormula, yuanAmount } from './fields';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;

describe('shared field rules', () => {
  it('calendarDate: real days of the years 0001–9999 only', () => {
    for (const d of ['0001-01-01', '2024-02-29', '2026-12-31', '9999-12-31']) expect(ok(calendarDate, d), d).toBe(true);
    for (const d of [
      '2026-02-30',
      '2026-02-29',
      '2026-13-01',
      '2026-00-01',
      '2026-04-31',
      '0000-01-01',
      '2026-2-1',
      '2026-02-01T00:00',
      20260201,
      null,
    ]) {
      expect(ok(calendarDate, d), String(d)).toBe(false);
    }
  });

  it('monthString: months 01–12 of the years 0001–9999', () => {
    for (const m of ['0001-01', '2026-02', '9999-12']) expect(ok(monthString, m), m).toBe(true);
    for (const m of ['2026-13', '2026-00', '0000-01', '2026-1', '2026-02-01', '']) expect(ok(monthString, m), m).toBe(false);
  });

  it('yuanAmount: above zero, whole fen, at most the app’s maximum', () => {
    for (const a of [0.01, 19.99, 33.3, 0.1 + 0.2, 99_999_999.99, 100_000_000]) expect(ok(yuanAmount, a), String(a)).toBe(true);
    for (const a of [0, -0, -1, 0.001, 0.005, 12.345, 1e-7, 100_000_000.01, Number.NaN, Number.POSITIVE_INFINITY, '35']) {
      expect(ok(yuanAmount, a), String(a)).toBe(false);
    }
    expect(hasFenPrecision(1.1)).toBe(true);
    expect(hasFenPrecision(1.105)).toBe(false);
  });

  it('fenAmount: whole fen from 1 to the maximum', () => {
    for (const f of [1, 3500, 10_000_000_000]) expect(ok(fenAmount, f), String(f)).toBe(true);
    for (const f of [0, -1, 1.5, 10_000_000_001, Number.NaN]) expect(ok(fenAmount, f), String(f)).toBe(false);
  });

  it('startsLikeFormula: OWASP’s characters, their full-width forms, and after leading blanks', () => {
    for (const t of ['=1', '+1', '-1', '@A1', '\t1', '\r1', '＝1', '＋1', '－1', '＠1', '  =1', '\u3000+1', '\n@x', '−1']) {
      expect(startsLikeFormula(t), JSON.stringify(t)).toBe(true);
    }
    for (const t of ['', '午饭', 'a=1', "'=1", ' 午饭', '1-2', '\n午饭']) expect(startsLikeFormula(t), JSON.stringify(t)).toBe(false);
  });

  it('ledgerName: trimmed, 1–20 characters, not starting like a formula', () => {
    expect(ledgerName.parse('  咖啡 ')).toBe('咖啡');
    for (const n of ['', '   ', 'x'.repeat(21), '=cmd', ' @x', '－1']) expect(ok(ledgerName, n), n).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatFullDate, formatMoney, formatMoneyYuan, formatMonth, formatTime, MINUS } from './display';

describe('formatMoney', () => {
  it.each([
    [124691349, '¥1,246,913.49'],
    [6000, '¥60.00'],
    [5, '¥0.05'],
    [0, '¥0.00'],
    [-50000, `${MINUS}¥500.00`],
    [140000000, '¥1,400,000.00'],
  ])('%i fen is %s', (fen, text) => {
    expect(formatMoney(fen)).toBe(text);
  });

  it('writes a plus before a positive amount only when asked', () => {
    expect(formatMoney(100000, { sign: 'always' })).toBe('+¥1,000.00');
    expect(formatMoney(-100000, { sign: 'always' })).toBe(`${MINUS}¥1,000.00`);
    expect(formatMoney(0, { sign: 'always' })).toBe('¥0.00');
  });

  it('takes a fractional yuan amount to the fen', () => {
    expect(formatMoneyYuan(19.99)).toBe('¥19.99');
    expect(formatMoneyYuan(-0.1)).toBe(`${MINUS}¥0.10`);
  });
});

describe('formatDate', () => {
  const today = '2026-11-28';
  it.each([
    ['2026-11-28', '今天'],
    ['2026-11-27', '昨天'],
    ['2026-11-26', '11月26日'],
    ['2026-01-01', '1月1日'],
    ['2026-12-03', '12月3日'],
    ['2025-11-28', '2025年11月28日'],
    ['2025-12-31', '2025年12月31日'],
    ['not a date', 'not a date'],
  ])('%s is %s', (date, text) => {
    expect(formatDate(date, today)).toBe(text);
  });

  it('crosses a year end by distance: 昨天 on New Year’s Day', () => {
    expect(formatDate('2025-12-31', '2026-01-01')).toBe('昨天');
  });

  it('writes whole days, months, times and zoned instants', () => {
    expect(formatFullDate('2026-03-05')).toBe('2026年3月5日');
    expect(formatMonth('2026-03')).toBe('2026年3月');
    expect(formatTime('13:36:59')).toBe('13:36');
    expect(formatDateTime('2026-11-28T09:05:00+08:00', today)).toBe('今天 09:05');
    expect(formatDateTime('2026-11-20T21:00:00-05:00', today)).toBe('11月20日 21:00');
  });
});

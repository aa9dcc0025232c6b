import { describe, expect, it } from 'vitest';
import { formatYuan, yuanToFen } from './money';

describe('money', () => {
  it('converts yuan to integer fen without float drift', () => {
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen(0.1 + 0.2)).toBe(30);
    expect(yuanToFen(28.5)).toBe(2850);
    expect(yuanToFen(100_000_000)).toBe(10_000_000_000);
    expect(yuanToFen(0)).toBe(0);
  });
  it('rejects non-finite amounts', () => {
    expect(() => yuanToFen(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => yuanToFen(Number.NaN)).toThrow(RangeError);
  });
  it('formats integers without decimals, otherwise two decimals', () => {
    expect(formatYuan(60)).toBe('60');
    expect(formatYuan(28.5)).toBe('28.50');
    expect(formatYuan(0.8)).toBe('0.80');
  });
});

import { describe, expect, it } from 'vitest';
import { tenths } from './numbers';

describe('tenths', () => {
  it('writes one decimal whatever the value', () => {
    expect(tenths(1)).toBe('1.0');
    expect(tenths(0.8)).toBe('0.8');
    expect(tenths(1.25)).toBe('1.3');
    expect(tenths(0.30000000000000004)).toBe('0.3');
    expect(tenths(4)).toBe('4.0');
    expect(tenths(-0.5)).toBe('-0.5');
  });
});

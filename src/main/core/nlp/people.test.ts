import { describe, expect, it } from 'vitest';
import { findNumberedNames, personAt, personBefore, withoutNameNumerals } from './people';

describe('people next to a debt verb', () => {
  it('reads names, kin and roles, the longest reading first', () => {
    expect(personAt('小李，', 0)).toBe('小李');
    expect(personAt('我哥一千', 0)).toBe('我哥');
    expect(personAt('王老师的钱', 0)).toBe('王老师');
    expect(personAt('大学室友小张，', 0)).toBe('大学室友小张');
    expect(personAt('张三的', 0)).toBe('张三');
    expect(personBefore('今天同事小王', 6)).toBe('同事小王');
  });

  it('reads no person in what is repaid or borrowed instead', () => {
    for (const words of ['信用卡', '房贷', '花呗', '书卡办卡', '价', '他', '我']) expect(personAt(words, 0), words).toBeNull();
  });

  it('keeps the numeral of a name out of the amounts, positions unchanged', () => {
    const text = '借给张三五百';
    const names = findNumberedNames(text);
    expect(names).toEqual([{ start: 2, end: 4 }]);
    expect(withoutNameNumerals(text, names)).toBe('借给张某五百');
    expect(findNumberedNames('买了张三十的卡')).toEqual([]);
  });
});

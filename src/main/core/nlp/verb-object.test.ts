import { describe, expect, it } from 'vitest';
import { findAmounts } from './amounts';
import { joinVerbObject, objectEnd, verbObjectGap } from './verb-object';

const around = (text: string) => {
  const amount = findAmounts(text)[0]!;
  const gap = verbObjectGap(text, amount);
  return gap && text.slice(0, gap.start) + text.slice(gap.end);
};

describe('verb and object around the amount', () => {
  it('cuts the particles, the amount and 的 between them', () => {
    expect(around('加了两百块钱的油')).toBe('加油');
    expect(around('理了个三十的发')).toBe('理发');
    expect(around('喝了杯三十的咖啡')).toBe('喝咖啡');
  });

  it('finds no gap without a verb before or an object after', () => {
    expect(around('花了两百的油')).toBeNull();
    expect(around('给小明打了500')).toBeNull();
  });

  it('ends the object where the item word made with the verb ends', () => {
    const text = '加了两百的油洗车三十';
    expect(objectEnd(text, findAmounts(text)[0]!)).toBe(6);
  });

  it('joins across particles only, so 打的 stays a taxi', () => {
    expect(joinVerbObject('理了个发')).toBe('理发');
    expect(joinVerbObject('打的去机场')).toBe('打的去机场');
  });
});

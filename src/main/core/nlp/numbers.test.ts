import { describe, expect, it } from 'vitest';
import { parseNumeral, scanNumbers } from './numbers';

describe('parseNumeral', () => {
  it.each([
    ['二百零八', 208],
    ['一百零八', 108],
    ['一千零五十', 1050],
    ['一万零五百', 10500],
    ['一百五', 150],
    ['三千二', 3200],
    ['两万三', 23000],
    ['一万二', 12000],
    ['一万二千三', 12300],
    ['十', 10],
    ['十五', 15],
    ['二十五', 25],
    ['两', 2],
    ['俩', 2],
    ['2.5万', 25000],
    ['3千', 3000],
    ['1万2', 12000],
    ['5k', 5000],
    ['1,234.5', 1234.5],
    ['三点五', 3.5],
    ['二十八点五', 28.5],
    ['二零二六', 2026],
    ['叁佰', 300],
  ])('%s = %d', (text, value) => {
    expect(parseNumeral(text)).toBe(value);
  });

  it.each(['', '百', '五六十', '七八'.slice(0, 0) + '十百', 'abc'])('rejects %j', (text) => {
    expect(parseNumeral(text)).toBeNull();
  });
});

describe('scanNumbers', () => {
  it('finds runs of both scripts with their positions', () => {
    const found = scanNumbers('花了1,234.5和二十八块五');
    expect(found.map((t) => [t.raw, t.value, t.chinese])).toEqual([
      ['1,234.5', 1234.5, false],
      ['二十八', 28, true],
      ['五', 5, true],
    ]);
    expect(found[0]).toMatchObject({ start: 2, end: 9 });
  });

  it('does not start a number at a bare unit (百货, 万元户)', () => {
    expect(scanNumbers('百货万元户')).toEqual([]);
  });

  it('keeps a thousands comma only before exactly three digits', () => {
    expect(scanNumbers('60,30').map((t) => t.value)).toEqual([60, 30]);
  });
});

describe('runs that mix scripts', () => {
  it('reads 一30 as two numbers instead of dropping both', () => {
    expect(scanNumbers('买一送一30').map((t) => t.value)).toEqual([1, 1, 30]);
  });
});

import { describe, expect, it } from 'vitest';
import { findAmounts, moneyMentions } from './amounts';

const money = (text: string) => moneyMentions(findAmounts(text)).map((a) => a.value);

describe('money units', () => {
  it.each([
    ['七块五', 7.5],
    ['两块五毛', 2.5],
    ['八毛', 0.8],
    ['八毛五', 0.85],
    ['28块5', 28.5],
    ['六十三块二毛', 63.2],
    ['一块五毛三分', 1.53],
    ['五块零五分', 5.05],
    ['一块零五', 1.05],
    ['十块零五毛', 10.5],
    ['三分钱', 0.03],
    ['35块钱', 35],
    ['100元', 100],
    ['一百圆', 100],
    ['¥188', 188],
    ['￥35.5', 35.5],
    ['五十多块', 50],
    ['十块', 10],
  ])('%s = %d', (text, value) => {
    expect(money(text)).toEqual([value]);
  });
});

describe('the digit after 块 before other words', () => {
  it.each([
    ['二十九块九包邮', 29.9],
    ['十九块九秒杀', 19.9],
    ['二十九块九一双', 29.9],
    ['五块五一斤', 5.5],
    ['九块九两个', 9.9],
    ['九块九杯子', 9.9],
    ['十块两个', 10],
    ['五块三天', 5],
  ])('%s = %d', (text, value) => {
    expect(money(text)).toEqual([value]);
  });
});

describe('bare amounts', () => {
  it.each([
    ['晚饭四十八', 48],
    ['培训课程两千', 2000],
    ['一万二的电脑', 12000],
    ['奖金2.5万', 25000],
    ['花了35', 35],
    ['三明治十五', 15],
  ])('%s = %d', (text, value) => {
    expect(money(text)).toEqual([value]);
  });
});

describe('numbers that are not money', () => {
  it.each([
    ['两杯咖啡30', [30]],
    ['买了3个苹果15块', [15]],
    ['停车2小时10块', [10]],
    ['iphone15花了6000', [6000]],
    ['打八折', []],
    ['改一下金额', []],
    ['五花肉', []],
    ['十分钟', []],
    ['两块蛋糕30', [30]],
  ])('%s → %j', (text, values) => {
    expect(money(text)).toEqual(values);
  });

  it('skips numbers inside excluded spans (dates, ordinals)', () => {
    const text = '2月15号吃饭60';
    expect(findAmounts(text, [{ start: 0, end: 6 }]).map((a) => a.value)).toEqual([60]);
  });

  it('reads a number after a Latin item word as money, after a model name not', () => {
    expect(money('ktv300')).toEqual([300]);
    expect(money('唱k三百')).toEqual([300]);
    expect(money('p40')).toEqual([]);
  });

  it('reads a number after any other Latin word as its amount, unless a surer amount follows', () => {
    expect(money('parking15')).toEqual([15]);
    expect(money('gift200元')).toEqual([200]);
    expect(money('zenfone9，3999')).toEqual([3999]);
    expect(money('iphone15')).toEqual([]);
    expect(money('ps5')).toEqual([]);
  });

  it('marks a signed amount and takes the sign into its span; a minus after a digit or letter is no sign', () => {
    expect(findAmounts('打车-5元')).toEqual([{ start: 2, end: 5, value: 5, strength: 3, negative: true }]);
    expect(findAmounts('吃饭负三十块')).toMatchObject([{ start: 2, value: 30, negative: true }]);
    expect(findAmounts('水果3-5元').some((a) => a.negative)).toBe(false);
    expect(findAmounts('rx-7').some((a) => a.negative)).toBe(false);
  });

  it('keeps a 两块-style count when it is the only number', () => {
    expect(money('两块蛋糕')).toEqual([2]);
  });
});

import { describe, expect, it } from 'vitest';
import { findAmounts, moneyMentions } from './amounts';
import { paidAmounts, withoutDenied } from './paid-amounts';

/** The values of the amounts that are items, and the words no item keeps. */
function read(text: string): { paid: number[]; notItems: string[] } {
  const { paid, notItems } = paidAmounts(text, withoutDenied(text, moneyMentions(findAmounts(text))));
  return { paid: paid.map((a) => a.value), notItems: notItems.map((s) => text.slice(s.start, s.end)) };
}

describe('an amount taken back', () => {
  it.each([
    ['午饭三十六哦不是二十六', 26, '三十六哦不是'],
    ['停车费十七嗯不是是二十一', 21, '十七嗯不是是'],
    ['水费六十八不不不是八十六', 86, '六十八不不不是'],
    ['高铁票三百四十五我说错了是四百三十五', 435, '三百四十五我说错了是'],
    ['买了个插座三十九呃说错了应该是四十九', 49, '三十九呃说错了应该是'],
    ['奶茶十八唉不对不对是十五', 15, '十八唉不对不对是'],
    ['话费五十，不好意思说错了，一百', 100, '五十，不好意思说错了，'],
  ])('%s → %d', (text, value, dropped) => {
    expect(read(text)).toEqual({ paid: [value], notItems: [dropped] });
  });

  it('keeps the amount set against a denied one (是…不是, 不是…是)', () => {
    expect(read('午饭是三十六不是二十六').paid).toEqual([36]);
    expect(read('打车不是三十是三十五').paid).toEqual([35]);
  });

  it('leaves amounts with other words between them alone', () => {
    expect(read('午饭三十，不是很贵，晚饭二十').paid).toEqual([30, 20]);
  });
});

describe('the price of what a refund gave back', () => {
  it.each([
    ['前天六百的外套退了两百二', 220, '六百的'],
    ['退了三百九的台灯，到账三百五', 350, '三百九的'],
    ['一千三买的吸尘器退货了，退回来一千一', 1100, '一千三买的'],
    ['花六百买的外套退了两百二', 220, '花六百买的'],
    ['六百的外套退货了，两百二到账了', 220, '六百的'],
  ])('%s → %d', (text, value, price) => {
    expect(read(text)).toEqual({ paid: [value], notItems: [price] });
  });

  it.each([
    ['买了六百的外套，退了两百', [600, 200]],
    ['六百的外套，两百二的裤子', [600, 220]],
    ['六百的外套退了，打车回来二十', [600, 20]],
    ['退了三百九的台灯，又买了两百的台灯', [390, 200]],
    ['六百的外套退了八百', [600, 800]],
  ])('%s stays two amounts', (text, values) => {
    expect(read(text).paid).toEqual(values);
  });
});

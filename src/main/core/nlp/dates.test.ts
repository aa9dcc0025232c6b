import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { prng } from '../../../../test/support/prng';
import { findDates, findDatesAtEveryStart, firstDate } from './dates';

// 2026-02-17 is a Tuesday.
const tuesday = toZonedNow('2026-02-17T12:00:00+08:00');
const day = (text: string, now = tuesday) => firstDate(findDates(text, now));

describe('relative days', () => {
  it.each([
    ['今天', '2026-02-17'],
    ['今日', '2026-02-17'],
    ['昨天', '2026-02-16'],
    ['昨晚', '2026-02-16'],
    ['前天', '2026-02-15'],
    ['大前天', '2026-02-14'],
    ['3天前', '2026-02-14'],
    ['两天前', '2026-02-15'],
    ['十天以前', '2026-02-07'],
  ])('%s → %s', (text, date) => expect(day(text)).toBe(date));

  it('counts in the offset of now, not of this machine', () => {
    // 2026-03-01 00:30 in China is still 2026-02-28 in UTC.
    expect(day('昨天', toZonedNow('2026-03-01T00:30:00+08:00'))).toBe('2026-02-28');
    expect(day('今天', toZonedNow('2026-02-28T23:30:00-05:00'))).toBe('2026-02-28');
  });
});

describe('weeks', () => {
  it.each([
    ['上周三', '2026-02-11'],
    ['上周五', '2026-02-13'],
    ['上星期天', '2026-02-15'],
    ['上礼拜一', '2026-02-09'],
    ['上上周一', '2026-02-02'],
    ['这周一', '2026-02-16'],
    ['本周五', '2026-02-20'],
    ['周一', '2026-02-16'],
    ['周二', '2026-02-17'],
    ['周三', '2026-02-11'],
    ['星期日', '2026-02-15'],
    ['礼拜六', '2026-02-14'],
  ])('%s → %s', (text, date) => expect(day(text)).toBe(date));

  it('reads 上周X on a Sunday as the week before this Monday-to-Sunday week', () => {
    expect(day('上周五', toZonedNow('2026-02-15T12:00:00+08:00'))).toBe('2026-02-06');
  });
});

describe('calendar days', () => {
  it.each([
    ['2月15号', '2026-02-15'],
    ['2月3日', '2026-02-03'],
    ['二月十五号', '2026-02-15'],
    ['2026年1月5日', '2026-01-05'],
    ['二零二五年三月一日', '2025-03-01'],
    ['2025-12-31', '2025-12-31'],
    ['12月25号', '2025-12-25'],
    ['15号', '2026-02-15'],
    ['十七号', '2026-02-17'],
    ['20号', '2026-01-20'],
    ['上个月3号', '2026-01-03'],
    ['上月28号', '2026-01-28'],
  ])('%s → %s', (text, date) => expect(day(text)).toBe(date));

  it('gives null for a day that does not exist (2月30号, 31号 after a 30-day month)', () => {
    expect(day('2月30号')).toBeNull();
    expect(day('31号', toZonedNow('2026-05-10T12:00:00+08:00'))).toBeNull();
  });

  it('claims 上个月 and 上周 without naming a day', () => {
    expect(findDates('上个月房租', tuesday)).toEqual([{ start: 0, end: 3, date: null }]);
    expect(findDates('上周', tuesday)).toEqual([{ start: 0, end: 2, date: null }]);
  });

  it('does not read 2号线 as a day', () => {
    expect(findDates('坐2号线', tuesday)).toEqual([]);
  });
});

describe('colloquial and holiday days', () => {
  it.each([
    ['昨儿个', '2026-02-16'],
    ['前儿个', '2026-02-15'],
    ['一周前', '2026-02-10'],
    ['两个星期前', '2026-02-03'],
    ['元旦', '2026-01-01'],
    ['情人节', '2026-02-14'],
    ['五一', '2025-05-01'],
    ['圣诞节', '2025-12-25'],
  ])('%s → %s', (text, date) => expect(day(text)).toBe(date));

  it('claims times of day and vague periods without naming a day', () => {
    for (const text of ['9点半', '十点', '上周末', '月底', '前两天', '3月份']) {
      const found = findDates(text, tuesday);
      expect(found.map((d) => [d.start, d.end, d.date])).toEqual([[0, text.length, null]]);
    }
  });

  it('leaves 三点五块 and 三十点 to the amount reader', () => {
    expect(findDates('三点五块', tuesday)).toEqual([]);
    expect(findDates('三十点', tuesday)).toEqual([]);
  });
});

describe('the scan skips numeral runs no date can start in', () => {
  // Pieces of dates and of amounts in any order: every date form, the units and words after
  // numerals, holidays written in numerals, and the characters around them.
  const pieces = [
    ...'0123456789零〇一二两三四五六七八九十百千万',
    ...'年月日号天周个星期礼拜点时分半前之以上下这本今昨明后底初末份双块元毛角钱打车吃饭，。-/.:',
    '五一',
    '六一',
    '十一',
    '国庆',
    '双十一',
    '期间',
    '以前',
    '星期',
    '礼拜',
    '一刻',
    '2026',
    '二零二六',
  ];

  it('finds exactly what trying the pattern at every start finds (20 000 random texts)', () => {
    const rand = prng(20261128);
    let dated = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = 1 + Math.floor(rand() * 12);
      for (let k = 0; k < length; k++) text += pieces[Math.floor(rand() * pieces.length)]!;
      const everyStart = findDatesAtEveryStart(text, tuesday);
      expect(findDates(text, tuesday), text).toEqual(everyStart);
      if (everyStart.length > 0) dated++;
    }
    // The texts hold dates often enough for the comparison to mean something.
    expect(dated).toBeGreaterThan(2_000);
  });
});

import { describe, expect, it } from 'vitest';
import { parseZonedIso } from '@shared/time';
import { parseLocal } from './index';
import { findRecurrences } from './recurrence';

const rule = (text: string) => findRecurrences(text).map((m) => m.recurrence);

describe('findRecurrences', () => {
  it('reads the period and the day or month the words fix', () => {
    expect(rule('每天地铁六块')).toEqual([{ every: 'day' }]);
    expect(rule('每个礼拜天买菜')).toEqual([{ every: 'week', day: 7 }]);
    expect(rule('每周3健身')).toEqual([{ every: 'week', day: 3 }]);
    expect(rule('每个月的三十一号')).toEqual([{ every: 'month', day: 31 }]);
    expect(rule('每月末')).toEqual([{ every: 'month', day: -1 }]);
    expect(rule('每年2月29日')).toEqual([{ every: 'year', month: 2, day: 29 }]);
  });

  it('leaves out a day or month that is no calendar one', () => {
    expect(rule('每月三十五号')).toEqual([{ every: 'month' }]);
    expect(rule('每年二月三十号')).toEqual([{ every: 'year', month: 2 }]);
    expect(rule('每年十三月')).toEqual([{ every: 'year' }]);
  });

  it('reads a count or an amount after 每周 as no weekday', () => {
    expect(rule('每周一次保洁')).toEqual([{ every: 'week' }]);
    expect(rule('每周五十')).toEqual([{ every: 'week' }]);
  });

  it('finds no rule in prices and single days', () => {
    for (const text of ['每人五十', '每个五块', '每次三十', '每晚三百', '上个月五号交房租', '这个月房租三千', '每斤十块']) {
      expect(rule(text), text).toEqual([]);
    }
  });
});

describe('the scope of a rule', () => {
  const now = parseZonedIso('2026-11-24T20:00:00+08:00')!;
  const rules = (text: string) => parseLocal(text, { now }).results.map((r) => r.recurrence ?? null);

  it('holds for the money of its own clause, or of a clause that only says the amount', () => {
    expect(rules('每个月房租三千')).toEqual([{ every: 'month' }]);
    expect(rules('每个月五号，房租三千')).toEqual([{ every: 'month', day: 5 }]);
    expect(rules('每个月交房租，三千')).toEqual([{ every: 'month' }]);
    expect(rules('每周五都去吃火锅，一次两百')).toEqual([{ every: 'week', day: 5 }]);
    expect(rules('每月房租三千，今天午饭三十')).toEqual([{ every: 'month' }, null]);
  });

  it('tells a habit, not a schedule, beside money of another clause', () => {
    expect(rules('每天都加班到很晚，今天打车回来七十四')).toEqual([null]);
    expect(rules('每天都加班到很晚，打车回来七十四')).toEqual([null]);
    expect(rules('每个月都超支，今天又买了条裙子两百六')).toEqual([null]);
    expect(rules('每个月都存钱，今天存了两千')).toEqual([null]);
  });

  it('is no rule after a wish', () => {
    expect(rules('每周都想去游泳')).toEqual([null]);
    expect(rules('每周都很想去健身房办卡两千')).toEqual([null]);
  });
});

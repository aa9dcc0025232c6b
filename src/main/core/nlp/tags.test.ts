import { describe, expect, it } from 'vitest';
import { findAmounts } from './amounts';
import { findDates } from './dates';
import { toZonedNow } from '@shared/time';
import { findTags } from './tags';

const now = toZonedNow('2026-11-24T20:00:00+08:00');
const tags = (text: string) => findTags(text, [...findAmounts(text), ...findDates(text, now)]).map((m) => m.tags);

describe('findTags', () => {
  it('reads a tag after 标签 or #, and before 标签 after its verb', () => {
    expect(tags('打车三十五标签出差')).toEqual([['出差']]);
    expect(tags('打车三十五标签：出差')).toEqual([['出差']]);
    expect(tags('打车三十五#出差#报销')).toEqual([['出差'], ['报销']]);
    expect(tags('打车三十五贴上出差的标签')).toEqual([['出差']]);
  });

  it('splits several tags at their joiners and drops particles and repeats', () => {
    expect(tags('标签出差和报销吧')).toEqual([['出差', '报销']]);
    expect(tags('标签出差、出差')).toEqual([['出差']]);
  });

  it('ends a tag where the words of the next priced item begin', () => {
    expect(tags('打车三十五标签出差吃饭二十')).toEqual([['出差']]);
    expect(tags('标签出差，吃饭二十')).toEqual([['出差']]);
  });

  it('finds no tag in the words of a thing and in a bare noun', () => {
    expect(tags('买标签纸五块')).toEqual([]);
    expect(tags('标签')).toEqual([]);
    expect(tags('打车三十五标签')).toEqual([]);
    expect(tags('c#课程三百')).toEqual([]);
  });

  it('reads a tag said aloud: 标记X, 记到X里, 算X的, 算作X', () => {
    expect(tags('猫砂五十七标记小橘')).toEqual([['小橘']]);
    expect(tags('打车三十标记成出差')).toEqual([['出差']]);
    expect(tags('奶茶十五打上下午茶标记')).toEqual([['下午茶']]);
    expect(tags('加油三百一记到自驾里')).toEqual([['自驾']]);
    expect(tags('门票九十记在团建那边')).toEqual([['团建']]);
    expect(tags('打车三十记到上海出差里去了')).toEqual([['上海出差']]);
    expect(tags('机票一千二归到旅游标签下')).toEqual([['旅游']]);
    expect(tags('瓷砖三千四计入新房')).toEqual([['新房']]);
    expect(tags('买花一百零六算纪念日的')).toEqual([['纪念日']]);
    expect(tags('买花一百零六算纪念日的打车二十')).toEqual([['纪念日']]);
    expect(tags('门票九十算作团建')).toEqual([['团建']]);
  });

  it('claims the filing words, with no tag, when a day or an account is filed into', () => {
    expect(tags('午饭三十记到昨天')).toEqual([[]]);
    expect(tags('午饭三十记到微信里')).toEqual([[]]);
  });

  it('finds no tag in counting, treats, appraisals, categories and things', () => {
    for (const text of [
      '午饭三十算了',
      '算一下午饭三十',
      '多算了3块',
      '算上运费一共五十',
      '这顿饭算我的三百',
      '晚饭算我们请的两百',
      '这笔钱算公司的',
      '火锅两百算便宜的',
      '火锅两百算比较贵的',
      '挺划算的三十',
      '打算买个包两千',
      '不算贵三十',
      '午饭三十记到餐饮里',
      '午饭三十记到餐饮分类里',
      '买标记笔五块',
      '这笔标记好了',
      '记在本子上的三十',
    ]) {
      expect(tags(text), text).toEqual([]);
    }
  });
});

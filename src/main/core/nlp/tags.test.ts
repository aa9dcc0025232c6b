import { describe, expect, it } from 'vitest';
import { findAmounts } from './amounts';
import { findTags } from './tags';

const tags = (text: string) => findTags(text, findAmounts(text)).map((m) => m.tags);

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
});

import { describe, expect, it } from 'vitest';
import { findOrdinals, ordinalIndex } from './ordinals';

describe('ordinals', () => {
  it.each([
    ['第二笔', 1],
    ['第2笔', 1],
    ['第十笔', 9],
    ['第10个', 9],
    ['第一', 0],
  ])('%s → index %d', (text, index) => {
    const [o] = findOrdinals(text);
    expect(ordinalIndex(o!, 10)).toBe(index);
  });

  it('counts 最后一笔/最后那笔 and 倒数第二笔 from the end', () => {
    expect(ordinalIndex(findOrdinals('最后一笔')[0]!, 4)).toBe(3);
    expect(ordinalIndex(findOrdinals('最后那笔')[0]!, 4)).toBe(3);
    expect(ordinalIndex(findOrdinals('倒数第二笔')[0]!, 4)).toBe(2);
  });

  it('reads 第二三笔 as two items and 头一笔 as the first', () => {
    expect(findOrdinals('第二三笔删掉').map((o) => o.position)).toEqual([2, 3]);
    expect(ordinalIndex(findOrdinals('头一笔')[0]!, 4)).toBe(0);
  });

  it('places 中间 at the exact middle of an odd count and at no item of an even one', () => {
    for (const text of ['中间那笔', '中间那个', '中间的', '中间一笔', '中间的那笔', '正中间那笔', '把中间的', '删掉中间那笔']) {
      const [o] = findOrdinals(text);
      expect(o?.middle).toBe(true);
      expect(ordinalIndex(o!, 5)).toBe(2);
      expect(ordinalIndex(o!, 1)).toBe(0);
      // Of 4 items the 2nd and the 3rd are equally in the middle: the speaker is asked.
      expect(ordinalIndex(o!, 4)).toBeNull();
    }
  });

  it('leaves 中间 that names a place, or a scope of several, alone', () => {
    expect(findOrdinals('看电影中间的座位80')).toEqual([]);
    expect(findOrdinals('中间的两笔')).toEqual([]);
    expect(findOrdinals('中间')).toEqual([]);
  });

  it('finds every ordinal in order', () => {
    expect(findOrdinals('第一笔改成50，第三笔删掉').map((o) => o.position)).toEqual([1, 3]);
  });
});

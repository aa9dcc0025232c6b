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

  it('finds every ordinal in order', () => {
    expect(findOrdinals('第一笔改成50，第三笔删掉').map((o) => o.position)).toEqual([1, 3]);
  });
});

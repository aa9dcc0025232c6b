import { describe, expect, it } from 'vitest';
import { readRelink } from './refund-relink';

describe('readRelink', () => {
  it.each([
    ['退的是买衣服那笔', { what: '买衣服' }],
    ['不是鞋子那笔，是衣服那笔', { what: '衣服' }],
    ['不对，应该是上周打车的那笔。', { what: '上周打车' }],
    ['改成淘宝买鞋那一笔吧', { what: '淘宝买鞋' }],
    ['第二笔退的是外卖那笔', { what: '外卖', ordinal: { position: 2, fromEnd: false } }],
    ['最后一笔是买书那笔才对', { what: '买书', ordinal: { position: 1, fromEnd: true } }],
    ['中间那笔应该是买衣服那笔', { what: '买衣服', ordinal: { middle: true } }],
  ])('%s', (text, expected) => {
    const read = readRelink(text);
    expect(read).toMatchObject(expected);
    if (!('ordinal' in expected)) expect(read?.ordinal).toBeUndefined();
  });

  it.each(['第二笔改成35', '是第二笔那笔', '确认', '那笔删掉', '午饭三十五', '是那笔'])('reads no expense in 「%s」', (text) => {
    expect(readRelink(text)).toBeNull();
  });
});

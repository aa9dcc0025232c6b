import { describe, expect, it } from 'vitest';
import type { BatchItem } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import { correctLocal } from './index';

const now = toZonedNow('2026-02-17T12:00:00+08:00');
const batch: BatchItem[] = [
  { index: 0, amount: 15, type: 'EXPENSE', category: '餐饮', description: '奶茶' },
  { index: 1, amount: 80, type: 'EXPENSE', category: '娱乐', description: '电影' },
  { index: 2, amount: 8000, type: 'INCOME', category: '工资', description: '工资' },
];
const correct = (text: string, pending = batch) => correctLocal(text, pending, { now });

describe('targets', () => {
  it('names several items at once, or the first/last N', () => {
    expect(correct('奶茶和电影都改成昨天').corrections.map((c) => c.index)).toEqual([0, 1]);
    expect(correct('前两笔改成昨天').corrections.map((c) => c.index)).toEqual([0, 1]);
    expect(correct('后两笔改成昨天').corrections.map((c) => c.index)).toEqual([1, 2]);
  });

  it('reads 中间 as the middle item, or the middle N items, and asks when there is no one middle', () => {
    expect(correct('中间那笔改成四十四').corrections).toEqual([{ index: 1, updatedFields: { amount: 44 } }]);
    expect(correct('第一笔和中间的都改成昨天').corrections.map((c) => c.index)).toEqual([0, 1]);
    const four = [...batch, { index: 3, amount: 12, type: 'EXPENSE', category: '餐饮', description: '豆浆' } as BatchItem];
    expect(correct('中间两笔改成昨天', four).corrections.map((c) => c.index)).toEqual([1, 2]);
    expect(correct('中间那笔改成四十四', four).intent).toBe('unclear');
    expect(correct('中间两笔改成昨天').intent).toBe('unclear');
  });

  it('finds the item by its own words without a change verb, but not by a category alone', () => {
    expect(correct('电影其实花了90').corrections).toEqual([{ index: 1, updatedFields: expect.objectContaining({ amount: 90 }) }]);
    expect(correct('唱歌一百').intent).toBe('unclear');
  });

  it('finds the item by the value the speaker denies, or by a type name', () => {
    expect(correct('90不是80').corrections).toEqual([{ index: 1, updatedFields: { amount: 90 } }]);
    expect(correct('收入那笔改成9000').corrections).toEqual([{ index: 2, updatedFields: { amount: 9000 } }]);
  });
});

describe('fields', () => {
  it('reads one field per clause, with or without punctuation', () => {
    expect(correct('第二笔金额改成85，日期改成昨天').corrections).toEqual([{ index: 1, updatedFields: { amount: 85, date: '2026-02-16' } }]);
    expect(correct('第二笔金额改成85分类改成购物').corrections).toEqual([{ index: 1, updatedFields: { amount: 85, category: '购物' } }]);
  });

  it('raises or lowers the amount by the difference', () => {
    const one = [batch[0]!];
    expect(correct('少算了五块', one).corrections[0]!.updatedFields.amount).toBe(20);
    expect(correct('再加五块', one).corrections[0]!.updatedFields.amount).toBe(20);
    expect(correct('多记了十块', one).corrections[0]!.updatedFields.amount).toBe(5);
  });

  it('keeps 补/加 words as items rather than appends (补牙, 加油)', () => {
    expect(correct('还有一笔加油200').corrections[0]!.updatedFields).toMatchObject({ amount: 200, category: '交通' });
    expect(correct('补一笔补牙300').corrections[0]!.updatedFields).toMatchObject({ amount: 300, category: '医疗' });
  });
});

describe('relative amounts', () => {
  const two: BatchItem[] = [
    { index: 0, amount: 60, type: 'EXPENSE', category: '餐饮', description: '吃饭' },
    { index: 1, amount: 30, type: 'EXPENSE', category: '交通', description: '打车' },
  ];
  const amounts = (text: string, pending = two) => correct(text, pending).corrections.map((c) => [c.index, c.updatedFields.amount]);

  it('adds to or takes from every item', () => {
    for (const text of ['金额都加10块', '全部加10', '每笔加十块', '都多10块'])
      expect(amounts(text), text).toEqual([
        [0, 70],
        [1, 40],
      ]);
    for (const text of ['每笔减5块', '都减5', '每一笔少5块', '都便宜了5块'])
      expect(amounts(text), text).toEqual([
        [0, 55],
        [1, 25],
      ]);
  });

  it('reads which way a miscount, a price or an order goes', () => {
    const cases: [string, number][] = [
      ['第二笔多算了3块', 27],
      ['第二笔少算了3块', 33],
      ['第二笔少记了3块', 33],
      ['第二笔多了3块', 27],
      ['第二笔少了3块', 33],
      ['第二笔多收了3块', 27],
      ['第二笔多扣了3块', 27],
      ['第二笔记贵了3块', 27],
      ['第二笔算便宜了3块', 33],
      ['第二笔贵了3块', 33],
      ['第二笔便宜了5块', 25],
      ['第二笔优惠了5块', 25],
      ['第二笔退了5块', 25],
      ['第二笔多花了3块', 33],
      ['第二笔少花了3块', 27],
      ['第二笔加5块', 35],
      ['第二笔再加五块', 35],
      ['第二笔还要加5块', 35],
      ['第二笔减2块', 28],
      ['第二笔扣掉2块', 28],
      ['最后一笔多加10块', 40],
      ['第二笔多加了10块', 20],
      ['打车那笔加5块', 35],
    ];
    for (const [text, amount] of cases) expect(amounts(text), text).toEqual([[1, amount]]);
  });

  it('changes only the amount when the thing added is named', () => {
    expect(correct('第一笔加上运费8块', two).corrections).toEqual([{ index: 0, updatedFields: { amount: 68 } }]);
    expect(correct('第一笔加个运费8块', two).corrections).toEqual([{ index: 0, updatedFields: { amount: 68 } }]);
    expect(correct('第二笔加5块，日期改成昨天', two).corrections).toEqual([{ index: 1, updatedFields: { amount: 35, date: '2026-02-16' } }]);
  });

  it('rounds to the fen', () => {
    expect(amounts('第二笔加2块5')).toEqual([[1, 32.5]]);
    expect(amounts('都加两块五')).toEqual([
      [0, 62.5],
      [1, 32.5],
    ]);
    expect(amounts('第二笔减29.99')).toEqual([[1, 0.01]]);
  });

  it('drops a change that leaves nothing, and skips items without an amount', () => {
    expect(amounts('都减40')).toEqual([[0, 20]]);
    expect(correct('第二笔减30', two).intent).toBe('unclear');
    expect(correct('第二笔多算了40', two).intent).toBe('unclear');
    const open: BatchItem[] = [two[0]!, { ...two[1]!, amount: null }];
    expect(amounts('都加10块', open)).toEqual([[0, 70]]);
    expect(correct('第二笔加10块', open).intent).toBe('unclear');
    expect(amounts('都改成10块', open)).toEqual([
      [0, 10],
      [1, 10],
    ]);
  });

  it('leaves the amount when the words may mean either way (多付了, 多给了)', () => {
    expect(correct('第一笔多付了5块', two).intent).toBe('unclear');
    expect(correct('第一笔多给了5块', two).intent).toBe('unclear');
    expect(correct('第一笔少给了5块', two).intent).toBe('unclear');
  });

  it('keeps absolute amounts absolute', () => {
    expect(amounts('第二笔改成35')).toEqual([[1, 35]]);
    expect(amounts('都改成10块')).toEqual([
      [0, 10],
      [1, 10],
    ]);
    expect(amounts('第二笔加到50')).toEqual([[1, 50]]);
    expect(amounts('第二笔减到20')).toEqual([[1, 20]]);
    expect(amounts('第二笔扣了5块')).toEqual([[1, 5]]);
    expect(amounts('打车那笔差不多四十')).toEqual([[1, 40]]);
    expect(amounts('第二笔至少40')).toEqual([[1, 40]]);
    expect(amounts('金额改成50', [two[0]!])).toEqual([[0, 50]]);
    expect(amounts('贵了，20', [two[0]!])).toEqual([[0, 20]]);
  });

  it('keeps 加一笔 and 还有一笔 as appends', () => {
    for (const text of ['加一笔打车20', '再加一笔奶茶15', '还有一笔停车10块']) {
      const result = correct(text, two);
      expect(result.intent, text).toBe('append');
      expect(result.corrections.map((c) => c.index)).toEqual([-1]);
    }
  });

  it('answers with the confidence of any correction', () => {
    expect(correct('都加10块', two)).toMatchObject({ intent: 'correction', confidence: 0.8 });
  });
});

describe('bounds', () => {
  it('answers unclear for text far longer than a spoken sentence', () => {
    expect(correct(`第一笔改成20${'，'.repeat(600)}`).intent).toBe('unclear');
    expect(correct('第一笔改成20').intent).toBe('correction');
  });
});

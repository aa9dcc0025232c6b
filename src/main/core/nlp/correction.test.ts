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

describe('bounds', () => {
  it('answers unclear for text far longer than a spoken sentence', () => {
    expect(correct(`第一笔改成20${'，'.repeat(600)}`).intent).toBe('unclear');
    expect(correct('第一笔改成20').intent).toBe('correction');
  });
});

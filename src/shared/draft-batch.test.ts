import { describe, expect, it } from 'vitest';
import { DraftBatch } from './draft-batch';
import type { ParseResult } from './domain';

const r = (amount: number, category: string, description: string, type: ParseResult['type'] = 'EXPENSE'): ParseResult => ({
  amount,
  type,
  category,
  description,
  date: null,
  account: null,
  confidence: 0.9,
  source: 'llm',
});

// 吃饭花了60，洗脚花了60，抢红包抢了30，工资收到90
const four = () =>
  DraftBatch.fromResults(
    [r(60, '餐饮', '吃饭'), r(60, '其他', '洗脚'), r(30, '红包', '抢红包', 'INCOME'), r(90, '工资', '工资', 'INCOME')],
    '2026-02-17T12:00:00+08:00',
  );

describe('DraftBatch', () => {
  it('creates one pending item per result with indexes from 0 (创建 DraftBatch)', () => {
    const b = four();
    expect(b.items.map((i) => [i.index, i.status])).toEqual([
      [0, 'pending'],
      [1, 'pending'],
      [2, 'pending'],
      [3, 'pending'],
    ]);
    expect(b.counts()).toEqual({ total: 4, pending: 4, confirmed: 0, cancelled: 0 });
  });

  it('treats a single result as a batch of one (单笔草稿)', () => {
    const b = DraftBatch.fromResults([r(35, '餐饮', '午饭')]);
    expect(b.size).toBe(1);
    expect(b.confirmAll().allResolved).toBe(true);
  });

  it('keeps at most 10 items', () => {
    const b = DraftBatch.fromResults(Array.from({ length: 12 }, (_, i) => r(i + 1, '餐饮', `x${i}`)));
    expect(b.size).toBe(10);
    expect(b.items.at(-1)!.result.amount).toBe(10);
  });

  it('is immutable: operations return new instances and leave the original alone', () => {
    const b = four();
    const c = b.confirmItem(0);
    expect(c).not.toBe(b);
    expect(b.item(0)!.status).toBe('pending');
    expect(c.item(0)!.status).toBe('confirmed');
    expect(() => ((b.items as DraftBatch['items'][number][])[0] = b.items[1]!)).toThrow();
    expect(() => ((b.items[0]!.result as ParseResult).amount = 1)).toThrow();
  });

  it('confirms one item and leaves the others (逐条确认)', () => {
    const b = four().confirmItem(0);
    expect(b.items.map((i) => i.status)).toEqual(['confirmed', 'pending', 'pending', 'pending']);
    expect(b.allResolved).toBe(false);
  });

  it('confirmAll confirms only pending items; cancelled stay cancelled (全部确认)', () => {
    const b = four().cancelItem(1).confirmAll();
    expect(b.items.map((i) => i.status)).toEqual(['confirmed', 'cancelled', 'confirmed', 'confirmed']);
    expect(b.allResolved).toBe(true);
    expect(b.confirmedItems.map((i) => i.index)).toEqual([0, 2, 3]);
  });

  it('cancelAll cancels only pending items; confirmed stay confirmed', () => {
    const b = four().confirmItem(2).cancelAll();
    expect(b.items.map((i) => i.status)).toEqual(['cancelled', 'cancelled', 'confirmed', 'cancelled']);
  });

  it('resolves after mixed confirm/cancel (多笔混合完成)', () => {
    const b = four().confirmItem(0).confirmItem(2).cancelItem(1);
    expect(b.allResolved).toBe(false);
    const done = b.cancelItem(3);
    expect(done.allResolved).toBe(true);
    expect(done.confirmedItems.map((i) => i.index)).toEqual([0, 2]);
  });

  it('cancelling the last pending item with nothing confirmed leaves no confirmed items', () => {
    const b = DraftBatch.fromResults([r(35, '餐饮', '午饭')]).cancelItem(0);
    expect(b.allResolved).toBe(true);
    expect(b.confirmedItems).toEqual([]);
  });

  it('updates only the targeted item and keeps the rest (定点纠正, 多次纠正累积)', () => {
    const b = four().updateItem(2, { type: 'EXPENSE' }).updateItem(2, { amount: 100 });
    expect(b.item(2)!.result).toMatchObject({ type: 'EXPENSE', amount: 100, category: '红包' });
    expect(b.item(0)!.result).toEqual(four().item(0)!.result);
    expect(b.pendingCount).toBe(4);
  });

  it('ignores a non-finite amount in an update', () => {
    const b = four().updateItem(0, { amount: Number.NaN });
    expect(b.item(0)!.result.amount).toBe(60);
  });

  it('returns the same batch for unknown indexes instead of throwing', () => {
    const b = four();
    expect(b.confirmItem(7)).toBe(b);
    expect(b.cancelItem(-1)).toBe(b);
    expect(b.updateItem(99, { amount: 1 })).toBe(b);
  });

  it('appends with index max+1 and refuses at 10 items (追加新笔, 超限拒绝追加)', () => {
    const b = four().cancelItem(3);
    const appended = b.append(r(15, '餐饮', '奶茶'))!;
    expect(appended.items.at(-1)).toMatchObject({ index: 4, status: 'pending' });
    expect(appended.size).toBe(5);
    const full = DraftBatch.fromResults(Array.from({ length: 10 }, (_, i) => r(i + 1, '餐饮', `x${i}`)));
    expect(full.append(r(1, '餐饮', 'y'))).toBeNull();
  });

  it('renumbers pending items for a correction and maps back (纠正时排除 cancelled items)', () => {
    const b = four().cancelItem(1);
    const view = b.pendingView();
    expect(view.items.map((i) => [i.index, i.description])).toEqual([
      [0, '吃饭'],
      [1, '抢红包'],
      [2, '工资'],
    ]);
    // 「第二笔改成100」 → LLM answers index 1 → original index 2
    expect(view.toOriginal[1]).toBe(2);
  });

  it('excludes confirmed items from the pending view too', () => {
    const view = four().confirmItem(0).cancelItem(2).pendingView();
    expect(view.toOriginal).toEqual([1, 3]);
  });

  it('round-trips through its DTO', () => {
    const b = four().confirmItem(1);
    const again = DraftBatch.fromDto(JSON.parse(JSON.stringify(b.toDto())));
    expect(again.toDto()).toEqual(b.toDto());
  });

  it('reports 1-based display numbers', () => {
    expect(four().displayNumber(2)).toBe(3);
    expect(four().displayNumber(9)).toBe(0);
  });
});

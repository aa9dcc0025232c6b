import { describe, expect, it } from 'vitest';
import { buildLayout, indexOfRow, itemAt, visibleWindow } from './layout';
import { parseYuanInput, periodLabel, periodRange, rangeFor, shiftPeriod } from './ranges';
import { dayTop, type ListCursor } from '@shared/ipc/ledger';
import { RowCache } from './row-cache';
import { percent, topCategories } from './breakdown';
import { balanceText, parseBalanceInput, rowFen, rowTag } from './money';

describe('list layout', () => {
  const layout = buildLayout([
    { date: '2026-02-28', count: 2, expenseFen: 1, incomeFen: 0 },
    { date: '2026-02-15', count: 1, expenseFen: 0, incomeFen: 9 },
    { date: '2026-02-01', count: 3, expenseFen: 5, incomeFen: 0 },
  ]);

  it('interleaves day headers with their rows', () => {
    expect(layout.totalItems).toBe(9);
    expect(layout.totalRows).toBe(6);
    const kinds = Array.from({ length: 9 }, (_, i) => {
      const it = itemAt(layout, i);
      return it.kind === 'day' ? `D${it.day.date.slice(8)}` : `r${it.rowOffset}`;
    });
    expect(kinds).toEqual(['D28', 'r0', 'r1', 'D15', 'r2', 'D01', 'r3', 'r4', 'r5']);
  });

  it('maps a row offset back to its flat index', () => {
    for (let r = 0; r < 6; r++) {
      const it = itemAt(layout, indexOfRow(layout, r));
      expect(it).toMatchObject({ kind: 'row', rowOffset: r });
    }
  });

  it('windows 100 000 rows to what is on screen', () => {
    const big = buildLayout(Array.from({ length: 365 }, (_, i) => ({ date: `d${i}`, count: 274, expenseFen: 0, incomeFen: 0 })));
    expect(big.totalRows).toBe(100_010);
    const w = visibleWindow(big, 40 * 50_000, 600, 40);
    expect(w.end - w.start).toBeLessThan(40);
    expect(itemAt(big, big.totalItems - 1)).toMatchObject({ kind: 'row', rowOffset: 100_009 });
  });
});

describe('ranges', () => {
  it('computes today, week (Monday first), month and year', () => {
    const d = new Date(2026, 1, 18); // Wednesday
    expect(rangeFor('today', d)).toEqual({ from: '2026-02-18', to: '2026-02-18' });
    expect(rangeFor('week', d)).toEqual({ from: '2026-02-16', to: '2026-02-22' });
    expect(rangeFor('month', d)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(rangeFor('year', d)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(periodRange('week', '2026-02-22')).toEqual({ from: '2026-02-16', to: '2026-02-22' });
    expect(periodRange('month', '2024-02-10').to).toBe('2024-02-29');
  });

  it('steps periods back and forth across year ends', () => {
    expect(shiftPeriod('month', '2026-01-31', -1)).toBe('2025-12-01');
    expect(shiftPeriod('month', '2026-12-15', 1)).toBe('2027-01-01');
    expect(shiftPeriod('week', '2026-01-01', -1)).toBe('2025-12-25');
    expect(shiftPeriod('year', '2026-06-01', 1)).toBe('2027-01-01');
    expect(periodLabel('month', '2026-02-10')).toBe('2026年2月');
    expect(periodLabel('year', '2026-02-10')).toBe('2026年');
    expect(periodLabel('week', '2026-02-18')).toBe('2026年2月16日 – 2月22日');
    expect(periodLabel('week', '2026-01-01')).toBe('2025年12月29日 – 2026年1月4日');
  });

  it('parses typed yuan into fen without floating point', () => {
    expect(parseYuanInput('')).toBeNull();
    expect(parseYuanInput('19.99')).toBe(1999);
    expect(parseYuanInput('0.1')).toBe(10);
    expect(parseYuanInput(' 35 ')).toBe(3500);
    expect(() => parseYuanInput('1.005')).toThrow(/两位小数/);
    expect(() => parseYuanInput('-3')).toThrow();
  });
});

describe('RowCache', () => {
  // 250 rows over three days (100, 120, 30); a fake list whose cursor is the position after a
  // row, or a day's top.
  const days = [
    { date: '2026-02-28', offset: 0, count: 100 },
    { date: '2026-02-27', offset: 100, count: 120 },
    { date: '2026-02-26', offset: 220, count: 30 },
  ];
  const dayOf = (offset: number) => days.findLast((d) => d.offset <= offset)!;
  const rowAt = (i: number) => ({ id: `r${i}` }) as never;
  function setup(total = 250) {
    const asked: { after: ListCursor | undefined; limit: number }[] = [];
    let release: (() => void)[] = [];
    const cache = new RowCache(
      (after, limit) => {
        asked.push({ after, limit });
        const start = !after ? 0 : after.ms === dayTop(after.date).ms ? days.find((d) => d.date === after.date)!.offset : after.rowid;
        const rows = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => rowAt(start + i));
        const next = rows.length === limit ? { date: dayOf(start + limit - 1).date, ms: 1, rowid: start + limit } : null;
        return new Promise((ok) => release.push(() => ok({ rows, next })));
      },
      dayOf,
      () => {},
      10,
    );
    const land = async () => {
      const now = release;
      release = [];
      for (const r of now) r();
      await new Promise((ok) => setTimeout(ok, 0));
    };
    return { cache, asked, land };
  }

  it('asks one page at a time, each after the page before it', async () => {
    const { cache, asked, land } = setup();
    cache.ensure(0, 24);
    cache.ensure(0, 24);
    expect(asked).toEqual([{ after: undefined, limit: 10 }]);
    await land();
    cache.ensure(0, 24);
    await land();
    expect(asked.at(-1)).toEqual({ after: { date: '2026-02-28', ms: 1, rowid: 10 }, limit: 10 });
    cache.ensure(0, 24);
    await land();
    expect(cache.get(24)).toEqual(rowAt(24));
    expect(asked).toHaveLength(3);
  });

  it('jumps down the list from the top of the day that holds the row, reading that day up to it', async () => {
    const { cache, asked, land } = setup();
    cache.ensure(225, 230);
    expect(asked).toEqual([{ after: dayTop('2026-02-26'), limit: 15 }]);
    await land();
    cache.ensure(130, 135);
    // Nothing of 02-27 is loaded: from its top, as far as the row and a page beyond.
    expect(asked.at(-1)).toEqual({ after: dayTop('2026-02-27'), limit: 40 });
    await land();
    expect([cache.get(100), cache.get(139), cache.get(140)]).toEqual([rowAt(100), rowAt(139), undefined]);
    cache.ensure(130, 145);
    expect(asked.at(-1)).toEqual({ after: { date: '2026-02-27', ms: 1, rowid: 140 }, limit: 10 });
  });

  it('stops at the end of the list even when the day headers promised more', async () => {
    const { cache, asked, land } = setup(5);
    cache.ensure(0, 9);
    await land();
    cache.ensure(0, 9);
    expect(asked).toHaveLength(1);
    expect(cache.get(4)).toEqual(rowAt(4));
  });

  it('drops what it had and answers still in flight after a reset', async () => {
    const { cache, asked, land } = setup();
    cache.ensure(0, 9);
    cache.reset();
    cache.ensure(225, 230);
    await land();
    expect(cache.get(0)).toBeUndefined();
    expect(asked).toEqual([
      { after: undefined, limit: 10 },
      { after: dayTop('2026-02-26'), limit: 15 },
    ]);
    expect(cache.get(230)).toEqual(rowAt(230));
  });
});

describe('category breakdown', () => {
  const cats = (fens: number[]) => fens.map((f, i) => ({ type: 'EXPENSE' as const, category: `c${i}`, totalFen: f, count: 1 }));

  it('keeps the top five and merges the rest into 其他', () => {
    const slices = topCategories(
      [...cats([500, 400, 300, 200, 100, 50, 25]), { type: 'INCOME', category: '工资', totalFen: 9, count: 1 }],
      'EXPENSE',
    );
    expect(slices.map((s) => [s.label, s.category, s.totalFen])).toEqual([
      ['c0', 'c0', 500],
      ['c1', 'c1', 400],
      ['c2', 'c2', 300],
      ['c3', 'c3', 200],
      ['c4', 'c4', 100],
      ['其他（2类）', null, 75],
    ]);
    expect(slices.reduce((n, s) => n + s.share, 0)).toBeCloseTo(1);
    expect(percent(slices[0]!.share)).toBe('31.7%');
  });

  it('does not merge a single leftover category and is empty without spending', () => {
    expect(topCategories(cats([3, 2, 1, 1, 1, 1]), 'EXPENSE').map((s) => s.category)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(topCategories(cats([3]), 'INCOME')).toEqual([]);
  });
});

describe('account balances', () => {
  it('reads the 初始余额 field: empty is 0, negative allowed, at most two decimals', () => {
    expect(parseBalanceInput('')).toBe(0);
    expect(parseBalanceInput(' 5000 ')).toBe(5000);
    expect(parseBalanceInput('-1200.50')).toBe(-1200.5);
    expect(parseBalanceInput('－88.8')).toBe(-88.8);
    expect(parseBalanceInput('-0')).toBe(0);
    expect(Object.is(parseBalanceInput('-0'), -0)).toBe(false);
    for (const bad of ['12.345', 'abc', '1e5', '--3', '5-', '¥5']) expect(() => parseBalanceInput(bad), bad).toThrow(/最多两位小数/);
    expect(parseBalanceInput('100000000')).toBe(100_000_000);
    expect(() => parseBalanceInput('-100000000.01')).toThrow('初始余额超过上限（1亿元）');
  });

  it('shows an overdrawn balance with the minus before the currency sign', () => {
    expect(balanceText(500_000)).toBe('¥5,000.00');
    expect(balanceText(-120_050)).toBe('\u2212¥1,200.50');
    expect(balanceText(0)).toBe('¥0.00');
  });
});

describe('rows with money flows in the list', () => {
  it('sign what the money did and tag what the row is', () => {
    expect(rowFen({ type: 'EXPENSE', amountFen: 300_00, flow: 'refund' })).toBe('+¥300.00');
    expect(rowFen({ type: 'TRANSFER', amountFen: 1000_00, flow: 'lend' })).toBe('\u2212¥1,000.00');
    expect(rowFen({ type: 'TRANSFER', amountFen: 3000_00, flow: 'borrow' })).toBe('+¥3,000.00');
    expect(rowFen({ type: 'TRANSFER', amountFen: 500_00 })).toBe('¥500.00');
    expect(rowFen({ type: 'EXPENSE', amountFen: 35_50 })).toBe('\u2212¥35.50');
    expect(rowFen({ type: 'INCOME', amountFen: 9000_00 })).toBe('+¥9,000.00');
    expect(rowTag({ flow: 'lend', person: '小李' })).toBe('借给小李');
    expect(rowTag({ flow: 'refund' })).toBe('退款');
    const target = { date: '2026-02-01', description: '淘宝买鞋', amountFen: 500_00 };
    expect(rowTag({ flow: 'refund', refundTarget: target }, '2026-03-10')).toBe('退款 · 2月1日淘宝买鞋 ¥500.00');
    expect(rowTag({ flow: 'refund', refundTarget: target }, '2026-02-02')).toBe('退款 · 昨天淘宝买鞋 ¥500.00');
    expect(rowTag({ flow: 'refund', refundTarget: target }, '2027-01-05')).toBe('退款 · 2026年2月1日淘宝买鞋 ¥500.00');
    expect(rowTag({ flow: 'refund', awaitingPurchase: true })).toBe('退款 · 待关联');
    expect(rowTag({ reimbursable: true })).toBe('待报销');
    expect(rowTag({ reimbursable: true, reimbursedBy: 'x' })).toBe('已报销');
    expect(rowTag({})).toBeNull();
  });
});

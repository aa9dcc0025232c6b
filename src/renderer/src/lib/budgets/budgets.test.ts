import { describe, expect, it } from 'vitest';
import type { BudgetLine } from '@shared/ipc/ledger';
import { checkBudgetFields, fieldText, lineName, monthLabel, monthOf, remainderText, shiftMonth } from './budgets';

const line = (budgetFen: number, spentFen: number): BudgetLine => ({
  categoryId: 1,
  category: '餐饮',
  budgetFen,
  spentFen,
  percent: Math.floor((spentFen * 100) / budgetFen),
  level: 'ok',
});

describe('budget months', () => {
  it('names the local month and steps across year ends', () => {
    expect(monthOf(new Date(2026, 10, 30, 23, 59))).toBe('2026-11');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-03', -13)).toBe('2025-02');
    expect(monthLabel('2026-01')).toBe('2026年1月');
    expect(monthLabel('2026-11')).toBe('2026年11月');
  });
});

describe('budget line words', () => {
  it('says what is left, or by how much the budget is exceeded, to the fen', () => {
    expect(remainderText(line(100_000, 82_000))).toBe('剩余 ¥180.00');
    expect(remainderText(line(100_000, 100_000))).toBe('剩余 ¥0.00');
    expect(remainderText(line(100_000, 102_050))).toBe('超出 ¥20.50');
    expect(lineName(line(1, 0))).toBe('餐饮');
    expect(lineName({ ...line(1, 0), categoryId: null, category: null })).toBe('总预算');
    expect(fieldText(line(150_050, 0))).toBe('1500.50');
    expect(fieldText(null)).toBe('');
    expect(fieldText(line(100_000, 0))).toBe('1000');
    expect(fieldText(line(5, 0))).toBe('0.05');
  });
});

describe('batch editor fields', () => {
  it('turns every non-empty field into an item in yuan, evaluating sums', () => {
    expect(
      checkBudgetFields([
        { categoryId: null, text: '' },
        { categoryId: 1, text: '1000+500' },
        { categoryId: 2, text: '  ' },
        { categoryId: 3, text: '88.8' },
      ]),
    ).toEqual({
      ok: true,
      items: [
        { categoryId: 1, amountYuan: 1500 },
        { categoryId: 3, amountYuan: 88.8 },
      ],
    });
    expect(checkBudgetFields([{ categoryId: 1, text: '' }])).toEqual({ ok: true, items: [] });
  });

  it('refuses 0, negative, letters and 1e9 with a sentence per field', () => {
    const result = checkBudgetFields([
      { categoryId: null, text: '0' },
      { categoryId: 1, text: '-5' },
      { categoryId: 2, text: 'abc' },
      { categoryId: 3, text: '1e9' },
      { categoryId: 4, text: '200' },
      { categoryId: 5, text: '1000000000' },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.fromEntries(result.errors)).toEqual({
      0: '预算金额必须大于0',
      1: '预算金额不能为负数',
      2: '预算金额只能包含数字、小数点、+ − × ÷ 和括号',
      3: '预算金额只能包含数字、小数点、+ − × ÷ 和括号',
      5: '预算金额超过上限（1亿元）',
    });
  });
});

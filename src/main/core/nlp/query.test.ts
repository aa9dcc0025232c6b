import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { detectBudgetQuery, detectQuery } from './index';

const now = toZonedNow('2026-02-17T12:00:00+08:00');

describe('ledger questions', () => {
  it.each([
    ['这个月花了多少', { from: '2026-02-01', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '这个月' }],
    ['今天吃饭花了多少', { from: '2026-02-17', to: '2026-02-17', type: 'EXPENSE', category: '餐饮', periodLabel: '今天' }],
    ['上周收入多少', { from: '2026-02-09', to: '2026-02-15', type: 'INCOME', category: null, periodLabel: '上周' }],
    ['上个月打车花了多少钱', { from: '2026-01-01', to: '2026-01-31', type: 'EXPENSE', category: '交通', periodLabel: '上个月' }],
    ['这周花了多少', { from: '2026-02-16', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '这周' }],
    ['最近7天花了多少', { from: '2026-02-11', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '最近7天' }],
    ['1月份花了多少', { from: '2026-01-01', to: '2026-01-31', type: 'EXPENSE', category: null, periodLabel: '1月' }],
    ['今年工资一共多少', { from: '2026-01-01', to: '2026-02-17', type: 'INCOME', category: '工资', periodLabel: '今年' }],
    ['昨天花了多少', { from: '2026-02-16', to: '2026-02-16', type: 'EXPENSE', category: null, periodLabel: '昨天' }],
  ])('%s', (text, expected) => {
    expect(detectQuery(text, now)).toEqual(expected);
  });

  it.each([
    ['本月支出', { from: '2026-02-01', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '这个月' }],
    ['本周收入', { from: '2026-02-16', to: '2026-02-17', type: 'INCOME', category: null, periodLabel: '这周' }],
    ['这个月支出多少', { from: '2026-02-01', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '这个月' }],
    ['这个月总支出', { from: '2026-02-01', to: '2026-02-17', type: 'EXPENSE', category: null, periodLabel: '这个月' }],
    ['上个月餐饮开销呢？', { from: '2026-01-01', to: '2026-01-31', type: 'EXPENSE', category: '餐饮', periodLabel: '上个月' }],
    ['昨天打车的开销', { from: '2026-02-16', to: '2026-02-16', type: 'EXPENSE', category: '交通', periodLabel: '昨天' }],
  ])('a period and a total word ask for the total: %s', (text, expected) => {
    expect(detectQuery(text, now)).toEqual(expected);
  });

  it.each(['收入', '工资收入', '本月', '本月支出和收入', '这周吃饭', '本月房租支出3000', '支出500'])(
    '%j names no period and total alone, so it is no question',
    (text) => {
      expect(detectQuery(text, now)).toBeNull();
    },
  );

  it('takes December of last year when the month is still ahead', () => {
    expect(detectQuery('12月花了多少', now)).toMatchObject({ from: '2025-12-01', to: '2025-12-31' });
  });

  it.each(['午饭35', '确认', '这个月房租3000', '', '今天一共花了200', '统计一下花了30'])('%j is not a question', (text) => {
    expect(detectQuery(text, now)).toBeNull();
  });
});

describe('budget questions', () => {
  it.each([
    ['这个月预算还剩多少', { month: '2026-02', category: null, periodLabel: '本月' }],
    ['预算还剩多少', { month: '2026-02', category: null, periodLabel: '本月' }],
    ['本月预算用了多少', { month: '2026-02', category: null, periodLabel: '本月' }],
    ['这个月还能花多少', { month: '2026-02', category: null, periodLabel: '本月' }],
    ['餐饮预算还剩多少', { month: '2026-02', category: '餐饮', periodLabel: '本月' }],
    ['吃饭还能花多少', { month: '2026-02', category: '餐饮', periodLabel: '本月' }],
    ['上个月预算用了多少', { month: '2026-01', category: null, periodLabel: '上个月' }],
    ['12月预算用了多少', { month: '2025-12', category: null, periodLabel: '2025年12月' }],
  ])('%s', (text, expected) => {
    expect(detectBudgetQuery(text, now)).toEqual(expected);
  });

  it('asks about the month a week or day falls in, and the current month for a period across months', () => {
    expect(detectBudgetQuery('这周预算还剩多少', now)).toMatchObject({ month: '2026-02' });
    expect(detectBudgetQuery('今年预算还剩多少', now)).toMatchObject({ month: '2026-02', periodLabel: '本月' });
  });

  it('names a custom expense category the user asks about', () => {
    expect(detectBudgetQuery('宠物粮预算还剩多少', now, [{ name: '宠物粮', type: 'EXPENSE' }])).toMatchObject({ category: '宠物粮' });
  });

  it('takes only a category named before 预算: 预算还剩多少 after 吃饭 words asks about the whole month', () => {
    expect(detectBudgetQuery('预算还剩多少，今天吃饭花了不少', now)).toMatchObject({ category: null });
  });

  it.each(['预算500', '餐饮预算设成500', '预算', '这个月花了多少', '午饭35', '本月支出'])('%j is no budget question', (text) => {
    expect(detectBudgetQuery(text, now)).toBeNull();
  });

  it.each(['这个月预算还剩多少', '餐饮预算还剩多少', '这个月还能花多少', '本月预算用了多少'])('%j is not answered as a spending total', (text) => {
    expect(detectQuery(text, now)).toBeNull();
  });
});

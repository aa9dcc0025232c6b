import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetLine } from '@shared/ipc/ledger';
import BudgetBar from './BudgetBar.svelte';

const over: BudgetLine = { categoryId: null, category: null, budgetFen: 300_000, spentFen: 312_345, percent: 104, level: 'over' };

afterEach(() => cleanup());

describe('budget bar', () => {
  it('names the total 总预算 and says the amounts, the overrun, the level and the percent in text', () => {
    render(BudgetBar, { props: { line: over } });
    const group = screen.getByRole('group', { name: '总预算' });
    expect(group.dataset['level']).toBe('over');
    expect(group.textContent).toContain('已用 ¥3,123.45 / 预算 ¥3,000.00');
    expect(group.textContent).toContain('超出 ¥123.45');
    expect(group.textContent).toContain('104%，已超支');
    const bar = within(group).getByRole('progressbar', { name: '总预算进度' });
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(bar.style.width).toBe('100%');
  });

  it('compact: one row with name and percent, the amounts kept for screen readers and the tooltip', () => {
    const line: BudgetLine = { categoryId: 1, category: '餐饮', budgetFen: 100_000, spentFen: 45_000, percent: 45, level: 'ok' };
    render(BudgetBar, { props: { line, compact: true } });
    const group = screen.getByRole('group', { name: '餐饮预算' });
    expect(group.querySelector('.amounts')).toBeNull();
    expect(group.getAttribute('title')).toBe('已用 ¥450.00 / 预算 ¥1,000.00，剩余 ¥550.00，正常');
    expect(within(group).getByText('已用 ¥450.00 / 预算 ¥1,000.00，剩余 ¥550.00，正常').className).toContain('visually-hidden');
    expect(within(group).getByRole('progressbar').style.width).toBe('45%');
  });
});

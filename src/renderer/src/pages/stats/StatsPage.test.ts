import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput } from '@shared/ipc/index';
import type { CategoryTotal, PeriodStats } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import StatsPage from './StatsPage.svelte';

// jsdom draws no canvas: the charts are stood in for, and the page is read through its legend,
// which says what the donut shows. The donut itself against the real ledger is in e2e/tags.spec.ts.
vi.mock('../../lib/ledger/charts', () => ({
  drawDonut: () => ({ destroy() {} }),
  drawTrend: () => ({ destroy() {} }),
  sliceColor: () => '#999',
  prefersDark: () => false,
  onSchemeChange: () => () => {},
}));

let fake: FakeLedgerApi;

const line = (category: string, totalFen: number, parent?: string): CategoryTotal => ({
  type: 'EXPENSE',
  category,
  totalFen,
  count: 1,
  ...(parent ? { parent } : {}),
});

/** 餐饮 ¥100 = its own ¥20 + 早餐 ¥50 + 午餐 ¥30; 交通 ¥40 has no sub-category rows. With a tag, only 交通. */
function answer(input: CommandInput<'periodStats'>): PeriodStats {
  const tagged = input.tag === '出差';
  const children = [line('早餐', 5000, '餐饮'), line('午餐', 3000, '餐饮'), line('餐饮', 2000)];
  const byParent = tagged
    ? [{ ...line('交通', 4000), children: [] }]
    : [
        { ...line('餐饮', 10000), count: 3, children },
        { ...line('交通', 4000), children: [] },
      ];
  const expenseFen = byParent.reduce((n, p) => n + p.totalFen, 0);
  return {
    from: input.from,
    to: input.to,
    expenseFen,
    incomeFen: 0,
    transferFen: 0,
    balanceFen: -expenseFen,
    count: 4,
    byCategory: tagged ? [line('交通', 4000)] : [...children, line('交通', 4000)],
    byParent,
    trend: [],
  };
}

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  fake.addRow({ amountFen: 4000, category: '交通', description: '机场大巴', tags: ['出差'] });
  fake.handle('periodStats', answer);
  location.hash = '#/stats';
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const legendNames = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('button')
    .map((b) => b.querySelector('.name')!.textContent);

describe('统计 page', () => {
  it('shows the categories with their sub-categories rolled up, drills into a parent and comes back', async () => {
    render(StatsPage);
    await screen.findByRole('list', { name: '支出分类' });
    expect(legendNames('支出分类')).toEqual(['餐饮', '交通']);
    expect(screen.getByTestId('total-balance').textContent!.replace(/\s+/g, '')).toBe('结余\u2212¥140.00');
    expect(screen.getByRole('button', { name: '餐饮 ¥100.00 71.4%，查看子分类' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '分类层级' }).textContent!.trim()).toBe('全部分类');

    await fireEvent.click(screen.getByRole('button', { name: /^餐饮 .*查看子分类$/ }));
    const children = await screen.findByRole('list', { name: '餐饮的子分类' });
    expect(legendNames('餐饮的子分类')).toEqual(['早餐', '午餐', '未细分']);
    expect(within(children).getByRole('button', { name: '早餐 ¥50.00 50.0%，查看明细' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: '分类层级' });
    expect(crumbs.textContent!.replace(/\s+/g, '')).toBe('全部分类›餐饮');
    expect(within(crumbs).getByText('餐饮').getAttribute('aria-current')).toBe('location');

    // A leaf opens its rows in 明细, as before.
    await fireEvent.click(within(children).getByRole('button', { name: /^早餐 / }));
    expect(new URLSearchParams(location.hash.split('?')[1]).get('category')).toBe('早餐');

    await fireEvent.click(within(crumbs).getByRole('button', { name: '全部分类' }));
    expect(legendNames('支出分类')).toEqual(['餐饮', '交通']);
    // A category without sub-category rows keeps today's behaviour: its rows in 明细.
    await fireEvent.click(screen.getByRole('button', { name: '交通 ¥40.00 28.6%，查看明细' }));
    expect(new URLSearchParams(location.hash.split('?')[1]).get('category')).toBe('交通');
  });

  it('filters by a tag chosen from the ledger’s tags, and carries it into 明细', async () => {
    render(StatsPage);
    await screen.findByRole('list', { name: '支出分类' });
    const tagFilter = screen.getByRole('combobox', { name: '标签' }) as HTMLSelectElement;
    expect([...tagFilter.options].map((o) => o.textContent)).toEqual(['全部标签', '#出差']);
    expect(fake.inputsOf('periodStats')[0]).not.toHaveProperty('tag');

    await fireEvent.change(tagFilter, { target: { value: '出差' } });
    await vi.waitFor(() => expect(legendNames('支出分类')).toEqual(['交通']));
    expect(fake.inputsOf('periodStats').at(-1)).toMatchObject({ tag: '出差' });
    expect(screen.getByTestId('total-expense').getAttribute('aria-label')).toBe('支出 ¥40.00');

    await fireEvent.click(screen.getByRole('button', { name: /^交通 / }));
    const params = new URLSearchParams(location.hash.split('?')[1]);
    expect([params.get('category'), params.get('tag')]).toEqual(['交通', '出差']);
  });
});

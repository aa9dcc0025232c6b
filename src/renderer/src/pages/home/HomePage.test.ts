import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BudgetLine, BudgetStatus } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { FakeVoiceApi } from '../../../../../test/support/renderer/fake-voice-api';
import HomePage from './HomePage.svelte';
import { netView } from '../../lib/ledger/net-view.svelte';

// 首页 against fakes of the ledger and voice commands; the real ledger behind it is in e2e/entry.spec.ts.
let fake: FakeLedgerApi;
let voice: FakeVoiceApi;
let budgets: BudgetStatus;
const NOW = new Date(2026, 2, 15, 10, 0);

const line = (category: string | null, budgetFen: number, spentFen: number): BudgetLine => {
  const percent = Math.floor((spentFen * 100) / budgetFen);
  return {
    categoryId: category ? ['餐饮', '交通', '购物', '娱乐'].indexOf(category) + 1 : null,
    category,
    budgetFen,
    spentFen,
    percent,
    level: percent >= 100 ? 'over' : percent >= 80 ? 'warn' : 'ok',
  };
};

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  voice = new FakeVoiceApi();
  budgets = { month: '2026-03', source: null, inherited: false, lines: [], total: null };
  fake.handle('monthSummary', ({ month }) => {
    const rows = fake.rows.filter((r) => r.date.startsWith(month));
    const sum = (type: string) => rows.filter((r) => r.type === type).reduce((n, r) => n + r.amountFen, 0);
    return { month, expenseFen: sum('EXPENSE'), incomeFen: sum('INCOME'), transferFen: sum('TRANSFER'), byCategory: [] };
  });
  fake.handle('budgetStatus', () => budgets);
});

afterEach(() => {
  cleanup();
  fake.uninstall();
  location.hash = '';
});

function show() {
  const api = {
    ...fake.api,
    voiceSnapshot: voice.voiceSnapshot,
    voiceStart: voice.voiceStart,
    voiceSetMode: voice.voiceSetMode,
    voiceText: voice.voiceText,
    voicePushToTalk: voice.voicePushToTalk,
    voiceAction: voice.voiceAction,
  };
  render(HomePage, { api, now: NOW });
}

function figure(term: string): string {
  const dt = within(screen.getByRole('region', { name: '本月概览' }))
    .getAllByRole('term')
    .find((t) => t.textContent === term)!;
  return dt.nextElementSibling!.textContent!.trim();
}

const latest = () => within(screen.getByRole('region', { name: '最近记录' }));

describe('首页', () => {
  it("shows this month's income, expense and balance, asking for this month only", async () => {
    fake.addRow({ amountFen: 3550, description: '午饭', date: '2026-03-02' });
    fake.addRow({ amountFen: 900_00, description: '工资', type: 'INCOME', category: '工资', date: '2026-03-05' });
    fake.addRow({ amountFen: 99_00, description: '上月', date: '2026-02-28' });
    show();
    await vi.waitFor(() => expect(figure('支出')).toBe('¥35.50'));
    expect(figure('收入')).toBe('¥900.00');
    expect(figure('结余')).toBe('¥864.50');
    expect(screen.getByText('2026年3月')).toBeTruthy();
    expect(fake.inputsOf('monthSummary')).toEqual([{ month: '2026-03' }]);
    expect(fake.inputsOf('budgetStatus')).toEqual([{ month: '2026-03' }]);
  });

  it('counts 待报销 spending only when 含待报销 is ticked, and remembers the choice', async () => {
    fake.handle('monthSummary', ({ month, includeReimbursed }) => ({
      month,
      expenseFen: includeReimbursed ? 180_00 : 100_00,
      incomeFen: 0,
      transferFen: 0,
      byCategory: [],
    }));
    show();
    await vi.waitFor(() => expect(figure('支出')).toBe('¥100.00'));
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: '含待报销' });
    expect(box.checked).toBe(false);
    await fireEvent.click(box);
    await vi.waitFor(() => expect(figure('支出')).toBe('¥180.00'));
    expect(fake.inputsOf('monthSummary').at(-1)).toEqual({ month: '2026-03', includeReimbursed: true });
    cleanup();
    show();
    await vi.waitFor(() => expect(figure('支出')).toBe('¥180.00'));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '含待报销' }).checked).toBe(true);
    netView.set(false);
  });

  it('shows a negative balance with its sign', async () => {
    fake.addRow({ amountFen: 1200, description: '咖啡', date: '2026-03-02' });
    show();
    await vi.waitFor(() => expect(figure('结余')).toBe('\u2212¥12.00'));
  });

  it('lists the 5 latest rows, a transfer as from → to', async () => {
    for (let day = 1; day <= 7; day++) fake.addRow({ amountFen: day * 100, description: `第${day}天`, date: `2026-03-0${day}` });
    fake.addRow({ amountFen: 500_00, description: '充值', type: 'TRANSFER', category: '', toAccount: '微信', date: '2026-03-09' });
    show();
    await vi.waitFor(() => expect(latest().getAllByRole('listitem')).toHaveLength(5));
    expect(fake.inputsOf('listTransactions')).toEqual([{ limit: 5 }]);
    const items = latest().getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('钱包 → 微信');
    expect(items[0]!.querySelector('.amount')!.textContent).toBe('¥500.00');
    expect(items[0]!.querySelector('.when')!.textContent).toBe('3月9日');
    expect(items[1]!.textContent).toContain('第7天');
    expect(items[1]!.querySelector('.amount')!.textContent).toBe('\u2212¥7.00');
  });

  it('refreshes on a ledger change', async () => {
    show();
    await latest().findByText(/还没有记录/);
    fake.addRow({ amountFen: 2050, description: '打车', category: '交通', date: '2026-03-15' });
    fake.changed('save');
    await vi.waitFor(() => expect(latest().getAllByRole('listitem')).toHaveLength(1));
    expect(figure('支出')).toBe('¥20.50');
    expect(latest().getByRole('listitem').querySelector('.when')!.textContent).toBe('今天');
  });

  it('shows the total budget and the three categories nearest their limit, coloured by level', async () => {
    budgets = {
      ...budgets,
      source: '2026-03',
      total: line(null, 3000_00, 1500_00),
      lines: [line('餐饮', 1000_00, 850_00), line('交通', 200_00, 10_00), line('购物', 500_00, 600_00), line('娱乐', 300_00, 150_00)],
    };
    show();
    const region = within(screen.getByRole('region', { name: '预算' }));
    await vi.waitFor(() => expect(region.getAllByRole('progressbar')).toHaveLength(4));
    const meters = region.getAllByRole('progressbar');
    expect(meters.map((m) => m.getAttribute('aria-label'))).toEqual(['总预算进度', '购物预算进度', '餐饮预算进度', '娱乐预算进度']);
    expect(meters.map((m) => m.getAttribute('aria-valuetext'))).toEqual(['已用 50%', '已用 120%', '已用 85%', '已用 50%']);
    expect(meters.map((m) => m.closest('[data-level]')?.getAttribute('data-level'))).toEqual(['ok', 'over', 'warn', 'ok']);
    expect(region.getByRole('link', { name: '管理预算' }).getAttribute('href')).toBe('#/budgets');
  });

  it('says where to set budgets when none is set, and when they were inherited', async () => {
    show();
    const region = within(screen.getByRole('region', { name: '预算' }));
    await region.findByText(/本月还没有设置预算/);
    expect(region.getByRole('link', { name: '设置预算' }).getAttribute('href')).toBe('#/budgets');
    cleanup();

    budgets = { ...budgets, source: '2026-02', inherited: true, total: line(null, 1000_00, 0) };
    show();
    await screen.findByText('沿用 2026年2月 的预算');
  });

  it('starts listening on 记账 from the mic', async () => {
    show();
    await fireEvent.click(await screen.findByRole('button', { name: '开始聆听' }));
    expect(voice.calls.filter((c) => c.name === 'voiceStart')).toEqual([{ name: 'voiceStart', input: { mode: 'auto' } }]);
    expect(location.hash).toBe('#/session');
  });
});

import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoiceSnapshot } from '@shared/ipc/index';
import { FakeLedgerApi } from '../../../test/support/renderer/fake-ledger-api';
import { recurringOf } from '../../../test/support/renderer/fake-recurring-api';
import App from './App.svelte';
import { router } from './lib/router.svelte';

// jsdom has no ResizeObserver; 明细's list (bind:clientHeight) needs one to mount.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// The window frame: 首页 by default, 记一笔 from the button, Ctrl+N and '#/new', the ledger
// history keys from any page, and the toast after a save. Pages run against the ledger fake.
let fake: FakeLedgerApi;

async function at(hash: string) {
  location.hash = hash;
  await vi.waitFor(() => expect(router.current.route).toBe(hash.slice(2)));
}

beforeEach(async () => {
  fake = new FakeLedgerApi().install();
  const snapshot: VoiceSnapshot = { state: 'idle', mode: 'auto', batch: null, online: true, conversation: [], summary: null };
  fake.handle('voiceSnapshot', () => snapshot);
  fake.handle('appInfo', () => ({ version: 't', dataDir: '/d', databasePath: '/d/ledger.db', readOnly: false }));
  fake.handle('monthSummary', ({ month }) => ({ month, expenseFen: 0, incomeFen: 0, transferFen: 0, byCategory: [] }));
  fake.handle('budgetStatus', ({ month }) => ({ month, source: null, inherited: false, lines: [], total: null }));
  fake.handle('recentCategories', () => []);
  fake.handle('addTransaction', (input) => {
    const row = fake.addRow({ amountFen: Math.round(input.amountYuan * 100), description: input.note ?? '' });
    fake.changed('save');
    return row;
  });
  await at('#/home');
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const form = () => screen.queryByRole('dialog', { name: '记一笔' });

describe('the main window', () => {
  it('starts on 首页 with 预算 in the navigation', async () => {
    render(App);
    expect(router.current.route).toBe('home');
    await screen.findByRole('region', { name: '本月概览' });
    const nav = screen.getByRole('navigation', { name: '主导航' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent?.trim())).toEqual([
      '首页',
      '记账',
      '明细',
      '统计',
      '预算',
      '周期记账',
      '借贷与报销',
      '分类与账户',
      '设置',
    ]);
    expect(screen.getByRole('link', { name: '首页' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows how many 周期记账 offers wait, in the sidebar, and follows the ledger', async () => {
    const offer = (date: string) => ({
      ruleId: 1,
      date,
      recurrenceKey: `r0000000000000001:${date}`,
      type: 'EXPENSE' as const,
      amountFen: 3000_00,
      category: '住房',
      account: '钱包',
      description: '房租',
      label: '每月5日',
    });
    recurringOf(fake).offers = [offer('2026-01-05'), offer('2026-02-05')];
    render(App);
    const link = screen.getByRole('link', { name: /周期记账/ });
    await vi.waitFor(() => expect(link.textContent?.replace(/\s+/g, '')).toBe('周期记账2'));
    recurringOf(fake).offers = [];
    fake.changed('recurring');
    await vi.waitFor(() => expect(link.textContent?.trim()).toBe('周期记账'));
  });

  it('opens 记一笔 from the button and from Ctrl+N, saves and offers 撤销', async () => {
    render(App);
    await fireEvent.click(screen.getByRole('button', { name: '＋ 记一笔' }));
    expect(form()).not.toBeNull();
    await fireEvent.keyDown(form()!, { key: 'Escape' });
    expect(form()).toBeNull();

    await fireEvent.keyDown(window, { key: 'n', ctrlKey: true });
    expect(form()).not.toBeNull();
    const amount = screen.getByRole('textbox', { name: '金额' });
    await fireEvent.input(amount, { target: { value: '12+8.5' } });
    await vi.waitFor(() => expect(screen.getAllByRole('radio', { checked: true })).toHaveLength(2));
    await fireEvent.keyDown(amount, { key: 'Enter' });
    await vi.waitFor(() => expect(form()).toBeNull());
    expect(fake.rows.map((r) => r.amountFen)).toEqual([2050]);

    const toast = await screen.findByText('已记一笔');
    await fireEvent.click(toast.parentElement!.querySelector('button')!);
    expect(fake.inputsOf('undo')).toEqual([{}]);
  });

  it("opens the form for '#/new' over the page it showed and puts that page's hash back", async () => {
    render(App);
    await at('#/categories');
    location.hash = '#/new';
    await vi.waitFor(() => expect(form()).not.toBeNull());
    expect(location.hash).toBe('#/categories');
    expect(router.current.route).toBe('categories');
  });

  it('undoes with Ctrl+Z and redoes with Ctrl+Shift+Z or Ctrl+Y outside text fields, once on 明细 too', async () => {
    render(App);
    await screen.findByRole('region', { name: '本月概览' });
    await fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true });
    await fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true });
    await vi.waitFor(() =>
      expect(fake.calls.filter((c) => c.name === 'undo' || c.name === 'redo').map((c) => c.name)).toEqual(['undo', 'redo', 'redo']),
    );

    const input = document.createElement('input');
    document.body.append(input);
    await fireEvent.keyDown(input, { key: 'z', ctrlKey: true });
    input.remove();
    expect(fake.inputsOf('undo')).toHaveLength(1);

    await at('#/ledger');
    await screen.findByRole('heading', { name: '明细' });
    await fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await vi.waitFor(() => expect(fake.inputsOf('undo')).toHaveLength(2));
    await fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true });
    await vi.waitFor(() => expect(fake.inputsOf('redo')).toHaveLength(3));
    expect(fake.inputsOf('undo')).toHaveLength(2);
  });
});

describe('books (账本) in the window', () => {
  it('the sidebar switches the book; the title, 首页 and every page follow, also when the tray switched it', async () => {
    fake.books.books.push({ id: 'b-0000000000000001', name: '旅行', createdAt: '2026-02-01T00:00:00.000Z', archived: false });
    fake.books.books.push({ id: 'b-0000000000000002', name: '旧生意', createdAt: '2026-02-01T00:00:00.000Z', archived: true });
    render(App);
    const select = (await screen.findByRole('combobox', { name: '当前账本' })) as HTMLSelectElement;
    // Archived books are not offered.
    expect([...select.options].map((o) => o.textContent)).toEqual(['我的账本', '旅行']);
    await vi.waitFor(() => expect(document.title).toBe('随口记 — 我的账本'));
    expect(screen.getByTestId('home-book').textContent).toBe('我的账本');
    const loads = fake.inputsOf('monthSummary').length;

    await fireEvent.change(select, { target: { value: 'b-0000000000000001' } });
    await vi.waitFor(() => expect(document.title).toBe('随口记 — 旅行'));
    expect(fake.inputsOf('switchBook')).toEqual([{ id: 'b-0000000000000001' }]);
    expect(screen.getByTestId('home-book').textContent).toBe('旅行');
    // 首页 started again from the new book's figures.
    await vi.waitFor(() => expect(fake.inputsOf('monthSummary').length).toBeGreaterThan(loads));

    // The tray switched back: main tells the window.
    fake.books = { ...fake.books, current: 'main' };
    fake.emit({ channel: 'books', event: { type: 'changed', listing: structuredClone(fake.books) } });
    await vi.waitFor(() => expect(document.title).toBe('随口记 — 我的账本'));
    expect(select.value).toBe('main');
  });

  it('a refused switch says why and the switcher stays on the current book', async () => {
    fake.books.books.push({ id: 'b-0000000000000001', name: '坏的', createdAt: '2026-02-01T00:00:00.000Z', archived: false });
    render(App);
    const select = (await screen.findByRole('combobox', { name: '当前账本' })) as HTMLSelectElement;
    fake.failNext('switchBook', { code: 'book_unusable', message: '无法打开账本「坏的」：文件已损坏' });
    await fireEvent.change(select, { target: { value: 'b-0000000000000001' } });
    expect((await screen.findByRole('alert')).textContent).toBe('无法打开账本「坏的」：文件已损坏');
    expect(select.value).toBe('main');
  });
});

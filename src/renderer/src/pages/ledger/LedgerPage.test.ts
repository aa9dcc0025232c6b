import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParseResult } from '../../../../shared/domain';
import { installRealLedgerApi, type RealApi } from '../../lib/ledger/real-api.test-helper';
import { ymdOf } from '../../lib/ledger/ranges';
import UndoToast from '../../lib/ledger/UndoToast.svelte';
import LedgerPage from './LedgerPage.svelte';

// jsdom has no layout engine and no ResizeObserver (bind:clientHeight needs one); the list
// then keeps its default viewport height, which is all these tests rely on.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

let api: RealApi;
const today = ymdOf(new Date());

const item = (over: Partial<ParseResult>): ParseResult => ({
  amount: 10,
  type: 'EXPENSE',
  category: '餐饮',
  description: '',
  date: today,
  account: null,
  confidence: 1,
  source: 'local',
  ...over,
});

beforeEach(() => {
  api = installRealLedgerApi();
  api.ledger.saveBatch([
    item({ amount: 35, description: '午饭' }),
    item({ amount: 12.5, category: '交通', description: '地铁' }),
    item({ amount: 9000, type: 'INCOME', category: '工资', description: '工资' }),
  ]);
});

afterEach(() => {
  cleanup();
  api.close();
});

const summary = () => document.querySelector('p.summary')!.getAttribute('aria-label');

describe('明细 page (real ledger handlers, jsdom)', () => {
  it('shows this month grouped by day with signed amounts and the totals', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    expect(summary()).toBe('共 3 笔，支出 ¥47.50，收入 ¥9000');
    const rows = within(screen.getByRole('listbox', { name: '明细列表' })).getAllByRole('option');
    expect(rows.map((r) => r.querySelector('.amount')!.textContent)).toEqual(expect.arrayContaining(['-35', '-12.50', '+9000']));
    expect(document.querySelector(`.day[data-date="${today}"]`)).not.toBeNull();
  });

  it('filters by type and by search text', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: 'INCOME' } });
    await vi.waitFor(() => expect(summary()).toBe('共 1 笔，支出 ¥0，收入 ¥9000'));
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: '' } });
    await fireEvent.input(screen.getByLabelText('搜索'), { target: { value: '交通' } });
    await fireEvent.keyDown(screen.getByLabelText('搜索'), { key: 'Enter' });
    await vi.waitFor(() => expect(summary()).toBe('共 1 笔，支出 ¥12.50，收入 ¥0'));
  });

  it('deletes after confirmation, offers 撤销 in a toast, and Ctrl+Z undoes', async () => {
    render(LedgerPage);
    await fireEvent.click(await screen.findByRole('button', { name: '删除 午饭' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('午饭');
    await fireEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    const toast = await screen.findByRole('status');
    expect(toast.textContent).toContain('已删除 1 笔');
    await vi.waitFor(() => expect(screen.queryByText('午饭')).toBeNull());
    expect(api.ledger.count()).toBe(2);
    await fireEvent.click(within(toast).getByRole('button', { name: '撤销' }));
    await screen.findByText('午饭');
    expect(api.ledger.count()).toBe(3);

    await fireEvent.click(screen.getByRole('button', { name: '删除 地铁' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    await vi.waitFor(() => expect(api.ledger.count()).toBe(2));
    const toolbarUndo = screen.getAllByRole('button', { name: '撤销' }).find((b) => b.classList.contains('history'))!;
    await vi.waitFor(() => expect(toolbarUndo).toHaveProperty('disabled', false));
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await vi.waitFor(() => expect(api.ledger.count()).toBe(3));
    await fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    await vi.waitFor(() => expect(api.ledger.count()).toBe(2));
  });

  it('a voice save through the history refreshes the list by event', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    api.history.saveBatch([item({ amount: 8.8, description: '奶茶' })]);
    await screen.findByText('奶茶');
  });
});

describe('undo toast', () => {
  it('closes itself after eight seconds', async () => {
    vi.useFakeTimers();
    try {
      const onClose = vi.fn();
      render(UndoToast, { props: { message: '已删除 1 笔', onUndo: () => {}, onClose } });
      vi.advanceTimersByTime(7999);
      expect(onClose).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onClose).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});

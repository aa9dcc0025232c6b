import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import { CALC_ERRORS } from '@shared/calc';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import EntryForm from './EntryForm.svelte';

// The form against a fake of the ledger commands: what it sends, what it refuses to send, and
// its keys. The same flows against the real ledger are in e2e/entry.spec.ts.
let fake: FakeLedgerApi;
const NOW = new Date(2026, 2, 1, 9, 30);

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  fake.handle('recentCategories', ({ type }) => (type === 'EXPENSE' ? [{ id: fake.category('购物').id, name: '购物' }] : []));
  fake.handle('addTransaction', (input) =>
    fake.addRow({ amountFen: Math.round(input.amountYuan * 100), description: input.note ?? '', type: input.type, date: input.date }),
  );
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

function open() {
  const onClose = vi.fn();
  const onSaved = vi.fn<(row: TransactionRow) => void>();
  render(EntryForm, { api: fake.api, onClose, onSaved, now: NOW });
  return { onClose, onSaved, dialog: screen.getByRole('dialog', { name: '记一笔' }) };
}

const amount = () => screen.getByRole('textbox', { name: '金额' }) as HTMLInputElement;
const grid = () => screen.getByRole('radiogroup', { name: '分类' });
const checkedCategory = () => within(grid()).getByRole('radio', { checked: true });

async function loaded() {
  await vi.waitFor(() => expect(checkedCategory().textContent).toBe('购物'));
}

describe('记一笔', () => {
  it('opens on the amount with the recent category first and chosen, today, now and the default account', async () => {
    open();
    await loaded();
    expect(document.activeElement).toBe(amount());
    const cells = within(grid())
      .getAllByRole('radio')
      .map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(['购物', '餐饮', '交通']);
    expect(cells).not.toContain('宠物');
    expect((screen.getByLabelText('日期') as HTMLInputElement).value).toBe('2026-03-01');
    expect((screen.getByLabelText('时间') as HTMLInputElement).value).toBe('09:30');
    expect((screen.getByRole('combobox', { name: '账户' }) as HTMLSelectElement).value).toBe('钱包');
    expect(screen.getByRole('button', { name: '今天' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('evaluates 12+8.5, moves in the grid with the arrows and saves on Enter from any field', async () => {
    const { onSaved } = open();
    await loaded();
    await fireEvent.input(amount(), { target: { value: '12+8.5' } });
    expect(amount().getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(amount().getAttribute('aria-describedby')!)!.textContent!.trim()).toBe('= 20.50');

    await fireEvent.keyDown(checkedCategory(), { key: 'ArrowRight' });
    expect(checkedCategory().textContent).toBe('餐饮');
    expect(document.activeElement).toBe(checkedCategory());
    await fireEvent.keyDown(checkedCategory(), { key: 'ArrowDown' });
    const below = checkedCategory().textContent;
    expect(below).not.toBe('餐饮');

    await fireEvent.click(screen.getByRole('button', { name: '昨天' }));
    await fireEvent.input(screen.getByRole('textbox', { name: '备注' }), { target: { value: '午饭' } });
    await fireEvent.keyDown(screen.getByRole('textbox', { name: '备注' }), { key: 'Enter' });
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(fake.inputsOf('addTransaction')).toEqual([
      { amountYuan: 20.5, type: 'EXPENSE', category: below, date: '2026-02-28', time: '09:30', account: '钱包', note: '午饭' },
    ]);
  });

  it('shows a bad amount inline and sends nothing', async () => {
    const { onSaved } = open();
    await loaded();
    for (const [text, error] of [
      ['', CALC_ERRORS.empty],
      ['-3', CALC_ERRORS.negative],
      ['12++3', CALC_ERRORS.operator],
      ['abc', CALC_ERRORS.badChar],
    ] as const) {
      await fireEvent.input(amount(), { target: { value: text } });
      await fireEvent.keyDown(amount(), { key: 'Enter' });
      expect(amount().getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(amount().getAttribute('aria-describedby')!)!.textContent!.trim()).toBe(error);
    }
    expect(fake.inputsOf('addTransaction')).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
    // The error follows the typing once shown.
    await fireEvent.input(amount(), { target: { value: '8' } });
    expect(amount().getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the ledger refusal and keeps the values', async () => {
    await fake.api.addAccount({ name: '微信' });
    const { onSaved } = open();
    await loaded();
    await fireEvent.click(screen.getByRole('radio', { name: '转账' }));
    expect(screen.queryByRole('radiogroup', { name: '分类' })).toBeNull();
    await fireEvent.input(amount(), { target: { value: '100' } });
    const to = screen.getByRole('combobox', { name: '转入账户' }) as HTMLSelectElement;
    expect(to.value).toBe('微信');
    await fireEvent.change(to, { target: { value: '钱包' } });
    fake.failNext('addTransaction', { code: 'invalid_transaction', message: '转出和转入不能是同一个账户' });
    await fireEvent.keyDown(to, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('转出和转入不能是同一个账户');
    expect(amount().value).toBe('100');
    expect(onSaved).not.toHaveBeenCalled();
    // A changed value clears the refusal; the next save answers afresh.
    await fireEvent.change(to, { target: { value: '微信' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fake.inputsOf('addTransaction')).toEqual([
      { amountYuan: 100, type: 'TRANSFER', date: '2026-03-01', time: '09:30', account: '钱包', toAccount: '钱包' },
    ]);
  });

  it('closes on Esc and gives focus back to where it was', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const { onClose } = open();
    await loaded();
    await fireEvent.keyDown(amount(), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    cleanup();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('keeps its keys from the window shortcuts of the page behind it', async () => {
    const behind = vi.fn();
    window.addEventListener('keydown', behind);
    open();
    await loaded();
    await fireEvent.keyDown(checkedCategory(), { key: ' ', code: 'Space' });
    await fireEvent.keyDown(checkedCategory(), { key: 'z', ctrlKey: true });
    window.removeEventListener('keydown', behind);
    expect(behind).not.toHaveBeenCalled();
  });

  it('keeps Tab inside the dialog', async () => {
    open();
    await loaded();
    const save = screen.getByRole('button', { name: '保存' });
    save.focus();
    await fireEvent.keyDown(save, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: '支出' }));
    await fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(save);
  });
});

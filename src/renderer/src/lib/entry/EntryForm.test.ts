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
    expect(document.getElementById(amount().getAttribute('aria-describedby')!)!.textContent!.trim()).toBe('= ¥20.50');

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

  it('adds tags with Enter or a comma, drops a repeat and a leading #, removes with ×, and sends them', async () => {
    fake.addRow({ amountFen: 100, description: '旧账', tags: ['报销', '出差'] });
    const { onSaved } = open();
    await loaded();
    await vi.waitFor(() => expect(fake.inputsOf('listTags')).toHaveLength(1));
    const box = screen.getByRole('textbox', { name: '添加标签' }) as HTMLInputElement;
    const chips = () => [...document.querySelectorAll('.chip')].map((c) => c.firstChild!.textContent);

    await fireEvent.input(box, { target: { value: '出差' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    // Enter in the tag box adds the tag; it does not save the form.
    expect(chips()).toEqual(['#出差']);
    expect(box.value).toBe('');
    expect(fake.inputsOf('addTransaction')).toEqual([]);

    await fireEvent.input(box, { target: { value: '＃出差' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await fireEvent.input(box, { target: { value: '装修，家' } });
    expect(chips()).toEqual(['#出差', '#装修']);
    expect(box.value).toBe('家');

    // What is known and not chosen is suggested; a click adds it.
    await fireEvent.input(box, { target: { value: '' } });
    await fireEvent.focus(box);
    const suggested = screen.getByRole('group', { name: '标签建议' });
    expect(
      within(suggested)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['#报销']);
    await fireEvent.click(within(suggested).getByRole('button', { name: '#报销' }));
    expect(chips()).toEqual(['#出差', '#装修', '#报销']);

    await fireEvent.click(screen.getByRole('button', { name: '移除标签 装修' }));
    expect(chips()).toEqual(['#出差', '#报销']);

    await fireEvent.input(box, { target: { value: '一二三四五六七八九十一二三四五六七八九十一' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toBe('标签最多20个字');
    await fireEvent.input(box, { target: { value: '' } });

    await fireEvent.input(amount(), { target: { value: '88' } });
    await fireEvent.keyDown(amount(), { key: 'Enter' });
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(fake.inputsOf('addTransaction')[0]).toMatchObject({ amountYuan: 88, tags: ['出差', '报销'] });
  });

  it('lists sub-categories right after their parent, naming the parent', async () => {
    const dining = fake.category('餐饮').id;
    fake.categories.push({ id: 900, name: '早餐', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 0, count: 0, parentId: dining });
    fake.categories.push({
      id: 901,
      name: '猫粮',
      type: 'EXPENSE',
      hidden: false,
      preset: false,
      sortOrder: 0,
      count: 0,
      parentId: fake.category('宠物').id,
    });
    open();
    await loaded();
    const cells = within(grid()).getAllByRole('radio');
    expect(cells.map((c) => c.textContent).slice(0, 4)).toEqual(['购物', '餐饮', '早餐', '交通']);
    expect(cells[2]!.getAttribute('aria-label')).toBe('餐饮 › 早餐');
    // Under a hidden parent a sub-category is hidden too.
    expect(cells.map((c) => c.textContent)).not.toContain('猫粮');
  });

  it('marks spending 待报销, and sends it only for spending', async () => {
    open();
    await loaded();
    await fireEvent.input(amount(), { target: { value: '80' } });
    await fireEvent.click(screen.getByRole('checkbox', { name: /待报销/ }));
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(fake.inputsOf('addTransaction')).toHaveLength(1));
    expect(fake.inputsOf('addTransaction')[0]).toMatchObject({ amountYuan: 80, type: 'EXPENSE', reimbursable: true });
  });

  it('offers the five money flows under 转账 → 别人 and saves one through recordFlow, with the day and no time', async () => {
    fake.handle('listPeople', () => ({
      people: [{ id: 1, name: '小李', balanceFen: 700_00, count: 1, archived: false }],
      owedToMeFen: 700_00,
      iOweFen: 0,
    }));
    fake.handle('pendingReimbursements', () => ({ rows: [], totalFen: 0 }));
    fake.handle('recordFlow', (input) =>
      fake.addRow({ amountFen: Math.round(input.amountYuan * 100), description: '', type: 'TRANSFER', date: input.date }),
    );
    const { onSaved } = open();
    await loaded();
    await fireEvent.click(screen.getByRole('radio', { name: '转账' }));
    await fireEvent.input(amount(), { target: { value: '300' } });
    await fireEvent.click(screen.getByRole('button', { name: '别人' }));
    const kinds = screen.getByRole('group', { name: '这笔是' });
    expect(
      within(kinds)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['普通转账', '借出', '借入', '还款', '收回', '报销到账']);
    await fireEvent.click(within(kinds).getByRole('button', { name: '收回' }));
    expect(screen.queryByLabelText('时间')).toBeNull();
    await fireEvent.input(screen.getByRole('combobox', { name: '对方' }), { target: { value: '小李' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(fake.inputsOf('recordFlow')).toEqual([{ flow: 'collect', amountYuan: 300, counterparty: '小李', account: '钱包', date: '2026-03-01' }]);
    expect(fake.inputsOf('addTransaction')).toEqual([]);
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

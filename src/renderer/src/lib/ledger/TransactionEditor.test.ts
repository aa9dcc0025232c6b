import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { formatDay } from '../format';
import TransactionEditor from './TransactionEditor.svelte';

// The edit form offers the accounts a row may move to: open ones, plus the archived one it is already in.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  fake.handle('refundCandidates', () => []);
  fake.handle('updateTransaction', ({ id }) => fake.rows.find((r) => r.id === id)!);
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const cash = { kind: 'cash', statementDay: null, dueDay: null, creditLimitFen: null } as const;
const accounts: AccountInfo[] = [
  { id: 1, name: '钱包', isDefault: true, count: 1, archived: false, ...cash },
  { id: 2, name: '招行卡', isDefault: false, count: 1, archived: true, ...cash },
  { id: 3, name: '微信', isDefault: false, count: 0, archived: false, ...cash },
];

const options = () => [...(screen.getByRole('combobox', { name: '账户' }) as HTMLSelectElement).options].map((o) => o.textContent);

describe('TransactionEditor', () => {
  it('leaves archived accounts out of the account choices', () => {
    const row = fake.addRow({ amountFen: 3500, description: '午饭' });
    render(TransactionEditor, { row, categories: [], accounts, onDone: () => {} });
    expect(options()).toEqual(['钱包', '微信']);
  });

  it('keeps the archived account a row is already in, marked as such', () => {
    const row = fake.addRow({ amountFen: 3500, description: '午饭', account: '招行卡' });
    render(TransactionEditor, { row, categories: [], accounts, onDone: () => {} });
    expect(options()).toEqual(['钱包', '招行卡（已归档）', '微信']);
  });

  const categories = () => fake.categories;

  it('marks a plain expense 待报销 and sends only that change', async () => {
    const row = fake.addRow({ amountFen: 8000, description: '出差打车', category: '交通' });
    let done = false;
    render(TransactionEditor, { row, categories: categories(), accounts, onDone: () => (done = true) });
    await fireEvent.click(screen.getByRole('checkbox', { name: '待报销' }));
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(true));
    expect(fake.inputsOf('updateTransaction')).toEqual([{ id: row.id, patch: { reimbursable: true } }]);
  });

  it('offers no 待报销 on income or on a refund, and shows a paid-back expense as 已报销 that cannot be unmarked', () => {
    const paid = fake.addRow({ amountFen: 8000, description: '打车', reimbursable: true, reimbursedBy: 't9' });
    render(TransactionEditor, { row: paid, categories: categories(), accounts, onDone: () => {} });
    expect((screen.getByRole('checkbox', { name: '已报销' }) as HTMLInputElement).disabled).toBe(true);
    cleanup();
    const refund = fake.addRow({ amountFen: 100, description: '退款', flow: 'refund', refundOf: null });
    render(TransactionEditor, { row: refund, categories: categories(), accounts, onDone: () => {} });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('relinks a refund to another expense picked from the candidates, taking its category', async () => {
    const shoes = fake.addRow({ amountFen: 500_00, description: '淘宝买鞋', category: '购物', date: '2026-02-01' });
    const refund = fake.addRow({ amountFen: 300_00, description: '退了', category: '餐饮', flow: 'refund', refundOf: null });
    fake.handle('refundCandidates', () => [
      { id: shoes.id, amountFen: 500_00, refundedFen: 0, description: '淘宝买鞋', date: '2026-02-01', category: '购物', account: '钱包', score: 8 },
      { id: refund.id, amountFen: 300_00, refundedFen: 0, description: '退了', date: '2026-02-02', category: '餐饮', account: '钱包', score: 1 },
    ]);
    let done = false;
    render(TransactionEditor, { row: refund, categories: categories(), accounts, onDone: () => (done = true) });
    // A refund is named as one, never offered as 支出 or 收入.
    expect(screen.queryByRole('combobox', { name: '类型' })).toBeNull();
    expect([(screen.getByLabelText('类型') as HTMLInputElement).value, (screen.getByLabelText('类型') as HTMLInputElement).readOnly]).toEqual([
      '退款',
      true,
    ]);
    const picker = screen.getByRole('combobox', { name: '退的是哪一笔' }) as HTMLSelectElement;
    // The refund itself is never offered as what it returns.
    await vi.waitFor(() =>
      expect([...picker.options].map((o) => o.textContent)).toEqual(['不关联（只算作该分类的退款）', `${formatDay('2026-02-01')} 淘宝买鞋 ¥500.00`]),
    );
    await fireEvent.change(picker, { target: { value: shoes.id } });
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(true));
    expect(fake.inputsOf('updateTransaction')).toEqual([{ id: refund.id, patch: { category: '购物', refundOf: shoes.id } }]);
  });

  it('edits the row’s tags and patches only them', async () => {
    fake.addRow({ amountFen: 100, description: '旧账', tags: ['装修'] });
    const row = fake.addRow({ amountFen: 8000, description: '打车', category: '交通', tags: ['出差', '报销'] });
    let done = false;
    render(TransactionEditor, { row, categories: categories(), accounts, onDone: () => (done = true) });
    expect([...document.querySelectorAll('.chip')].map((c) => c.firstChild!.textContent)).toEqual(['#出差', '#报销']);
    await fireEvent.click(screen.getByRole('button', { name: '移除标签 报销' }));
    const box = screen.getByRole('textbox', { name: '添加标签' });
    await fireEvent.input(box, { target: { value: '装' } });
    await fireEvent.click(await screen.findByRole('button', { name: '#装修' }));
    await fireEvent.input(box, { target: { value: '出差' } });
    // Enter adds (a repeat is dropped) and does not submit the form.
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(done).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(true));
    expect(fake.inputsOf('updateTransaction')).toEqual([{ id: row.id, patch: { tags: ['出差', '装修'] } }]);
  });

  it('sends an empty list to take every tag off, and nothing when the tags are as they were', async () => {
    const row = fake.addRow({ amountFen: 8000, description: '打车', tags: ['出差'] });
    let done = 0;
    render(TransactionEditor, { row, categories: categories(), accounts, onDone: () => done++ });
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(1));
    expect(fake.inputsOf('updateTransaction')).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: '移除标签 出差' }));
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(2));
    expect(fake.inputsOf('updateTransaction')).toEqual([{ id: row.id, patch: { tags: [] } }]);
  });

  it('starts the amount as typed money (35.50), and in a book that syncs shows 记账人 read-only, sending nothing of it', async () => {
    const row = fake.addRow({ amountFen: 3550, description: '午饭', recordedBy: '小王的电脑' });
    let done = false;
    render(TransactionEditor, { row, categories: categories(), accounts, showRecorder: true, onDone: () => (done = true) });
    expect((screen.getByRole('textbox', { name: '金额' }) as HTMLInputElement).value).toBe('35.50');
    const recorder = screen.getByLabelText('记账人') as HTMLInputElement;
    expect([recorder.value, recorder.readOnly]).toEqual(['小王的电脑', true]);
    await fireEvent.input(screen.getByRole('textbox', { name: '备注' }), { target: { value: '和同事吃午饭' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(done).toBe(true));
    expect(fake.inputsOf('updateTransaction')).toEqual([{ id: row.id, patch: { description: '和同事吃午饭' } }]);
  });

  it('shows no 记账人 outside a synced book, nor for a row recorded before it was kept', () => {
    const named = fake.addRow({ amountFen: 3500, description: '午饭', recordedBy: '小王的电脑' });
    render(TransactionEditor, { row: named, categories: categories(), accounts, onDone: () => {} });
    expect(screen.queryByLabelText('记账人')).toBeNull();
    cleanup();
    const old = fake.addRow({ amountFen: 3500, description: '旧账' });
    render(TransactionEditor, { row: old, categories: categories(), accounts, showRecorder: true, onDone: () => {} });
    expect(screen.queryByLabelText('记账人')).toBeNull();
  });

  it('lists sub-categories indented under their parent', () => {
    fake.categories.push({
      id: 900,
      name: '早餐',
      type: 'EXPENSE',
      hidden: false,
      preset: false,
      sortOrder: 0,
      count: 0,
      parentId: fake.category('餐饮').id,
    });
    const row = fake.addRow({ amountFen: 800, description: '包子', category: '早餐', parentCategory: '餐饮' });
    render(TransactionEditor, { row, categories: categories(), accounts, onDone: () => {} });
    const picker = screen.getByRole('combobox', { name: '分类' }) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent).slice(0, 3)).toEqual(['餐饮', '\u3000早餐', '交通']);
    expect(picker.value).toBe('早餐');
  });
});

import { describe, expect, it } from 'vitest';
import { CALC_ERRORS } from '@shared/calc';
import type { CategoryInfo } from '@shared/ipc/ledger';
import { amountPreview, entryRequest, gridMove, localDay, localTime, orderCategories, type EntryFields } from './entry';
import { historyKey, isNewEntryKey, type ShortcutKey } from './shortcuts';

const category = (id: number, name: string, sortOrder: number, extra: Partial<CategoryInfo> = {}): CategoryInfo => ({
  id,
  name,
  type: 'EXPENSE',
  hidden: false,
  preset: true,
  sortOrder,
  count: 0,
  parentId: null,
  ...extra,
});

describe('dates and times on the local clock', () => {
  it('steps back over month and year ends', () => {
    const newYear = new Date(2026, 0, 1, 0, 5);
    expect(localDay(newYear)).toBe('2026-01-01');
    expect(localDay(newYear, 1)).toBe('2025-12-31');
    expect(localDay(new Date(2024, 2, 1, 23, 59), 1)).toBe('2024-02-29');
    expect(localDay(new Date(2024, 2, 1), 2)).toBe('2024-02-28');
  });

  it('writes HH:MM', () => {
    expect(localTime(new Date(2026, 5, 7, 8, 3, 59))).toBe('08:03');
    expect(localTime(new Date(2026, 5, 7, 23, 59))).toBe('23:59');
  });
});

describe('the amount preview', () => {
  it('shows the result to the fen', () => {
    expect(amountPreview('12+8.5')).toEqual({ ok: true, fen: 2050, label: '= ¥20.50' });
    expect(amountPreview('35')).toEqual({ ok: true, fen: 3500, label: '= ¥35.00' });
    expect(amountPreview('10/3')).toEqual({ ok: true, fen: 333, label: '= ¥3.33' });
  });

  it('names what is wrong', () => {
    expect(amountPreview('')).toEqual({ ok: false, error: CALC_ERRORS.empty });
    expect(amountPreview('12++3')).toEqual({ ok: false, error: CALC_ERRORS.operator });
    expect(amountPreview('1e9')).toEqual({ ok: false, error: CALC_ERRORS.badChar });
  });
});

describe('the category grid', () => {
  const all = [
    category(1, '餐饮', 0),
    category(2, '交通', 1),
    category(3, '购物', 2),
    category(4, '宠物', 3, { hidden: true }),
    category(5, '娱乐', 4),
    category(6, '工资', 0, { type: 'INCOME' }),
    category(7, '医疗', 5),
  ];

  it('puts the three most recent first, then the rest in the user order, hidden ones out', () => {
    const recent = [
      { id: 7, name: '医疗' },
      { id: 3, name: '购物' },
    ];
    expect(orderCategories(all, recent, 'EXPENSE')).toEqual(['医疗', '购物', '餐饮', '交通', '娱乐']);
    expect(orderCategories(all, [], 'EXPENSE')).toEqual(['餐饮', '交通', '购物', '娱乐', '医疗']);
    expect(orderCategories(all, [], 'INCOME')).toEqual(['工资']);
  });

  it('keeps at most three recent ones and ignores hidden or other-type ones', () => {
    const recent = [
      { id: 4, name: '宠物' },
      { id: 6, name: '工资' },
      { id: 5, name: '娱乐' },
      { id: 2, name: '交通' },
      { id: 1, name: '餐饮' },
      { id: 3, name: '购物' },
    ];
    expect(orderCategories(all, recent, 'EXPENSE')).toEqual(['娱乐', '交通', '餐饮', '购物', '医疗']);
  });

  it('moves by cell and by row with the arrow keys, staying inside the grid', () => {
    // 12 cells, 5 wide: rows 0–4, 5–9, 10–11.
    expect(gridMove(0, 'ArrowRight', 12, 5)).toBe(1);
    expect(gridMove(0, 'ArrowLeft', 12, 5)).toBe(0);
    expect(gridMove(11, 'ArrowRight', 12, 5)).toBe(11);
    expect(gridMove(2, 'ArrowDown', 12, 5)).toBe(7);
    expect(gridMove(7, 'ArrowDown', 12, 5)).toBe(7);
    expect(gridMove(6, 'ArrowDown', 12, 5)).toBe(11);
    expect(gridMove(11, 'ArrowUp', 12, 5)).toBe(6);
    expect(gridMove(3, 'ArrowUp', 12, 5)).toBe(3);
    expect(gridMove(6, 'Home', 12, 5)).toBe(0);
    expect(gridMove(6, 'End', 12, 5)).toBe(11);
    expect(gridMove(6, 'a', 12, 5)).toBeNull();
  });
});

describe('the addTransaction request', () => {
  const base: EntryFields = {
    type: 'EXPENSE',
    amountText: '12+8.5',
    category: '餐饮',
    date: '2026-03-01',
    time: '12:30',
    account: '钱包',
    note: '  午饭 ',
    transferTo: 'account',
    toAccount: '微信',
    counterparty: '',
  };

  it('sends the evaluated yuan, the category and the trimmed note', () => {
    expect(entryRequest(base)).toEqual({
      ok: true,
      request: { amountYuan: 20.5, type: 'EXPENSE', category: '餐饮', date: '2026-03-01', time: '12:30', account: '钱包', note: '午饭' },
    });
  });

  it('stops at a bad amount or a missing category', () => {
    expect(entryRequest({ ...base, amountText: '0' })).toEqual({ ok: false, field: 'amount', error: CALC_ERRORS.zero });
    expect(entryRequest({ ...base, category: '' })).toEqual({ ok: false, field: 'category', error: '请选择分类' });
  });

  it('sends a transfer to an account or to a counterparty, never a category', () => {
    const transfer = { ...base, type: 'TRANSFER' as const, note: '' };
    expect(entryRequest(transfer)).toEqual({
      ok: true,
      request: { amountYuan: 20.5, type: 'TRANSFER', date: '2026-03-01', time: '12:30', account: '钱包', toAccount: '微信' },
    });
    expect(entryRequest({ ...transfer, transferTo: 'counterparty', counterparty: ' 张三 ' })).toEqual({
      ok: true,
      request: { amountYuan: 20.5, type: 'TRANSFER', date: '2026-03-01', time: '12:30', account: '钱包', counterparty: '张三' },
    });
    expect(entryRequest({ ...transfer, transferTo: 'counterparty' })).toMatchObject({ ok: false, field: 'to' });
    expect(entryRequest({ ...transfer, toAccount: '' })).toMatchObject({ ok: false, field: 'to' });
  });
});

describe('the window shortcuts', () => {
  const key = (k: string, mods: Partial<ShortcutKey> = {}): ShortcutKey => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    target: document.body,
    ...mods,
  });

  it('Ctrl+N and Cmd+N open the form', () => {
    expect(isNewEntryKey(key('n', { ctrlKey: true }))).toBe(true);
    expect(isNewEntryKey(key('N', { metaKey: true }))).toBe(true);
    expect(isNewEntryKey(key('n'))).toBe(false);
    expect(isNewEntryKey(key('n', { ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it('Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, except inside a text field', () => {
    expect(historyKey(key('z', { ctrlKey: true }))).toBe('undo');
    expect(historyKey(key('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(historyKey(key('y', { ctrlKey: true }))).toBe('redo');
    expect(historyKey(key('z', { metaKey: true }))).toBe('undo');
    expect(historyKey(key('z'))).toBeNull();
    expect(historyKey(key('x', { ctrlKey: true }))).toBeNull();
    const input = document.createElement('input');
    expect(historyKey(key('z', { ctrlKey: true, target: input }))).toBeNull();
    const button = document.createElement('button');
    expect(historyKey(key('z', { ctrlKey: true, target: button }))).toBe('undo');
  });
});

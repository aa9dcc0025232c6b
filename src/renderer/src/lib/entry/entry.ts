// The 记一笔 form's pure parts: the amount's live result, the category order, the grid's
// arrow keys, the date quick picks and the request sent to addTransaction.
import type { TransactionType } from '@shared/domain';
import { evaluateAmount } from '@shared/calc';
import type { CommandInput } from '@shared/ipc/index';
import type { CategoryInfo, RecentCategory } from '@shared/ipc/ledger';
import { categoryTree, hiddenInTree } from '../categories/tree';
import { formatFenAmount } from '../format';

export type EntryRequest = CommandInput<'addTransaction'>;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar day `daysBack` days before `now` (the ledger stores the user's wall clock). */
export function localDay(now: Date, daysBack = 0): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** HH:MM on the local clock. */
export function localTime(now: Date): string {
  return `${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

export const QUICK_DAYS = [
  { label: '今天', daysBack: 0 },
  { label: '昨天', daysBack: 1 },
  { label: '前天', daysBack: 2 },
] as const;

/** What the amount field shows under itself: 「= ¥20.50」 or why it cannot be saved. */
export function amountPreview(text: string): { ok: true; fen: number; label: string } | { ok: false; error: string } {
  const result = evaluateAmount(text);
  return result.ok ? { ok: true, fen: result.fen, label: `= ${formatFenAmount(result.fen)}` } : result;
}

/**
 * The grid's order: the recently used first (at most 3), then the rest in the user's order,
 * each sub-category right after its parent; hidden ones (and those under a hidden parent) left out.
 */
export function orderCategories(all: readonly CategoryInfo[], recent: readonly RecentCategory[], type: TransactionType): string[] {
  const visible = categoryTree(all, type)
    .filter((line) => !hiddenInTree(line))
    .map((line) => line.category.name);
  const first = recent.map((r) => r.name).filter((name, i, names) => visible.includes(name) && names.indexOf(name) === i);
  return [...first.slice(0, 3), ...visible.filter((name) => !first.slice(0, 3).includes(name))];
}

/** The index the arrow (or Home/End) key moves to in a grid of `count` cells, `columns` wide; null for other keys. */
export function gridMove(index: number, key: string, count: number, columns: number): number | null {
  const clamp = (i: number) => Math.min(count - 1, Math.max(0, i));
  switch (key) {
    case 'ArrowRight':
      return clamp(index + 1);
    case 'ArrowLeft':
      return clamp(index - 1);
    case 'ArrowDown':
      return index + columns < count ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export interface EntryFields {
  type: TransactionType;
  amountText: string;
  category: string;
  date: string;
  time: string;
  account: string;
  note: string;
  /** TRANSFER: where the money goes — one of the user's accounts, or someone outside them. */
  transferTo: 'account' | 'counterparty';
  toAccount: string;
  counterparty: string;
  /** Absent or empty: no tags sent. */
  tags?: string[];
  /** 待报销 (spending only): left out of net spending until it is paid back. */
  reimbursable?: boolean;
}

export type EntryCheck = { ok: true; request: EntryRequest } | { ok: false; field: 'amount' | 'category' | 'to'; error: string };

/** The addTransaction request for the form's values, or the first field that stops it. */
export function entryRequest(fields: EntryFields): EntryCheck {
  const amount = evaluateAmount(fields.amountText);
  if (!amount.ok) return { ok: false, field: 'amount', error: amount.error };
  const request: EntryRequest = { amountYuan: amount.yuan, type: fields.type, date: fields.date, time: fields.time };
  if (fields.account) request.account = fields.account;
  const note = fields.note.trim();
  if (note) request.note = note;
  // A copy: the form's list is reactive state, which the IPC transport cannot clone.
  if (fields.tags?.length) request.tags = [...fields.tags];
  if (fields.type !== 'TRANSFER') {
    if (!fields.category) return { ok: false, field: 'category', error: '请选择分类' };
    request.category = fields.category;
    if (fields.type === 'EXPENSE' && fields.reimbursable) request.reimbursable = true;
  } else if (fields.transferTo === 'account') {
    if (!fields.toAccount) return { ok: false, field: 'to', error: '请选择转入账户' };
    request.toAccount = fields.toAccount;
  } else {
    const counterparty = fields.counterparty.trim();
    if (!counterparty) return { ok: false, field: 'to', error: '请填写对方，例如：张三' };
    request.counterparty = counterparty;
  }
  return { ok: true, request };
}

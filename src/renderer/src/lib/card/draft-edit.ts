import type { ParseResult, TransactionType, UpdatedFields } from '@shared/domain';
import { PRESET_CATEGORIES } from '@shared/categories';
import { isCalendarDate } from '@shared/time';
import { MAX_AMOUNT_YUAN } from '@shared/money';

export interface DraftForm {
  amount: string;
  type: TransactionType;
  category: string;
  date: string;
  description: string;
}

export function formFromResult(result: ParseResult, today: string): DraftForm {
  return {
    amount: result.amount === null ? '' : String(result.amount),
    type: result.type,
    category: result.category ?? '',
    date: result.date ?? today,
    description: result.description,
  };
}

const VISIBLE_PRESETS = PRESET_CATEGORIES.filter((c) => !c.hidden);

/** The categories of a type on offer, plus the draft's own if it is not among them. */
export function categoryOptions(
  type: TransactionType,
  current: string,
  available: readonly { name: string; type: TransactionType }[] = VISIBLE_PRESETS,
): string[] {
  const names = available.filter((c) => c.type === type).map((c) => c.name);
  return current && !names.includes(current) ? [current, ...names] : names;
}

export type EditCheck = { ok: true; fields: UpdatedFields } | { ok: false; message: string };

/**
 * Only the fields the user changed, so an edit is the same kind of targeted correction as
 * 「第二笔改成35」; a date left at today's value for a null date is not a change.
 */
export function changedFields(result: ParseResult, form: DraftForm, today: string): EditCheck {
  const fields: UpdatedFields = {};
  const amountText = form.amount.trim();
  if (amountText !== (result.amount === null ? '' : String(result.amount))) {
    const amount = Number(amountText);
    if (amountText === '' || !Number.isFinite(amount) || amount <= 0) return { ok: false, message: '金额应为大于 0 的数字。' };
    if (amount > MAX_AMOUNT_YUAN) return { ok: false, message: '金额太大了，请检查。' };
    if (Math.round(amount * 100) !== amount * 100 && Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) {
      return { ok: false, message: '金额最多保留两位小数。' };
    }
    fields.amount = amount;
  }
  if (form.type !== result.type) fields.type = form.type;
  const category = form.category.trim();
  if (category && category !== (result.category ?? '')) fields.category = category;
  if (form.date !== (result.date ?? today)) {
    if (!isCalendarDate(form.date)) return { ok: false, message: '日期应为有效的 年-月-日。' };
    fields.date = form.date;
  }
  const description = form.description.trim();
  if (description !== result.description.trim()) {
    if (description.length > 100) return { ok: false, message: '备注最多 100 个字。' };
    fields.description = description;
  }
  return { ok: true, fields };
}

/** Today in the renderer's own zone, the same day the ledger assigns to a null date. */
export function localToday(now: Date = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Shown in a draft's amount place while the amount is missing (`amount === null`). */
export const MISSING_AMOUNT = '缺金额';

/** Why a draft without an amount cannot be confirmed yet, and what to do about it. */
export const MISSING_AMOUNT_HINT = '请先说出或填写金额';

import type { BudgetLevel, BudgetLine } from '@shared/ipc/ledger';
import { budgetName } from '@shared/budget-text';
import { evaluateAmount } from '@shared/calc';
import { amountInputText, formatMoney, formatMonth } from '../format';
import { ymdOf } from '../ledger/ranges';

// The 预算 page's pure parts: months in the window's local calendar, the words under a bar,
// and the batch editor's fields checked into the setBudgets items.

/** YYYY-MM of `date` in the window's local time. */
export function monthOf(date: Date): string {
  return ymdOf(date).slice(0, 7);
}

/** The month `delta` months after `month` (YYYY-MM). */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(y, m - 1 + delta, 1));
}

/** 2026年11月 */
export function monthLabel(month: string): string {
  return formatMonth(month);
}

/** The level's words, so a bar never speaks through colour only. */
export const LEVEL_LABELS: Record<BudgetLevel, string> = { ok: '正常', warn: '接近预算', over: '已超支' };

/** 「剩余 ¥180.00」 or 「超出 ¥20.50」; exactly spent is 「剩余 ¥0.00」. */
export function remainderText(line: BudgetLine): string {
  const left = line.budgetFen - line.spentFen;
  return left >= 0 ? `剩余 ${formatMoney(left)}` : `超出 ${formatMoney(-left)}`;
}

/** The line's name: its category, or 总预算. */
export function lineName(line: BudgetLine): string {
  return budgetName(line.category);
}

/** One input of the batch editor: a category (or the total, categoryId null) and what the user typed. */
export interface BudgetField {
  categoryId: number | null;
  text: string;
}

export type BudgetFormResult =
  | { ok: true; items: { categoryId: number | null; amountYuan: number }[] }
  /** The error sentence per field index; fields without one are fine. */
  | { ok: false; errors: Map<number, string> };

/** Empty fields mean no budget; any other text must be a positive amount (calculator allowed). */
export function checkBudgetFields(fields: readonly BudgetField[]): BudgetFormResult {
  const items: { categoryId: number | null; amountYuan: number }[] = [];
  const errors = new Map<number, string>();
  fields.forEach((field, i) => {
    if (field.text.trim() === '') return;
    const result = evaluateAmount(field.text);
    if (result.ok) items.push({ categoryId: field.categoryId, amountYuan: result.yuan });
    else errors.set(i, result.error.replace('金额', '预算金额'));
  });
  return errors.size > 0 ? { ok: false, errors } : { ok: true, items };
}

/** The field's starting text: the budget in force, in yuan, or empty. */
export function fieldText(line: BudgetLine | null | undefined): string {
  return line ? amountInputText(line.budgetFen) : '';
}

import type { BudgetAlert } from './ipc/ledger';
import { fenToYuan, formatYuan } from './money';

/** The budget's name in sentences: its category, or 总预算 for the month's total. */
export function budgetName(category: string | null): string {
  return category ?? '总预算';
}

/**
 * One crossed threshold as the user reads or hears it (「餐饮本月已用 82%」): the voice
 * session's line, the native notification's body and the window's banner say the same.
 */
export function budgetAlertText(alert: BudgetAlert): string {
  return `${budgetName(alert.category)}本月已用 ${alert.percent}%`;
}

/** The notification's detail line: 「已用 820 元，预算 1000 元」. */
export function budgetAlertDetail(alert: BudgetAlert): string {
  return `已用 ${formatYuan(fenToYuan(alert.spentFen))} 元，预算 ${formatYuan(fenToYuan(alert.budgetFen))} 元`;
}

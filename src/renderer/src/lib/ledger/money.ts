import type { TransactionType } from '@shared/domain';
import { formatFen, MAX_AMOUNT_YUAN } from '@shared/money';

/** -35 for an expense, +9000 for an income, 500 for a transfer. */
export function signedFen(type: TransactionType, fen: number): string {
  return `${type === 'EXPENSE' ? '-' : type === 'INCOME' ? '+' : ''}${formatFen(fen)}`;
}

export function yuanText(fen: number): string {
  return `¥${formatFen(fen)}`;
}

/** ¥5000, -¥1200.50: an account balance, overdrawn ones with the minus before the sign. */
export function balanceText(fen: number): string {
  return fen < 0 ? `-¥${formatFen(-fen)}` : `¥${formatFen(fen)}`;
}

/**
 * The 初始余额 field in yuan: empty is 0; a minus is allowed (a credit card that starts in
 * debt); at most two decimals. Throws an Error whose message is the inline hint.
 */
export function parseBalanceInput(text: string): number {
  const clean = text.trim().replace(/^[－−]/, '-');
  if (clean === '') return 0;
  if (!/^-?\d+(\.\d{1,2})?$/.test(clean)) throw new Error('初始余额应为金额，可为负数，最多两位小数，如 5000 或 -1200.50');
  const yuan = Number(clean);
  if (Math.abs(yuan) > MAX_AMOUNT_YUAN) throw new Error('初始余额超过上限（1亿元）');
  return yuan + 0;
}

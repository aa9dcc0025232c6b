import type { TransactionType } from '@shared/domain';
import { formatFen } from '@shared/money';

/** -35 for an expense, +9000 for an income, 500 for a transfer. */
export function signedFen(type: TransactionType, fen: number): string {
  return `${type === 'EXPENSE' ? '-' : type === 'INCOME' ? '+' : ''}${formatFen(fen)}`;
}

export function yuanText(fen: number): string {
  return `¥${formatFen(fen)}`;
}

import type { TransactionRow, TransactionType } from '@shared/domain';
import { flowPhrase } from '@shared/flow-text';
import { formatFen, MAX_AMOUNT_YUAN } from '@shared/money';
import { monthDayText } from '@shared/time';

/** -35 for an expense, +9000 for an income, 500 for a transfer. */
export function signedFen(type: TransactionType, fen: number): string {
  return `${type === 'EXPENSE' ? '-' : type === 'INCOME' ? '+' : ''}${formatFen(fen)}`;
}

/**
 * A row's amount as it moved the user's money: a refund and money borrowed or paid back to
 * the user come in (+), a loan and a repayment go out (-), a write-off moves no account.
 */
export function rowFen(row: Pick<TransactionRow, 'type' | 'amountFen' | 'flow'>): string {
  switch (row.flow) {
    case 'refund':
    case 'borrow':
    case 'collect':
      return `+${formatFen(row.amountFen)}`;
    case 'lend':
    case 'repay':
      return `-${formatFen(row.amountFen)}`;
    default:
      return signedFen(row.type, row.amountFen);
  }
}

/**
 * The tag a row wears in the list: what it is beyond its type (退款, 借给小李, 待报销, 已报销).
 * An imported refund whose purchase is in no imported bill yet says so: it counts nothing until then.
 */
export function rowTag(
  row: Pick<TransactionRow, 'flow' | 'person' | 'reimbursable' | 'reimbursedBy' | 'refundTarget' | 'awaitingPurchase'>,
): string | null {
  const target = row.refundTarget;
  if (row.flow === 'refund' && row.awaitingPurchase) return '退款 · 待关联';
  if (row.flow === 'refund' && target) return `退款 · ${monthDayText(target.date)}${target.description || ''} ${yuanText(target.amountFen)}`;
  if (row.flow) return flowPhrase(row.flow, row.person);
  if (row.reimbursable) return row.reimbursedBy ? '已报销' : '待报销';
  return null;
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

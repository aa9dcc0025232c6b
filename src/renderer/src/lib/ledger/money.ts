import type { TransactionRow, TransactionType } from '@shared/domain';
import { flowPhrase } from '@shared/flow-text';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { formatDay, formatMoney } from '../format';

/** −¥35.00 for an expense, +¥9,000.00 for an income, ¥500.00 for a transfer. */
export function signedFen(type: TransactionType, fen: number): string {
  if (type === 'EXPENSE') return formatMoney(-fen);
  return formatMoney(fen, { sign: type === 'INCOME' ? 'always' : 'auto' });
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
      return formatMoney(row.amountFen, { sign: 'always' });
    case 'lend':
    case 'repay':
      return formatMoney(-row.amountFen);
    default:
      return signedFen(row.type, row.amountFen);
  }
}

/**
 * The tag a row wears in the list: what it is beyond its type (退款, 借给小李, 待报销, 已报销).
 * An imported refund whose purchase is in no imported bill yet says so: it counts nothing until then.
 * The refunded purchase's day is written by its distance from `today` (昨天, 11月28日).
 */
export function rowTag(
  row: Pick<TransactionRow, 'flow' | 'person' | 'reimbursable' | 'reimbursedBy' | 'refundTarget' | 'awaitingPurchase'>,
  today?: string,
): string | null {
  const target = row.refundTarget;
  if (row.flow === 'refund' && row.awaitingPurchase) return '退款 · 待关联';
  if (row.flow === 'refund' && target) return `退款 · ${formatDay(target.date, today)}${target.description || ''} ${yuanText(target.amountFen)}`;
  if (row.flow) return flowPhrase(row.flow, row.person);
  if (row.reimbursable) return row.reimbursedBy ? '已报销' : '待报销';
  return null;
}

/** ¥1,234.56: an amount as every screen writes it (formatMoney). */
export function yuanText(fen: number): string {
  return formatMoney(fen);
}

/** ¥5,000.00, −¥1,200.50: an account balance, overdrawn ones with a real minus before the ¥. */
export function balanceText(fen: number): string {
  return formatMoney(fen);
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

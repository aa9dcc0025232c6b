// What each bill line is: spending, income, a refund of some purchase, or a line that moves no
// money of the user's (and why). Bills mark the last kind differently — 不计收支, 中性交易, '/',
// or only by their words (提现, 零钱通, 信用卡还款) — so the words decide, never the file's name.
import type { SkipReason } from '@shared/ipc/ledger';
import type { BillLine } from './layouts';

export type LineRole = { role: 'purchase'; closed: boolean } | { role: 'income' } | { role: 'refund' } | { role: 'skip'; reason: SkipReason };

const CLOSED = /关闭|失败|撤销|已取消|未付款|等待付款|未支付|已冻结/;
const REFUND = /退款/;
/** Money returned in full to the payer (a transfer sent back, a purchase refunded whole). */
const RETURNED = /已全额退款|对方已退还|已退还/;

const NEUTRAL_REASONS: readonly [RegExp, SkipReason][] = [
  [/还款|信用借还|还信用卡/, 'repayment'],
  [/零钱通|余额宝|理财|基金|余利宝|定期|黄金|蚂蚁财富|证券|股票/, 'wealth'],
  [/提现|充值/, 'withdrawal'],
  [/转账|转入|转出|互转/, 'own-transfer'],
];
/** The kinds of trade that are repayments even where the bill counts them as spending. */
const REPAYMENT_KIND = /^(还款|信用借还|信用卡还款|白条还款|花呗还款|月付还款)$/;

export function classify(l: BillLine): LineRole {
  const words = `${l.kind} ${l.category} ${l.merchant} ${l.item} ${l.status}`;
  const refundWords = REFUND.test(`${l.kind} ${l.category} ${l.status}`) || /^退款/.test(l.item);
  // A refund is money in, never a purchase: a line of money out that mentions 退款 is the purchase itself.
  if (l.direction !== 'out' && refundWords) {
    if (CLOSED.test(l.status)) return { role: 'skip', reason: 'closed' };
    if (l.amountFen === 0) return { role: 'skip', reason: 'neutral' };
    return { role: 'refund' };
  }
  const returned = l.fullyRefunded || RETURNED.test(l.status);
  if (l.direction === 'out' || ((returned || l.statedRefundFen > 0) && l.direction === 'neutral')) {
    if (REPAYMENT_KIND.test(l.kind) || REPAYMENT_KIND.test(l.category)) return { role: 'skip', reason: 'repayment' };
    if (l.amountFen === 0) return { role: 'skip', reason: 'neutral' };
    return { role: 'purchase', closed: CLOSED.test(l.status) };
  }
  if (l.direction === 'in') {
    if (CLOSED.test(l.status)) return { role: 'skip', reason: 'closed' };
    if (REPAYMENT_KIND.test(l.kind)) return { role: 'skip', reason: 'repayment' };
    if (l.amountFen === 0) return { role: 'skip', reason: 'neutral' };
    return { role: 'income' };
  }
  // A closed trade the bill files as 不计收支 is still a purchase its refund lines may return.
  if (CLOSED.test(l.status)) return l.amountFen > 0 ? { role: 'purchase', closed: true } : { role: 'skip', reason: 'closed' };
  for (const [pattern, reason] of NEUTRAL_REASONS) if (pattern.test(words)) return { role: 'skip', reason };
  return { role: 'skip', reason: 'neutral' };
}

/** A purchase line that says it was returned in full (a closed trade counts: its money came back or never left). */
export function returnedInFull(l: BillLine, closed: boolean): boolean {
  return closed || l.fullyRefunded || RETURNED.test(l.status);
}

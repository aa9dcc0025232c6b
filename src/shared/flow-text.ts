// How a money flow is named to the user, on the card, in the list and when read back. Pure:
// the main process and the renderer share it.
import type { LedgerFlow } from './domain';
import { formatFen } from './money';
import { monthDayText } from './time';

export const FLOW_LABELS: Record<LedgerFlow, string> = {
  lend: '借出',
  borrow: '借入',
  repay: '还款',
  collect: '收回借款',
  writeoff: '坏账',
  refund: '退款',
  reimbursement: '报销到账',
};

/** 「借给小李」「小李还我」: who the money went to or came from, or just the flow when no one is named. */
export function flowPhrase(flow: LedgerFlow, person: string | undefined | null): string {
  if (!person) return FLOW_LABELS[flow];
  switch (flow) {
    case 'lend':
      return `借给${person}`;
    case 'borrow':
      return `向${person}借入`;
    case 'repay':
      return `还给${person}`;
    case 'collect':
      return `${person}还款`;
    case 'writeoff':
      return `${person}的坏账`;
    default:
      return FLOW_LABELS[flow];
  }
}

/** 「招行信用卡还款日11月28日（还有2天），待还2000元」 */
export function cardReminderText(r: { account: string; dueDate: string; daysLeft: number; owedFen: number }): string {
  const when = r.daysLeft === 0 ? '今天' : `还有${r.daysLeft}天`;
  return `${r.account}还款日${monthDayText(r.dueDate)}（${when}），待还${formatFen(r.owedFen)}元`;
}

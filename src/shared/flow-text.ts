// How a money flow is named to the user, on the card, in the list and when read back. Pure:
// the main process and the renderer share it.
import { formatMoney } from './display';
import type { LedgerFlow, TransactionRow, TransactionType } from './domain';
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

const TYPE_WORDS: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

/** The fields of a saved row that say what it is. */
export type SavedRow = Pick<TransactionRow, 'amountFen' | 'type' | 'category' | 'description' | 'flow' | 'person' | 'reimbursable' | 'refundTarget'>;

/**
 * What a saved row is, in the card's words: 退款 + 淘宝买鞋, 借给小李 + '', 支出 + 吃饭 (待报销
 * apart). A refund is never 支出 nor a reimbursement 收入, whatever its type column says. A
 * plain row is named by its own words, else its category; a debt or a reimbursement is named
 * by its flow, with its own words only when it has some (its category says nothing new) that
 * the flow does not already say.
 */
export function savedRowWords(row: SavedRow): { kind: string; what: string; reimbursable: boolean } {
  const kind = row.flow ? flowPhrase(row.flow, row.person) : TYPE_WORDS[row.type];
  // A linked refund is named by the purchase it returns (its own words are the sentence's).
  const what =
    row.flow === 'refund'
      ? row.refundTarget?.description || row.description || row.category
      : row.flow
        ? row.description
        : row.description || row.category;
  // 「报销到账一百」 leaves 报销 as the row's words: said once, by the flow.
  return { kind, what: what && !kind.includes(what) ? what : '', reimbursable: row.reimbursable === true };
}

/** 「退款 ¥300.00 · 淘宝买鞋」「借给小李 ¥1,000.00」: a saved row as the card words it, for the screen. */
export function savedRowShown(row: SavedRow): string {
  const { kind, what, reimbursable } = savedRowWords(row);
  return [`${kind} ${formatMoney(row.amountFen)}`, what, reimbursable ? '待报销' : ''].filter(Boolean).join(' · ');
}

/** 「退款300元，淘宝买鞋」: the same words in the speech register. */
export function savedRowSpoken(row: SavedRow): string {
  const { kind, what, reimbursable } = savedRowWords(row);
  return [`${kind}${formatFen(row.amountFen)}元`, what, reimbursable ? '待报销' : ''].filter(Boolean).join('，');
}

/**
 * The sentence that says a save happened. The spec fixes 「已保存{N}笔交易。」 (voice-batch-
 * transaction, 保存成功播报), and for plain rows and batches it stays; one money flow is named
 * instead (「已保存：退款300元，淘宝买鞋。」), since 「交易」 read back after a refund or a
 * reimbursement is what made it sound like spending or income. The renderer uses this too:
 * it shows the save once, in its own words, and leaves this sentence out of the log.
 */
export function savedSentence(rows: readonly SavedRow[]): string {
  const [only] = rows;
  if (rows.length === 1 && only?.flow) return `已保存：${savedRowSpoken(only)}。`;
  return `已保存${rows.length}笔交易。`;
}

/** 「招行信用卡还款日11月28日（还有2天），待还2000元」 */
export function cardReminderText(r: { account: string; dueDate: string; daysLeft: number; owedFen: number }): string {
  const when = r.daysLeft === 0 ? '今天' : `还有${r.daysLeft}天`;
  return `${r.account}还款日${monthDayText(r.dueDate)}（${when}），待还${formatFen(r.owedFen)}元`;
}

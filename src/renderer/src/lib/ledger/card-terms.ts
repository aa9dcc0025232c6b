import type { CardBill } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN } from '@shared/money';

/** A credit card's terms as the 账户 forms send them (the IPC schema checks them again). */
export interface CardTermsInput {
  statementDay: number | null;
  dueDay: number | null;
  creditLimitYuan: number | null;
}

/** The three fields as typed; empty is none. */
export interface CardTermsText {
  statement: string;
  due: string;
  limit: string;
}

const DAY_ERROR = '账单日和还款日应为每月1–31日';

function day(text: string): number | null {
  const clean = text.trim();
  if (clean === '') return null;
  if (!/^\d{1,2}$/.test(clean) || Number(clean) < 1 || Number(clean) > 31) throw new Error(DAY_ERROR);
  return Number(clean);
}

function limit(text: string): number | null {
  const clean = text.trim().replace(/[,，]/g, '');
  if (clean === '') return null;
  if (/^[-－−]/.test(clean)) throw new Error('额度不能为负');
  if (!/^\d+(\.\d+)?$/.test(clean)) throw new Error('额度应为金额，如 20000');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) throw new Error('额度最多两位小数（精确到分）');
  const yuan = Number(clean);
  if (yuan > MAX_AMOUNT_YUAN) throw new Error('额度超过上限（1亿元）');
  return yuan;
}

/** The typed terms, or an Error whose message is the inline hint (the words of the IPC schema). */
export function parseCardTerms(text: CardTermsText): CardTermsInput {
  return { statementDay: day(text.statement), dueDay: day(text.due), creditLimitYuan: limit(text.limit) };
}

/**
 * Where the bill stands against its 还款日: 还有 N 天还款, 今天还款, 已逾期 N 天, or 已还清 /
 * 无需还款 once nothing is left to pay. null without a 还款日 while something is owed.
 */
export function dueText(bill: CardBill): string | null {
  if (bill.leftFen <= 0) return bill.billFen > 0 ? '已还清' : '无需还款';
  if (bill.daysLeft === null) return null;
  if (bill.daysLeft > 0) return `还有 ${bill.daysLeft} 天还款`;
  if (bill.daysLeft === 0) return '今天还款';
  return `已逾期 ${-bill.daysLeft} 天`;
}

/** How urgent the due text is: overdue and today are said in the expense colour, the next 3 days as a warning. */
export function dueLevel(bill: CardBill): 'ok' | 'soon' | 'late' {
  if (bill.leftFen <= 0 || bill.daysLeft === null) return 'ok';
  if (bill.daysLeft <= 0) return 'late';
  return bill.daysLeft <= 3 ? 'soon' : 'ok';
}

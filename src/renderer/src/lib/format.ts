import type { DraftStatus, ParseResult, TransactionType, VoiceMode, VoiceState } from '@shared/domain';
import { flowPhrase } from '@shared/flow-text';
import { formatDate, formatMoney, formatMoneyYuan } from '@shared/display';
import { localToday } from './card/draft-edit';

export const TYPE_LABELS: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

export const STATE_LABELS: Record<VoiceState, string> = {
  idle: '待机',
  listening: '正在聆听',
  recognizing: '正在识别',
  confirming: '请确认',
  ended: '已结束',
};

export const STATUS_LABELS: Record<DraftStatus, string> = { pending: '待确认', confirmed: '已确认', cancelled: '已取消' };

export const MODE_LABELS: Record<VoiceMode, string> = { auto: '自动', pushToTalk: '按住说话', keyboard: '键盘' };

// Every amount and date a page shows goes through here (or @shared/display): format.guard.test.ts
// fails on any other way of writing one.
export { formatDate, formatDateTime, formatFullDate, formatMoney, formatMonth, formatTime, MINUS } from '@shared/display';

/** ¥60.00, ¥12.50, or 金额未识别 when the amount was not understood (a draft's amount is yuan). */
export function formatAmount(amount: number | null): string {
  return amount === null ? '金额未识别' : formatMoneyYuan(amount);
}

/** Integer fen: ¥1,246,913.49, −¥500.00. */
export function formatFenAmount(fen: number, options?: { sign?: 'auto' | 'always' }): string {
  return formatMoney(fen, options);
}

/**
 * The yuan an amount field starts with, as a person would type it: 35, 1500.50, -1200.50 — no ¥,
 * no separators, so the field's parser takes it back unchanged. Never for showing an amount.
 */
export function amountInputText(fen: number): string {
  const whole = Math.abs(Math.round(fen));
  const cents = whole % 100;
  return `${fen < 0 ? '-' : ''}${Math.floor(whole / 100)}${cents === 0 ? '' : `.${String(cents).padStart(2, '0')}`}`;
}

/** 今天 for null (the ledger saves it as today), else the day by its distance from today. */
export function formatDay(date: string | null, today: string = localToday()): string {
  return date === null ? '今天' : formatDate(date, today);
}

/** What a draft or row is, as its tag says it: 支出/收入/转账, or the money flow (借给小李, 退款), 待报销 added. */
export function draftKind(result: Pick<ParseResult, 'type' | 'flow' | 'counterparty' | 'reimbursable'>): string {
  const kind = result.flow ? flowPhrase(result.flow, result.counterparty) : TYPE_LABELS[result.type];
  return result.reimbursable ? `${kind} · 待报销` : kind;
}

import type { DraftStatus, ParseResult, TransactionType, VoiceMode, VoiceState } from '@shared/domain';
import { flowPhrase } from '@shared/flow-text';
import { formatYuan } from '@shared/money';

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

/** ¥60, ¥12.50, or a dash when the amount was not understood. */
export function formatAmount(amount: number | null): string {
  return amount === null ? '金额未识别' : `¥${formatYuan(amount)}`;
}

export function formatFenAmount(fen: number): string {
  return `¥${formatYuan(fen / 100)}`;
}

/** 今天 for null (the ledger saves it as today), else the day as written. */
export function formatDay(date: string | null): string {
  return date ?? '今天';
}

/** What a draft or row is, as its tag says it: 支出/收入/转账, or the money flow (借给小李, 退款), 待报销 added. */
export function draftKind(result: Pick<ParseResult, 'type' | 'flow' | 'counterparty' | 'reimbursable'>): string {
  const kind = result.flow ? flowPhrase(result.flow, result.counterparty) : TYPE_LABELS[result.type];
  return result.reimbursable ? `${kind} · 待报销` : kind;
}

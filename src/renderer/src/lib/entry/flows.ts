// The five money flows recorded by hand (借贷与报销's buttons, 记一笔's 转账 → 别人): their
// names, which way the money goes, the recordFlow request for a form's values, and which
// 待报销 a payment ticks by default. Pure: the form components and their tests share it.
import { evaluateAmount } from '@shared/calc';
import type { CommandInput } from '@shared/ipc/index';
import type { HandFlow, PendingReimbursement } from '@shared/ipc/ledger';
import { allocate, type Allocation } from '@shared/settlement';

export type FlowRequest = CommandInput<'recordFlow'>;

/** In the order the page offers them. */
export const HAND_FLOW_ORDER: readonly HandFlow[] = ['lend', 'borrow', 'repay', 'collect', 'reimbursement'];

export const HAND_FLOW_LABELS: Record<HandFlow, string> = {
  lend: '借出',
  borrow: '借入',
  repay: '还款',
  collect: '收回',
  reimbursement: '报销到账',
};

/** What each form says under its title, so the direction is never in doubt. */
export const HAND_FLOW_HINTS: Record<HandFlow, string> = {
  lend: '你把钱借给别人，对方欠你的会增加。',
  borrow: '你向别人借钱，你欠对方的会增加。',
  repay: '你还钱给借过你钱的人，你欠对方的会减少。',
  collect: '别人把借你的钱还给你，对方欠你的会减少。',
  reimbursement: '单位或别人把你垫付的钱还给你：核销勾选的待报销，不算收入。',
};

/** Money leaves the account for lending and repaying; it comes in otherwise. */
export function moneyLeaves(flow: HandFlow): boolean {
  return flow === 'lend' || flow === 'repay';
}

export function accountLabel(flow: HandFlow): string {
  return moneyLeaves(flow) ? '付款账户' : '收款账户';
}

export interface FlowFields {
  flow: HandFlow;
  amountText: string;
  counterparty: string;
  account: string;
  date: string;
  note: string;
  /** 报销到账: the ticked 待报销 ids, in paying order. */
  settles: string[];
  tags?: string[];
}

export type FlowCheck = { ok: true; request: FlowRequest } | { ok: false; field: 'amount' | 'counterparty'; error: string };

/** The recordFlow request for the form's values, or the first field that stops it. */
export function flowRequest(fields: FlowFields): FlowCheck {
  const amount = evaluateAmount(fields.amountText);
  if (!amount.ok) return { ok: false, field: 'amount', error: amount.error };
  const request: FlowRequest = { flow: fields.flow, amountYuan: amount.yuan, date: fields.date };
  if (fields.flow === 'reimbursement') request.settles = [...fields.settles];
  else {
    const who = fields.counterparty.trim();
    if (!who) return { ok: false, field: 'counterparty', error: '请填写是谁，例如：小李' };
    request.counterparty = who;
  }
  if (fields.account) request.account = fields.account;
  const note = fields.note.trim();
  if (note) request.note = note;
  if (fields.tags?.length) request.tags = [...fields.tags];
  return { ok: true, request };
}

/** The people a flow most likely concerns first: those who owe the user for 收回, those the user owes for 还款. */
export function suggestedPeople(flow: HandFlow, people: readonly { name: string; balanceFen: number }[]): string[] {
  const rank = (balance: number) => {
    if (flow === 'collect') return balance > 0 ? 0 : 1;
    if (flow === 'repay') return balance < 0 ? 0 : 1;
    return 0;
  };
  return [...people].sort((a, b) => rank(a.balanceFen) - rank(b.balanceFen)).map((p) => p.name);
}

/** What a payment of `amountFen` pays of the ticked 待报销 (in the list's order, oldest first). */
export function settlementOf(amountFen: number, pending: readonly PendingReimbursement[], ticked: readonly string[]): Allocation {
  const chosen = new Set(ticked);
  return allocate(
    amountFen,
    pending.filter((r) => chosen.has(r.id)).map((r) => ({ id: r.id, owedFen: r.amountFen })),
  );
}

/** The default ticks: the oldest 待报销, as many as the amount reaches (the last maybe in part). */
export function defaultTicks(amountFen: number | null, pending: readonly PendingReimbursement[]): string[] {
  if (!amountFen || amountFen <= 0) return [];
  return allocate(
    amountFen,
    pending.map((r) => ({ id: r.id, owedFen: r.amountFen })),
  ).parts.map((p) => p.id);
}

/** The ticked ids in paying order: the list's, oldest first. */
export function inListOrder(pending: readonly PendingReimbursement[], ticked: readonly string[]): string[] {
  const chosen = new Set(ticked);
  return pending.filter((r) => chosen.has(r.id)).map((r) => r.id);
}

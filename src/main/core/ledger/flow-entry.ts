// A money flow recorded by hand (借贷与报销's buttons, 记一笔's 转账 → 别人) becomes the
// same ParseResult a confirmed voice card saves, so both take one path through saveBatch:
// the person made on first mention, the row a transfer with that person, a reimbursement
// paying the 待报销 it is given (./money-flows.ts).
import type { ParseResult } from '@shared/domain';
import type { FlowEntry } from '@shared/ipc/ledger';

export function flowEntryResult(entry: FlowEntry): ParseResult {
  const reimbursement = entry.flow === 'reimbursement';
  return {
    amount: entry.amountYuan,
    type: reimbursement ? 'INCOME' : 'TRANSFER',
    category: null,
    description: entry.note?.trim() ?? '',
    date: entry.date,
    account: entry.account ?? null,
    confidence: 1,
    source: 'local',
    flow: entry.flow,
    ...(entry.counterparty && !reimbursement ? { counterparty: entry.counterparty } : {}),
    // An empty list is a choice too: the payment pays none of the 待报销.
    ...(reimbursement && entry.settles ? { settles: [...entry.settles] } : {}),
    ...(entry.tags?.length ? { tags: [...entry.tags] } : {}),
  };
}

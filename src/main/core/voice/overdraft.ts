// A wallet about to go negative is said on the card: each draft that would take a cash
// account below zero carries the balance it would leave. A note only — a household may
// well overdraw a wallet on purpose (a debt to itself it settles later), so nothing is blocked.
import type { DraftBatch } from '@shared/draft-batch';
import type { AccountBalances } from '@shared/ipc/ledger';
import type { ParseResult } from '@shared/domain';
import { yuanToFen } from '@shared/money';
import { openAccountFor } from '../ledger/transactions';
import type { AccountBalanceInfo } from './ports';

/** Flows whose money comes into the account (the others of a flow leave it). */
const INFLOWS = new Set(['borrow', 'collect', 'refund', 'reimbursement']);

/** What a draft does to its account's balance, in fen: − out, + in, 0 without an amount. */
export function accountEffectFen(result: ParseResult): number {
  if (result.amount === null) return 0;
  const fen = yuanToFen(result.amount);
  const incoming = result.flow ? INFLOWS.has(result.flow) : result.type === 'INCOME';
  return incoming ? fen : -fen;
}

/**
 * The card with each draft's overdraft note set or cleared. The drafts before it on the card
 * (cancelled ones aside) count, so two spends that overdraw only together are seen on the
 * second. Only an account with money in it now is watched: one at zero or below is one whose
 * balance the user does not keep (spending recorded, never what came in), and a note on every
 * card would be noise. Credit cards are left alone: their balance is a debt by design.
 * `balanceOf` undefined (a ledger that cannot say): the card is returned unchanged.
 */
export function withOverdrafts(batch: DraftBatch, balanceOf: ((spoken: string | null) => AccountBalanceInfo | undefined) | undefined): DraftBatch {
  if (!balanceOf) return batch;
  const running = new Map<string, number>();
  let next = batch;
  for (const item of batch.items) {
    const { overdraft: _old, ...result } = item.result;
    let note: ParseResult['overdraft'];
    if (item.status !== 'cancelled') {
      const account = balanceOf(result.account);
      if (account && account.kind !== 'credit' && account.balanceFen > 0) {
        const after = (running.get(account.name) ?? account.balanceFen) + accountEffectFen(result);
        running.set(account.name, after);
        if (after < 0 && accountEffectFen(result) < 0) note = { account: account.name, balanceFen: after };
      }
    }
    const same = note?.balanceFen === item.result.overdraft?.balanceFen && note?.account === item.result.overdraft?.account;
    if (!same) next = next.withResult(item.index, note ? { ...result, overdraft: note } : result);
  }
  return next;
}

/**
 * The open account a spoken name lands in, as a save files it (ledger/transactions.ts
 * openAccountFor): the one of that name, else the one open account whose name holds it, else
 * the default account.
 */
export function accountFor(spoken: string | null, balances: AccountBalances): AccountBalanceInfo | undefined {
  const open = new Map(balances.accounts.filter((a) => !a.archived).map((a) => [a.name, a.id]));
  const id = spoken ? openAccountFor(spoken, open) : undefined;
  const found =
    balances.accounts.find((a) => a.id === id) ?? balances.accounts.find((a) => a.isDefault) ?? [...balances.accounts].sort((a, b) => a.id - b.id)[0];
  return found && { name: found.name, kind: found.kind, balanceFen: found.balanceFen };
}

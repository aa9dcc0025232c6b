import { describe, expect, it } from 'vitest';
import type { ParseResult } from '@shared/domain';
import { DraftBatch } from '@shared/draft-batch';
import type { AccountBalance, AccountBalances } from '@shared/ipc/ledger';
import { accountFor, withOverdrafts } from './overdraft';
import type { AccountBalanceInfo } from './ports';

function r(amount: number | null, fields: Partial<ParseResult> = {}): ParseResult {
  return { amount, type: 'EXPENSE', category: '餐饮', description: '', date: null, account: null, confidence: 0.9, source: 'local', ...fields };
}

/** A fake ledger: 现金 (the default) holds ¥100, 招行信用卡 owes ¥500, 微信钱包 ¥0. */
const ACCOUNTS: Record<string, AccountBalanceInfo> = {
  现金: { name: '现金', kind: 'cash', balanceFen: 100_00 },
  招行信用卡: { name: '招行信用卡', kind: 'credit', balanceFen: -500_00 },
  微信钱包: { name: '微信钱包', kind: 'cash', balanceFen: 0 },
};
const balanceOf = (spoken: string | null) => ACCOUNTS[spoken ?? '现金'];

const notes = (batch: DraftBatch) => batch.items.map((item) => item.result.overdraft ?? null);

describe('overdraft note on the card', () => {
  it('is set on the draft that takes a cash account below zero, counting the drafts before it on the card', () => {
    const batch = withOverdrafts(DraftBatch.fromResults([r(60), r(80), r(10, { type: 'INCOME', category: '红包' }), r(30)]), balanceOf);
    expect(notes(batch)).toEqual([null, { account: '现金', balanceFen: -40_00 }, null, { account: '现金', balanceFen: -60_00 }]);
  });

  it('counts money coming in (a refund, a reimbursement, a debt collected) and leaves cancelled drafts out', () => {
    const refund = r(50, { flow: 'refund' });
    expect(notes(withOverdrafts(DraftBatch.fromResults([refund, r(120)]), balanceOf))).toEqual([null, null]);
    const lend = r(300, { type: 'TRANSFER', flow: 'lend', counterparty: '小李' });
    expect(notes(withOverdrafts(DraftBatch.fromResults([lend]), balanceOf))).toEqual([{ account: '现金', balanceFen: -200_00 }]);
    const cancelled = DraftBatch.fromResults([r(90), r(20)]).cancelItem(0);
    expect(notes(withOverdrafts(cancelled, balanceOf))).toEqual([null, null]);
  });

  it('says nothing of credit cards, of accounts already at zero, of drafts without an amount, or when the ledger cannot say', () => {
    const batch = DraftBatch.fromResults([r(600, { account: '招行信用卡' }), r(5, { account: '微信钱包' }), r(null)]);
    expect(notes(withOverdrafts(batch, balanceOf))).toEqual([null, null, null]);
    const plain = DraftBatch.fromResults([r(600)]);
    expect(withOverdrafts(plain, undefined)).toBe(plain);
  });

  it('is cleared once the draft no longer overdraws (the amount was corrected), and the card is kept when nothing changed', () => {
    const shown = withOverdrafts(DraftBatch.fromResults([r(160)]), balanceOf);
    expect(notes(shown)).toEqual([{ account: '现金', balanceFen: -60_00 }]);
    expect(withOverdrafts(shown, balanceOf)).toBe(shown);
    const fixed = withOverdrafts(shown.updateItem(0, { amount: 60 }), balanceOf);
    expect(notes(fixed)).toEqual([null]);
    expect(fixed.items[0]!.result).not.toHaveProperty('overdraft');
  });
});

describe('the account a draft lands in', () => {
  // Only the fields the lookup reads matter; the rest of an account (its card terms) is left out.
  const account = (id: number, name: string, fields: Partial<AccountBalance> = {}): AccountBalance =>
    ({
      id,
      name,
      isDefault: false,
      count: 0,
      archived: false,
      kind: 'cash',
      statementDay: null,
      dueDay: null,
      initialBalanceFen: 0,
      balanceFen: id * 100,
      preset: id === 1,
      ...fields,
    }) as AccountBalance;
  const balances: AccountBalances = {
    accounts: [
      account(1, '钱包'),
      account(2, '微信钱包', { isDefault: true }),
      account(3, '招行信用卡', { kind: 'credit' }),
      account(4, '旧卡', { archived: true }),
    ],
    totalFen: 0,
  };

  it('is the one of that name, else the one open account holding it, else the default', () => {
    expect(accountFor('招行信用卡', balances)).toEqual({ name: '招行信用卡', kind: 'credit', balanceFen: 300 });
    expect(accountFor('招行', balances)?.name).toBe('招行信用卡');
    // 钱包 is an account's own name, though 微信钱包 holds it too.
    expect(accountFor('钱包', balances)?.name).toBe('钱包');
    expect(accountFor(null, balances)?.name).toBe('微信钱包');
    expect(accountFor('旧卡', balances)?.name).toBe('微信钱包');
    // 钱 is in two names: ambiguous, so the default.
    expect(accountFor('钱', balances)?.name).toBe('微信钱包');
  });
});

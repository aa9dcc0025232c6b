import { describe, expect, it } from 'vitest';
import type { ParseResult } from '@shared/domain';
import type { RefundCandidate, SettlementProposal } from '@shared/ipc/ledger';
import { linkedResult } from './session-book';
import { itemText } from './templates';

function reimbursement(amount: number): ParseResult {
  return {
    amount,
    type: 'INCOME',
    category: '报销',
    description: '',
    date: null,
    account: null,
    confidence: 0.9,
    source: 'local',
    flow: 'reimbursement',
  };
}

/**
 * A fake ledger whose 待报销 are paid oldest first, the last one in part when the payment runs
 * short: ids holds every expense the payment reaches, stillOwedFen what those still lack,
 * leftOverFen what is paid beyond all of them (the ledger's proposeSettlement contract).
 */
function ledgerOwing(...owedFen: number[]) {
  const ids = owedFen.map((_, i) => `e${i + 1}`);
  return {
    refundCandidates: (): RefundCandidate[] => [],
    proposeSettlement: (amountFen: number): SettlementProposal => {
      const reached: string[] = [];
      let left = amountFen;
      let owed = 0;
      owedFen.forEach((fen, i) => {
        if (left <= 0) return;
        reached.push(ids[i]!);
        owed += fen;
        left -= Math.min(left, fen);
      });
      const settledFen = amountFen - left;
      return { ids: reached, settledFen, leftOverFen: left, stillOwedFen: owed - settledFen };
    },
  };
}

const linked = (amount: number, ...owedFen: number[]) => linkedResult(reimbursement(amount), ledgerOwing(...owedFen), '2026-02-17');

describe('a refund read back with the purchase it returns', () => {
  const refund: ParseResult = { ...reimbursement(300), type: 'EXPENSE', category: '购物', description: '淘宝买鞋那笔退', flow: 'refund' };
  const candidate = (date: string): RefundCandidate => ({
    id: 'shoes',
    date,
    description: '淘宝买鞋',
    category: '购物',
    account: '钱包',
    amountFen: 500_00,
    refundedFen: 0,
    score: 9,
  });
  const linkedOn = (date: string) => linkedResult(refund, { ...ledgerOwing(), refundCandidates: () => [candidate(date)] }, '2026-02-17');

  it('names its day as the card does: 今天, 昨天, else the date; the card in the screen’s money', () => {
    expect(linkedOn('2026-02-17')).toMatchObject({
      refundOf: 'shoes',
      linkNote: '退的是今天淘宝买鞋500元',
      cardNote: '退的是 今天 淘宝买鞋 ¥500.00',
    });
    expect(linkedOn('2026-02-16').linkNote).toBe('退的是昨天淘宝买鞋500元');
    expect(linkedOn('2026-02-01')).toMatchObject({ linkNote: '退的是2月1日淘宝买鞋500元', cardNote: '退的是 2月1日 淘宝买鞋 ¥500.00' });
  });
});

describe('a reimbursement read back against the 待报销 it settles', () => {
  it('500 against 80 + 600: it pays the 80 and part of the 600, and says what those still lack', () => {
    const result = linked(500, 80_00, 600_00);
    expect(result).toMatchObject({ settles: ['e1', 'e2'], linkNote: '报销2笔待报销，还差180元', cardNote: '报销2笔待报销，还差 ¥180.00' });
    expect(itemText(result)).toBe('报销到账500元，报销2笔待报销，还差180元');
  });

  it('100 against 80: says what is paid beyond them', () => {
    expect(linked(100, 80_00)).toMatchObject({ settles: ['e1'], linkNote: '报销1笔待报销，多出20元', cardNote: '报销1笔待报销，多出 ¥20.00' });
  });

  it('exactly what is owed: neither short nor over; the 待报销 the payment does not reach are no shortfall', () => {
    expect(linked(680, 80_00, 600_00).linkNote).toBe('报销2笔待报销');
    // 80 paid in full; the 600 after it waits for the next payment.
    expect(linked(80, 80_00, 600_00)).toMatchObject({ settles: ['e1'], linkNote: '报销1笔待报销' });
  });

  it('nothing 待报销: says so, and the whole payment is saved all the same', () => {
    expect(linked(500)).toMatchObject({ settles: [], linkNote: '没有可核销的待报销' });
  });

  it('keeps what the card already settled, and leaves a reimbursement without an amount alone', () => {
    const picked = { ...reimbursement(500), settles: ['e2'], linkNote: '已选' };
    expect(linkedResult(picked, ledgerOwing(80_00, 600_00), '2026-02-17')).toBe(picked);
    const open = reimbursement(0);
    const noAmount = { ...open, amount: null };
    expect(linkedResult(noAmount, ledgerOwing(80_00), '2026-02-17')).toBe(noAmount);
  });
});

import { describe, expect, it } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import { balanceWords, personLedger } from './person-ledger';

const row = (id: string, flow: TransactionRow['flow'], yuan: number, description = ''): TransactionRow => ({
  id,
  amountFen: yuan * 100,
  currency: 'CNY',
  type: flow === 'writeoff' ? 'EXPENSE' : 'TRANSFER',
  category: '其他',
  account: '钱包',
  description,
  occurredAt: '2026-02-10T12:00:00+08:00',
  date: '2026-02-10',
  source: 'manual',
  createdAt: '',
  updatedAt: '',
  flow,
  person: '小李',
});

describe('a person’s ledger', () => {
  it('signs each row by what it does to what they owe, in direction words, with the balance after it', () => {
    // Newest first: lent 1000, collected 300, wrote off 200, lent 100 more → owes 600.
    const lines = personLedger(
      [row('d', 'lend', 100), row('c', 'writeoff', 200, '坏账：小李'), row('b', 'collect', 300), row('a', 'lend', 1000, '周转')],
      '小李',
      600_00,
    );
    expect(lines.map((l) => [l.words, l.note, l.deltaFen, l.balanceFen])).toEqual([
      ['借给小李', '', 100_00, 600_00],
      ['记为坏账', '', -200_00, 500_00],
      ['从小李收回', '', -300_00, 700_00],
      ['借给小李', '周转', 1000_00, 1000_00],
    ]);
  });

  it('walks the user’s own debt the other way and reaches 已还清', () => {
    const lines = personLedger([row('b', 'repay', 3000), row('a', 'borrow', 3000)], '我哥', 0);
    expect(lines.map((l) => [l.words, l.deltaFen, balanceWords(l.balanceFen)])).toEqual([
      ['还给我哥', 3000_00, '已还清'],
      ['向我哥借', -3000_00, '我欠 ¥3,000.00'],
    ]);
  });
});

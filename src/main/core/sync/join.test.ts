import { describe, expect, it, vi } from 'vitest';
import { Merger } from './merge';
import { books, makeDevices, quiesce } from '../../../../test/support/sync-devices';
import { item } from '../../../../test/support/ledger-fixtures';

/**
 * Joining a big book: a new device adopts the snapshot's tables whole (Merger.adopt); a
 * device with a budget of its own but no rows loads the rows in bulk (Merger.load:
 * `INSERT … SELECT` from the attached snapshot, indexes and the running-total trigger set
 * aside, rebuilt once); a device with rows of its own merges row by row. All three must end
 * with the same books, balances and all — including what the fast paths hand back to the
 * ordinary merge: deleted rows, transfers, rows under custom categories and accounts.
 */
describe('joining a book of thousands of rows', () => {
  it('a new device gets exactly the same books, balances and budgets; a device with rows of its own merges them in', async () => {
    const { devices } = makeDevices(4, { compactAfter: 50 });
    const [a, b, c, d] = devices as [(typeof devices)[0], (typeof devices)[0], (typeof devices)[0], (typeof devices)[0]];
    a.ledger.addCategory('健身', 'EXPENSE');
    a.ledger.addAccount('招商银行', 500_00);
    a.ledger.addAccount('信用卡', -1200_00);
    const ids: string[] = [];
    a.ledger.transaction(() => {
      for (let i = 0; i < 3000; i += 1) {
        const day = `2026-0${1 + (i % 2)}-${String(1 + (i % 28)).padStart(2, '0')}`;
        const kind = i % 10;
        const row =
          kind === 0
            ? a.ledger.addTransaction({ amountFen: 1000 + i, type: 'TRANSFER', date: day, time: '09:00', account: '招商银行', toAccount: '信用卡' })
            : kind === 1
              ? a.ledger.addTransaction({ amountFen: 900_00, type: 'INCOME', category: '工资', date: day, time: '10:00', account: '招商银行' })
              : a.ledger.addTransaction({
                  amountFen: 100 + i,
                  type: 'EXPENSE',
                  category: kind === 2 ? '健身' : '餐饮',
                  date: day,
                  time: '12:30',
                  note: `第${i}笔`,
                });
        ids.push(row.id);
      }
    });
    a.ledger.deleteTransactions(ids.slice(0, 25));
    // Money flows travel too: people and their balances, a refund's link, 待报销 and what settled it, a card's terms.
    a.ledger.setCard(a.ledger.listAccounts().find((x) => x.name === '信用卡')!.id, { statementDay: 5, dueDay: 23 });
    a.ledger.saveBatch([
      item({ amount: 1000, type: 'TRANSFER', flow: 'lend', counterparty: '小李', date: '2026-02-02' }),
      item({ amount: 3000, type: 'TRANSFER', flow: 'borrow', counterparty: '我哥', date: '2026-02-03' }),
      item({ amount: 80, category: '交通', reimbursable: true, date: '2026-02-04' }),
      item({ amount: 90, category: '交通', reimbursable: true, date: '2026-02-05' }),
      item({ amount: 1, type: 'INCOME', flow: 'refund', refundOf: ids[102], date: '2026-02-06' }),
    ]);
    a.ledger.saveBatch([item({ amount: 80, type: 'INCOME', flow: 'reimbursement', date: '2026-02-07' })]);
    a.ledger.setBudgets('2026-02', [{ categoryId: a.ledger.listCategories().find((x) => x.name === '健身')!.id, amountFen: 300_00 }]);
    c.ledger.addTransaction({ amountFen: 4200, type: 'EXPENSE', category: '交通', date: '2026-02-03', time: '08:00', note: 'C 自己的' });
    d.ledger.addCategory('猫粮', 'EXPENSE');
    d.ledger.setBudgets('2026-01', [{ categoryId: null, amountFen: 5000_00 }]);

    await a.engine.round();
    const merger = Merger.prototype as unknown as { adopt: () => number; load: () => { loaded: number } };
    const adopt = vi.spyOn(merger, 'adopt');
    const load = vi.spyOn(merger, 'load');
    const joined = await b.engine.round();
    // The new device took the tables whole.
    expect(adopt).toHaveBeenCalledTimes(1);
    expect(load).not.toHaveBeenCalled();
    expect(joined.pulled).toBeGreaterThanOrEqual(2981);
    expect(b.ledger.count()).toBe(2981);
    expect(books(b.ledger, ['2026-01', '2026-02'])).toEqual(books(a.ledger, ['2026-01', '2026-02']));

    await d.engine.round();
    // A budget of its own: no adopting; the rows went in bulk, the deleted ones row by row.
    expect(adopt).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.results[0]!.value.loaded).toBe(2981);
    adopt.mockRestore();
    load.mockRestore();

    await quiesce([a, b, c, d]);
    expect(c.ledger.count()).toBe(2982);
    const expected = books(a.ledger, ['2026-01', '2026-02']);
    expect(expected.people).toEqual([
      { name: '我哥', balanceFen: -3000_00, count: 1, archived: false },
      { name: '小李', balanceFen: 1000_00, count: 1, archived: false },
    ]);
    expect(expected.pending.totalFen).toBe(90_00);
    expect(expected.categories.map((c) => (c as { name: string }).name)).toContain('猫粮');
    for (const x of [b, c, d]) expect(books(x.ledger, ['2026-01', '2026-02'])).toEqual(expected);
    // The indexes are back after the load.
    const indexes = (l: typeof a.ledger) =>
      (
        l.database
          .prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'transactions' ORDER BY name")
          .pluck()
          .all() as string[]
      ).join(',');
    for (const x of [b, d]) expect(indexes(x.ledger)).toBe(indexes(a.ledger));
    // A row edited and one deleted after the join travel as usual.
    a.ledger.updateTransaction(ids[100]!, { description: '改过' });
    b.ledger.deleteTransactions([ids[101]!]);
    await quiesce([a, b, c, d]);
    for (const x of [a, b, c, d]) {
      expect(x.ledger.getTransaction(ids[100]!)?.description).toBe('改过');
      expect(x.ledger.getTransaction(ids[101]!)).toBeUndefined();
    }
  });
});

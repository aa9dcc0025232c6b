import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_FLOWS, type LedgerFlow, type TransactionType } from '@shared/domain';
import { openLedger } from './index';
import { adjustments, correctionsSql, type Adjustment } from './net';

// Every kind of row the net rule tells apart, one row each on one day: type, flow, 待报销, and
// for refunds whether (and where) the purchase is linked.
const ledger = openLedger({ path: ':memory:' });
afterAll(() => ledger.close());
const db = ledger.database;
const DAY = '2026-02-01';
const insert = db.prepare(
  `INSERT INTO transactions (id, amount_fen, type, category_id, account_id, occurred_at, occurred_date, occurred_ms, source,
     created_at, updated_at, flow, refund_of, reimbursable)
   VALUES (?, ?, ?, 1, 1, '2026-02-01T12:00:00+08:00', ?, 0, ?, '', '', ?, ?, ?)`,
);
const links = [
  { source: 'manual', refundOf: null },
  { source: 'import', refundOf: null },
  { source: 'import', refundOf: 'row-0' }, // the purchase is in the ledger
  { source: 'import', refundOf: 'gone' }, // 待关联: it is not
  { source: 'manual', refundOf: 'gone' }, // recorded by the user: still a refund
];
const rows: { id: string; fen: number; type: TransactionType; flow: LedgerFlow | null; reimbursable: 0 | 1; awaiting: 0 | 1 }[] = [];
for (const type of ['EXPENSE', 'INCOME', 'TRANSFER'] as const) {
  for (const flow of [null, ...LEDGER_FLOWS]) {
    for (const reimbursable of [0, 1] as const) {
      for (const { source, refundOf } of flow === 'refund' ? links : links.slice(0, 1)) {
        const row = { id: `row-${rows.length}`, fen: 100 + rows.length, type, flow, reimbursable, awaiting: 0 as 0 | 1 };
        row.awaiting = flow === 'refund' && source === 'import' && refundOf === 'gone' ? 1 : 0;
        insert.run(row.id, row.fen, type, DAY, source, flow, refundOf, reimbursable);
        rows.push(row);
      }
    }
  }
}

describe('correctionsSql', () => {
  it.each([{}, { includeReimbursed: true }])('corrects each kind of row as adjustments() does (%o)', (options) => {
    const sql = correctionsSql('t.id', 'WHERE t.occurred_date BETWEEN ? AND ?', options);
    const inDb = db.prepare(sql).all(DAY, DAY) as ({ key: string } & Adjustment)[];
    const byId = (list: ({ key: string } & Adjustment)[]) => list.sort((a, b) => a.key.localeCompare(b.key) || a.type.localeCompare(b.type));
    const expected = rows.flatMap((r) =>
      adjustments({ type: r.type, flow: r.flow, reimbursable: r.reimbursable, awaiting: r.awaiting, fen: r.fen, n: 1 }, options)
        .filter((a) => a.fen !== 0 || a.n !== 0)
        .map((a) => ({ key: r.id, ...a })),
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(byId(inDb)).toEqual(byId(expected));
  });
});

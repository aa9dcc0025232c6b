// The hand-written side of the row-returning pairs (list page, search): the statement's columns
// and joins — each row's names, its refunded expense and reimbursement, its tags in their order
// from a correlated group_concat — and the cells turned into the TransactionRow the app builds
// (optional fields only where the app sets them).
import type { TransactionRow } from '@shared/domain';

export type Cells = [
  string,
  number,
  string,
  TransactionRow['type'],
  string,
  string,
  string,
  string,
  string,
  TransactionRow['source'],
  string,
  string,
  string | null,
  string,
  TransactionRow['flow'] | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  number,
];

export const COLUMNS = `SELECT t.id, t.amount_fen, t.currency, t.type, c.name, a.name, t.description, t.occurred_at, t.occurred_date, t.source,
    t.created_at, t.updated_at, ta.name, t.counterparty, t.flow, p.name, rf.id, t.refund_of, rf.occurred_date, rf.description,
    rf.amount_fen, t.reimbursable, rb.id, pc.name, t.recorded_by,
    (SELECT group_concat(g.name, ';' ORDER BY tt.rowid) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.transaction_id = t.id),
    t.occurred_ms, t.rowid
  FROM transactions t
  JOIN categories c ON c.id = t.category_id
  LEFT JOIN categories pc ON pc.id = c.parent_id
  JOIN accounts a ON a.id = t.account_id
  LEFT JOIN accounts ta ON ta.id = t.to_account_id
  LEFT JOIN people p ON p.id = t.person_id
  LEFT JOIN transactions rf ON rf.id = t.refund_of
  LEFT JOIN transactions rb ON rb.id = t.reimbursed_by`;
export function toRow(r: Cells): TransactionRow {
  const row: TransactionRow = {
    id: r[0],
    amountFen: r[1],
    currency: r[2],
    type: r[3],
    category: r[4],
    account: r[5],
    description: r[6],
    occurredAt: r[7],
    date: r[8],
    source: r[9],
    createdAt: r[10],
    updatedAt: r[11],
  };
  if (r[3] === 'TRANSFER') {
    row.toAccount = r[12];
    row.counterparty = r[13];
  }
  if (r[14]) row.flow = r[14];
  if (r[15] !== null) row.person = r[15];
  if (r[14] === 'refund') {
    row.refundOf = r[16];
    if (r[16] !== null) row.refundTarget = { date: r[18]!, description: r[19]!, amountFen: r[20]! };
    if (r[9] === 'import' && r[17] !== null && r[16] === null) row.awaitingPurchase = true;
  }
  if (r[21] === 1) row.reimbursable = true;
  if (r[22] !== null) row.reimbursedBy = r[22];
  if (r[23] !== null) row.parentCategory = r[23];
  if (r[25] !== null) row.tags = r[25].split(';');
  if (r[24] !== null) row.recordedBy = r[24];
  return row;
}

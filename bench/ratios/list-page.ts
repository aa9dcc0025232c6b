// The 明细 list page (the listTransactions command): Ledger.list for a month, 50 rows, against
// one hand-written keyset statement — the same joins for the row's names, the row's tags in
// their order from a correlated group_concat, the month newest first (day, time, rowid) — and
// each row turned into the same TransactionRow, with the same cursor of the next page. Two
// pages: the first, and the 21st reached by cursor (the 1 000 rows before it are not read).
import type { TransactionRow } from '@shared/domain';
import type { ListCursor, Page } from '@shared/ipc/ledger';
import type { PairFactory, RatioPair } from './pair';

const LIMIT = 50;
/** The deep page: this many pages follow the first before it. */
const DEEP = 20;

type Cells = [
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

const COLUMNS = `SELECT t.id, t.amount_fen, t.currency, t.type, c.name, a.name, t.description, t.occurred_at, t.occurred_date, t.source,
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
const ORDER = 'ORDER BY t.occurred_date DESC, t.occurred_ms DESC, t.rowid DESC LIMIT @limit';

function toRow(r: Cells): TransactionRow {
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

function pageOf(cells: Cells[]): Page<TransactionRow> {
  const last = cells.length === LIMIT ? cells.at(-1)! : undefined;
  return { rows: cells.map(toRow), next: last ? { date: last[8], ms: last[26], rowid: last[27] } : null };
}

const listPage: PairFactory = ({ ledger, db, month }) => {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const from = `${month}-01`;
  const to = `${month}-${String(new Date(Date.UTC(year, mon, 0)).getUTCDate()).padStart(2, '0')}`;
  const first = db.prepare(`${COLUMNS} WHERE t.occurred_date >= @from AND t.occurred_date <= @to ${ORDER}`).raw(true);
  // Past a cursor the cursor is the page's upper bound: the index is entered there.
  const after = db
    .prepare(`${COLUMNS} WHERE t.occurred_date >= @from AND (t.occurred_date, t.occurred_ms, t.rowid) < (@date, @ms, @rowid) ${ORDER}`)
    .raw(true);
  let deep: ListCursor | null = pageOf(first.all({ from, to, limit: LIMIT }) as Cells[]).next;
  for (let page = 1; page < DEEP && deep; page++) deep = pageOf(after.all({ from, limit: LIMIT, ...deep }) as Cells[]).next;
  if (!deep) return `${month} holds fewer than ${(DEEP + 1) * LIMIT} rows`;
  const pairs: RatioPair<Page<TransactionRow>>[] = [
    {
      name: 'ratios.listPage',
      project: () => ledger.list({ from, to, limit: LIMIT }),
      raw: () => pageOf(first.all({ from, to, limit: LIMIT }) as Cells[]),
    },
    {
      name: 'ratios.listPage21',
      project: () => ledger.list({ from, to, limit: LIMIT, after: deep }),
      raw: () => pageOf(after.all({ from, limit: LIMIT, ...deep }) as Cells[]),
    },
  ];
  return pairs as RatioPair[];
};

export default listPage;

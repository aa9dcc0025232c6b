// The 明细 list page (the listTransactions command): Ledger.list for a month, 50 rows, against
// one hand-written keyset statement — the same joins for the row's names, the row's tags in
// their order from a correlated group_concat, the month newest first (day, time, rowid) — and
// each row turned into the same TransactionRow, with the same cursor of the next page. Two
// pages: the first, and the 21st reached by cursor (the 1 000 rows before it are not read).
import type { TransactionRow } from '@shared/domain';
import type { ListCursor, Page } from '@shared/ipc/ledger';
import type { PairFactory, RatioPair } from './pair';
import { COLUMNS, toRow, type Cells } from './raw-rows';

const LIMIT = 50;
/** The deep page: this many pages follow the first before it. */
const DEEP = 20;

const ORDER = 'ORDER BY t.occurred_date DESC, t.occurred_ms DESC, t.rowid DESC LIMIT @limit';

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

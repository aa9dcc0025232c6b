import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import { dayTop, type LedgerFilter, type ListCursor } from '@shared/ipc/ledger';
import { toZonedNow } from '@shared/time';
import { openLedger, type Ledger } from './index';
import { item } from '../../../../test/support/ledger-fixtures';
import { prng } from '../../../../test/support/prng';

// 明细 pages by keyset: random ledgers where many rows share their instant (one save writes
// its items at one instant; items dated to the same day share it too), random page sizes and
// filters, rows written and the cursor's own row deleted between pages. The pages together are
// exactly the filter's rows in the list's order, each once; a row written meanwhile appears
// only when it falls after the cursor, and nothing already listed moves.

/** A few instants and days, so that most rows tie with others. */
const INSTANTS = ['2026-02-17T12:30:00+08:00', '2026-02-17T09:00:00+08:00', '2026-02-16T12:30:00+08:00'];
const DAYS = ['2026-02-17', '2026-02-16', '2026-02-10', '2026-01-31', null];
const FILTERS: LedgerFilter[] = [
  {},
  { from: '2026-02-01', to: '2026-02-16' },
  { to: '2026-02-10' },
  { from: '2026-02-16' },
  { type: 'INCOME' },
  { category: '交通' },
  { from: '2026-01-31', to: '2026-02-16', type: 'EXPENSE' },
];

type Key = { id: string; date: string; ms: number; rowid: number; type: TransactionType; category: string };

let ledger: Ledger;
beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => toZonedNow(INSTANTS[0]!) });
});
afterEach(() => ledger.close());

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

/** Saves `n` items in batches of random size, each batch at one of the few instants. */
function write(rnd: () => number, n: number): void {
  for (let left = n; left > 0;) {
    const size = Math.min(left, 1 + Math.floor(rnd() * 6));
    left -= size;
    const items = Array.from({ length: size }, () => {
      const income = rnd() < 0.2;
      return item({
        amount: 1 + Math.floor(rnd() * 100),
        type: income ? 'INCOME' : 'EXPENSE',
        category: income ? '工资' : pick(rnd, ['餐饮', '交通']),
        date: pick(rnd, DAYS),
      });
    });
    ledger.saveBatch(items, { now: toZonedNow(pick(rnd, INSTANTS)) });
  }
}

/** Every row with its place in the order, read straight from the table. */
function keys(): Map<string, Key> {
  const rows = ledger.database
    .prepare(
      `SELECT t.id, t.occurred_date AS date, t.occurred_ms AS ms, t.rowid, t.type, c.name AS category
       FROM transactions t JOIN categories c ON c.id = t.category_id`,
    )
    .all() as Key[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Newest first: day, then instant, then the later write. */
function before(a: Pick<Key, 'date' | 'ms' | 'rowid'>, b: Pick<Key, 'date' | 'ms' | 'rowid'>): boolean {
  return a.date !== b.date ? a.date > b.date : a.ms !== b.ms ? a.ms > b.ms : a.rowid > b.rowid;
}

function matches(k: Key, f: LedgerFilter): boolean {
  return (!f.from || k.date >= f.from) && (!f.to || k.date <= f.to) && (!f.type || k.type === f.type) && (!f.category || k.category === f.category);
}

function ordered(all: Map<string, Key>, f: LedgerFilter): Key[] {
  return [...all.values()].filter((k) => matches(k, f)).sort((a, b) => (before(a, b) ? -1 : 1));
}

describe('明细 pages', () => {
  it('pages through rows that share their instant without skipping or repeating any', () => {
    // One save of 23 items: a single instant, so only the order of writing tells them apart.
    ledger.saveBatch(Array.from({ length: 23 }, (_, i) => item({ amount: i + 1, date: null })));
    const listed: number[] = [];
    for (let page = ledger.list({ limit: 5 }); ; page = ledger.list({ limit: 5, after: page.next })) {
      listed.push(...page.rows.map((r) => r.amountFen / 100));
      if (!page.next) break;
    }
    // The last item written comes first, as it did before pages had cursors.
    expect(listed).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
  });

  it('starts a page at the top of a day', () => {
    write(prng(7), 60);
    const all = ordered(keys(), {});
    for (const day of ['2026-02-16', '2026-02-11', '2026-01-31', '2026-03-01']) {
      const page = ledger.list({ limit: 4, after: dayTop(day) });
      expect(page.rows.map((r) => r.id)).toEqual(
        all
          .filter((k) => k.date <= day)
          .slice(0, 4)
          .map((k) => k.id),
      );
    }
    // Above the range's end the top of a day bounds nothing: the page is the range's first.
    expect(ledger.list({ to: '2026-02-10', limit: 3, after: dayTop('2026-02-17') })).toEqual(ledger.list({ to: '2026-02-10', limit: 3 }));
  });

  it('random ledgers, page sizes, filters and writes between pages: every row once, in order', () => {
    for (let seed = 1; seed <= 40; seed++) {
      ledger.close();
      ledger = openLedger({ path: ':memory:', now: () => toZonedNow(INSTANTS[0]!) });
      const rnd = prng(seed);
      write(rnd, 20 + Math.floor(rnd() * 80));
      const filter = pick(rnd, FILTERS);
      const start = keys();
      const listed: string[] = [];
      /** Rows written between pages, with the cursor they were written at. */
      const later: { ids: string[]; at: ListCursor }[] = [];
      let all = start;
      for (let page = ledger.list({ ...filter, limit: 1 + Math.floor(rnd() * 9) }); ;) {
        listed.push(...page.rows.map((r) => r.id));
        if (!page.next) break;
        if (rnd() < 0.3) {
          const had = new Set(all.keys());
          write(rnd, 1 + Math.floor(rnd() * 5));
          // Deleted rows keep their keys: they were listed before they went.
          all = new Map([...all, ...keys()]);
          later.push({ ids: [...all.keys()].filter((id) => !had.has(id)), at: page.next });
        }
        // The cursor's own row may go: the next page starts after where it was.
        if (rnd() < 0.2) ledger.deleteTransaction(listed.at(-1)!);
        page = ledger.list({ ...filter, limit: 1 + Math.floor(rnd() * 9), after: page.next });
      }
      const keyOf = (id: string) => all.get(id)!;
      const laterRows = later.flatMap(({ ids, at }) => ids.filter((id) => before({ ...at }, keyOf(id))));
      const expected = [...ordered(start, filter).map((k) => k.id), ...laterRows.filter((id) => matches(keyOf(id), filter))]
        .map(keyOf)
        .sort((a, b) => (before(a, b) ? -1 : 1))
        .map((k) => k.id);
      expect(listed, `seed ${seed}, filter ${JSON.stringify(filter)}`).toEqual(expected);
    }
  });
});

// No row ever lands in the wrong book: a random walk of switches, form entries and voice cards
// (some confirmed after a switch) over a 1 000 000-row book and an empty one, checked against
// a model of where each entry belongs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookListing } from '@shared/ipc/books';
import type { AppCore } from '../app-core';
import { offlineCore } from '../../../../test/support/offline-core';
import { prng } from '../../../../test/support/prng';
import { openLedger } from '../ledger/index';
import { MAIN_BOOK } from './registry';

const BIG = 1_000_000;
let dir: string;
let core: AppCore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-books-walk-'));
  // The first book, filled in bulk before the app opens it (every trigger runs, as for any write).
  const big = openLedger({ path: join(dir, 'ledger.db') });
  big.database.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${BIG - 1})
    INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description, occurred_at, occurred_date,
      occurred_ms, source, created_at, updated_at, to_account_id, counterparty)
    SELECT 'big-' || i, 100 + i % 5000, 'CNY', 'EXPENSE', 1, 1, '旧' || (i % 997), '2025-01-01T12:00:00+08:00', '2025-01-01',
      1735704000000 + i, 'import', '2025-01-01T12:00:00+08:00', '2025-01-01T12:00:00+08:00', NULL, '' FROM n`);
  big.close();
  core = offlineCore(dir);
}, 240_000);

afterAll(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function call<T = unknown>(name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

const CHINESE = '零一二三四五六七八九';
/** 1–999 yuan said in characters, as a recognizer writes it. */
const spoken = (n: number) =>
  `${n >= 100 ? `${CHINESE[Math.floor(n / 100)]}百` : ''}${n % 100 >= 10 ? `${CHINESE[Math.floor((n % 100) / 10)]}十` : n >= 100 && n % 10 ? '零' : ''}${n % 10 ? CHINESE[n % 10] : ''}`;

describe('switching books', () => {
  it('with a 1 000 000-row book and an empty one, every entry lands in the book it was made in', { timeout: 240_000 }, async () => {
    const { books } = await call<BookListing>('createBook', { name: '空账本' });
    const empty = books.find((b) => b.name === '空账本')!.id;
    const ids = [MAIN_BOOK, empty];
    const expected = new Map<string, number[]>(ids.map((id) => [id, []]));
    const rnd = prng(7);
    let current = MAIN_BOOK;
    /** The book the card on screen belongs to, and its amount in fen. */
    let card: { book: string; fen: number } | null = null;
    for (let step = 0; step < 120; step++) {
      const r = rnd();
      if (r < 0.3) {
        current = ids[Math.floor(rnd() * ids.length)]!;
        await call('switchBook', { id: current });
      } else if (r < 0.55 && !card) {
        const yuan = 1 + Math.floor(rnd() * 999);
        await call('addTransaction', { amountYuan: yuan, type: 'EXPENSE', category: '餐饮', date: '2026-02-17', time: '12:00', note: `表单${step}` });
        expected.get(current)!.push(yuan * 100);
      } else if (!card) {
        const yuan = 1 + Math.floor(rnd() * 999);
        const snap = await call<{ batch: { items: { result: { amount: number } }[] } | null }>('voiceText', { text: `午饭${spoken(yuan)}` });
        expect(snap.batch?.items[0]?.result.amount).toBe(yuan);
        card = { book: current, fen: yuan * 100 };
      } else {
        const confirm = rnd() < 0.8;
        const snap = await call<{ batch: unknown }>('voiceText', { text: confirm ? '确认' : '取消' });
        expect(snap.batch).toBeNull();
        if (confirm) expected.get(card!.book)!.push(card!.fen);
        card = null;
      }
    }
    const newRows = (id: string) =>
      core
        .book(id)
        .ledger.list({ from: '2026-01-01', to: '2026-12-31', limit: 1000 })
        .rows.map((r) => r.amountFen)
        .sort((a, b) => a - b);
    for (const id of ids) expect(newRows(id)).toEqual([...expected.get(id)!].sort((a, b) => a - b));
    expect(core.book(MAIN_BOOK).ledger.count({ to: '2025-12-31' })).toBe(BIG);
    expect(expected.get(MAIN_BOOK)!.length + expected.get(empty)!.length).toBeGreaterThan(30);
  });
});

// Several books through the real composition root: IPC dispatch → the current book's ledger,
// and the voice session writing each card to the book it was spoken in.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import type { BookListing } from '@shared/ipc/books';
import type { AppCore } from '../app-core';
import { offlineCore } from '../../../../test/support/offline-core';
import { openLedger } from '../ledger/index';
import { MAIN_BOOK } from './registry';

const made: { core: AppCore | null; dir: string }[] = [];
afterEach(async () => {
  for (const m of made.splice(0)) {
    await m.core?.dispose();
    rmSync(m.dir, { recursive: true, force: true });
  }
});

function boot(dir = mkdtempSync(join(tmpdir(), 'skj-books-core-'))) {
  const core = offlineCore(dir);
  made.push({ core, dir });
  const events: AppEvent[] = [];
  core.onEvent((e) => events.push(e));
  const call = async <T = unknown>(name: string, input: unknown = {}): Promise<T> => {
    const result = await core.dispatch(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };
  const fail = async (name: string, input: unknown) => {
    const result = await core.dispatch(name, input);
    if (result.ok) throw new Error(`${name} succeeded`);
    return result.error;
  };
  return { core, dir, events, call, fail };
}

const add = (note: string, amountYuan = 10) => ({ amountYuan, type: 'EXPENSE', category: '餐饮', date: '2026-02-17', time: '12:00', note });
const notes = (core: AppCore, id: string) =>
  core
    .book(id)
    .ledger.list({})
    .rows.map((r) => r.description)
    .sort();

describe('books (账本) in the app core', () => {
  it('the ledger a user already had is the first book, with its rows, and nothing moved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skj-books-old-'));
    const old = openLedger({ path: join(dir, 'ledger.db') });
    old.addTransaction({ amountFen: 1000, type: 'EXPENSE', category: '餐饮', date: '2026-02-17', time: '12:00', note: '旧的一笔' });
    old.close();
    const { core, call } = boot(dir);
    expect(await call<BookListing>('listBooks')).toMatchObject({ current: MAIN_BOOK, books: [{ id: MAIN_BOOK, name: '我的账本' }] });
    expect(core.ledger.list({}).rows.map((r) => r.description)).toEqual(['旧的一笔']);
    expect(existsSync(join(dir, 'books'))).toBe(false);
  });

  it('writes from the windows go to the current book; switching tells the windows and keeps each book apart', async () => {
    const { core, call, events, dir } = boot();
    await call('addTransaction', add('家里的'));
    const listing = await call<BookListing>('createBook', { name: '旅行', switchTo: true });
    const trip = listing.books.find((b) => b.name === '旅行')!;
    expect(listing.current).toBe(trip.id);
    expect(events).toContainEqual({ channel: 'ledger', event: { type: 'changed', reason: 'switch' } });
    expect(events).toContainEqual({ channel: 'books', event: { type: 'changed', listing } });
    await call('addTransaction', add('机票', 1200));
    expect(notes(core, trip.id)).toEqual(['机票']);
    expect(notes(core, MAIN_BOOK)).toEqual(['家里的']);
    expect((await call<{ rows: unknown[] }>('listTransactions', {})).rows).toHaveLength(1);
    expect(existsSync(join(dir, 'books', trip.id, 'ledger.db'))).toBe(true);

    await call('switchBook', { id: MAIN_BOOK });
    expect((await call<{ rows: { description: string }[] }>('listTransactions', {})).rows.map((r) => r.description)).toEqual(['家里的']);
    // Undo belongs to the book: the trip's 机票 is not undone from here.
    await call('undo');
    expect(notes(core, MAIN_BOOK)).toEqual([]);
    expect(notes(core, trip.id)).toEqual(['机票']);
  });

  it('remembers the current book across restarts', async () => {
    const first = boot();
    const { books } = await first.call<BookListing>('createBook', { name: '生意', switchTo: true });
    await first.call('addTransaction', add('进货'));
    await first.core.dispose();
    made.find((m) => m.core === first.core)!.core = null;
    const again = boot(first.dir);
    const shop = books.find((b) => b.name === '生意')!;
    expect((await again.call<BookListing>('listBooks')).current).toBe(shop.id);
    expect(again.core.ledger.list({}).rows.map((r) => r.description)).toEqual(['进货']);
  });

  it('refuses archiving the current book and switching to an archived one, and says why', async () => {
    const { call, fail } = boot();
    const { books } = await call<BookListing>('createBook', { name: '旅行' });
    const trip = books.find((b) => b.name === '旅行')!;
    expect(await fail('archiveBook', { id: MAIN_BOOK, archived: true })).toMatchObject({ code: 'book_in_use' });
    await call('archiveBook', { id: trip.id, archived: true });
    expect(await fail('switchBook', { id: trip.id })).toMatchObject({ code: 'book_archived', message: '账本「旅行」已归档，请先在设置中恢复' });
    expect(await fail('switchBook', { id: 'nonsense' })).toMatchObject({ code: 'validation_failed' });
    expect(await fail('createBook', { name: '旅行' })).toMatchObject({ message: '已有名为「旅行」的账本' });
  });

  it('a book whose file cannot be opened is refused at the switch and the current book stays', async () => {
    const { call, fail, core, dir } = boot();
    const { books } = await call<BookListing>('createBook', { name: '坏的' });
    const bad = books.find((b) => b.name === '坏的')!;
    mkdirSync(join(dir, 'books', bad.id), { recursive: true });
    writeFileSync(join(dir, 'books', bad.id, 'ledger.db'), 'this is not a database, just some words long enough to look like a file');
    expect(await fail('switchBook', { id: bad.id })).toMatchObject({ code: 'book_unusable' });
    expect((await call<BookListing>('listBooks')).current).toBe(MAIN_BOOK);
    expect(core.ledger.count()).toBe(0);
  });

  it('a voice card stays with the book it was spoken in: confirmed after a switch, it is saved there; the next card goes to the new book', async () => {
    const { core, call } = boot();
    const { books } = await call<BookListing>('createBook', { name: '旅行' });
    const trip = books.find((b) => b.name === '旅行')!;
    await call('voiceText', { text: '午饭三十五' });
    await call('switchBook', { id: trip.id });
    // A change said after the switch is a change of that card, still in its book.
    await call('voiceText', { text: '改成四十' });
    await call('voiceText', { text: '确认' });
    expect(
      core
        .book(MAIN_BOOK)
        .ledger.list({})
        .rows.map((r) => r.amountFen),
    ).toEqual([40_00]);
    expect(core.book(trip.id).ledger.count()).toBe(0);

    await call('voiceText', { text: '门票一百' });
    await call('voiceText', { text: '确认' });
    expect(
      core
        .book(trip.id)
        .ledger.list({})
        .rows.map((r) => r.amountFen),
    ).toEqual([100_00]);
    // 撤销 by voice takes back that save from the trip, even after switching away.
    await call('switchBook', { id: MAIN_BOOK });
    await call('voiceText', { text: '撤销' });
    expect(core.book(trip.id).ledger.count()).toBe(0);
    expect(core.book(MAIN_BOOK).ledger.count()).toBe(1);
  });
});

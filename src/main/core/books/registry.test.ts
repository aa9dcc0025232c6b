import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookRegistry, MAIN_BOOK } from './registry';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-books-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (iso: string) => () => new Date(iso);

describe('BookRegistry', () => {
  it('starts with the first book in the data folder itself, current, with nothing to set up', () => {
    const books = new BookRegistry(dir, { now: at('2026-11-26T00:00:00Z') });
    expect(books.listing()).toEqual({
      current: MAIN_BOOK,
      books: [{ id: MAIN_BOOK, name: '我的账本', createdAt: '2026-11-26T00:00:00.000Z', archived: false }],
    });
    expect(books.folder(MAIN_BOOK)).toBe(dir);
  });

  it('creates, renames and archives books, keeps them across restarts, and gives each its own folder', () => {
    const books = new BookRegistry(dir, { now: at('2026-11-26T00:00:00Z') });
    const trip = books.create('旅行');
    expect(trip.id).toMatch(/^b-[0-9a-f]{16}$/);
    expect(books.folder(trip.id)).toBe(join(dir, 'books', trip.id));
    books.rename(MAIN_BOOK, '家庭');
    books.setCurrent(trip.id);
    const shop = books.create('生意');
    books.archive(shop.id, true);

    const again = new BookRegistry(dir);
    expect(again.listing()).toEqual({
      current: trip.id,
      books: [
        { id: trip.id, name: '旅行', createdAt: '2026-11-26T00:00:00.000Z', archived: false },
        { id: MAIN_BOOK, name: '家庭', createdAt: '2026-11-26T00:00:00.000Z', archived: false },
        { id: shop.id, name: '生意', createdAt: '2026-11-26T00:00:00.000Z', archived: true },
      ],
    });
  });

  it('refuses a second book of the same name, archiving the current book, switching to an archived one, and unknown ids', () => {
    const books = new BookRegistry(dir);
    const trip = books.create('旅行');
    expect(() => books.create('旅行')).toThrow('已有名为「旅行」的账本');
    expect(() => books.rename(MAIN_BOOK, '旅行')).toThrow('已有名为「旅行」的账本');
    books.rename(trip.id, '旅行');
    expect(() => books.archive(MAIN_BOOK, true)).toThrow('不能归档正在使用的账本');
    books.archive(trip.id, true);
    expect(() => books.setCurrent(trip.id)).toThrow('已归档');
    expect(() => books.setCurrent('b-0000000000000000')).toThrow('没有这个账本');
    expect(books.current).toBe(MAIN_BOOK);
  });

  it('sets a damaged books.json aside and lists the books found in their folders again', () => {
    const books = new BookRegistry(dir);
    const trip = books.create('旅行');
    mkdirSync(books.folder(trip.id), { recursive: true });
    writeFileSync(join(books.folder(trip.id), 'ledger.db'), '');
    writeFileSync(join(dir, 'books.json'), '{ not json');
    const logged: string[] = [];
    const again = new BookRegistry(dir, { log: (m) => logged.push(m) });
    expect(again.listing().books.map((b) => [b.id, b.name])).toEqual([
      [MAIN_BOOK, '我的账本'],
      [trip.id, '恢复的账本1'],
    ]);
    expect(readdirSync(dir).some((f) => f.startsWith('books.json.broken-'))).toBe(true);
    expect(logged).toEqual(['books.json unreadable; set aside']);
  });
});

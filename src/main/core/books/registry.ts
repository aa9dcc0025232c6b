import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { BookInfo, BookListing } from '@shared/ipc/books';
import { CommandError } from '../ipc/types';

/**
 * The user's books (账本), in `<dataDir>/books.json`. Each book is a folder holding its own
 * ledger.db, backups/ and sync.json, so everything per book (backups, restores, the sync
 * remote) works as it did for the one ledger. The first book is the data folder itself: the
 * ledger a user had before books existed is that book, with nothing moved.
 */
export const MAIN_BOOK = 'main';
const DEFAULT_NAME = '我的账本';
const FILE = 'books.json';
const BOOK_ID = /^b-[0-9a-f]{16}$/;

const fileSchema = z.object({
  version: z.literal(1),
  current: z.string(),
  books: z.array(z.object({ id: z.string(), name: z.string(), createdAt: z.string(), archived: z.boolean() })),
});
type BooksFile = z.infer<typeof fileSchema>;

export class BookRegistry {
  private readonly path: string;
  private state: BooksFile;

  constructor(
    private readonly dataDir: string,
    private readonly options: { now?: () => Date; log?: (message: string, err?: unknown) => void } = {},
  ) {
    this.path = join(dataDir, FILE);
    this.state = this.read();
  }

  listing(): BookListing {
    const order = (b: BookInfo) => (b.archived ? 2 : b.id === this.state.current ? 0 : 1);
    const books = [...this.state.books].sort((a, b) => order(a) - order(b) || a.createdAt.localeCompare(b.createdAt));
    return { current: this.state.current, books: books.map((b) => ({ ...b })) };
  }

  get current(): string {
    return this.state.current;
  }

  book(id: string): BookInfo {
    const found = this.state.books.find((b) => b.id === id);
    if (!found) throw new CommandError('not_found', '没有这个账本');
    return { ...found };
  }

  /** The folder of a book's files; created when missing. */
  folder(id: string): string {
    this.book(id);
    const dir = id === MAIN_BOOK ? this.dataDir : join(this.dataDir, 'books', id);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  create(name: string): BookInfo {
    this.checkName(name);
    const book: BookInfo = { id: `b-${randomBytes(8).toString('hex')}`, name, createdAt: this.now(), archived: false };
    this.write({ ...this.state, books: [...this.state.books, book] });
    return { ...book };
  }

  rename(id: string, name: string): void {
    this.book(id);
    this.checkName(name, id);
    this.write({ ...this.state, books: this.state.books.map((b) => (b.id === id ? { ...b, name } : b)) });
  }

  /** The current book cannot be archived (switch first), nor the last open one. */
  archive(id: string, archived: boolean): void {
    const book = this.book(id);
    if (book.archived === archived) return;
    if (archived && id === this.state.current) throw new CommandError('book_in_use', '不能归档正在使用的账本，请先切换到其他账本');
    this.write({ ...this.state, books: this.state.books.map((b) => (b.id === id ? { ...b, archived } : b)) });
  }

  setCurrent(id: string): void {
    const book = this.book(id);
    if (book.archived) throw new CommandError('book_archived', `账本「${book.name}」已归档，请先在设置中恢复`);
    if (id !== this.state.current) this.write({ ...this.state, current: id });
  }

  private checkName(name: string, except?: string): void {
    if (this.state.books.some((b) => b.name === name && b.id !== except)) throw new CommandError('validation_failed', `已有名为「${name}」的账本`);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  /** A missing file is the first start with books: the main book alone. A damaged one is set aside, never lost. */
  private read(): BooksFile {
    const fresh: BooksFile = {
      version: 1,
      current: MAIN_BOOK,
      books: [{ id: MAIN_BOOK, name: DEFAULT_NAME, createdAt: this.now(), archived: false }],
    };
    if (!existsSync(this.path)) return fresh;
    try {
      const file = fileSchema.parse(JSON.parse(readFileSync(this.path, 'utf8')));
      const valid = file.books.some((b) => b.id === MAIN_BOOK) && file.books.some((b) => b.id === file.current && !b.archived);
      if (valid) return file;
      throw new Error('books.json names no usable current book');
    } catch (err) {
      this.options.log?.('books.json unreadable; set aside', err);
      renameSync(this.path, `${this.path}.broken-${Date.now()}`);
      // The books' folders are still there: list them again, named by number, for the user to rename.
      const found = this.orphanFolders().map((id, i) => ({ id, name: `恢复的账本${i + 1}`, createdAt: this.now(), archived: false }));
      return { ...fresh, books: [...fresh.books, ...found] };
    }
  }

  private orphanFolders(): string[] {
    const dir = join(this.dataDir, 'books');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((id) => BOOK_ID.test(id) && existsSync(join(dir, id, 'ledger.db')))
      .sort();
  }

  private write(next: BooksFile): void {
    const temp = `${this.path}.tmp`;
    writeFileSync(temp, JSON.stringify(next, null, 2));
    renameSync(temp, this.path);
    this.state = next;
  }
}

import type { BookListing } from '@shared/ipc/books';
import { LedgerOpenError } from '../ledger/errors';
import { CommandError } from '../ipc/types';
import { BookRegistry, MAIN_BOOK } from './registry';

/** What one open book holds; the app core makes them (its ledger, history, backups, sync). */
export interface OpenBook {
  id: string;
  dispose(): Promise<void>;
}

/**
 * The books of the app: which is current, and the open ones. A book stays open once opened,
 * so switching back is instant; all of them close with the app. Opening happens before the
 * registry names a book current, so a book whose file cannot be used is never left current.
 */
export class Books<B extends OpenBook> {
  private readonly open = new Map<string, B>();
  private readonly registry: BookRegistry;

  constructor(
    dataDir: string,
    private readonly options: {
      openBook: (id: string, folder: string) => B;
      /** Another book is current, or the list changed. */
      onChange: (listing: BookListing, switched: boolean) => void;
      log: (message: string, err?: unknown) => void;
      now?: () => Date;
    },
  ) {
    this.registry = new BookRegistry(dataDir, { log: options.log, ...(options.now ? { now: options.now } : {}) });
    // A book that cannot be opened at start (a damaged file) must not lock the user out:
    // the first book is opened instead, and its own failure is the shell's to show.
    const current = this.registry.current;
    try {
      this.book(current);
    } catch (err) {
      if (current === MAIN_BOOK) throw err;
      options.log(`book ${current} could not be opened; back to the first book`, err);
      this.book(MAIN_BOOK);
      this.registry.setCurrent(MAIN_BOOK);
    }
  }

  get currentId(): string {
    return this.registry.current;
  }

  get current(): B {
    return this.book(this.registry.current);
  }

  /** The open book of this id, opened now when it is not yet. */
  book(id: string): B {
    const found = this.open.get(id);
    if (found) return found;
    const book = this.options.openBook(id, this.registry.folder(id));
    this.open.set(id, book);
    return book;
  }

  listing(): BookListing {
    return this.registry.listing();
  }

  create(name: string, switchTo: boolean): BookListing {
    const book = this.registry.create(name);
    if (switchTo) return this.switchTo(book.id);
    return this.changed(false);
  }

  rename(id: string, name: string): BookListing {
    this.registry.rename(id, name);
    return this.changed(false);
  }

  archive(id: string, archived: boolean): BookListing {
    this.registry.archive(id, archived);
    return this.changed(false);
  }

  switchTo(id: string): BookListing {
    const info = this.registry.book(id);
    if (info.archived) throw new CommandError('book_archived', `账本「${info.name}」已归档，请先在设置中恢复`);
    if (id === this.registry.current) return this.listing();
    try {
      this.book(id);
    } catch (err) {
      if (err instanceof LedgerOpenError) throw new CommandError('book_unusable', `无法打开账本「${info.name}」：${err.message}`);
      throw err;
    }
    this.registry.setCurrent(id);
    return this.changed(true);
  }

  async dispose(): Promise<void> {
    const books = [...this.open.values()];
    this.open.clear();
    for (const book of books) await book.dispose();
  }

  private changed(switched: boolean): BookListing {
    const listing = this.listing();
    this.options.onChange(listing, switched);
    return listing;
  }
}

import { getContext, setContext } from 'svelte';
import type { BookInfo, BookListing } from '@shared/ipc/books';
import type { SuikoujiApi } from '@shared/ipc/index';

export type BooksApi = Pick<SuikoujiApi, 'listBooks' | 'createBook' | 'renameBook' | 'archiveBook' | 'switchBook' | 'onEvent'>;

/**
 * The user's books as the window shows them: kept in step with main by its 'books' events,
 * so the sidebar, 首页 and 设置 agree after a switch from the tray as well.
 */
export class BooksState {
  #listing = $state<BookListing | null>(null);
  problem = $state<string | null>(null);
  /** Counts the switches to another book (not the first load): pages start again on each. */
  switches = $state(0);

  get listing(): BookListing | null {
    return this.#listing;
  }

  set listing(next: BookListing | null) {
    if (this.#listing && next && next.current !== this.#listing.current) this.switches++;
    this.#listing = next;
  }

  readonly current = $derived<BookInfo | null>(this.listing?.books.find((b) => b.id === this.listing!.current) ?? null);
  readonly open = $derived<BookInfo[]>(this.listing?.books.filter((b) => !b.archived) ?? []);

  constructor(private readonly api: BooksApi) {}

  /** Loads the list and follows main's changes; returns the unsubscribe. */
  connect(): () => void {
    const stop = this.api.onEvent((event) => {
      if (event.channel === 'books') this.listing = event.event.listing;
    });
    void this.api.listBooks({}).then((result) => {
      if (result.ok) this.listing ??= result.value;
      else this.problem = result.error.message;
    });
    return stop;
  }

  switchTo(id: string): Promise<boolean> {
    return this.run(() => this.api.switchBook({ id }));
  }

  create(name: string, switchTo: boolean): Promise<boolean> {
    return this.run(() => this.api.createBook({ name, switchTo }));
  }

  rename(id: string, name: string): Promise<boolean> {
    return this.run(() => this.api.renameBook({ id, name }));
  }

  archive(id: string, archived: boolean): Promise<boolean> {
    return this.run(() => this.api.archiveBook({ id, archived }));
  }

  private async run(command: () => ReturnType<BooksApi['listBooks']>): Promise<boolean> {
    const result = await command();
    if (!result.ok) {
      this.problem = result.error.message;
      return false;
    }
    this.problem = null;
    this.listing = result.value;
    return true;
  }
}

const CONTEXT = Symbol('books');

/** The window's books, shared by the sidebar, 首页 and 设置 (absent where a page is shown alone, as in its tests). */
export function provideBooks(books: BooksState): void {
  setContext(CONTEXT, books);
}

export function usedBooks(): BooksState | undefined {
  return getContext<BooksState | undefined>(CONTEXT);
}

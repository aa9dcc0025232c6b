import type { BOOK_COMMANDS } from '@shared/ipc/books.names';
import type { BookListing } from '@shared/ipc/books';
import { CommandError, type AreaHandlers } from './types';

/** What the 账本 commands need: the app core's books (see books/books.ts). */
export interface BookHandlerDeps {
  books?: {
    listing(): BookListing;
    create(name: string, switchTo: boolean): BookListing;
    rename(id: string, name: string): BookListing;
    archive(id: string, archived: boolean): BookListing;
    switchTo(id: string): BookListing;
  };
}

type BookCommand = (typeof BOOK_COMMANDS)[number];

export function createBookHandlers(deps: BookHandlerDeps): AreaHandlers<BookCommand> {
  const books = () => {
    if (!deps.books) throw new CommandError('books_unavailable', '账本暂不可用，请重启应用后再试。');
    return deps.books;
  };
  return {
    listBooks: () => books().listing(),
    createBook: ({ name, switchTo }) => books().create(name, switchTo),
    renameBook: ({ id, name }) => books().rename(id, name),
    archiveBook: ({ id, archived }) => books().archive(id, archived),
    switchBook: ({ id }) => books().switchTo(id),
  };
}

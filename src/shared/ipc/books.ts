import { z } from 'zod';
import type { BOOK_COMMANDS } from './books.names';

/** A book's id: 'main' for the first book, b-<16 hex> for the others. */
const bookId = z.string().regex(/^(main|b-[0-9a-f]{16})$/, '账本无效');
export const bookName = z.string().trim().min(1, '请填写账本名称').max(20, '账本名称最多20个字');

export const bookSchemas = {
  listBooks: z.object({}).strict(),
  /** A new, empty book with the preset categories; `switchTo` makes it the current one. */
  createBook: z.object({ name: bookName, switchTo: z.boolean().default(false) }).strict(),
  renameBook: z.object({ id: bookId, name: bookName }).strict(),
  /** Archived books leave the switcher; their files stay, and un-archiving brings them back. */
  archiveBook: z.object({ id: bookId, archived: z.boolean() }).strict(),
  switchBook: z.object({ id: bookId }).strict(),
} satisfies Record<(typeof BOOK_COMMANDS)[number], z.ZodType>;

export interface BookInfo {
  id: string;
  name: string;
  createdAt: string;
  archived: boolean;
}

/** Every book, the current one first among the open ones, archived ones last. */
export interface BookListing {
  current: string;
  books: BookInfo[];
}

export interface BookOutputs {
  listBooks: BookListing;
  createBook: BookListing;
  renameBook: BookListing;
  archiveBook: BookListing;
  switchBook: BookListing;
}

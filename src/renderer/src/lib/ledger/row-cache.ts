import type { TransactionRow } from '@shared/domain';
import { dayTop, type ListCursor } from '@shared/ipc/ledger';

/** A page as listTransactions answers it: its rows and where the page after it starts. */
export interface FetchedPage {
  rows: TransactionRow[];
  next: ListCursor | null;
}

/** The day holding a row: the offset of its first row and its date (from the day headers). */
export type DayOf = (rowOffset: number) => { offset: number; date: string };

/** The most rows one request may ask for (the IPC schema's limit). */
const MAX_PAGE = 500;

/**
 * Rows of the current filter by their offset in the list, fetched on demand one page at a
 * time. A page starts where a page before it ended (its cursor), or at the top of the day that
 * holds it when nothing before it in that day is loaded (a jump down the scrollbar): the day
 * headers give every day's first offset, so no page ever counts rows from the list's start. A
 * new generation (filter change or a ledger 'changed' event) drops every row and ignores
 * answers still in flight.
 */
export class RowCache {
  private rows = new Map<number, TransactionRow>();
  /** Where a page beginning at this offset starts: the `next` of the page that ended before it. */
  private cursors = new Map<number, ListCursor>();
  /** Past the last row: set by a page that had no next, so a list shorter than its headers say is not asked for again. */
  private end = Number.POSITIVE_INFINITY;
  private loading = false;
  private generation = 0;

  constructor(
    private readonly fetchPage: (after: ListCursor | undefined, limit: number) => Promise<FetchedPage>,
    private readonly dayOf: DayOf,
    private readonly onLoaded: () => void,
    readonly pageSize = 100,
  ) {}

  reset(): void {
    this.generation++;
    this.rows.clear();
    this.cursors.clear();
    this.end = Number.POSITIVE_INFINITY;
    this.loading = false;
  }

  get(rowOffset: number): TransactionRow | undefined {
    return this.rows.get(rowOffset);
  }

  /**
   * Makes sure the rows [first, last] are loaded or loading: one request at a time, each for
   * the first missing row; when it lands, onLoaded lets the caller ask again for what is then
   * on screen.
   */
  ensure(first: number, last: number): void {
    if (this.loading) return;
    let missing = first;
    while (missing <= last && this.rows.has(missing)) missing++;
    if (missing > last || missing >= this.end) return;
    const day = this.dayOf(missing);
    let start = missing;
    while (start > day.offset && !this.cursors.has(start)) start--;
    const after = start === 0 ? undefined : (this.cursors.get(start) ?? dayTop(day.date));
    this.loading = true;
    const generation = this.generation;
    void this.fetchPage(after, Math.min(MAX_PAGE, missing - start + this.pageSize)).then(
      (page) => {
        if (generation !== this.generation) return;
        this.loading = false;
        page.rows.forEach((row, i) => this.rows.set(start + i, row));
        if (page.next) this.cursors.set(start + page.rows.length, page.next);
        else this.end = Math.min(this.end, start + page.rows.length);
        this.onLoaded();
      },
      () => {
        if (generation === this.generation) this.loading = false;
      },
    );
  }
}

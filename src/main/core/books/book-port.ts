import type { LedgerPort } from '../voice/ports';

/**
 * The voice session's ledger when there are several books. A card belongs to the book that
 * was current when it appeared: everything said about it, and its save, goes to that book
 * even when the user switches books while it is on screen. Between cards the session follows
 * the current book. Undo of the last save goes to the book that save went to, and the card
 * it brings back belongs there too.
 */
export class BookRoutedPort implements LedgerPort {
  /** The book of the card on screen; null when there is no card. */
  private pinned: string | null = null;
  /** Where the last voice save went: undo and its budget alerts are read there. */
  private lastSave: string | null = null;
  /** The book the next card belongs to when it comes from an undo. */
  private pinNext: string | null = null;

  constructor(private readonly books: { currentId(): string; port(id: string): LedgerPort }) {}

  /** The book the session writes to now. */
  get bookId(): string {
    return this.pinned ?? this.books.currentId();
  }

  private get target(): LedgerPort {
    return this.books.port(this.bookId);
  }

  saveBatch(...args: Parameters<LedgerPort['saveBatch']>): ReturnType<LedgerPort['saveBatch']> {
    const id = this.bookId;
    const rows = this.books.port(id).saveBatch(...args);
    this.lastSave = id;
    if (!args[1]?.drafts) this.pinned = null;
    return rows;
  }

  keepDrafts(batch: Parameters<LedgerPort['keepDrafts']>[0]): void {
    if (batch && !this.pinned) {
      this.pinned = this.pinNext ?? this.books.currentId();
    }
    this.pinNext = null;
    this.books.port(this.bookId).keepDrafts(batch);
    if (!batch) this.pinned = null;
  }

  keptDrafts(): ReturnType<LedgerPort['keptDrafts']> {
    return this.target.keptDrafts();
  }

  deleteTransactions(ids: readonly string[]): number {
    const id = this.lastSave ?? this.bookId;
    this.pinNext = id;
    return this.books.port(id).deleteTransactions(ids);
  }

  getMany(ids: readonly string[]): ReturnType<LedgerPort['getMany']> {
    return this.books.port(this.lastSave ?? this.bookId).getMany(ids);
  }

  totals(...args: Parameters<LedgerPort['totals']>): ReturnType<LedgerPort['totals']> {
    return this.target.totals(...args);
  }

  placeCategory(...args: Parameters<LedgerPort['placeCategory']>): ReturnType<LedgerPort['placeCategory']> {
    return this.target.placeCategory(...args);
  }

  budgetStatus(month: string): ReturnType<LedgerPort['budgetStatus']> {
    return this.target.budgetStatus(month);
  }

  latestBudgetAlerts(): ReturnType<NonNullable<LedgerPort['latestBudgetAlerts']>> {
    return this.books.port(this.lastSave ?? this.bookId).latestBudgetAlerts?.() ?? [];
  }

  refundCandidates(...args: Parameters<NonNullable<LedgerPort['refundCandidates']>>): ReturnType<NonNullable<LedgerPort['refundCandidates']>> {
    return this.target.refundCandidates?.(...args) ?? [];
  }

  findPerson(spoken: string): ReturnType<NonNullable<LedgerPort['findPerson']>> {
    return this.target.findPerson?.(spoken);
  }

  latestSpokenRules(): ReturnType<NonNullable<LedgerPort['latestSpokenRules']>> {
    return this.books.port(this.lastSave ?? this.bookId).latestSpokenRules?.() ?? [];
  }

  /** Undo's rule lives where the undone save went. */
  deleteRecurringRule(id: number): void {
    this.books.port(this.lastSave ?? this.bookId).deleteRecurringRule?.(id);
  }

  subCategories(parent: string, type: Parameters<LedgerPort['placeCategory']>[1]): string[] {
    return this.target.subCategories?.(parent, type) ?? [];
  }

  proposeSettlement(amountFen: number): ReturnType<NonNullable<LedgerPort['proposeSettlement']>> {
    const port = this.target;
    return port.proposeSettlement ? port.proposeSettlement(amountFen) : { ids: [], settledFen: 0, leftOverFen: amountFen, stillOwedFen: 0 };
  }
}

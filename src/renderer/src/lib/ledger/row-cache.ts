import type { TransactionRow } from '@shared/domain';

/**
 * Rows of the current filter fetched in pages on demand. A new generation (filter change or
 * a ledger 'changed' event) drops every page and ignores answers still in flight.
 */
export class RowCache {
  private pages = new Map<number, TransactionRow[]>();
  private pending = new Set<number>();
  private generation = 0;

  constructor(
    private readonly fetchPage: (offset: number, limit: number) => Promise<TransactionRow[]>,
    private readonly onLoaded: () => void,
    readonly pageSize = 100,
  ) {}

  reset(): void {
    this.generation++;
    this.pages.clear();
    this.pending.clear();
  }

  get(rowOffset: number): TransactionRow | undefined {
    return this.pages.get(Math.floor(rowOffset / this.pageSize))?.[rowOffset % this.pageSize];
  }

  /** Makes sure the pages covering [first, last] are loaded or loading. */
  ensure(first: number, last: number): void {
    if (last < first) return;
    for (let p = Math.floor(first / this.pageSize); p <= Math.floor(last / this.pageSize); p++) {
      if (this.pages.has(p) || this.pending.has(p)) continue;
      this.pending.add(p);
      const generation = this.generation;
      void this.fetchPage(p * this.pageSize, this.pageSize).then(
        (rows) => {
          if (generation !== this.generation) return;
          this.pending.delete(p);
          this.pages.set(p, rows);
          this.onLoaded();
        },
        () => {
          if (generation === this.generation) this.pending.delete(p);
        },
      );
    }
  }
}

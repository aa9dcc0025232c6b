import { DELETED } from './tables';

/** One cell of a row as it travels: column, timestamp, value (references as the referenced row's key). */
export type Cell = readonly [column: string, ts: string, value: unknown];

/** Incoming cells of one row. */
export interface RowChange {
  readonly table: string;
  readonly key: string;
  readonly cells: readonly Cell[];
}

/**
 * A row of a snapshot as it was read: its values in the file's column order and its
 * stamps, the cells built only when the ordinary merge asks for them — a joining device
 * loads most rows straight from `values` (Merger.load), so a million small arrays are
 * never made.
 */
export class SnapshotRow implements RowChange {
  constructor(
    readonly table: string,
    readonly key: string,
    readonly cols: readonly string[],
    readonly base: string,
    /** Per-column stamps that differ from `base`; null when none do. */
    readonly stamps: Readonly<Record<string, string>> | null,
    readonly deleted: 0 | 1,
    /** In `cols` order (a complete row), or by name (a row still waiting or deleted). */
    readonly values: readonly unknown[] | Readonly<Record<string, unknown>>,
  ) {}

  get cells(): Cell[] {
    const at = (c: string) => this.stamps?.[c] ?? this.base;
    const cells: Cell[] = [[DELETED, at(DELETED), this.deleted]];
    if (Array.isArray(this.values)) this.cols.forEach((c, i) => cells.push([c, at(c), (this.values as unknown[])[i]]));
    else for (const [c, v] of Object.entries(this.values)) cells.push([c, at(c), v]);
    return cells;
  }
}

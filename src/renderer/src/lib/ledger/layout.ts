import type { DayTotal } from '@shared/ipc/ledger';

// The 明细 list as one flat sequence of equally tall items: each day's header followed by
// its rows. Knowing every day's count up front (one grouped query) lets the window render
// only what is on screen and fetch exactly those rows by offset.

export type LayoutItem = { kind: 'day'; day: DayTotal; dayIndex: number } | { kind: 'row'; rowOffset: number; dayIndex: number };

export interface ListLayout {
  days: DayTotal[];
  /** Flat index of each day's header. */
  headerAt: number[];
  /** Offset (in the newest-first row order) of each day's first row. */
  firstRow: number[];
  totalItems: number;
  totalRows: number;
}

export function buildLayout(days: DayTotal[]): ListLayout {
  const headerAt: number[] = [];
  const firstRow: number[] = [];
  let flat = 0;
  let rows = 0;
  for (const d of days) {
    headerAt.push(flat);
    firstRow.push(rows);
    flat += 1 + d.count;
    rows += d.count;
  }
  return { days, headerAt, firstRow, totalItems: flat, totalRows: rows };
}

/** Index of the last element ≤ value in an ascending array (binary search). */
function floorIndex(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function itemAt(layout: ListLayout, index: number): LayoutItem {
  const dayIndex = floorIndex(layout.headerAt, index);
  const header = layout.headerAt[dayIndex]!;
  if (index === header) return { kind: 'day', day: layout.days[dayIndex]!, dayIndex };
  return { kind: 'row', rowOffset: layout.firstRow[dayIndex]! + (index - header - 1), dayIndex };
}

export function indexOfRow(layout: ListLayout, rowOffset: number): number {
  const dayIndex = floorIndex(layout.firstRow, rowOffset);
  return layout.headerAt[dayIndex]! + 1 + (rowOffset - layout.firstRow[dayIndex]!);
}

/** The items to render for a scroll position, with a margin above and below. */
export function visibleWindow(
  layout: ListLayout,
  scrollTop: number,
  viewportHeight: number,
  itemHeight: number,
  overscan = 8,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / itemHeight) - overscan);
  const end = Math.min(layout.totalItems, Math.ceil((scrollTop + viewportHeight) / itemHeight) + overscan);
  return { start, end };
}

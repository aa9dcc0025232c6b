// What an import will do, line by line, as the preview and the outcome tell it: each line of
// the file counted exactly once — written, imported before, deleted before — beside the
// lines the bill itself leaves out or nets to zero (bills/bill-rows.ts).
import type { ImportChoices, ImportPreview, ImportRowStatus } from '@shared/ipc/ledger';
import type { ParsedImport } from './csv-import';
import { LedgerRuleError } from './errors';
import { writtenRows } from './import-writes';
import { countedTotals } from './net';
import type { ImportRow } from './types';

/**
 * Lines by what becomes of them; a line of several rows (a purchase and its fee) is written
 * when any of them is, else deleted when any of them was.
 */
export function lineCounts(
  rows: readonly ImportRow[],
  status: readonly ImportRowStatus[],
  writes: (i: number) => boolean,
): { toImport: number; duplicates: number; deleted: number } {
  const RANK = { duplicate: 0, deleted: 1, write: 2 } as const;
  const fate = new Map<number, 0 | 1 | 2>();
  for (let i = 0; i < rows.length; i++) {
    const rank = writes(i) ? RANK.write : status[i] === 'deleted' ? RANK.deleted : RANK.duplicate;
    const line = rows[i]!.line;
    if ((fate.get(line) ?? -1) < rank) fate.set(line, rank);
  }
  const counts = { toImport: 0, duplicates: 0, deleted: 0 };
  for (const f of fate.values()) {
    if (f === RANK.write) counts.toImport++;
    else if (f === RANK.deleted) counts.deleted++;
    else counts.duplicates++;
  }
  return counts;
}

/** Ids of the rows the import writes. */
function writtenIds(rows: readonly ImportRow[], writes: (i: number) => boolean): Set<string> {
  const ids = new Set<string>();
  for (let i = 0; i < rows.length; i++) if (writes(i) && rows[i]!.id) ids.add(rows[i]!.id!);
  return ids;
}

/**
 * Refund rows whose purchase will be in neither the ledger nor this import (待关联), by index:
 * they count nothing until it arrives.
 */
function awaitingRows(rows: readonly ImportRow[], written: ReadonlySet<string>, inLedger: (id: string) => boolean): Set<number> {
  const awaiting = new Set<number>();
  rows.forEach((r, i) => {
    if (r.flow === 'refund' && r.refundOf && !written.has(r.refundOf) && !inLedger(r.refundOf)) awaiting.add(i);
  });
  return awaiting;
}

/** The preview of a parsed file, given each row's status against the ledger. */
export function previewOf(parsed: ParsedImport, status: readonly ImportRowStatus[], inLedger: (id: string) => boolean): ImportPreview {
  const writes = writtenRows(status);
  const rows = parsed.rows;
  const written = writtenIds(rows, writes);
  const awaiting = awaitingRows(rows, written, inLedger);
  const awaitingRow = new Set([...awaiting].map((i) => rows[i]));
  const totals = countedTotals(
    rows.filter((_, i) => writes(i)),
    (r) => awaitingRow.has(r),
  );
  // Refunds of the ledger that a purchase of this file lets count at last.
  const linkedFen = parsed.links.reduce((n, l) => n + (written.has(l.purchaseId) ? l.fen : 0), 0);
  return {
    format: parsed.format,
    encoding: parsed.encoding,
    lines: parsed.lines,
    ...lineCounts(rows, status, writes),
    skipped: parsed.skipped,
    netted: parsed.netted,
    expenseFen: totals.expenseFen - linkedFen,
    incomeFen: totals.incomeFen,
    rows: rows.map((r, i) =>
      awaiting.has(i) ? { ...r, index: i, status: status[i]!, pendingRefund: true } : { ...r, index: i, status: status[i]! },
    ),
  };
}

/**
 * The rows as the user corrected them in the preview: each recategorized row moved to a
 * category of its own type that the ledger has. An index or category that does not fit is
 * refused, nothing written.
 */
export function recategorized(
  rows: readonly ImportRow[],
  choices: ImportChoices,
  hasCategory: (name: string, type: ImportRow['type']) => boolean,
): ImportRow[] {
  const out = [...rows];
  const indexes = [...(choices.exclude ?? []), ...(choices.restore ?? [])];
  if (indexes.some((i) => i >= rows.length)) throw new LedgerRuleError('not_found', '导入预览已过期，请重新选择文件');
  for (const c of choices.recategorize ?? []) {
    const row = out[c.index];
    if (!row) throw new LedgerRuleError('not_found', '导入预览已过期，请重新选择文件');
    if (!hasCategory(c.category, row.type)) throw new LedgerRuleError('not_found', `分类「${c.category}」不存在`);
    out[c.index] = { ...row, category: c.category };
  }
  return out;
}

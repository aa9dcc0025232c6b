// What an import will do, line by line, as the preview and the outcome tell it: each line of
// the file counted exactly once — written, imported before, deleted before — beside the
// lines the bill itself leaves out or nets to zero (bills/bill-rows.ts).
import type { ImportChoices, ImportPreview, ImportRowStatus } from '@shared/ipc/ledger';
import type { ParsedImport } from './csv-import';
import { LedgerRuleError } from './errors';
import { countedTotals } from './net';
import type { ImportRow } from './types';

/** The rows the import writes: new ones the user left ticked, and deleted ones ticked again. */
export function writtenRows(status: readonly ImportRowStatus[], choices: ImportChoices = {}): (i: number) => boolean {
  const exclude = new Set(choices.exclude ?? []);
  const restore = new Set(choices.restore ?? []);
  return (i) => (status[i] === 'new' ? !exclude.has(i) : status[i] === 'deleted' && restore.has(i));
}

/** Lines by what becomes of them; a line of several rows (a purchase and its fee) is written when any of them is. */
export function lineCounts(
  rows: readonly ImportRow[],
  status: readonly ImportRowStatus[],
  writes: (i: number) => boolean,
): { toImport: number; duplicates: number; deleted: number } {
  const fate = new Map<number, 'write' | 'deleted' | 'duplicate'>();
  rows.forEach((r, i) => {
    const now = fate.get(r.line);
    if (writes(i)) fate.set(r.line, 'write');
    else if (status[i] === 'deleted' && now !== 'write') fate.set(r.line, 'deleted');
    else if (now === undefined) fate.set(r.line, status[i] === 'deleted' ? 'deleted' : 'duplicate');
  });
  const counts = { toImport: 0, duplicates: 0, deleted: 0 };
  for (const f of fate.values()) {
    if (f === 'write') counts.toImport++;
    else if (f === 'deleted') counts.deleted++;
    else counts.duplicates++;
  }
  return counts;
}

/**
 * Refund rows whose purchase will be in neither the ledger nor this import (待关联), by index:
 * they count nothing until it arrives.
 */
export function awaitingRows(rows: readonly ImportRow[], writes: (i: number) => boolean, inLedger: (id: string) => boolean): Set<number> {
  const written = new Set(rows.flatMap((r, i) => (r.id && writes(i) ? [r.id] : [])));
  const awaiting = new Set<number>();
  rows.forEach((r, i) => {
    if (r.flow === 'refund' && r.refundOf && !written.has(r.refundOf) && !inLedger(r.refundOf)) awaiting.add(i);
  });
  return awaiting;
}

/** The preview of a parsed file, given each row's status against the ledger. */
export function previewOf(parsed: ParsedImport, status: readonly ImportRowStatus[], inLedger: (id: string) => boolean): ImportPreview {
  const writes = writtenRows(status);
  const awaiting = awaitingRows(parsed.rows, writes, inLedger);
  const awaitingRow = new Set([...awaiting].map((i) => parsed.rows[i]));
  const totals = countedTotals(
    parsed.rows.filter((_, i) => writes(i)),
    (r) => awaitingRow.has(r),
  );
  // Refunds of the ledger that a purchase of this file lets count at last.
  const purchases = new Set(parsed.rows.flatMap((r, i) => (r.id && writes(i) ? [r.id] : [])));
  const linkedFen = parsed.links.reduce((n, l) => n + (purchases.has(l.purchaseId) ? l.fen : 0), 0);
  return {
    format: parsed.format,
    encoding: parsed.encoding,
    lines: parsed.lines,
    ...lineCounts(parsed.rows, status, writes),
    skipped: parsed.skipped,
    netted: parsed.netted,
    expenseFen: totals.expenseFen - linkedFen,
    incomeFen: totals.incomeFen,
    rows: parsed.rows.map((r, i) => ({ ...r, index: i, status: status[i]!, ...(awaiting.has(i) ? { pendingRefund: true } : {}) })),
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

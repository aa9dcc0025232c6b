import { randomBytes } from 'node:crypto';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CellObject, Row, SheetData } from 'write-excel-file/node';
import type { TransactionType } from '@shared/domain';
import type { ExportFormat, LedgerFilter } from '@shared/ipc/ledger';
import { FLOW_LABELS } from '@shared/flow-text';
import { exportCsv, REIMBURSE_LABELS, TYPE_LABELS } from './csv-export';
import type { ExportRow, Ledger } from './ledger';
import { ExportPictures, picturesFolder } from './export-pictures';
import { exportCells } from './types';
import { nextTurn } from './pace';
import { startXlsxWriter } from './xlsx-worker';

/** 随口记_YYYYMMDD_HHmmss.<format> in the user's local time at `now`. */
export function exportFileName(format: ExportFormat, now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}`;
  const time = `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `随口记_${date}_${time}.${format}`;
}

/**
 * Rows read from the ledger between two turns of the event loop, so that IPC keeps being
 * answered during a large export: each chunk is ≈ 15 ms of work on the main thread. A CSV
 * row costs more here (its text is made on this thread too), hence the smaller chunk. Each
 * chunk's statement is finished before the turn, so the commands answered meanwhile find the
 * connection free.
 */
export const CHUNK_ROWS = { xlsx: 5_000, csv: 2_500 } as const satisfies Record<ExportFormat, number>;

export interface ExportWritten {
  rows: number;
  /** Pictures written beside the file (see export-pictures.ts). */
  pictures: number;
  /** Their folder; null when no exported row has a picture (no folder is made then). */
  folder: string | null;
}

/** Writes the filtered ledger to `path` (see writeExport); returns the row count. */
export async function writeExportFile(ledger: Ledger, format: ExportFormat, filter: LedgerFilter, path: string): Promise<number> {
  return (await writeExport(ledger, format, filter, path)).rows;
}

/**
 * Writes the filtered ledger to `path`, and the pictures of its rows to a folder beside it
 * (picturesFolder), each under a temporary name renamed into place at the end: a failed export
 * leaves neither a half file nor a half folder.
 */
export async function writeExport(ledger: Ledger, format: ExportFormat, filter: LedgerFilter, path: string): Promise<ExportWritten> {
  // Beside the target, so the rename stays on one file system and is atomic; the dot keeps
  // it out of sight in the folder while it is being written.
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  const pictures = new ExportPictures(ledger, picturesFolder(path));
  try {
    const rows = format === 'csv' ? await writeCsv(ledger, filter, temp, pictures) : await writeXlsx(ledger, filter, temp, pictures);
    await pictures.place(() => rename(temp, path));
    return { rows, pictures: pictures.count, folder: pictures.count > 0 ? pictures.folder : null };
  } catch (err) {
    await rm(temp, { force: true });
    await pictures.discard();
    throw err;
  }
}

/**
 * The CSV chunk by chunk, each appended to the file as soon as it is made, with its pictures;
 * awaiting each write is the turn of the event loop between chunks.
 */
async function writeCsv(ledger: Ledger, filter: LedgerFilter, temp: string, pictures: ExportPictures): Promise<number> {
  const file = await open(temp, 'w');
  try {
    let rows = 0;
    let after: string | null = null;
    do {
      const chunk = exportCsv(ledger, filter, { after, limit: CHUNK_ROWS.csv }, (ids) => pictures.names(ids));
      await file.write(chunk.text);
      await pictures.copy();
      rows += chunk.rows;
      after = chunk.cursor;
    } while (after);
    return rows;
  } finally {
    await file.close();
  }
}

/** Every filtered row, oldest first, CHUNK_ROWS.xlsx at a time with a turn of the event loop between chunks. */
async function* exportChunks(ledger: Ledger, filter: LedgerFilter): AsyncGenerator<ExportRow[]> {
  let last: ExportRow | undefined;
  for (;;) {
    const after = last ? { date: last[0], ms: last[7], rowid: last[8] } : null;
    const chunk = [...ledger.iterateForExport(filter, after, CHUNK_ROWS.xlsx)];
    if (chunk.length > 0) yield chunk;
    if (chunk.length < CHUNK_ROWS.xlsx) return;
    last = chunk.at(-1);
    await nextTurn();
  }
}

export const DETAIL_SHEET = '明细';
export const SUMMARY_SHEET = '分类汇总';
export const DETAIL_HEADER = [
  '日期',
  '时间',
  '类型',
  '分类',
  '金额',
  '账户',
  '转入账户/对方',
  '备注',
  '资金类型',
  '报销',
  '标签',
  '父分类',
  '附件',
] as const;
/** Workbooks written before the 附件 column have the columns before it, and import as ours too. */
export const DETAIL_LEGACY_COLUMNS = DETAIL_HEADER.indexOf('附件');
export const SUMMARY_HEADER = ['类型', '分类', '笔数', '金额'] as const;

/**
 * The summary's blocks, counted as 统计 counts: a refund takes its amount off its category's
 * spending, and a reimbursement is money back for spending, not income, so it has a block of
 * its own; transfers (debts with people too) are neither spending nor income.
 */
type SummaryBlock = TransactionType | 'REIMBURSEMENT';
const SUMMARY_ORDER: readonly SummaryBlock[] = ['EXPENSE', 'INCOME', 'REIMBURSEMENT', 'TRANSFER'];
const BLOCK_LABELS: Record<SummaryBlock, string> = { ...TYPE_LABELS, REIMBURSEMENT: FLOW_LABELS.reimbursement };
const MONEY_FORMAT = '0.00';

interface Totals {
  count: number;
  fen: number;
}

/**
 * Two sheets: every filtered row oldest first, and the totals per type and category. Text
 * goes in as shared strings, which a spreadsheet shows as text and never evaluates, so unlike
 * the CSV a note starting with "=" is written exactly as typed. Amounts are numbers in yuan
 * (the sheet can sum them); the totals are summed in fen first, so they carry no float error.
 * The rows become cells here and the workbook is built and zipped in the worker.
 */
async function writeXlsx(ledger: Ledger, filter: LedgerFilter, temp: string, pictures: ExportPictures): Promise<number> {
  const header = (labels: readonly string[]): Row => labels.map((value) => ({ value, fontWeight: 'bold' }));
  const totals = new Map<SummaryBlock, Map<string, Totals>>(SUMMARY_ORDER.map((block) => [block, new Map()]));
  const writer = startXlsxWriter();
  let rows = 0;
  let bytes: Uint8Array;
  try {
    for await (const chunk of exportChunks(ledger, filter)) {
      const detail: Row[] = [];
      const cells = chunk.map(exportCells);
      const names = pictures.names(cells.map((c) => c.id));
      for (const c of cells) {
        detail.push([
          c.date,
          c.time,
          TYPE_LABELS[c.type],
          c.category,
          money(c.amountFen),
          c.account,
          c.toAccount || c.counterparty || null,
          c.description || null,
          c.flow ? FLOW_LABELS[c.flow] : null,
          c.reimbursable ? REIMBURSE_LABELS[c.reimbursedBy ? 'settled' : 'pending'] : null,
          c.tags,
          c.parentCategory,
          names.get(c.id) ?? null,
        ]);
        const byCategory = totals.get(c.flow === 'reimbursement' ? 'REIMBURSEMENT' : c.type)!;
        const t = byCategory.get(c.category) ?? { count: 0, fen: 0 };
        t.count++;
        t.fen += c.flow === 'refund' ? -c.amountFen : c.amountFen;
        byCategory.set(c.category, t);
      }
      writer.append(detail);
      await pictures.copy();
      rows += chunk.length;
    }
    bytes = await writer.finish([
      {
        data: [header(DETAIL_HEADER)],
        sheet: DETAIL_SHEET,
        stickyRowsCount: 1,
        columns: [12, 10, 6, 12, 12, 12, 16, 40, 10, 8, 16, 12, 42].map((width) => ({ width })),
      },
      {
        data: summaryRows(totals, header(SUMMARY_HEADER)),
        sheet: SUMMARY_SHEET,
        stickyRowsCount: 1,
        columns: [8, 14, 8, 14].map((width) => ({ width })),
      },
    ]);
  } finally {
    writer.close();
  }
  await writeFile(temp, bytes);
  return rows;
}

/** Per type: its categories by amount, largest first, then the type's 合计 row. */
function summaryRows(totals: Map<SummaryBlock, Map<string, Totals>>, header: Row): SheetData {
  const rows: SheetData = [header];
  for (const block of SUMMARY_ORDER) {
    const byCategory = [...totals.get(block)!].sort(([a, x], [b, y]) => y.fen - x.fen || a.localeCompare(b, 'zh'));
    if (byCategory.length === 0) continue;
    const label = BLOCK_LABELS[block];
    for (const [category, t] of byCategory) rows.push([label, category, t.count, money(t.fen)]);
    const sum = byCategory.reduce((s, [, t]) => ({ count: s.count + t.count, fen: s.fen + t.fen }), { count: 0, fen: 0 });
    rows.push([bold(label), bold('合计'), { value: sum.count, fontWeight: 'bold' }, { ...money(sum.fen), fontWeight: 'bold' }]);
  }
  return rows;
}

function money(fen: number): CellObject {
  return { value: fen / 100, format: MONEY_FORMAT };
}

function bold(value: string): CellObject {
  return { value, fontWeight: 'bold' };
}

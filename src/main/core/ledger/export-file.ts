import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import writeExcelFile, { type CellObject, type Row, type SheetData } from 'write-excel-file/node';
import type { TransactionType } from '@shared/domain';
import type { ExportFormat, LedgerFilter } from '@shared/ipc/ledger';
import { exportCsv, TYPE_LABELS } from './csv-export';
import type { Ledger } from './ledger';

/** 随口记_YYYYMMDD_HHmmss.<format> in the user's local time at `now`. */
export function exportFileName(format: ExportFormat, now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}`;
  const time = `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `随口记_${date}_${time}.${format}`;
}

/** Writes the filtered ledger to `path` (temp file + rename: a failed write leaves no half file); returns the row count. */
export async function writeExportFile(ledger: Ledger, format: ExportFormat, filter: LedgerFilter, path: string): Promise<number> {
  const { content, rows } = format === 'csv' ? csvContent(ledger, filter) : await xlsxContent(ledger, filter);
  // Beside the target, so the rename stays on one file system and is atomic; the dot keeps
  // it out of sight in the folder while it is being written.
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return rows;
}

function csvContent(ledger: Ledger, filter: LedgerFilter): { content: string; rows: number } {
  const { text, rows } = exportCsv(ledger, filter);
  return { content: text, rows };
}

export const DETAIL_SHEET = '明细';
export const SUMMARY_SHEET = '分类汇总';
export const DETAIL_HEADER = ['日期', '时间', '类型', '分类', '金额', '账户', '转入账户/对方', '备注'] as const;
export const SUMMARY_HEADER = ['类型', '分类', '笔数', '金额'] as const;

/** Transfers get their own block: moving money between accounts is neither spending nor income. */
const SUMMARY_ORDER: readonly TransactionType[] = ['EXPENSE', 'INCOME', 'TRANSFER'];
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
 */
async function xlsxContent(ledger: Ledger, filter: LedgerFilter): Promise<{ content: Buffer; rows: number }> {
  const header = (labels: readonly string[]): Row => labels.map((value) => ({ value, fontWeight: 'bold' }));
  const detail: SheetData = [header(DETAIL_HEADER)];
  const totals = new Map<TransactionType, Map<string, Totals>>(SUMMARY_ORDER.map((type) => [type, new Map()]));
  for (const [date, occurredAt, type, category, amountFen, account, description, , , toAccount, counterparty] of ledger.iterateForExport(
    filter,
    null,
    Number.MAX_SAFE_INTEGER,
  )) {
    detail.push([
      date,
      occurredAt.slice(11, 19),
      TYPE_LABELS[type],
      category,
      money(amountFen),
      account,
      type === 'TRANSFER' ? toAccount || counterparty || null : null,
      description || null,
    ]);
    const byCategory = totals.get(type)!;
    const t = byCategory.get(category) ?? { count: 0, fen: 0 };
    t.count++;
    t.fen += amountFen;
    byCategory.set(category, t);
  }
  const content = await writeExcelFile([
    { data: detail, sheet: DETAIL_SHEET, stickyRowsCount: 1, columns: [12, 10, 6, 12, 12, 12, 16, 40].map((width) => ({ width })) },
    {
      data: summaryRows(totals, header(SUMMARY_HEADER)),
      sheet: SUMMARY_SHEET,
      stickyRowsCount: 1,
      columns: [8, 14, 8, 14].map((width) => ({ width })),
    },
  ]).toBuffer();
  return { content, rows: detail.length - 1 };
}

/** Per type: its categories by amount, largest first, then the type's 合计 row. */
function summaryRows(totals: Map<TransactionType, Map<string, Totals>>, header: Row): SheetData {
  const rows: SheetData = [header];
  for (const type of SUMMARY_ORDER) {
    const byCategory = [...totals.get(type)!].sort(([a, x], [b, y]) => y.fen - x.fen || a.localeCompare(b, 'zh'));
    if (byCategory.length === 0) continue;
    const label = TYPE_LABELS[type];
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

// Reads the first sheet of an .xlsx bill (WeChat Pay's export, or any bill re-saved in Excel
// or WPS) into rows of text cells. read-excel-file unzips and then parses the whole workbook
// synchronously: ≈ 0.6 s for 10 000 rows and ≈ 8 s (≈ 650 MB) at the 200 000-row bound,
// during which the main thread would answer no IPC.
// So the workbook is read in a worker thread, which posts back the rows already as text; a
// crash or an exit without an answer rejects, and the worker is always terminated. Like every
// worker, it requires the package from outside the asar (../../worker-require).
import { Worker } from 'node:worker_threads';
import { resolveForWorker } from '../../worker-require';
import type { TableRow } from './table';

/** Bounds on what is read: larger inputs are refused before (bytes) or after (rows) parsing. */
export const XLSX_MAX_BYTES = 40 * 1024 * 1024;
export const XLSX_MAX_ROWS = 200_000;

/** Messages shown to the user when a workbook is refused. */
export const XLSX_ERRORS = {
  invalid: '不是有效的 Excel 文件（.xlsx）',
  legacyXls: '不支持旧版 Excel 文件（.xls），请在 Excel 或 WPS 中另存为 .xlsx 后再导入',
  tooLarge: `Excel 文件超过 ${XLSX_MAX_BYTES / 1024 / 1024} MB`,
  /** The worker ran out of memory: a workbook that expands far beyond its file size. */
  outOfMemory: 'Excel 文件内容过大，无法读取',
  failed: '读取 Excel 文件时出错，请重试',
} as const;

/** The message for a sheet over `maxRows` rows. */
export const tooManyRows = (maxRows: number) => `表格超过 ${maxRows} 行`;

/** Heap for the worker: a workbook that would need more (a zip bomb) ends it instead of the app. */
const WORKER_HEAP_MB = 2048;

type Reply = { type: 'done'; rows: TableRow[] } | { type: 'failed'; reason: 'invalid' | 'legacyXls' | 'tooManyRows' | 'failed'; message: string };

// Plain JavaScript: it runs as is in the worker. Cells become text here, so that only strings
// cross back to the main thread:
// - a number: rounded to 15 significant digits (Excel's own precision, which keeps ids stored
//   as numbers whole) and then to 10 decimals, so float noise goes (28.159999999999997 → 28.16,
//   0.1 + 0.2 → 0.3); never in exponent form (1e21 → 1 and 21 zeros);
// - a date: read-excel-file builds it in UTC from the serial number Excel stored (days since
//   1899-12-30), flooring the milliseconds, so the UTC fields are the wall-clock time the
//   sheet shows; rounding to the second undoes the flooring (a time whose serial number is a
//   hair under its second, as many are, would otherwise come back a second early);
// - a boolean: TRUE/FALSE, as a spreadsheet shows it; an empty cell: ''.
// Strings are trimmed by read-excel-file (WeChat's ids end with a tab).
// read-excel-file keeps a sheet's rows in place (rows missing from the XML come back empty)
// and drops only the empty rows at its end, so data[i] is row i + 1. Empty rows are left out.
//
// The clock is stopped in the worker: read-excel-file parses a sheet's XML in chunks, halving
// the next chunk whenever one took over 7 ms by Date.now() (it was written to keep a browser's
// UI thread responsive) and recursing once per chunk. On a busy machine the chunks shrink
// without bound and a large sheet overflows the stack ("Maximum call stack size exceeded":
// seen at 200 000 rows, 11 MB, on a loaded 2-core machine), and each chunk also re-copies the
// rows read so far. With Date.now() constant every chunk takes "0 ms", so each is twice the
// last (64 KiB, 128 KiB, …): a dozen chunks for any sheet under the size bound, whatever the
// load. Nothing else this worker runs needs the clock.
const XLSX_READER = `
const { parentPort, workerData } = require('node:worker_threads');
const stopped = Date.now();
Date.now = () => stopped;
const readExcelFile = require(workerData.readExcelFile);
const pad = (n, width = 2) => String(n).padStart(width, '0');
const numberText = (n) => {
  if (!Number.isFinite(n)) return String(n);
  let r = Number(n.toPrecision(15));
  if (!Number.isInteger(r)) r = Number(r.toFixed(10));
  if (Object.is(r, -0)) r = 0;
  const text = String(r);
  if (!text.includes('e')) return text;
  if (!Number.isInteger(r)) return r.toFixed(10).replace(/0+$/, '');
  // 1e21 and up: the significant digits, then zeros (BigInt would show the float's binary noise).
  const [mantissa, exponent] = r.toExponential().split('e');
  const digits = mantissa.replace('-', '').replace('.', '');
  return (r < 0 ? '-' : '') + digits + '0'.repeat(Number(exponent) - digits.length + 1);
};
const dateText = (date) => {
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const d = new Date(Math.round(time / 1000) * 1000);
  return pad(d.getUTCFullYear(), 4) + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' +
    pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds());
};
const cellText = (value) => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  return String(value);
};
const fail = (reason, err) => parentPort.postMessage({ type: 'failed', reason, message: String((err && err.stack) || err) });
readExcelFile(Buffer.from(workerData.bytes.buffer, workerData.bytes.byteOffset, workerData.bytes.byteLength)).then(
  (sheets) => {
    const data = sheets[0] ? sheets[0].data : [];
    if (data.length > workerData.maxRows) return fail('tooManyRows', 'rows: ' + data.length);
    const rows = [];
    for (let i = 0; i < data.length; i++) {
      const cells = data[i].map(cellText);
      if (cells.some((cell) => cell !== '')) rows.push({ line: i + 1, cells });
    }
    parentPort.postMessage({ type: 'done', rows });
  },
  (err) => {
    if (err && err.name === 'InvalidInputError' && err.code === 'XLS_FILE_NOT_SUPPORTED') return fail('legacyXls', err);
    // What read-excel-file refuses (InvalidInputError: not a zip, a truncated one;
    // InvalidSpreadsheetError: missing or broken parts) and the plain errors its XML parser
    // and unzipper throw on malformed input: the file is at fault either way.
    fail('invalid', err);
  },
);
`;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // PK\x03\x04: a zip's first local file header
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0]; // a legacy binary .xls (Compound File Binary)
/** How far from each end isXlsx looks for an `xl/` entry name. */
const NAME_WINDOW = 64 * 1024;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/** A legacy binary .xls (what some banks still export): readXlsxTable refuses it with its own message. */
export function isLegacyXls(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE2_MAGIC);
}

/** Whether `needle` (ASCII) occurs in bytes[from, to). */
function containsAscii(bytes: Uint8Array, needle: string, from: number, to: number): boolean {
  const codes = [...needle].map((c) => c.charCodeAt(0));
  const last = Math.min(to, bytes.length) - codes.length;
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    for (let j = 0; j < codes.length; j++) if (bytes[i + j] !== codes[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A cheap guess that `bytes` are an .xlsx workbook, without unzipping: a zip (local file
 * header magic `PK\x03\x04` at the start) with an entry name starting `xl/` in its first or
 * last 64 KiB. Entry names are stored uncompressed in each local header (first KiBs: Excel
 * and WPS write [Content_Types].xml, _rels/.rels, then xl/…) and again in the central
 * directory at the end, so a workbook of any size has one in view. A .docx (word/…) or any
 * other zip is false; a zip that merely holds an `xl/` folder is true, and then fails reading.
 */
export function isXlsx(bytes: Uint8Array): boolean {
  if (bytes.length < 22 || !startsWith(bytes, ZIP_MAGIC)) return false;
  return containsAscii(bytes, 'xl/', 0, NAME_WINDOW) || containsAscii(bytes, 'xl/', bytes.length - NAME_WINDOW, bytes.length);
}

/**
 * The first worksheet of an .xlsx as text cells (see TableRow): a date cell as
 * `YYYY-MM-DD HH:MM:SS` (the wall-clock time the sheet shows), a number as its shortest
 * decimal, a boolean as TRUE/FALSE, an empty cell as ''. Every row has as many cells as the
 * sheet's widest row; `line` is the row's number in the sheet, and rows with no content are
 * left out. Rejects with a plain Error whose message is for the user (XLSX_ERRORS,
 * tooManyRows): not an .xlsx, a legacy .xls, over XLSX_MAX_BYTES, over `limits.maxRows`
 * (XLSX_MAX_ROWS unless a test lowers it) rows, or the worker failing. The rows are counted
 * after parsing (read-excel-file has no row cap); XLSX_MAX_BYTES and the worker's heap limit
 * are what bound the work before that.
 */
export async function readXlsxTable(bytes: Uint8Array, limits: { maxRows?: number } = {}): Promise<TableRow[]> {
  const maxRows = limits.maxRows ?? XLSX_MAX_ROWS;
  if (bytes.length > XLSX_MAX_BYTES) throw new Error(XLSX_ERRORS.tooLarge);
  if (isLegacyXls(bytes)) throw new Error(XLSX_ERRORS.legacyXls);
  if (!isXlsx(bytes)) throw new Error(XLSX_ERRORS.invalid);
  const worker = new Worker(XLSX_READER, {
    eval: true,
    // Copied into the worker (structured clone), so the caller's buffer stays usable.
    workerData: { readExcelFile: resolveForWorker('read-excel-file/node'), bytes, maxRows },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  try {
    // Settled by the first of: the rows, the worker's own report, a crash, or an exit without an answer.
    return await new Promise<TableRow[]>((resolve, reject) => {
      const failed = (message: string, cause: unknown) => reject(new Error(message, { cause }));
      worker.on('message', (reply: Reply) => {
        if (reply.type === 'done') resolve(reply.rows);
        else failed(reply.reason === 'tooManyRows' ? tooManyRows(maxRows) : XLSX_ERRORS[reply.reason], new Error(reply.message));
      });
      worker.on('messageerror', (err) => failed(XLSX_ERRORS.failed, err));
      worker.on('error', (err: NodeJS.ErrnoException) =>
        failed(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? XLSX_ERRORS.outOfMemory : XLSX_ERRORS.failed, err),
      );
      worker.on('exit', (code) => failed(XLSX_ERRORS.failed, new Error(`xlsx reader exited with code ${code}`)));
    });
  } finally {
    void worker.terminate();
  }
}

// write-excel-file builds every sheet's XML and deflates it with fflate synchronously: ≈ 2.5 s
// and a few hundred MB for 100 000 rows, during which the main thread would answer no IPC. So
// the workbook is written in a worker thread: the main thread streams it the rows, chunk by
// chunk, and gets back the file's bytes. Like every worker, it requires the package from
// outside the asar (../worker-require).
import { Worker } from 'node:worker_threads';
import type { Row, Sheet } from 'write-excel-file/node';
import { resolveForWorker } from '../worker-require';

/** Messages to the worker: rows appended to the first sheet, then the workbook to write. */
type Request = { type: 'rows'; rows: Row[] } | { type: 'write'; sheets: Sheet<never>[] };
type Reply = { type: 'done'; bytes: Uint8Array } | { type: 'failed'; message: string };

const XLSX_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const writeExcelFile = require(workerData.writeExcelFile);
const streamed = [];
const fail = (err) => parentPort.postMessage({ type: 'failed', message: String((err && err.stack) || err) });
parentPort.on('message', (request) => {
  if (request.type === 'rows') {
    for (const row of request.rows) streamed.push(row);
    return;
  }
  try {
    const [first, ...rest] = request.sheets;
    const sheets = [{ ...first, data: first.data.concat(streamed) }, ...rest];
    writeExcelFile(sheets)
      .toBuffer()
      .then((bytes) => parentPort.postMessage({ type: 'done', bytes }), fail);
  } catch (err) {
    fail(err);
  }
});
`;

/** Why the user sees a failed export when the workbook could not be built (the cause is kept for the log). */
const XLSX_FAILED = '生成 Excel 文件时出错，请重试';

export interface XlsxWriter {
  /** Appends rows to the first sheet. */
  append(rows: Row[]): void;
  /** The workbook: the first sheet's data is followed by every appended row. Rejects with XLSX_FAILED. */
  finish(sheets: Sheet<never>[]): Promise<Uint8Array>;
  /** Stops the worker, finished or not (a pending finish() then rejects). */
  close(): void;
}

export function startXlsxWriter(): XlsxWriter {
  const worker = new Worker(XLSX_WORKER, { eval: true, workerData: { writeExcelFile: resolveForWorker('write-excel-file/node') } });
  // Settled by the first of: the bytes, the worker's own report, a crash, or an exit without an answer.
  const result = new Promise<Uint8Array>((resolve, reject) => {
    const failed = (cause: unknown) => reject(new Error(XLSX_FAILED, { cause }));
    worker.on('message', (reply: Reply) => (reply.type === 'done' ? resolve(reply.bytes) : failed(new Error(reply.message))));
    worker.on('messageerror', failed);
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`xlsx worker exited with code ${code}`)));
  });
  // Nobody awaits the result until finish(): an early crash must not count as unhandled.
  result.catch(() => undefined);
  const post = (request: Request) => worker.postMessage(request);
  return {
    append: (rows) => post({ type: 'rows', rows }),
    finish: (sheets) => {
      post({ type: 'write', sheets });
      return result;
    },
    close: () => void worker.terminate(),
  };
}

import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { resolveForWorker } from '../worker-require';
import { isDiskFull, MESSAGES, ModelError } from './errors';

/** Entry types a model archive may hold; links are skipped so nothing points outside. */
const ALLOWED_TYPES = ['File', 'OldFile', 'ContiguousFile', 'Directory'];

export interface ExtractOptions {
  signal?: AbortSignal;
}

/**
 * Unpacks a `.tar.bz2` into `dest` (created). node-tar strips leading `/` and refuses `..`
 * entries by default; `strict` turns those warnings, and any damage, into an error, so a
 * hostile or broken archive ends as 'corrupt_archive' (ENOSPC as 'disk_full'). The caller
 * removes `dest` on failure.
 *
 * bzip2 in JavaScript holds the thread ~250 ms per block (≈ 20 s for the default model), so
 * it runs in a worker thread, with tar and unbzip2-stream required from outside the asar.
 */
export async function extractTarBz2(archive: string, dest: string, options: ExtractOptions = {}): Promise<void> {
  mkdirSync(dest, { recursive: true });
  await extractInWorker(archive, dest, { tar: resolveForWorker('tar'), unbzip2: resolveForWorker('unbzip2-stream') }, options.signal);
}

type WorkerReply = { type: 'done' } | { type: 'failed'; message: string; code: string | null };

const EXTRACT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createReadStream } = require('node:fs');
const tar = require(workerData.tar);
const unbzip2 = require(workerData.unbzip2);
const allowed = new Set(workerData.allowedTypes);
const input = createReadStream(workerData.archive);
const bunzip = unbzip2();
const unpack = tar.x({ cwd: workerData.dest, strict: true, filter: (path, entry) => allowed.has(entry.type) });
let settled = false;
const fail = (err) => {
  if (settled) return;
  settled = true;
  input.destroy();
  bunzip.destroy();
  parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err), code: (err && typeof err.code === 'string' && err.code) || null });
};
input.on('error', fail);
bunzip.on('error', fail);
unpack.on('error', fail);
unpack.on('close', () => {
  if (settled) return;
  settled = true;
  parentPort.postMessage({ type: 'done' });
});
input.pipe(bunzip).pipe(unpack);
`;

function extractInWorker(archive: string, dest: string, modules: { tar: string; unbzip2: string }, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('cancelled', MESSAGES.cancelled, { cause: signal.reason }));
    const worker = new Worker(EXTRACT_WORKER, { eval: true, workerData: { ...modules, archive, dest, allowedTypes: ALLOWED_TYPES } });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(new ModelError('cancelled', MESSAGES.cancelled, { cause: signal?.reason })));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'done') settle(() => resolve());
      else settle(() => reject(archiveError(Object.assign(new Error(reply.message), { code: reply.code }))));
    });
    worker.on('error', (err) => settle(() => reject(archiveError(err))));
    worker.on('exit', () => settle(() => reject(archiveError(new Error('extraction worker exited')))));
  });
}

function archiveError(err: unknown): ModelError {
  return isDiskFull(err)
    ? new ModelError('disk_full', MESSAGES.diskFull, { cause: err })
    : new ModelError('corrupt_archive', MESSAGES.corruptArchive, { cause: err });
}

// Worker threads and child processes cannot read inside app.asar (electron/electron#22446:
// Electron's asar hooks exist only in the main thread), so a package they require is unpacked
// by electron-builder.yml (asarUnpack, checked by test/packaging.test.ts) and they are handed
// its path in app.asar.unpacked.
import { createRequire } from 'node:module';

/**
 * Every package required off the main thread: the ledger check (better-sqlite3), the
 * recognizer process (sherpa-onnx-node), model extraction (tar, unbzip2-stream), the Excel
 * export (write-excel-file, whose zip is fflate's: required by it, and unpacked with it),
 * reading .xlsx bills (read-excel-file, with what it requires: worker-f, unzipper-esm and its
 * graceful-fs and node-int64, fflate) and the picture recognizer (@gutenye/ocr-node with
 * what it imports: its ocr-common and ocr-models, onnxruntime-node, sharp and its @img
 * binaries; onnxruntime-node is listed to find its binaries for the platform check).
 */
export const WORKER_PACKAGES = [
  'better-sqlite3',
  'sherpa-onnx-node',
  'tar',
  'unbzip2-stream',
  'write-excel-file/node',
  'read-excel-file/node',
  '@gutenye/ocr-node',
  'onnxruntime-node',
  'sharp',
] as const;
export type WorkerPackage = (typeof WORKER_PACKAGES)[number];

/** The entry file of `name` as a worker or child process must require it (outside the asar). */
export function resolveForWorker(name: WorkerPackage): string {
  return unpackedPath(createRequire(import.meta.url).resolve(name));
}

/** `…/app.asar/x` → `…/app.asar.unpacked/x`; any other path unchanged. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

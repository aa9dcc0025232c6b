// Worker threads cannot read inside app.asar (electron/electron#22446: Electron's asar hooks
// exist only on the main thread), so a package a worker requires is unpacked by
// electron-builder.yml (asarUnpack, checked by test/packaging.test.ts) and the worker is
// handed its path in app.asar.unpacked.
import { createRequire } from 'node:module';

/** Every package a worker thread of the app requires: their whole dependency closure is unpacked. */
export const WORKER_PACKAGES = ['better-sqlite3', 'sherpa-onnx-node'] as const;
export type WorkerPackage = (typeof WORKER_PACKAGES)[number];

/** The entry file of `name` as a worker thread must require it (outside the asar). */
export function resolveForWorker(name: WorkerPackage): string {
  return unpackedPath(createRequire(import.meta.url).resolve(name));
}

/** `…/app.asar/x` → `…/app.asar.unpacked/x`; any other path unchanged. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

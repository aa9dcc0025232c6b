import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveForWorker, unpackedPath, WORKER_PACKAGES } from './worker-require';

describe('resolveForWorker', () => {
  it('points into app.asar.unpacked inside a packaged app, on either separator', () => {
    expect(unpackedPath('/opt/随口记/resources/app.asar/node_modules/better-sqlite3/lib/index.js')).toBe(
      '/opt/随口记/resources/app.asar.unpacked/node_modules/better-sqlite3/lib/index.js',
    );
    expect(unpackedPath('C:\\Apps\\suikouji\\resources\\app.asar\\node_modules\\sherpa-onnx-node\\sherpa-onnx.js')).toBe(
      'C:\\Apps\\suikouji\\resources\\app.asar.unpacked\\node_modules\\sherpa-onnx-node\\sherpa-onnx.js',
    );
  });

  it('leaves a project checkout alone (and never rewrites an app.asar.unpacked path twice)', () => {
    expect(unpackedPath('/work/main/node_modules/better-sqlite3/lib/index.js')).toBe('/work/main/node_modules/better-sqlite3/lib/index.js');
    expect(unpackedPath('/r/app.asar.unpacked/node_modules/x.js')).toBe('/r/app.asar.unpacked/node_modules/x.js');
  });

  it('resolves every worker package to a file that exists here', () => {
    for (const name of WORKER_PACKAGES) expect(existsSync(resolveForWorker(name)), name).toBe(true);
  });
});

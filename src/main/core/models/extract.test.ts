import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelError } from './errors';
import { extractTarBz2 as extract, type ExtractOptions } from './extract';
import { tempDir, removeTempDirs } from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);

afterAll(removeTempDirs);

/** Builds `<work>/a.tar.bz2` with GNU tar from files written by `fill` (extra tar flags allowed). */
function archive(fill: (root: string) => void, tarArgs: string[] = ['model']): string {
  const work = tempDir('extract');
  const root = join(work, 'src');
  mkdirSync(root);
  fill(root);
  const out = join(work, 'a.tar.bz2');
  execFileSync('tar', ['-C', root, '-cjf', out, ...tarArgs]);
  return out;
}

const plainModel = (root: string) => {
  mkdirSync(join(root, 'model', 'test_wavs'), { recursive: true });
  writeFileSync(join(root, 'model', 'tokens.txt'), 'a 0\n'.repeat(5000));
  writeFileSync(join(root, 'model', 'test_wavs', '0.wav'), randomBytes(70_000));
};

describe.each(['system', 'js'] as const)('extractTarBz2 with the %s bzip2 decoder', (decoder) => {
  const extractTarBz2 = (archive: string, dest: string, options: ExtractOptions = {}) => extract(archive, dest, { decoder, ...options });

  it('unpacks a .tar.bz2 with its folders', async () => {
    const dest = join(tempDir('out'), 'staging');
    await extractTarBz2(archive(plainModel), dest);
    expect(readFileSync(join(dest, 'model', 'tokens.txt'), 'utf8')).toBe('a 0\n'.repeat(5000));
    expect(readFileSync(join(dest, 'model', 'test_wavs', '0.wav')).length).toBe(70_000);
  });

  it('a damaged archive → corrupt_archive 「模型压缩包已损坏，请重新下载」', async () => {
    const path = archive(plainModel);
    const bytes = readFileSync(path);
    bytes.fill(0x55, 20_000, 20_060);
    writeFileSync(path, bytes);
    const err = await rejection(extractTarBz2(path, join(tempDir('out'), 'staging')));
    expect(err.code).toBe('corrupt_archive');
    expect(err.message).toBe('模型压缩包已损坏，请重新下载');
  });

  it('a truncated archive → corrupt_archive', async () => {
    const path = archive(plainModel);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect((await rejection(extractTarBz2(path, join(tempDir('out'), 'staging')))).code).toBe('corrupt_archive');
  });

  it('something that is not bzip2 at all → corrupt_archive', async () => {
    const path = join(tempDir('out'), 'x.tar.bz2');
    writeFileSync(path, '<html>rate limited</html>');
    expect((await rejection(extractTarBz2(path, join(tempDir('out'), 'staging')))).code).toBe('corrupt_archive');
  });

  it('bzip2 runs off the main thread: the event loop stays responsive while a large archive unpacks', async () => {
    const path = archive((root) => {
      mkdirSync(join(root, 'model'));
      writeFileSync(join(root, 'model', 'encoder.onnx'), randomBytes(4_000_000));
    });
    const before = performance.eventLoopUtilization();
    await extractTarBz2(path, join(tempDir('out'), 'staging'));
    // The share of the time this thread was busy: ≈ 1 when bzip2 runs here, however loaded the machine.
    expect(performance.eventLoopUtilization(before).utilization).toBeLessThan(0.5);
  });

  it('aborting while the worker unpacks → cancelled promptly', async () => {
    const path = archive((root) => {
      mkdirSync(join(root, 'model'));
      writeFileSync(join(root, 'model', 'encoder.onnx'), randomBytes(4_000_000));
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const err = await rejection(extractTarBz2(path, join(tempDir('out'), 'staging'), { signal: controller.signal }));
    expect(err.code).toBe('cancelled');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('an aborted extraction → cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(extractTarBz2(archive(plainModel), join(tempDir('out'), 'staging'), { signal: controller.signal }));
    expect(err.code).toBe('cancelled');
  });
});

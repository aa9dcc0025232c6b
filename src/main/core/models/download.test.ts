import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelProgress } from '@shared/ipc/models';
import { downloadToFile } from './download';
import { ModelError } from './errors';
import { startArchiveServer, tempDir, type ArchiveServer, removeTempDirs } from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);

afterAll(removeTempDirs);

const BODY = randomBytes(600_000);

describe('downloadToFile', () => {
  let server: ArchiveServer;
  let dir: string;
  let events: ModelProgress[];
  const run = (path: string, extra: Partial<Parameters<typeof downloadToFile>[0]> = {}) =>
    downloadToFile({
      url: `${server.base}${path}`,
      partPath: join(dir, '.partial', 'm.tar.bz2.part'),
      signal: new AbortController().signal,
      onProgress: (p) => events.push(p),
      retryDelayMs: () => 10,
      ...extra,
    });

  beforeEach(async () => {
    server = await startArchiveServer();
    dir = tempDir('download');
    events = [];
  });
  afterEach(() => server.close());

  it('downloads the file, with progress from the first byte to 100 %', async () => {
    server.serve('/m.tar.bz2', { body: BODY });
    await expect(run('/m.tar.bz2')).resolves.toEqual({ bytes: BODY.length });
    expect(readFileSync(join(dir, '.partial', 'm.tar.bz2.part')).equals(BODY)).toBe(true);
    expect(events.at(-1)).toMatchObject({ receivedBytes: BODY.length, totalBytes: BODY.length, percent: 100 });
    expect(server.requests).toEqual([{ path: '/m.tar.bz2', range: undefined }]);
  });

  it('resumes with a Range request after the connection is cut, byte-identical, progress never going back', async () => {
    server.serve('/m.tar.bz2', { body: BODY, cutAfter: 250_000 });
    await run('/m.tar.bz2');
    expect(readFileSync(join(dir, '.partial', 'm.tar.bz2.part')).equals(BODY)).toBe(true);
    expect(server.requests.map((r) => r.range)).toEqual([undefined, 'bytes=250000-']);
    const received = events.map((e) => e.receivedBytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(events.at(-1)?.percent).toBe(100);
  });

  it('resumes a .part left by an earlier run (an app restart)', async () => {
    server.serve('/m.tar.bz2', { body: BODY });
    const part = join(dir, '.partial', 'm.tar.bz2.part');
    mkdirSync(dirname(part), { recursive: true });
    writeFileSync(part, BODY.subarray(0, 100_000));
    await run('/m.tar.bz2');
    expect(server.requests.at(-1)?.range).toBe('bytes=100000-');
    expect(events[0]?.receivedBytes).toBe(100_000);
    expect(readFileSync(part).equals(BODY)).toBe(true);
  });

  it('starts over when the server ignores the Range and answers 200', async () => {
    server.serve('/m.tar.bz2', { body: BODY, ignoreRange: true });
    const part = join(dir, '.partial', 'm.tar.bz2.part');
    mkdirSync(dirname(part), { recursive: true });
    writeFileSync(part, randomBytes(100_000));
    await run('/m.tar.bz2');
    expect(server.requests.at(-1)?.range).toBe('bytes=100000-');
    expect(readFileSync(part).equals(BODY)).toBe(true);
  });

  it('treats a .part that already holds every byte (416) as done', async () => {
    server.serve('/m.tar.bz2', { body: BODY });
    const part = join(dir, '.partial', 'm.tar.bz2.part');
    mkdirSync(dirname(part), { recursive: true });
    writeFileSync(part, BODY);
    await expect(run('/m.tar.bz2')).resolves.toEqual({ bytes: BODY.length });
    expect(readFileSync(part).equals(BODY)).toBe(true);
  });

  it('404 → not_found with its Chinese message, no retry', async () => {
    const err = await rejection(run('/missing.tar.bz2'));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('模型文件不存在（404）');
    expect(server.requests).toHaveLength(1);
  });

  it('a 500 is retried, then http_error naming the status', async () => {
    server.serve('/m.tar.bz2', { body: BODY, status: 500 });
    const err = await rejection(run('/m.tar.bz2', { attempts: 3 }));
    expect(err.code).toBe('http_error');
    expect(err.message).toContain('HTTP 500');
    expect(server.requests).toHaveLength(3);
  });

  it('a 403 is not retried: http_error with the status', async () => {
    server.serve('/m.tar.bz2', { body: BODY, status: 403 });
    const err = await rejection(run('/m.tar.bz2'));
    expect(err.code).toBe('http_error');
    expect(err.message).toContain('HTTP 403');
    expect(server.requests).toHaveLength(1);
  });

  it('no server at all → network 「无法连接下载服务器，请检查网络」 after the attempts', async () => {
    const base = server.base;
    await server.close();
    const err = await rejection(
      downloadToFile({
        url: `${base}/m.tar.bz2`,
        partPath: join(dir, 'm.part'),
        signal: new AbortController().signal,
        onProgress: () => undefined,
        attempts: 2,
        retryDelayMs: () => 10,
      }),
    );
    expect(err.code).toBe('network');
    expect(err.message).toBe('无法连接下载服务器，请检查网络');
    server = await startArchiveServer();
  });

  it('cancel mid-download → cancelled, the bytes so far stay for a later resume', async () => {
    server.serve('/m.tar.bz2', { body: BODY, pieceDelayMs: 20 });
    const controller = new AbortController();
    const pending = run('/m.tar.bz2', {
      signal: controller.signal,
      onProgress: (p) => {
        events.push(p);
        if (p.receivedBytes > 50_000) controller.abort();
      },
    });
    const err = await rejection(pending);
    expect(err.code).toBe('cancelled');
    const kept = readFileSync(join(dir, '.partial', 'm.tar.bz2.part')).length;
    expect(kept).toBeGreaterThan(50_000);
    expect(kept).toBeLessThan(BODY.length);
  });

  it('throttles progress to at most ~10 events a second, speed measured', async () => {
    server.serve('/m.tar.bz2', { body: BODY, pieceDelayMs: 5 });
    const started = performance.now();
    await run('/m.tar.bz2');
    const seconds = (performance.now() - started) / 1000;
    // One forced event at the start and one at the end come on top of the throttled ones.
    expect(events.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 3);
    expect(events.length).toBeGreaterThan(2);
    expect(events.some((e) => e.bytesPerSecond > 0)).toBe(true);
  });

  it.skipIf(!existsSync('/dev/full'))('a full disk → disk_full 「磁盘空间不足…」, not retried', async () => {
    server.serve('/m.tar.bz2', { body: BODY });
    const err = await rejection(run('/m.tar.bz2', { partPath: '/dev/full' }));
    expect(err.code).toBe('disk_full');
    expect(err.message).toContain('磁盘空间不足');
    expect(server.requests).toHaveLength(1);
  });
});

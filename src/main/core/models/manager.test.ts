import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent, ModelListing } from '@shared/ipc/models';
import { decodeWavFile } from '../asr/local/engine';
import { detectModelFiles } from '../asr/local/model-files';
import type { CatalogEntry } from './catalog';
import { ModelError } from './errors';
import { listFiles } from './folder-files';
import { createModelManager, type ModelManagerOptions } from './manager';
import type { ModelManager } from './types';
import { READY_MARKER } from './ready-marker';
import type { ModelRuntime } from './verify';
import {
  buildModelArchive,
  SHARED_MODEL,
  startArchiveServer,
  tempDir,
  testEntry,
  type ArchiveServer,
  removeTempDirs,
  sha256,
} from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);

afterAll(removeTempDirs);

/** The model README's transcript of test_wavs/4.wav. */
const WAV4_TOKENS = 'j iǎng y ǒu b ó b èi p āi d ào d ài zh e n ǚ ér ch ū y óu'.split(' ');

/** The real runtime, recording what the smoke decodes gave. */
function recordingRuntime() {
  const decoded: { wav: string; tokens: string[] }[] = [];
  const runtime: ModelRuntime = {
    detectModelFiles,
    decodeWavFile: async (dir, wav) => {
      const result = await decodeWavFile(dir, wav);
      decoded.push({ wav, tokens: result.tokens });
      return result;
    },
  };
  return { runtime, decoded };
}

function leftovers(modelsDir: string): string[] {
  return readdirSync(modelsDir).filter((name) => name.startsWith('.staging-') || name.startsWith('.trash-'));
}

function sameFiles(a: string, b: string): boolean {
  const left = listFiles(a).filter((f) => f.path !== READY_MARKER);
  const right = listFiles(b);
  return (
    JSON.stringify(left.map((f) => f.path)) === JSON.stringify(right.map((f) => f.path)) &&
    left.every((f) => readFileSync(join(a, f.path)).equals(readFileSync(join(b, f.path))))
  );
}

const modelOf = (listing: ModelListing, id: string) => listing.models.find((m) => m.id === id)!;

describe.skipIf(!existsSync(SHARED_MODEL))('model manager on the shared 3.3M model (skipped when ../shared/models is absent)', () => {
  let server: ArchiveServer;
  let good: Buffer;
  const A = 'test-model-a';
  const B = 'test-model-b';
  const open: ModelManager[] = [];

  /** A pins the good archive's SHA-256 (as the catalog's recommended model does); B pins nothing. */
  const entry = (id: string, path = `/${id}.tar.bz2`): CatalogEntry =>
    testEntry(id, `${server.base}${path}`, good.length, id === A ? { sha256: sha256(good) } : {});
  /** These entries pin nothing (the tests serve other bytes under the same name): consent is given up front. */
  function manager(modelsDir: string, extra: Partial<ModelManagerOptions> = {}): ModelManager {
    const m = createModelManager({ modelsDir, catalog: [entry(A), entry(B)], retryDelayMs: () => 10, ...extra });
    const download = m.download.bind(m);
    m.download = (id, options) => download(id, { acceptUnverified: true, ...options });
    open.push(m);
    return m;
  }

  beforeAll(async () => {
    server = await startArchiveServer();
    good = buildModelArchive(A);
  });
  afterAll(async () => {
    await Promise.all(open.map((m) => m.dispose()));
    await server.close();
  });

  it('downloads, extracts, verifies, smoke-decodes test_wavs/4.wav with the real runtime and activates', async () => {
    server.serve(`/${A}.tar.bz2`, { body: good });
    const modelsDir = tempDir('full');
    const { runtime, decoded } = recordingRuntime();
    const m = manager(modelsDir, { runtime });
    const events: ModelEvent[] = [];
    m.onEvent((e) => events.push(e));

    const listing = await m.download(A);

    const installed = join(modelsDir, A);
    expect(decoded).toEqual([{ wav: expect.stringMatching(/test_wavs[\\/]4\.wav$/), tokens: WAV4_TOKENS }]);
    expect(modelOf(listing, A)).toMatchObject({ state: 'ready', active: true, progress: null, error: null });
    expect(modelOf(listing, A).diskBytes).toBe(listFiles(installed).reduce((sum, f) => sum + f.bytes, 0));
    expect(modelOf(listing, A).diskBytes).toBeGreaterThan(5_000_000);
    expect(listing.ready).toBe(true);
    expect(m.activeModelDir()).toBe(installed);
    expect(sameFiles(installed, SHARED_MODEL)).toBe(true);
    expect(events.filter((e) => e.type === 'state').map((e) => (e.type === 'state' ? e.state : ''))).toEqual([
      'downloading',
      'extracting',
      'verifying',
      'ready',
    ]);
    expect(readdirSync(modelsDir).sort()).toEqual(['.partial', 'state.json', A]);
    expect(readdirSync(join(modelsDir, '.partial'))).toEqual([]);
  });

  it('resumes with `Range: bytes=N-` after the server cuts the connection; progress monotone, ending at 100', async () => {
    const cut = Math.floor(good.length / 2);
    server.serve('/cut.tar.bz2', { body: good, cutAfter: cut });
    const modelsDir = tempDir('cut');
    const m = createModelManager({ modelsDir, catalog: [entry(A, '/cut.tar.bz2')], retryDelayMs: () => 10 });
    open.push(m);
    const received: number[] = [];
    const percents: number[] = [];
    m.onEvent((e) => {
      if (e.type !== 'progress') return;
      received.push(e.progress.receivedBytes);
      percents.push(e.progress.percent);
    });
    const before = server.requests.length;

    await m.download(A);

    const requests = server.requests.slice(before);
    expect(requests.map((r) => r.path)).toEqual(['/cut.tar.bz2', '/cut.tar.bz2']);
    expect(requests[0]!.range).toBeUndefined();
    // It resumes from the bytes on disk: all that was sent before the cut, unless the stream
    // dropped what it still held unread when the socket closed (fetch's body discards its
    // queue on error, which a loaded machine shows) — then from where the disk ends.
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(requests[1]!.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(cut);
    expect(received).toEqual([...received].sort((x, y) => x - y));
    expect(received).toContain(resumedAt);
    expect(percents.at(-1)).toBe(100);
    expect(sameFiles(join(modelsDir, A), SHARED_MODEL)).toBe(true);
    expect(m.activeModelDir()).toBe(join(modelsDir, A));
  });

  describe('each failure names its cause, leaves nothing half-installed and the previous model active', () => {
    let modelsDir: string;
    let m: ModelManager;

    beforeAll(async () => {
      server.serve(`/${A}.tar.bz2`, { body: good });
      modelsDir = tempDir('failures');
      m = manager(modelsDir);
      await m.download(A);
    });

    async function failB(body: Buffer | null): Promise<ModelError> {
      if (body) server.serve(`/${B}.tar.bz2`, { body });
      else server.serve(`/${B}.tar.bz2`, { body: Buffer.alloc(0), status: 404 });
      const err = await rejection(m.download(B));
      expect(leftovers(modelsDir)).toEqual([]);
      expect(existsSync(join(modelsDir, B))).toBe(false);
      expect(m.activeModelDir()).toBe(join(modelsDir, A));
      const listing = m.list();
      expect(modelOf(listing, A)).toMatchObject({ state: 'ready', active: true });
      expect(modelOf(listing, B)).toMatchObject({ state: 'failed', active: false, error: { code: err.code, message: err.message } });
      return err;
    }

    it('a corrupt archive → corrupt_archive 「模型压缩包已损坏，请重新下载」, and the bad archive is not kept for a resume', async () => {
      const corrupt = Buffer.from(good);
      corrupt.fill(0x55, 100_000, 100_200);
      const err = await failB(corrupt);
      expect(err.code).toBe('corrupt_archive');
      expect(err.message).toBe('模型压缩包已损坏，请重新下载。之前使用的模型保持不变。');
      expect(readdirSync(join(modelsDir, '.partial'))).toEqual([]);
    });

    it('a 404 → not_found 「模型文件不存在（404）…」', async () => {
      const err = await failB(null);
      expect(err.code).toBe('not_found');
      expect(err.message).toMatch(/^模型文件不存在（404）/);
    });

    it('an archive without tokens.txt → incomplete 「模型文件夹缺少 tokens.txt」', async () => {
      const err = await failB(buildModelArchive(B, (dir) => rmSync(join(dir, 'tokens.txt'))));
      expect(err.code).toBe('incomplete');
      expect(err.message).toBe('模型文件夹缺少 tokens.txt。之前使用的模型保持不变。');
    });

    it('an encoder the runtime refuses (garbage bytes) → refused, and this process survives', async () => {
      const garbage = buildModelArchive(B, (dir) =>
        writeFileSync(join(dir, 'encoder-epoch-12-avg-2-chunk-16-left-64.int8.onnx'), Buffer.alloc(200_000, 0x42)),
      );
      const err = await failB(garbage);
      expect(err.code).toBe('refused');
      expect(err.message.length).toBeGreaterThan(0);
    });

    it('a second download of the same model while one runs → busy; cancel → cancelled, nothing kept', async () => {
      server.serve(`/${B}.tar.bz2`, { body: good, pieceDelayMs: 20 });
      const cancelled = new Promise<void>((resolve) => {
        const off = m.onEvent((e) => {
          if (e.type === 'progress' && e.id === B && e.progress.receivedBytes > 100_000) {
            off();
            m.cancel(B);
            resolve();
          }
        });
      });
      const pending = m.download(B);
      expect((await rejection(m.download(B))).code).toBe('busy');
      expect(modelOf(m.list(), B).state).toBe('downloading');
      await cancelled;
      const err = await rejection(pending);
      expect(err.code).toBe('cancelled');
      expect(err.message).toBe('下载已取消');
      expect(modelOf(m.list(), B)).toMatchObject({ state: 'absent', error: null, progress: null });
      expect(readdirSync(join(modelsDir, '.partial'))).toEqual([]);
      expect(leftovers(modelsDir)).toEqual([]);
      expect(m.activeModelDir()).toBe(join(modelsDir, A));
    });

    it('the active model survives a new manager (state.json)', () => {
      const again = manager(modelsDir);
      expect(again.activeModelDir()).toBe(join(modelsDir, A));
      expect(modelOf(again.list(), A)).toMatchObject({ state: 'ready', active: true });
    });
  });

  it('an app quit mid-download keeps the .part; the next manager resumes it with a Range request', async () => {
    server.serve('/slow.tar.bz2', { body: good, pieceDelayMs: 20 });
    const modelsDir = tempDir('restart');
    const catalog = [entry(A, '/slow.tar.bz2')];
    const first = createModelManager({ modelsDir, catalog, retryDelayMs: () => 10 });
    const halfway = new Promise<void>((resolve) => first.onEvent((e) => e.type === 'progress' && e.progress.receivedBytes > 200_000 && resolve()));
    const pending = first.download(A);
    await halfway;
    await first.dispose();
    expect((await rejection(pending)).code).toBe('cancelled');
    const kept = readFileSync(join(modelsDir, '.partial', `${A}.${sha256(good).slice(0, 16)}.tar.bz2.part`)).length;
    expect(kept).toBeGreaterThan(200_000);
    expect(modelOf(createModelManager({ modelsDir, catalog }).list(), A)).toMatchObject({ state: 'absent', partialBytes: kept });

    server.serve('/slow.tar.bz2', { body: good });
    const second = createModelManager({ modelsDir, catalog, retryDelayMs: () => 10 });
    open.push(second);
    await second.download(A);
    expect(server.requests.at(-1)).toEqual({ path: '/slow.tar.bz2', range: `bytes=${kept}-` });
    expect(second.activeModelDir()).toBe(join(modelsDir, A));
  });

  it('remove deletes the model; when it was active, no model is active', async () => {
    server.serve(`/${A}.tar.bz2`, { body: good });
    const modelsDir = tempDir('remove');
    // What has the model loaded lets go before the folder moves (Windows locks open files).
    const released: { dir: string; folderThere: boolean }[] = [];
    const m = manager(modelsDir, {
      release: async (dir) => {
        await Promise.resolve();
        released.push({ dir, folderThere: existsSync(dir) });
      },
    });
    await m.download(A);
    const listing = await m.remove(A);
    expect(released).toEqual([{ dir: join(modelsDir, A), folderThere: true }]);
    expect(existsSync(join(modelsDir, A))).toBe(false);
    expect(modelOf(listing, A)).toMatchObject({ state: 'absent', active: false, diskBytes: null });
    expect(listing.ready).toBe(false);
    expect(m.activeModelDir()).toBeNull();
    expect(manager(modelsDir).activeModelDir()).toBeNull();
  });

  it('useFolder uses the shared model in place (never copied) and remembers it', async () => {
    const modelsDir = tempDir('folder');
    const { runtime, decoded } = recordingRuntime();
    const m = manager(modelsDir, { runtime });
    const listing = await m.useFolder(SHARED_MODEL);
    expect(listing.folder).toEqual({ path: SHARED_MODEL, diskBytes: expect.any(Number), active: true });
    expect(listing.folder!.diskBytes).toBeGreaterThan(5_000_000);
    expect(listing.ready).toBe(true);
    expect(m.activeModelDir()).toBe(SHARED_MODEL);
    expect(decoded).toHaveLength(1);
    expect(decoded[0]!.wav.startsWith(join(SHARED_MODEL, 'test_wavs'))).toBe(true);
    expect(decoded[0]!.tokens.length).toBeGreaterThan(0);
    expect(readdirSync(modelsDir)).toEqual(['state.json']);
    expect(manager(modelsDir).activeModelDir()).toBe(SHARED_MODEL);
  });

  it('useFolder on a folder without tokens.txt → incomplete, the previous choice stays', async () => {
    const modelsDir = tempDir('folder-bad');
    const m = manager(modelsDir);
    await m.useFolder(SHARED_MODEL);
    const broken = join(tempDir('no-tokens'), 'model');
    cpSync(SHARED_MODEL, broken, { recursive: true });
    rmSync(join(broken, 'tokens.txt'));
    const err = await rejection(m.useFolder(broken));
    expect(err.code).toBe('incomplete');
    expect(err.message).toBe('模型文件夹缺少 tokens.txt');
    expect(m.activeModelDir()).toBe(SHARED_MODEL);
    expect(m.list().folder).toMatchObject({ path: SHARED_MODEL, active: true });
  });

  it('useFolder on a model folder without test WAVs loads it with a second of silence', async () => {
    const modelsDir = tempDir('folder-nowav');
    const bare = join(tempDir('bare'), 'model');
    cpSync(SHARED_MODEL, bare, { recursive: true });
    rmSync(join(bare, 'test_wavs'), { recursive: true });
    const { runtime, decoded } = recordingRuntime();
    const m = manager(modelsDir, { runtime });
    await m.useFolder(bare);
    expect(m.activeModelDir()).toBe(bare);
    expect(decoded).toHaveLength(1);
    expect(readdirSync(modelsDir)).toEqual(['state.json']);
  });
});

describe('model manager state and crash leftovers (no model needed)', () => {
  const refusingRuntime: ModelRuntime = {
    detectModelFiles: () => undefined,
    decodeWavFile: () => Promise.reject(new Error('not used')),
  };
  const entry = testEntry('m', 'http://127.0.0.1:9/m.tar.bz2', 1);

  it('a damaged state.json → no model active, logged', () => {
    const modelsDir = tempDir('bad-state');
    writeFileSync(join(modelsDir, 'state.json'), '{"version":1,"active":{"kind":"catalog"}}');
    const logged: string[] = [];
    const m = createModelManager({ modelsDir, catalog: [entry], runtime: refusingRuntime, log: (msg) => logged.push(msg) });
    expect(m.activeModelDir()).toBeNull();
    expect(m.list()).toMatchObject({ folder: null, ready: false });
    expect(logged.some((msg) => msg.includes('state.json'))).toBe(true);
  });

  it('what a crash left (staging folders, a model folder without its ready marker) never counts as a model', () => {
    const modelsDir = tempDir('crash');
    mkdirSync(join(modelsDir, '.staging-m-1234abcd', 'm'), { recursive: true });
    mkdirSync(join(modelsDir, '.trash-m-99'), { recursive: true });
    mkdirSync(join(modelsDir, 'm'));
    writeFileSync(join(modelsDir, 'm', 'tokens.txt'), 'a 0\n');
    writeFileSync(join(modelsDir, 'state.json'), JSON.stringify({ version: 1, active: { kind: 'catalog', id: 'm' }, folder: null }));
    const m = createModelManager({ modelsDir, catalog: [entry], runtime: refusingRuntime });
    expect(readdirSync(modelsDir).sort()).toEqual(['m', 'state.json']);
    expect(m.list().models[0]).toMatchObject({ state: 'absent', active: false, diskBytes: null });
    expect(m.activeModelDir()).toBeNull();
    expect(() => m.activate('m')).toThrow(expect.objectContaining({ code: 'incomplete' }));
  });

  it('an id outside the catalog → unknown_model', async () => {
    const m = createModelManager({ modelsDir: tempDir('unknown'), catalog: [entry], runtime: refusingRuntime });
    expect((await rejection(m.download('nope'))).code).toBe('unknown_model');
    expect(() => m.cancel('nope')).toThrow(ModelError);
  });
});

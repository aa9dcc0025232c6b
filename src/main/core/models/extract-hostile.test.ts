// Hostile archives, built header by header so every entry type, path, mode and owner can be
// said exactly: refused by the extractor, and through the manager (a real loopback server, the
// shared model in use) refused with that model kept and the bad bytes not kept for a resume.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unpackedCap, type CatalogEntry } from './catalog';
import { ModelError } from './errors';
import { DEFAULT_CAPS, extractTarBz2, findSystemBzip2 } from './extract';
import { listFiles } from './folder-files';
import { createModelManager, type ModelManagerOptions } from './manager';
import {
  isReservedName,
  PART_SUFFIX,
  PARTIAL_DIR,
  READY_MARKER,
  SILENCE_PREFIX,
  STAGING_PREFIX,
  STATE_FILE,
  TMP_SUFFIX,
  TRASH_PREFIX,
} from './reserved-names';
import type { ModelManager } from './types';
import {
  buildModelArchive,
  removeTempDirs,
  SHARED_MODEL,
  sha256,
  startArchiveServer,
  tempDir,
  testEntry,
  type ArchiveServer,
} from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);
afterAll(removeTempDirs);

/** What a header may say beyond its name and type: the mode and owners it asks for. */
interface Stat {
  mode?: number;
  uid?: number;
  gid?: number;
}

/** A ustar header: `type` '0' file, '1' hardlink, '2' symlink, '3' char device, '4' block device, '5' folder, '6' FIFO. */
function header(name: string, type: string, size = 0, linkname = '', stat: Stat = {}): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, len: number) => h.write(text, at, len, 'utf8');
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(stat.mode ?? (type === '5' ? 0o755 : 0o644), 8), 100, 8);
  put(octal(stat.uid ?? 0, 8), 108, 8);
  put(octal(stat.gid ?? 0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  h.fill(' ', 148, 156);
  put(type, 156, 1);
  put(linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

function file(name: string, body: string | Buffer, stat: Stat = {}): Buffer {
  const data = Buffer.from(body);
  return Buffer.concat([header(name, '0', data.length, '', stat), data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** The tar made of `parts`, closed by two zero blocks, compressed with the system bzip2. */
function bz2Bytes(parts: Buffer[]): Buffer {
  return execFileSync('bzip2', ['-c', '-1'], { input: Buffer.concat([...parts, Buffer.alloc(1024)]), maxBuffer: 1 << 30 });
}

function bz2Tar(parts: Buffer[]): string {
  const path = join(tempDir('hostile'), 'a.tar.bz2');
  writeFileSync(path, bz2Bytes(parts));
  return path;
}

/** 64 MiB of zeros as one bzip2 stream (79 bytes); concatenated streams are still bzip2. */
let zeros64: Buffer | null = null;
function zeros64Stream(): Buffer {
  zeros64 ??= execFileSync('sh', ['-c', 'head -c 67108864 /dev/zero | bzip2 -9'], { maxBuffer: 1 << 20 });
  return zeros64;
}

const good = [header('model/', '5'), file('model/tokens.txt', 'a 0\n')];

/** Every path under `root`, relative, sorted. */
function tree(root: string): string[] {
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).sort();
}

const decoders = findSystemBzip2() ? (['system', 'js'] as const) : (['js'] as const);

describe.each(decoders)('hostile archives (%s bzip2 decoder): refused, nothing written outside', (decoder) => {
  const cases: [string, Buffer[], RegExp][] = [
    ['a `..` path', [...good, file('model/../../escaped.txt', 'x')], /指向上级目录的路径/],
    ['an absolute path', [...good, file('/tmp/suikouji-planted.txt', 'x')], /绝对路径/],
    ['a symlink', [...good, header('model/link', '2', 0, '/etc/passwd')], /链接/],
    ['a symlink inside the folder', [...good, header('model/link', '2', 0, 'tokens.txt')], /链接/],
    ['a hardlink', [...good, header('model/hard', '1', 0, '/etc/passwd')], /链接/],
    ['a character device', [...good, header('model/null', '3')], /设备文件/],
    ['a block device', [...good, header('model/sda', '4')], /设备文件/],
    ['a FIFO', [...good, header('model/fifo', '6')], /设备文件/],
  ];

  it.each(cases)('%s → unsafe_archive naming it', async (_name, parts, reason) => {
    const out = tempDir('out');
    const dest = join(out, 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toMatch(/^模型压缩包含有不安全的内容（.+），已拒绝安装$/);
    expect(err.message).toMatch(reason);
    // Nothing beside the staging folder, and nothing but regular files and folders in it.
    expect(readdirSync(out)).toEqual(['staging']);
    expect(tree(dest).every((p) => p === 'model' || p === 'model/tokens.txt')).toBe(true);
    expect(existsSync('/tmp/suikouji-planted.txt')).toBe(false);
  });

  it('100 000 files → refused at the entry cap, long before all are written', async () => {
    const parts = [header('model/', '5')];
    for (let i = 0; i < 100_000; i++) parts.push(header(`model/f${i}`, '0', 0));
    const dest = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('文件数超过 2000');
    expect(tree(dest).length).toBeLessThanOrEqual(2001);
  });

  it('a file declared larger than the byte cap → refused before its bytes are written', async () => {
    const parts = [...good, header('model/encoder.onnx', '0', 3 * 1024 ** 3)];
    const dest = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('解压后超过 2048 MB');
    expect(existsSync(join(dest, 'model', 'encoder.onnx'))).toBe(false);
  });
});

describe.each(decoders)('a bz2 bomb (%s decoder)', (decoder) => {
  it('a ~20 KB archive expanding to 2 GiB behind a small tar → refused at the cap; peak memory measured and bounded', async () => {
    const work = tempDir('bomb');
    // The tar's own bytes end after tokens.txt; then 2 GiB of zeros, which tar reads as the
    // end-of-archive blocks and padding — so only the decoded-bytes cap can stop it. Built as
    // concatenated bzip2 streams (valid bzip2, as pbzip2 writes) so the test does not spend
    // half a minute compressing 2 GiB.
    const bomb = join(work, 'bomb.tar.bz2');
    writeFileSync(bomb, Buffer.concat([execFileSync('bzip2', ['-c'], { input: Buffer.concat(good) }), ...Array<Buffer>(32).fill(zeros64Stream())]));
    expect(statSync(bomb).size).toBeLessThan(32 * 1024);

    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const err = await rejection(extractTarBz2(bomb, join(work, 'staging'), { decoder, maxBytes: 64 * 1024 * 1024 })).finally(() =>
      clearInterval(sampler),
    );
    const growthMb = (peak - base) / 1024 / 1024;
    console.info(
      `bz2 bomb, ${decoder} decoder: refused after ${Math.round(performance.now() - started)} ms, peak RSS growth ${growthMb.toFixed(1)} MB`,
    );
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('解压后超过 64 MB');
    // One bzip2 block expands to at most ~46 MB; the old decoder held the whole stream (GBs).
    expect(growthMb).toBeLessThan(200);
  });
});

describe('the names the installer writes itself', () => {
  it('every one the code writes is reserved, in any case and with Windows’ trailing dots and spaces; look-alikes are not', () => {
    const written = [
      READY_MARKER,
      `${READY_MARKER}${TMP_SUFFIX}`,
      STATE_FILE,
      `${STATE_FILE}${TMP_SUFFIX}`,
      PARTIAL_DIR,
      `${STAGING_PREFIX}m-0011aabb`,
      `${TRASH_PREFIX}m-0011aabb`,
      `${SILENCE_PREFIX}0011aabb.wav`,
      `m.0123456789abcdef.tar.bz2${PART_SUFFIX}`,
      `0123456789abcdef-test_wavs__0.wav${PART_SUFFIX}`,
    ];
    for (const name of written) {
      for (const spelling of [name, name.toUpperCase(), `${name}.`, `${name} `])
        expect([spelling, isReservedName(spelling)]).toEqual([spelling, true]);
    }
    for (const name of ['ready.json', '.ready.json.bak', 'README.md', 'tokens.txt', 'partial.txt', 'x.part1', 'parts', 'staging-1', 'encoder.onnx']) {
      expect([name, isReservedName(name)]).toEqual([name, false]);
    }
  });
});

describe.each(decoders)('reserved names, modes and owners, the byte cap (%s bzip2 decoder)', (decoder) => {
  const reserved: [string, Buffer[], string][] = [
    ['a folder named .ready.json.tmp (where the ready marker is first written)', [...good, header('model/.ready.json.tmp/', '5')], '.ready.json.tmp'],
    ['a file named .ready.json', [...good, file('model/.ready.json', '{}')], '.ready.json'],
    ['.ready.json deeper down', [...good, header('model/test_wavs/', '5'), file('model/test_wavs/.ready.json', '{}')], '.ready.json'],
    ['.ready.json beside the model folder', [file('.ready.json', '{}'), ...good], '.ready.json'],
    ['a .part file', [...good, file('model/encoder.onnx.part', 'x')], 'encoder.onnx.part'],
    ['a file in a .partial folder the archive does not list', [...good, file('model/.partial/x', 'x')], '.partial'],
    ['a staging folder', [header('.staging-m-1234abcd/', '5'), ...good], '.staging-m-1234abcd'],
    ['a trash folder named only in a file’s path', [...good, file('model/.trash-m-1/tokens.txt', 'x')], '.trash-m-1'],
    ['the silence WAV’s name', [...good, file('model/.silence-0a1b2c3d.wav', 'RIFF')], '.silence-0a1b2c3d.wav'],
    ['state.json.tmp', [...good, file('model/state.json.tmp', '{}')], 'state.json.tmp'],
    ['.READY.JSON (macOS and Windows ignore case)', [...good, file('model/.READY.JSON', '{}')], '.READY.JSON'],
    ['.ready.json. (Windows drops the dot)', [...good, file('model/.ready.json.', '{}')], '.ready.json.'],
    ['a symlink named .ready.json', [...good, header('model/.ready.json', '2', 0, 'tokens.txt')], '.ready.json'],
    ['a hardlink named .ready.json.tmp', [...good, header('model/.ready.json.tmp', '1', 0, 'model/tokens.txt')], '.ready.json.tmp'],
    ['a FIFO named x.part', [...good, header('model/x.part', '6')], 'x.part'],
    ['a character device named .partial', [...good, header('model/.partial', '3')], '.partial'],
  ];

  it.each(reserved)('%s → unsafe_archive 「安装程序自用的名称」, nothing of that name written', async (_name, parts, name) => {
    const dest = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toMatch(/^模型压缩包含有不安全的内容（安装程序自用的名称：.+），已拒绝安装$/);
    expect(err.message).toContain(name);
    expect(tree(dest).filter((p) => p.split('/').some(isReservedName))).toEqual([]);
  });

  it('names that only look like the installer’s unpack', async () => {
    const dest = join(tempDir('out'), 'staging');
    const lookalikes = [
      file('model/ready.json', '{}'),
      file('model/.ready.json.bak', '{}'),
      file('model/parts/x.part1', 'x'),
      file('model/partial.txt', 'x'),
    ];
    await extractTarBz2(bz2Tar([...good, ...lookalikes]), dest, { decoder });
    expect(tree(dest)).toEqual([
      'model',
      'model/.ready.json.bak',
      'model/partial.txt',
      'model/parts',
      'model/parts/x.part1',
      'model/ready.json',
      'model/tokens.txt',
    ]);
  });

  it.skipIf(process.platform === 'win32')(
    'setuid, setgid, sticky and world-writable modes and the archive’s owners are not kept, even under a umask of 0',
    async () => {
      const other = { uid: 4242, gid: 4343 };
      const parts = [
        header('model/', '5', 0, '', { mode: 0o1777, ...other }),
        file('model/setuid-setgid-exec', '#!/bin/sh\n', { mode: 0o6755, ...other }),
        file('model/setgid', 'x', { mode: 0o2644, ...other }),
        file('model/sticky', 'x', { mode: 0o1644, ...other }),
        file('model/world-writable', 'x', { mode: 0o666, ...other }),
        file('model/world-writable-exec', 'x', { mode: 0o777, ...other }),
        file('model/group-exec', 'x', { mode: 0o650, ...other }),
        file('model/no-permissions', 'x', { mode: 0o000, ...other }),
        header('model/shared/', '5', 0, '', { mode: 0o2777, ...other }),
        file('model/shared/tokens.txt', 'a 0\n', { mode: 0o4666, ...other }),
        // Folders the archive does not list: tar makes them on its own.
        file('model/unlisted/deeper/0.wav', 'RIFF', { mode: 0o644, ...other }),
      ];
      const dest = join(tempDir('out'), 'staging');
      // With no umask to narrow what a create asks for, only the extractor's own modes count.
      const umask = process.umask(0);
      try {
        await extractTarBz2(bz2Tar(parts), dest, { decoder });
      } finally {
        process.umask(umask);
      }
      const paths = ['', ...tree(dest)];
      expect(Object.fromEntries(paths.map((p) => [p, (lstatSync(join(dest, p)).mode & 0o7777).toString(8)]))).toEqual({
        '': '755',
        model: '755',
        'model/setuid-setgid-exec': '755',
        'model/setgid': '644',
        'model/sticky': '644',
        'model/world-writable': '644',
        'model/world-writable-exec': '755',
        'model/group-exec': '755',
        'model/no-permissions': '644',
        'model/shared': '755',
        'model/shared/tokens.txt': '644',
        'model/unlisted': '755',
        'model/unlisted/deeper': '755',
        'model/unlisted/deeper/0.wav': '644',
      });
      for (const p of paths) {
        const { uid, gid } = lstatSync(join(dest, p));
        expect([p, uid, gid]).toEqual([p, process.getuid!(), process.getgid!()]);
      }
    },
  );

  it('stops exactly at the byte cap it is given: files adding up to it unpack, one byte less room is refused before the file is written', async () => {
    const MiB = 1024 * 1024;
    const archive = bz2Tar([header('model/', '5'), file('model/a.bin', Buffer.alloc(2 * MiB, 1)), file('model/b.bin', Buffer.alloc(MiB, 2))]);
    const fits = join(tempDir('out'), 'staging');
    await extractTarBz2(archive, fits, { decoder, maxBytes: 3 * MiB });
    expect(statSync(join(fits, 'model', 'b.bin')).size).toBe(MiB);

    const over = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(archive, over, { decoder, maxBytes: 3 * MiB - 1 }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toBe('模型压缩包含有不安全的内容（解压后超过 3 MB），已拒绝安装');
    expect(existsSync(join(over, 'model', 'b.bin'))).toBe(false);
  });
});

describe.skipIf(!existsSync(SHARED_MODEL))(
  'through the manager, with a model in use (shared 3.3M model; skipped when ../shared/models is absent)',
  () => {
    const A = 'test-model-a';
    const B = 'test-model-b';
    const MiB = 1024 * 1024;
    let server: ArchiveServer;
    let good: Buffer;
    let dir: string;
    /** What the shared model's files add up to (`du -b` less its folders): what its archive unpacks to. */
    let modelBytes: number;
    const managers: ModelManager[] = [];

    /** The shared model's files under `folder`, header by header, each with the mode and owners `stat` asks for. */
    const modelParts = (folder: string, stat: (path: string) => Stat = () => ({})): Buffer[] => [
      header(`${folder}/`, '5', 0, '', stat(folder)),
      header(`${folder}/test_wavs/`, '5', 0, '', stat(`${folder}/test_wavs`)),
      ...listFiles(SHARED_MODEL).map((f) => file(`${folder}/${f.path}`, readFileSync(join(SHARED_MODEL, f.path)), stat(`${folder}/${f.path}`))),
    ];
    const sameAsShared = (at: string): boolean => {
      const left = listFiles(at).filter((f) => f.path !== READY_MARKER);
      const right = listFiles(SHARED_MODEL);
      return (
        JSON.stringify(left) === JSON.stringify(right) &&
        left.every((f) => readFileSync(join(at, f.path)).equals(readFileSync(join(SHARED_MODEL, f.path))))
      );
    };
    function manager(catalog: CatalogEntry[], modelsDir = dir, extra: Partial<ModelManagerOptions> = {}): ModelManager {
      const m = createModelManager({ modelsDir, catalog, retryDelayMs: () => 5, downloadAttempts: 2, ...extra });
      managers.push(m);
      return m;
    }
    const entryA = (): CatalogEntry => testEntry(A, `${server.base}/${A}.tar.bz2`, good.length, { sha256: sha256(good) });
    /** Model B served at `path`, pinned to exactly these bytes unless `pinned` is false; its archive holds folder A. */
    function entryB(path: string, body: Buffer, more: Partial<CatalogEntry> = {}, pinned = true): CatalogEntry {
      server.serve(path, { body });
      return { ...testEntry(B, `${server.base}${path}`, body.length, pinned ? { sha256: sha256(body) } : {}), folder: A, ...more };
    }
    /** Downloads B with `m` and expects a refusal: A still active and whole, nothing of B kept, no .part left to resume. */
    async function refused(m: ModelManager): Promise<ModelError> {
      const err = await rejection(m.download(B, { acceptUnverified: true }));
      expect(err.message.endsWith('。之前使用的模型保持不变。')).toBe(true);
      expect(m.activeModelDir()).toBe(join(dir, A));
      expect(sameAsShared(join(dir, A))).toBe(true);
      expect(existsSync(join(dir, B))).toBe(false);
      expect(readdirSync(dir).filter((name) => name.startsWith(STAGING_PREFIX))).toEqual([]);
      expect(readdirSync(join(dir, PARTIAL_DIR))).toEqual([]);
      return err;
    }

    beforeAll(async () => {
      server = await startArchiveServer();
      good = buildModelArchive(A);
      modelBytes = listFiles(SHARED_MODEL).reduce((sum, f) => sum + f.bytes, 0);
      server.serve(`/${A}.tar.bz2`, { body: good });
      dir = join(tempDir('in-use'), 'models');
      mkdirSync(dir);
      await manager([entryA()]).download(A);
    });
    afterAll(async () => {
      await Promise.all(managers.map((m) => m.dispose()));
      await server.close();
    });
    // Should a case install B after all, the next one still starts with A alone, in use.
    afterEach(() => {
      rmSync(join(dir, B), { recursive: true, force: true });
      rmSync(join(dir, PARTIAL_DIR), { recursive: true, force: true });
      mkdirSync(join(dir, PARTIAL_DIR));
      manager([entryA()]).activate(A);
    });

    describe('1. extraction stops at 1.25× the unpacked size the entry states', () => {
      it('the real model installs with its stated size at the very edge of the margin', async () => {
        const entry = entryB('/edge.tar.bz2', good, { unpackedBytes: Math.ceil(modelBytes / 1.25) });
        expect(unpackedCap(entry, DEFAULT_CAPS.maxBytes) - modelBytes).toBeGreaterThanOrEqual(0);
        expect(unpackedCap(entry, DEFAULT_CAPS.maxBytes) - modelBytes).toBeLessThanOrEqual(2);
        const modelsDir = tempDir('edge');
        const m = manager([entry], modelsDir);
        await m.download(B);
        expect(m.activeModelDir()).toBe(join(modelsDir, B));
        expect(sameAsShared(join(modelsDir, B))).toBe(true);
      });

      it('one byte less room → unsafe_archive 「解压后超过 N MB」, the model in use kept', async () => {
        const entry = entryB('/tight.tar.bz2', good, { unpackedBytes: Math.floor((modelBytes - 1) / 1.25) });
        const cap = unpackedCap(entry, DEFAULT_CAPS.maxBytes);
        expect(cap).toBeLessThan(modelBytes);
        const err = await refused(manager([entryA(), entry]));
        expect(err.code).toBe('unsafe_archive');
        expect(err.message).toBe(`模型压缩包含有不安全的内容（解压后超过 ${Math.round(cap / MiB)} MB），已拒绝安装。之前使用的模型保持不变。`);
      });

      const bombs: [string, string, () => Buffer][] = [
        [
          '512 MiB of zeros in a file the tar declares',
          '/declared-bomb.tar.bz2',
          () => Buffer.concat([bz2Bytes([...modelParts(A), header(`${A}/zeros.bin`, '0', 512 * MiB)]), ...Array<Buffer>(8).fill(zeros64Stream())]),
        ],
        [
          '512 MiB of zeros after the tar’s end',
          '/trailing-bomb.tar.bz2',
          () => Buffer.concat([bz2Bytes(modelParts(A)), ...Array<Buffer>(8).fill(zeros64Stream())]),
        ],
      ];
      it.each(bombs)('a bomb its pin matches (%s), far under the global cap → refused at 1.25× the stated size', async (_name, path, build) => {
        const bomb = build();
        expect(bomb.length).toBeLessThan(good.length + 64 * 1024);
        const err = await refused(manager([entryA(), entryB(path, bomb, { unpackedBytes: modelBytes })]));
        expect(err.code).toBe('unsafe_archive');
        expect(err.message).toContain(`（解压后超过 ${Math.round((modelBytes * 1.25) / MiB)} MB）`);
      });

      it('an entry stating none → the global cap (2 GiB by default)', async () => {
        const entry = entryB('/huge.tar.bz2', bz2Bytes([...modelParts(A), header(`${A}/encoder.onnx`, '0', 3 * 1024 ** 3)]));
        expect(entry.unpackedBytes).toBeUndefined();
        const err = await refused(manager([entryA(), entry]));
        expect(err.code).toBe('unsafe_archive');
        expect(err.message).toContain('（解压后超过 2048 MB）');
      });
    });

    it.skipIf(process.platform === 'win32')(
      '2. an archive asking for setuid, setgid, sticky and world-writable modes and other owners installs with plain modes, owned by the app’s user (umask 0)',
      async () => {
        const ask = (path: string): Stat => ({
          uid: 4242,
          gid: 4343,
          mode: path.endsWith('.onnx') ? 0o6755 : path.endsWith('.wav') ? 0o1666 : path.endsWith('.txt') ? 0o4646 : 0o3777,
        });
        const modelsDir = tempDir('modes');
        const m = manager([entryB('/modes.tar.bz2', bz2Bytes(modelParts(A, ask)))], modelsDir);
        const umask = process.umask(0);
        try {
          await m.download(B);
        } finally {
          process.umask(umask);
        }
        const installed = join(modelsDir, B);
        const paths = ['', ...tree(installed)];
        const want = (p: string) => {
          if (p === '' || p === 'test_wavs') return '755';
          if (p === READY_MARKER) return '644';
          return (ask(p).mode! & 0o111) !== 0 ? '755' : '644';
        };
        expect(Object.fromEntries(paths.map((p) => [p, (lstatSync(join(installed, p)).mode & 0o7777).toString(8)]))).toEqual(
          Object.fromEntries(paths.map((p) => [p, want(p)])),
        );
        // Each kind met: executables, plain files, the marker, folders.
        expect(new Set(paths.map(want))).toEqual(new Set(['755', '644']));
        expect(paths).toContain(READY_MARKER);
        for (const p of paths) {
          const { uid, gid } = lstatSync(join(installed, p));
          expect([p, uid, gid]).toEqual([p, process.getuid!(), process.getgid!()]);
        }
        expect(m.activeModelDir()).toBe(installed);
      },
    );

    describe('3. a refused or damaged .part is deleted, not resumed by the next download', () => {
      it('a folder named .ready.json.tmp in the model folder, pinned (the bytes match) → unsafe_archive, twice from byte 0', async () => {
        const path = '/marker-folder.tar.bz2';
        const m = manager([entryA(), entryB(path, bz2Bytes([...modelParts(A), header(`${A}/.ready.json.tmp/`, '5')]))]);
        for (let round = 0; round < 2; round++) {
          const err = await refused(m);
          expect(err.code).toBe('unsafe_archive');
          expect(err.message).toMatch(
            new RegExp(`^模型压缩包含有不安全的内容（安装程序自用的名称：${A}/\\.ready\\.json\\.tmp/?），已拒绝安装。之前使用的模型保持不变。$`),
          );
        }
        expect(server.requests.filter((r) => r.path === path)).toEqual([
          { path, range: undefined },
          { path, range: undefined },
        ]);
      });

      it('a damaged archive, unpinned (only unpacking finds it) → corrupt_archive, twice from byte 0', async () => {
        const path = '/damaged.tar.bz2';
        const damaged = Buffer.from(good);
        damaged.fill(0x55, 100_000, 100_200);
        const m = manager([entryA(), entryB(path, damaged, {}, false)]);
        for (let round = 0; round < 2; round++) expect((await refused(m)).code).toBe('corrupt_archive');
        expect(server.requests.filter((r) => r.path === path)).toEqual([
          { path, range: undefined },
          { path, range: undefined },
        ]);
      });
    });

    it('4. a redirect to file:///etc/passwd → redirect_refused naming 「本地文件」, the model in use kept', async () => {
      server.serve('/to-file', { body: Buffer.alloc(0), redirectTo: 'file:///etc/passwd' });
      const entry = { ...testEntry(B, `${server.base}/to-file`, good.length, { sha256: sha256(good) }), folder: A };
      const err = await refused(manager([entryA(), entry]));
      expect(err.code).toBe('redirect_refused');
      expect(err.message).toBe('下载地址跳转到了不受信任的地址（本地文件），已拒绝。之前使用的模型保持不变。');
    });
  },
);

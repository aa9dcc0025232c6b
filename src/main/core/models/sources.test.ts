// Several download sources per model, each a real loopback HTTP server: failing, stalling,
// swapped, endless and redirecting ones are left for the next, with progress continuous, the
// pins enforced, and the model in use untouched by whatever a bad source serves.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent, ModelListing } from '@shared/ipc/models';
import type { CatalogEntry, ModelSource, PinnedFile } from './catalog';
import { downloadToFile, redirectRefusal, sizeCap } from './download';
import { ModelError } from './errors';
import { listFiles } from './folder-files';
import { createModelManager, type ModelManagerOptions } from './manager';
import { READY_MARKER } from './ready-marker';
import type { ModelManager } from './types';
import {
  archiveSource,
  buildModelArchive,
  manualTimers,
  SHARED_MODEL,
  SHARED_MODEL_FILES,
  sha256,
  startArchiveServer,
  tempDir,
  testEntry,
  removeTempDirs,
  type ArchiveServer,
} from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);
afterAll(removeTempDirs);

const A = 'test-model-a';
const modelOf = (listing: ModelListing, id: string) => listing.models.find((m) => m.id === id)!;

/** Every path under `dir`, relative (symlinks listed, not followed). */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).sort();
}

function installedSame(dir: string): boolean {
  const left = listFiles(dir).filter((f) => f.path !== READY_MARKER);
  const right = listFiles(SHARED_MODEL);
  return (
    JSON.stringify(left.map((f) => f.path)) === JSON.stringify(right.map((f) => f.path)) &&
    left.every((f) => readFileSync(join(dir, f.path)).equals(readFileSync(join(SHARED_MODEL, f.path))))
  );
}

describe('redirectRefusal (the policy every hop is checked against)', () => {
  const hosts = ['github.com', 'release-assets.githubusercontent.com'];
  const u = (s: string) => new URL(s);
  it('allows the source’s own hosts over https', () => {
    expect(redirectRefusal(u('https://github.com/a'), u('https://release-assets.githubusercontent.com/b'), hosts)).toBeNull();
  });
  it('refuses https → http, even to an allowed host', () => {
    expect(redirectRefusal(u('https://github.com/a'), u('http://github.com/a'), hosts)).toMatch(/downgrade/);
  });
  it('refuses another host, another port of an allowed host, and non-http schemes', () => {
    expect(redirectRefusal(u('https://github.com/a'), u('https://evil.example/a'), hosts)).toMatch(/not one of/);
    expect(redirectRefusal(u('https://github.com/a'), u('https://github.com:8443/a'), hosts)).toMatch(/not one of/);
    expect(redirectRefusal(u('https://github.com/a'), u('file:///etc/passwd'), hosts)).toMatch(/protocol/);
  });
});

describe('the downloader against hostile servers', () => {
  let good: ArchiveServer;
  let other: ArchiveServer;
  beforeAll(async () => {
    good = await startArchiveServer();
    other = await startArchiveServer();
  });
  afterAll(async () => {
    await good.close();
    await other.close();
  });
  const signal = () => new AbortController().signal;

  it('an endless body stops at the cap: nothing past it reaches the disk → too_large', async () => {
    good.serve('/endless', { body: Buffer.alloc(0), endless: true });
    const part = join(tempDir('endless'), 'x.part');
    const err = await rejection(
      downloadToFile({
        url: `${good.base}/endless`,
        partPath: part,
        signal: signal(),
        onProgress: () => {},
        expectedBytes: 1_000_000,
        maxBytes: sizeCap(1_000_000),
      }),
    );
    expect(err.code).toBe('too_large');
    expect(statSync(part).size).toBeLessThanOrEqual(sizeCap(1_000_000));
  });

  it('an announced length over the cap is refused before a byte is written', async () => {
    good.serve('/big', { body: Buffer.alloc(2_000_000) });
    const part = join(tempDir('big'), 'x.part');
    const err = await rejection(
      downloadToFile({ url: `${good.base}/big`, partPath: part, signal: signal(), onProgress: () => {}, maxBytes: 1_000_000 }),
    );
    expect(err.code).toBe('too_large');
    expect(existsSync(part) ? statSync(part).size : 0).toBe(0);
  });

  it('a redirect to a host the source does not name is not followed → redirect_refused', async () => {
    other.serve('/x', { body: Buffer.from('planted') });
    good.serve('/hop', { body: Buffer.alloc(0), redirectTo: `${other.base}/x` });
    const before = other.requests.length;
    const part = join(tempDir('hop'), 'x.part');
    const err = await rejection(
      downloadToFile({ url: `${good.base}/hop`, partPath: part, signal: signal(), onProgress: () => {}, allowedHosts: [new URL(good.base).host] }),
    );
    expect(err.code).toBe('redirect_refused');
    expect(err.message).toBe(`下载地址跳转到了不受信任的地址（${other.base}），已拒绝`);
    expect(other.requests.length).toBe(before);
  });

  it('a redirect to a host the source names is followed', async () => {
    other.serve('/y', { body: Buffer.from('model bytes') });
    good.serve('/hop2', { body: Buffer.alloc(0), redirectTo: `${other.base}/y` });
    const part = join(tempDir('hop2'), 'x.part');
    await downloadToFile({
      url: `${good.base}/hop2`,
      partPath: part,
      signal: signal(),
      onProgress: () => {},
      allowedHosts: [new URL(good.base).host, new URL(other.base).host],
    });
    expect(readFileSync(part, 'utf8')).toBe('model bytes');
  });

  // No TLS server here: an https origin is a fetch double answering 302 towards the real plain
  // http loopback server, which must never be asked (the policy itself is tested above).
  it('https → http: the http server is never contacted → redirect_refused', async () => {
    good.serve('/plain', { body: Buffer.from('downgraded') });
    const target = `${good.base}/plain`;
    const before = good.requests.length;
    const httpsOrigin: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith('https://mirror.test/')) return new Response(null, { status: 302, headers: { Location: target } });
      return fetch(input, init);
    };
    const part = join(tempDir('https'), 'x.part');
    const err = await rejection(
      downloadToFile({
        url: 'https://mirror.test/a.tar.bz2',
        partPath: part,
        signal: signal(),
        onProgress: () => {},
        fetch: httpsOrigin,
        allowedHosts: ['mirror.test', new URL(good.base).host],
      }),
    );
    expect(err.code).toBe('redirect_refused');
    expect(good.requests.length).toBe(before);
  });

  describe('every refusal names what it refused: the scheme and host, or 「本地文件」 for file:', () => {
    const refusedAt = (path: string, allowedHosts = [new URL(good.base).host]) =>
      rejection(
        downloadToFile({
          url: `${good.base}${path}`,
          partPath: join(tempDir('named'), 'x.part'),
          signal: signal(),
          onProgress: () => {},
          allowedHosts,
        }),
      );
    const cases: [string, () => string, () => string][] = [
      ['file:///etc/passwd', () => 'file:///etc/passwd', () => '本地文件'],
      ['a file: URL with a host (a Windows share)', () => 'file://fileserver/share/m.tar.bz2', () => '本地文件'],
      ['a data: URL (no host at all)', () => 'data:application/x-bzip2;base64,QlpoOQ==', () => 'data:'],
      ['ftp', () => 'ftp://mirror.example/m.tar.bz2', () => 'ftp://mirror.example'],
      ['another loopback server', () => `${other.base}/x`, () => other.base],
      [
        'an address with user info, a port, a path and a token: only its scheme and host',
        () => 'https://user:secret@evil.example:8443/m?token=abc',
        () => 'https://evil.example:8443',
      ],
    ];
    it.each(cases)('a redirect to %s', async (_name, location, named) => {
      good.serve('/named', { body: Buffer.alloc(0), redirectTo: location() });
      const err = await refusedAt('/named');
      expect(err.code).toBe('redirect_refused');
      expect(err.message).toBe(`下载地址跳转到了不受信任的地址（${named()}），已拒绝`);
    });

    it('a redirect without a Location, or with one that is no address → names the server that sent it', async () => {
      good.serve('/bare', { body: Buffer.alloc(0), status: 302 });
      good.serve('/garbled', { body: Buffer.alloc(0), redirectTo: 'http://[::1' });
      for (const path of ['/bare', '/garbled']) {
        const err = await refusedAt(path);
        expect(err.code).toBe('redirect_refused');
        expect(err.message).toBe(`下载服务器（${good.base}）要求跳转，但没有给出可用的地址，已拒绝`);
      }
    });

    it('a redirect loop on an allowed host → refused after 5 hops, naming where the last one went', async () => {
      good.serve('/loop', { body: Buffer.alloc(0), redirectTo: `${good.base}/loop` });
      const before = good.requests.length;
      const err = await refusedAt('/loop');
      expect(err.code).toBe('redirect_refused');
      expect(err.message).toBe(`下载地址跳转次数过多（最后跳向 ${good.base}），已拒绝`);
      expect(good.requests.length - before).toBe(6);
    });

    it('a source URL on a host the source does not name → named, and never asked', async () => {
      const before = good.requests.length;
      const err = await refusedAt('/m.tar.bz2', [new URL(other.base).host]);
      expect(err.code).toBe('redirect_refused');
      expect(err.message).toBe(`下载地址（${good.base}）不是这个下载源登记的地址，已拒绝`);
      expect(good.requests.length).toBe(before);
    });
  });

  // The stall limit runs on hand-fired timers: the 30 s pass the moment the server's last byte
  // is on disk, so the test neither sleeps nor depends on the machine's load. (The several
  // sources suite below keeps a real-time stall as the smoke case.)
  it('a server that stops sending (socket open) → stalled after the stall limit (fake timers)', async () => {
    good.serve('/stall', { body: Buffer.alloc(500_000, 7), stallAfter: 100_000 });
    const part = join(tempDir('stall'), 'x.part');
    const timers = manualTimers();
    let clock = 0;
    let fired = 0;
    const err = await rejection(
      downloadToFile({
        url: `${good.base}/stall`,
        partPath: part,
        signal: signal(),
        // A clock a second further on each reading: every byte count is reported, none throttled.
        now: () => (clock += 1000),
        onProgress: (p) => {
          // Each chunk re-arms the watchdog; once the last byte sent is written, its time runs out.
          if (p.receivedBytes === 100_000) fired += timers.fire(30_000);
        },
        timers,
      }),
    );
    expect(fired).toBe(1);
    expect(err.code).toBe('stalled');
    expect(err.message).toBe('下载停滞超过 30 秒没有进展');
    expect(statSync(part).size).toBe(100_000);
    // The watchdog is disarmed once the attempt ends: nothing left to fire later.
    expect(timers.pending()).toEqual([]);
  });

  it('bytes arriving keep re-arming the watchdog: a download that never stalls never fires it (fake timers)', async () => {
    good.serve('/steady', { body: Buffer.alloc(300_000, 3) });
    const timers = manualTimers();
    const part = join(tempDir('steady'), 'x.part');
    await downloadToFile({ url: `${good.base}/steady`, partPath: part, signal: signal(), onProgress: () => {}, timers, stallMs: 5000 });
    expect(statSync(part).size).toBe(300_000);
    expect(timers.pending()).toEqual([]);
  });
});

describe.skipIf(!existsSync(SHARED_MODEL))('a model with several sources (shared 3.3M model; skipped when ../shared/models is absent)', () => {
  let good: Buffer;
  let swapped: Buffer;
  const servers: ArchiveServer[] = [];
  const managers: ModelManager[] = [];
  let server: (i: number) => ArchiveServer;

  beforeAll(async () => {
    good = buildModelArchive(A);
    // A real, working model archive — only not the one the catalog pins (tokens.txt edited).
    swapped = buildModelArchive(A, (dir) => writeFileSync(join(dir, 'tokens.txt'), readFileSync(join(dir, 'tokens.txt'), 'utf8') + '\n'));
    for (let i = 0; i < 5; i++) servers.push(await startArchiveServer());
    server = (i) => servers[i]!;
  });
  afterAll(async () => {
    await Promise.all(managers.map((m) => m.dispose()));
    await Promise.all(servers.map((s) => s.close()));
  });

  const ids = ['github', 'huggingface', 'hf-mirror', 'modelscope'] as const;
  const pinnedAt = (i: number, path = `/${A}.tar.bz2`) => archiveSource(ids[i]!, `${server(i).base}${path}`, good.length, sha256(good));
  const entryWith = (sources: ModelSource[]): CatalogEntry => testEntry(A, '', good.length, { sources });
  // The stall limit is real time here (the servers are real), the one real-time stall smoke
  // case: 1.5 s is short for the test and long enough that a loaded machine's event-loop lag is
  // not taken for a stalled source. The fake-timer cases are above and below.
  function manager(dir: string, catalog: CatalogEntry[], extra: Partial<ModelManagerOptions> = {}): ModelManager {
    const m = createModelManager({ modelsDir: dir, catalog, retryDelayMs: () => 5, downloadAttempts: 2, stallMs: 1500, ...extra });
    managers.push(m);
    return m;
  }

  it('one source failing, one stalling, one serving a swapped archive → the fourth installs; progress continuous across the stall → resume', async () => {
    const stallAt = Math.floor(good.length * 0.4);
    server(0).serve('/fail', { body: Buffer.alloc(0), status: 503 });
    server(1).serve('/stall', { body: good, stallAfter: stallAt });
    server(2).serve('/swap', { body: swapped });
    server(3).serve('/good', { body: good });
    const dir = tempDir('four');
    const m = manager(dir, [entryWith([pinnedAt(0, '/fail'), pinnedAt(1, '/stall'), pinnedAt(2, '/swap'), pinnedAt(3, '/good')])]);
    const events: ModelEvent[] = [];
    m.onEvent((e) => events.push(e));

    await m.download(A);

    expect(installedSame(join(dir, A))).toBe(true);
    expect(m.activeModelDir()).toBe(join(dir, A));
    const switches = events.filter((e) => e.type === 'source');
    expect(switches.map((e) => e.source)).toEqual(['github', 'huggingface', 'hf-mirror', 'modelscope']);
    expect(switches[1]!.reason).toBe('下载服务器返回错误（HTTP 503），请稍后重试');
    expect(switches[2]!.reason).toMatch(/^下载停滞超过 \d+ 秒没有进展$/);
    expect(switches[3]!.reason).toMatch(/校验值（SHA-256）与模型目录登记的不一致/);

    // The mirror with the same pin resumed the stalled bytes: progress went on from there.
    expect(server(2).requests.at(-1)!.range).toBe(`bytes=${stallAt}-`);
    const progress = (source: string) =>
      events.flatMap((e) => (e.type === 'progress' && e.progress.source === source ? [e.progress.receivedBytes] : []));
    expect(Math.max(...progress('huggingface'))).toBeLessThanOrEqual(stallAt);
    expect(progress('hf-mirror')[0]).toBe(stallAt);
    expect(progress('hf-mirror')).toEqual([...progress('hf-mirror')].sort((a, b) => a - b));
    // The swapped bytes were thrown away, so the last source started from zero, not from them.
    expect(server(3).requests.at(-1)!.range).toBeUndefined();
    expect(readdirSync(join(dir, '.partial'))).toEqual([]);
  });

  it('the manager’s timers reach the stall watchdog: a source silent after its headers moves on when the 30 s pass on a fake clock', async () => {
    server(0).serve('/silent', { body: good, stallAfter: 0 });
    server(1).serve('/good', { body: good });
    const dir = tempDir('fake-stall');
    const timers = manualTimers();
    // The default limit (30 s), never waited for: the test fires it.
    const m = manager(dir, [entryWith([pinnedAt(0, '/silent'), pinnedAt(1, '/good')])], { timers, stallMs: undefined });
    const events: ModelEvent[] = [];
    let fired = 0;
    m.onEvent((e) => {
      events.push(e);
      // The first progress event comes once the silent source has answered 200: the watchdog is armed.
      if (e.type === 'progress' && e.progress.source === 'github' && !fired) fired = timers.fire(30_000);
    });

    await m.download(A);

    expect(fired).toBe(1);
    const switches = events.filter((e) => e.type === 'source');
    expect(switches.map((e) => e.source)).toEqual(['github', 'huggingface']);
    expect(switches[1]!.reason).toBe('下载停滞超过 30 秒没有进展');
    expect(installedSame(join(dir, A))).toBe(true);
    expect(timers.pending()).toEqual([]);
  });

  describe('with a model in use, every bad source is refused, says why, and leaves that model active with nothing written outside', () => {
    let dir: string;
    const B = 'test-model-b';
    beforeAll(async () => {
      server(4).serve(`/${A}.tar.bz2`, { body: good });
      dir = join(tempDir('kept'), 'models');
      mkdirSync(dir);
      await manager(dir, [entryWith([pinnedAt(4)])]).download(A);
    });

    async function failWith(source: ModelSource, id = B): Promise<ModelError> {
      const before = tree(dirname(dir));
      const mm = manager(dir, [entryWith([pinnedAt(4)]), { ...testEntry(id, '', good.length, { sources: [source] }), folder: A }]);
      const err = await rejection(mm.download(id, { acceptUnverified: true }));
      expect(mm.activeModelDir()).toBe(join(dir, A));
      expect(installedSame(join(dir, A))).toBe(true);
      expect(modelOf(mm.list(), id).error?.message).toBe(err.message);
      expect(err.message.endsWith('之前使用的模型保持不变。')).toBe(true);
      // Nothing new beside the models folder, no staging left, no link anywhere inside it.
      const after = tree(dirname(dir));
      expect(after.filter((p) => !p.startsWith('models/'))).toEqual(before.filter((p) => !p.startsWith('models/')));
      expect(after.filter((p) => /\.staging-/.test(p))).toEqual([]);
      expect(listFiles(dir).length).toBe(after.filter((p) => p.startsWith('models/') && statSync(join(dirname(dir), p)).isFile()).length);
      await mm.dispose();
      return err;
    }

    const tarOf = (fill: (root: string) => void, args: string[] = [A]): Buffer => {
      const work = tempDir('tar');
      const root = join(work, 'src');
      mkdirSync(join(root, A), { recursive: true });
      for (const f of SHARED_MODEL_FILES) writeFileSync(join(root, A, f), readFileSync(join(SHARED_MODEL, f)));
      fill(root);
      execFileSync('tar', ['-C', root, '-cjf', join(work, 'a.tar.bz2'), ...args]);
      return readFileSync(join(work, 'a.tar.bz2'));
    };
    const serving = (path: string, body: Buffer, pin: string | null = null) => {
      server(4).serve(path, { body });
      return archiveSource('github', `${server(4).base}${path}`, body.length, pin);
    };

    it('a swapped archive (pin mismatch) → checksum', async () => {
      expect((await failWith(serving('/swapped', swapped, sha256(good)))).code).toBe('checksum');
    });
    it('a traversal entry → unsafe_archive 「指向上级目录的路径」', async () => {
      const err = await failWith(
        serving(
          '/dotdot',
          tarOf(() => {}, ['--transform', `s,^${A}/tokens.txt,../../escaped.txt,`, A]),
        ),
      );
      expect(err.code).toBe('unsafe_archive');
      expect(err.message).toContain('指向上级目录的路径');
    });
    it('an absolute path → unsafe_archive 「绝对路径」', async () => {
      const target = join(tempDir('abs'), 'planted');
      const err = await failWith(
        serving(
          '/abs',
          tarOf(() => {}, ['-P', '--transform', `s,^${A}/tokens.txt,${target},`, A]),
        ),
      );
      expect(err.code).toBe('unsafe_archive');
      expect(existsSync(target)).toBe(false);
    });
    it('a symlink → unsafe_archive 「链接」', async () => {
      const err = await failWith(
        serving(
          '/link',
          tarOf((root) => symlinkSync('/etc/passwd', join(root, A, 'passwd'))),
        ),
      );
      expect(err.code).toBe('unsafe_archive');
      expect(err.message).toContain('链接');
    });
    it('a hardlink → unsafe_archive', async () => {
      const err = await failWith(
        serving(
          '/hard',
          tarOf((root) => execFileSync('ln', [join(root, A, 'tokens.txt'), join(root, A, 'tokens-hard.txt')])),
        ),
      );
      expect(err.code).toBe('unsafe_archive');
    });
    it('an endless body → too_large, the .part no larger than the cap', async () => {
      server(4).serve('/forever', { body: Buffer.alloc(0), endless: true });
      const err = await failWith(archiveSource('github', `${server(4).base}/forever`, 1_000_000, null));
      expect(err.code).toBe('too_large');
    });
    it('a redirect to another host → redirect_refused', async () => {
      server(3).serve('/elsewhere', { body: good });
      server(4).serve('/jump', { body: Buffer.alloc(0), redirectTo: `${server(3).base}/elsewhere` });
      const err = await failWith(archiveSource('github', `${server(4).base}/jump`, good.length, sha256(good)));
      expect(err.code).toBe('redirect_refused');
    });
  });

  it('a source without a pin: refused as unverified without a request, until the user agrees once (remembered)', async () => {
    server(0).serve('/unpinned', { body: good });
    const dir = tempDir('unverified');
    const catalog = [entryWith([archiveSource('github', `${server(0).base}/unpinned`, good.length, null)])];
    const m = manager(dir, catalog);
    expect(modelOf(m.list(), A).unverified).toBe(true);
    const before = server(0).requests.length;
    const err = await rejection(m.download(A));
    expect(err.code).toBe('unverified');
    expect(err.message).toBe('这个下载源没有公开的校验值，无法确认下载内容；确认后才会使用');
    expect(server(0).requests.length).toBe(before);

    await m.download(A, { acceptUnverified: true });
    expect(m.activeModelDir()).toBe(join(dir, A));
    const again = manager(dir, catalog);
    expect(modelOf(again.list(), A).unverified).toBe(false);
  });

  it('pinned sources failing with an unpinned one left → unverified, naming it; with consent the unpinned one installs', async () => {
    server(0).serve('/gone', { body: Buffer.alloc(0), status: 404 });
    server(1).serve('/plain', { body: good });
    const dir = tempDir('left');
    const m = manager(dir, [entryWith([pinnedAt(0, '/gone'), archiveSource('huggingface', `${server(1).base}/plain`, good.length, null)])]);
    expect(modelOf(m.list(), A).unverified).toBe(false);
    const before = server(1).requests.length;
    const err = await rejection(m.download(A));
    expect(err.code).toBe('unverified');
    expect(err.message).toBe(
      '可校验的下载源都失败了（模型文件不存在（404），下载地址可能已经变更）。还可以从 Hugging Face 下载，但它没有公开的校验值；确认后才会使用',
    );
    expect(server(1).requests.length).toBe(before);
    await m.download(A, { acceptUnverified: true });
    expect(m.activeModelDir()).toBe(join(dir, A));
  });

  it('the source chosen in 设置 is tried first; choosing another mid-download switches at once and resumes the same pinned bytes', async () => {
    server(0).serve('/slow', { body: good, pieceDelayMs: 15 });
    server(1).serve('/fast', { body: good });
    const dir = tempDir('switch');
    const catalog = [entryWith([pinnedAt(1, '/fast'), pinnedAt(0, '/slow')])];
    const m = manager(dir, catalog);
    m.setSource('github');
    expect(modelOf(m.list(), A).sources!.map((s) => s.id)).toEqual(['github', 'huggingface']);
    expect(m.list().source).toBe('github');

    const events: ModelEvent[] = [];
    m.onEvent((e) => events.push(e));
    let switched = 0;
    const halfway = new Promise<void>((resolve) =>
      m.onEvent((e) => {
        if (e.type === 'progress' && e.progress.receivedBytes > 100_000 && !switched) {
          switched = e.progress.receivedBytes;
          resolve();
        }
      }),
    );
    const pending = m.download(A);
    await halfway;
    m.setSource('huggingface');
    await pending;

    expect(events.filter((e) => e.type === 'source').map((e) => e.source)).toEqual(['github', 'huggingface']);
    const resumedAt = Number(/bytes=(\d+)-/.exec(server(1).requests.at(-1)!.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThanOrEqual(switched);
    expect(installedSame(join(dir, A))).toBe(true);
    // The choice outlives the manager.
    expect(manager(dir, catalog).list().source).toBe('huggingface');
  });

  it('a per-file (Hugging Face style) source: each file against its LFS sha256; a swapped file moves on to the mirror, which resumes the rest', async () => {
    const files: PinnedFile[] = [...SHARED_MODEL_FILES, 'test_wavs/4.wav'].map((path) => {
      const body = readFileSync(join(SHARED_MODEL, path));
      return { path, bytes: body.length, sha256: sha256(body) };
    });
    for (const f of files) {
      const body = readFileSync(join(SHARED_MODEL, f.path));
      server(2).serve(`/hf/resolve/main/${f.path}`, { body: f.path === 'tokens.txt' ? Buffer.concat([body, Buffer.from('x')]) : body });
      server(3).serve(`/mirror/resolve/main/${f.path}`, { body });
    }
    const hf = {
      id: 'huggingface',
      kind: 'files',
      baseUrl: `${server(2).base}/hf/resolve/main`,
      files,
      confirmed: true,
      origin: 'test',
      hosts: [new URL(server(2).base).host],
    } as const;
    const mirror = { ...hf, id: 'hf-mirror', baseUrl: `${server(3).base}/mirror/resolve/main`, hosts: [new URL(server(3).base).host] } as const;
    const dir = tempDir('files');
    const m = manager(dir, [{ ...entryWith([hf, mirror]), testWav: 'test_wavs/4.wav' }]);
    const events: ModelEvent[] = [];
    m.onEvent((e) => events.push(e));

    // Under a umask of 0 the .part files (and so their copies) are created world-writable.
    const umask = process.umask(0);
    try {
      await m.download(A);
    } finally {
      process.umask(umask);
    }

    const reasons = events.flatMap((e) => (e.type === 'source' ? [e.reason] : []));
    expect(reasons[1]).toBe('tokens.txt 的校验值（SHA-256）与模型目录登记的不一致，文件可能被替换或损坏');
    // Files already checked from the first source are not fetched again from the mirror.
    const mirrored = server(3).requests.map((r) => r.path.replace('/mirror/resolve/main/', ''));
    expect(mirrored).toContain('tokens.txt');
    expect(mirrored).not.toContain(SHARED_MODEL_FILES[0]);
    for (const f of files) expect(readFileSync(join(dir, A, f.path)).equals(readFileSync(join(SHARED_MODEL, f.path)))).toBe(true);
    // Plain modes whatever the umask: files 0644 (none is executable), folders 0755.
    if (process.platform !== 'win32') {
      const installed = ['', ...tree(join(dir, A))];
      const want = (p: string) => (p === '' || p === 'test_wavs' ? '755' : '644');
      expect(Object.fromEntries(installed.map((p) => [p, (statSync(join(dir, A, p)).mode & 0o7777).toString(8)]))).toEqual(
        Object.fromEntries(installed.map((p) => [p, want(p)])),
      );
    }
  });
});

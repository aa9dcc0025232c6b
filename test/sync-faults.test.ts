// Sync against a real WebDAV server (Apache mod_dav) that fails, and against remotes that lie.
// Transport faults come from the fault proxy in front of Apache (error statuses on each method,
// hangs, resets, cut-off and endless answers, non-XML listings, redirects to another host, a
// file that vanishes between listing and reading); hostile files are written straight onto
// Apache's disk (a flipped byte, a truncated file, a file from another remote, a file renamed to
// look like another device's, a 1 GB file, crafted listings). Every failing round must reject
// with the right SyncError code and a Chinese message, leave the local books exactly as they
// were, write nothing outside the app's own folders, and the next round without the fault must
// succeed and converge. The CLI's exit codes are checked for each kind of failure.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncErrorCode } from '@core/sync/errors';
import { FolderRemote } from '@core/sync/folder-remote';
import { startFaultProxy, type FaultAction, type FaultProxy } from './support/fault-proxy';
import { davRemote, Device, filesUnder, newFiles, syncCli, type MakeRemote } from './support/sync-webdav-devices';
import { apacheAvailable, listRemoteFiles, startWebDav, writeRemoteFile, type WebDavServer } from './support/webdav-server';

const dir = mkdtempSync(join(tmpdir(), 'skj-sync-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const device = (name: string) => new Device(join(dir, `${++n}-${name}.db`), name);
const CHINESE = /[\u4e00-\u9fff]/;
const DATA = /\.skj$/;

function expectSameBooks(...devices: Device[]): string[] {
  const reference = devices[0]!.list();
  for (const d of devices.slice(1)) expect(d.list(), `${d.name} vs ${devices[0]!.name}`).toEqual(reference);
  return reference;
}

/** A listener on another port that records whatever reaches it (it must be nothing). */
async function recorder(): Promise<{
  origin: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}> {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(207, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"></D:multistatus>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe.skipIf(!apacheAvailable())('sync faults and hostile remotes on a real WebDAV server (skipped when apache2 is not installed)', () => {
  let dav: WebDavServer;
  let proxy: FaultProxy;
  /** Straight to Apache / through the proxy, to the sync folder `name`. */
  const direct = (name: string): MakeRemote => davRemote(`${dav.url}${name}/`, dav.user, dav.password);
  // Through the proxy every file goes to a temporary name and is then MOVEd (as a snapshot is),
  // so the faults on MOVE are met by every write.
  const proxied = (name: string, timeoutMs = 5000): MakeRemote =>
    davRemote(`${proxy.url}${name}/`, dav.user, dav.password, timeoutMs, { directPutMaxBytes: 0 });
  const remoteFiles = (folder: string) => readdirSync(join(dav.root, folder)).sort();

  beforeAll(async () => {
    dav = await startWebDav();
    proxy = await startFaultProxy(dav.url);
  });
  afterAll(async () => {
    await proxy?.stop();
    await dav?.stop();
  });

  describe('transport faults mid-round (through the fault proxy)', () => {
    const a = device('A');
    const b = device('B');
    const folder = 'faults';

    beforeAll(async () => {
      a.add({ amount: 1, description: '起点' });
      await a.sync(direct(folder));
      await b.sync(direct(folder));
    });

    /**
     * Sets up a round that lists, reads a file of B's and writes one of A's — or, for a fault on
     * a write, only writes (so "the books as before" holds: a pull is applied before the push).
     */
    async function pending(method: string): Promise<void> {
      b.add({ amount: 2, description: `B 的新记录 ${++n}` });
      await b.sync(direct(folder));
      if (method === 'PUT' || method === 'MOVE') await a.sync(direct(folder));
      a.add({ amount: 3, description: `A 的新记录 ${n}` });
    }

    /** The next round without the fault succeeds; both converge; no temp file is left behind. */
    async function recovers(): Promise<void> {
      proxy.clear();
      await a.sync(proxied(folder));
      await b.sync(direct(folder));
      await a.sync(direct(folder));
      expectSameBooks(a, b);
      expect(remoteFiles(folder).filter((f) => f.includes('.tmp.'))).toEqual([]);
    }

    const statuses: [number, SyncErrorCode][] = [
      [500, 'server_error'],
      [503, 'server_error'],
      [507, 'server_error'],
      [401, 'login_refused'],
      [429, 'server_error'],
    ];
    for (const method of ['PROPFIND', 'GET', 'PUT', 'MOVE']) {
      for (const [status, code] of statuses) {
        it(`${status} on ${method} → ${code}`, async () => {
          await pending(method);
          const headers = status === 429 || status === 503 ? { 'Retry-After': '7' } : undefined;
          const fault = proxy.inject({ method, path: method === 'GET' ? DATA : undefined, action: { kind: 'status', status, headers } });
          const error = await a.syncFails(proxied(folder));
          expect(fault.hits).toBe(1);
          expect(error.code).toBe(code);
          if (headers) expect(error.retryAfterMs).toBe(7000);
          if (status === 507) expect(error.message).toContain('空间已满');
          await recovers();
        });
      }
    }

    const transport: [string, string, FaultAction, SyncErrorCode, RegExp][] = [
      ['a hang on PROPFIND', 'PROPFIND', { kind: 'hang' }, 'unreachable', /超时/],
      ['a hang on GET', 'GET', { kind: 'hang' }, 'unreachable', /超时/],
      ['a hang on PUT', 'PUT', { kind: 'hang' }, 'unreachable', /超时/],
      ['a reset on PROPFIND', 'PROPFIND', { kind: 'reset' }, 'unreachable', CHINESE],
      ['a reset on GET', 'GET', { kind: 'reset' }, 'unreachable', CHINESE],
      ['a reset on MOVE', 'MOVE', { kind: 'reset' }, 'unreachable', CHINESE],
      ['a truncated GET', 'GET', { kind: 'truncate', sendBytes: 20 }, 'unreachable', CHINESE],
      ['a truncated listing', 'PROPFIND', { kind: 'truncate' }, 'unreachable', CHINESE],
      ['a non-XML listing', 'PROPFIND', { kind: 'nonXml' }, 'server_error', /WebDAV/],
      [
        'an HTML listing',
        'PROPFIND',
        { kind: 'nonXml', body: '<html><body>请先登录酒店 Wi-Fi</body></html>', contentType: 'text/html' },
        'server_error',
        /WebDAV/,
      ],
      ['an endless listing', 'PROPFIND', { kind: 'endless' }, 'unreachable', /超时/],
      ['an endless GET', 'GET', { kind: 'endless' }, 'unreachable', /超时/],
    ];
    for (const [what, method, action, code, message] of transport) {
      it(`${what} → ${code}`, async () => {
        await pending(method);
        const fault = proxy.inject({ method, path: method === 'GET' ? DATA : undefined, forward: action.kind === 'truncate', action });
        const started = Date.now();
        const error = await a.syncFails(proxied(folder, 600));
        expect(fault.hits).toBe(1);
        expect(error.code, error.message).toBe(code);
        expect(error.message).toMatch(message);
        expect(Date.now() - started).toBeLessThan(5000);
        await recovers();
      });
    }

    it('an endless GET of a file is cut at the file size limit → refused_file', async () => {
      await pending('GET');
      proxy.inject({ method: 'GET', path: DATA, action: { kind: 'endless', chunkBytes: 256 * 1024, intervalMs: 1 } });
      const error = await a.syncFails(proxied(folder), { maxFileBytes: 1024 * 1024 });
      expect(error.code, error.message).toBe('refused_file');
      await recovers();
    });

    it('an endless listing is cut at the listing limit → server_error, not a file refusal', async () => {
      await pending('PROPFIND');
      proxy.inject({ method: 'PROPFIND', action: { kind: 'endless', chunkBytes: 1024 * 1024, intervalMs: 1 } });
      const error = await a.syncFails(proxied(folder, 20_000));
      expect(error.code, error.message).toBe('server_error');
      await recovers();
    });

    for (const method of ['PROPFIND', 'GET', 'PUT']) {
      it(`a redirect to another host on ${method} → server_error, and nothing (no password) reaches that host`, async () => {
        const other = await recorder();
        try {
          await pending(method);
          proxy.inject({
            method,
            path: method === 'GET' ? DATA : undefined,
            action: { kind: 'redirect', location: `${other.origin}/stolen/`, status: method === 'PUT' ? 307 : 302 },
          });
          const error = await a.syncFails(proxied(folder));
          expect(error.code).toBe('server_error');
          expect(error.message).toContain(other.origin);
          expect(other.seen).toEqual([]);
          await recovers();
        } finally {
          await other.close();
        }
      });
    }

    for (const method of ['PUT', 'MOVE']) {
      it(`a ${method} that lands on the server but whose answer is lost (500) → server_error, then nothing doubled`, async () => {
        await pending(method);
        const before = a.ids();
        proxy.inject({ method, forward: true, action: { kind: 'status', status: 500 } });
        const error = await a.syncFails(proxied(folder));
        expect(error.code).toBe('server_error');
        await recovers();
        expect(a.ids()).toEqual(before);
        expect(new Set(a.ids()).size).toBe(a.ids().length);
      });
    }

    it('a file that disappears between the listing and its download (removed on the server meanwhile) → changed_underneath', async () => {
      await pending('GET');
      // B's newest change file: the one A reads next, and one B's compaction removes.
      const opened = b.open(direct(folder));
      const bDevice = opened.engine.device;
      opened.close();
      const name = remoteFiles(folder)
        .filter((f) => f.startsWith(`${bDevice}.c.`))
        .sort()
        .at(-1)!;
      // The download waits at the proxy; meanwhile the file goes (its writer removes superseded
      // files only once every recent device read past them: here it goes by hand).
      proxy.inject({ method: 'GET', path: DATA, action: { kind: 'delay', ms: 1500 } });
      const round = a.syncFails(proxied(folder));
      const deadline = Date.now() + 3000;
      while (!proxy.requests().some((r) => r.method === 'GET' && r.fault === 'delay') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      const bytes = readFileSync(join(dav.root, folder, name));
      rmSync(join(dav.root, folder, name));
      const error = await round;
      expect(error.code, error.message).toBe('changed_underneath');
      writeRemoteFile(dav, `${folder}/${name}`, bytes);
      await recovers();
    });

    it('a wrong WebDAV password (Apache answers 401) → login_refused; the server down → unreachable', async () => {
      a.add({ amount: 5, description: '登录失败时记的' });
      const wrong = await a.syncFails(davRemote(`${dav.url}${folder}/`, dav.user, 'not-the-password'));
      expect(wrong.code).toBe('login_refused');
      const closed = await recorder();
      await closed.close(); // a port nobody listens on
      const down = await a.syncFails(davRemote(`${closed.origin}/${folder}/`, dav.user, dav.password));
      expect(down.code).toBe('unreachable');
      await recovers();
    });
  });

  describe('hostile and broken remotes', () => {
    const folder = 'hostile';
    const [a, b, c] = [device('A'), device('B'), device('C')];
    const path = (name: string) => join(dav.root, folder, name);
    let before: { local: string[]; server: string[] };

    beforeAll(async () => {
      a.add({ amount: 10, description: 'A 的' });
      b.add({ amount: 20, description: 'B 的' });
      c.add({ amount: 30, description: 'C 的' });
      for (const d of [a, b, c, a, b]) await d.sync(direct(folder));
      expectSameBooks(a, b, c);
    });

    /** The newest change file of a device (by its ledger's journal id). */
    const newest = (d: Device) => {
      const id = d.open(direct(folder));
      const device = id.engine.device;
      id.close();
      return remoteFiles(folder)
        .filter((f) => f.startsWith(`${device}.c.`))
        .sort()
        .at(-1)!;
    };

    /**
     * B writes something new and C, the victim, has a row of its own not yet pushed. With
     * `caughtUp` C has applied B's new file already (the hostile file is then the only thing it
     * would read); otherwise B's newest file is what C reads next — the one a test spoils. (A
     * refused file stops that device's files where it is; files applied before it stay, other
     * devices' files are applied and C's own changes are pushed.)
     */
    async function fresh(caughtUp = false): Promise<string> {
      b.add({ amount: 21, description: `B 又记了一笔 ${++n}` });
      await b.sync(direct(folder));
      if (caughtUp) await c.sync(direct(folder));
      c.add({ amount: 31, description: `C 没同步的 ${n}` });
      before = { local: filesUnder(dir), server: filesUnder(dav.root) };
      return newest(b);
    }

    /**
     * Nothing new on this machine but ledger files; nothing new on the server but the victim's
     * own files (its own changes still go out when another device's file is refused).
     */
    function nothingWritten(): void {
      expect(newFiles(dir, before.local)).toEqual([]);
      const id = c.open(direct(folder));
      const own = `${id.engine.device}.`;
      id.close();
      expect(filesUnder(dav.root).filter((f) => !before.server.includes(f) && !f.split('/').at(-1)!.startsWith(own))).toEqual([]);
    }

    async function converges(): Promise<void> {
      for (const d of [c, a, b, c]) await d.sync(direct(folder));
      expectSameBooks(a, b, c);
    }

    it('a wrong passphrase → wrong_passphrase, nothing applied (CLI: exit 2)', async () => {
      await fresh();
      const error = await c.syncFails(direct(folder), { passphrase: '别人的同步密码 12345678' });
      expect(error.code).toBe('wrong_passphrase');
      const cli = await syncCli(c.path, `${dav.url}${folder}/`, { user: dav.user, password: dav.password, passphrase: '别人的同步密码 12345678' });
      expect(cli.code, cli.stderr).toBe(2);
      expect(cli.stderr).toMatch(/同步密码不对/);
      nothingWritten();
      await converges();
    });

    it('one flipped byte in another device’s file → refused_file (CLI: exit 3)', async () => {
      const name = await fresh();
      const original = readFileSync(path(name));
      const spoiled = Buffer.from(original);
      spoiled[Math.floor(spoiled.length / 2)]! ^= 0x01;
      writeFileSync(path(name), spoiled);
      const error = await c.syncFails(direct(folder));
      expect(error.code).toBe('refused_file');
      expect(error.message).toContain(name);
      const listBefore = c.list();
      const cli = await syncCli(c.path, `${dav.url}${folder}/`, { user: dav.user, password: dav.password });
      expect(cli.code, cli.stderr).toBe(3);
      expect(c.list()).toEqual(listBefore);
      nothingWritten();
      writeFileSync(path(name), original);
      await converges();
    });

    it('a truncated file → refused_file', async () => {
      const name = await fresh();
      const original = readFileSync(path(name));
      truncateSync(path(name), Math.floor(original.length / 2));
      expect((await c.syncFails(direct(folder))).code).toBe('refused_file');
      truncateSync(path(name), 10);
      expect((await c.syncFails(direct(folder))).code).toBe('refused_file');
      nothingWritten();
      writeFileSync(path(name), original);
      await converges();
    });

    it('a file copied from another remote under the same name → refused_file', async () => {
      await fresh(true);
      const d = device('D');
      d.add({ amount: 40, description: '另一个同步位置的' });
      await d.sync(direct('elsewhere'));
      const foreign = readdirSync(join(dav.root, 'elsewhere')).find((f) => f.endsWith('.skj'))!;
      writeRemoteFile(dav, `${folder}/${foreign}`, readFileSync(join(dav.root, 'elsewhere', foreign)));
      before.server = filesUnder(dav.root);
      const error = await c.syncFails(direct(folder));
      expect(error.code).toBe('refused_file');
      expect(error.message).toContain(foreign);
      nothingWritten();
      rmSync(path(foreign));
      await converges();
    });

    it('a file of device A renamed to look like device B’s → refused_file', async () => {
      // C has applied all of B's files; A's newest, renamed as B's next one, is what C would apply next.
      await fresh(true);
      a.add({ amount: 11, description: 'A 的新记录' });
      await a.sync(direct(folder));
      const own = newest(a);
      const bDevice = newest(b).slice(0, 16);
      const bSeq = Number(/\.c\.(\d+)\.skj$/.exec(newest(b))![1]);
      const forged = `${bDevice}.c.${String(bSeq + 1).padStart(10, '0')}.skj`;
      renameSync(path(own), path(forged));
      before = { local: filesUnder(dir), server: filesUnder(dav.root) };
      const error = await c.syncFails(direct(folder));
      expect(error.code).toBe('refused_file');
      expect(error.message).toContain(forged);
      nothingWritten();
      renameSync(path(forged), path(own));
      await converges();
    });

    it('a 1 GB file named like a data file → refused_file without downloading it (CLI: exit 3)', async () => {
      await fresh(true);
      const huge = `${'e'.repeat(16)}.s.0000000001.skj`;
      writeRemoteFile(dav, `${folder}/${huge}`, '');
      truncateSync(path(huge), 1024 ** 3); // sparse: no disk used
      before.server = filesUnder(dav.root);
      const requests = dav.requests().length;
      const error = await c.syncFails(direct(folder));
      expect(error.code).toBe('refused_file');
      expect(error.message).toContain(huge);
      const cli = await syncCli(c.path, `${dav.url}${folder}/`, { user: dav.user, password: dav.password });
      expect(cli.code, cli.stderr).toBe(3);
      await dav.waitForRequest((r) => r.method === 'PROPFIND' && r.path === `/${folder}`);
      expect(
        dav
          .requests()
          .slice(requests)
          .filter((r) => r.method === 'GET' && r.path.includes(huge)),
      ).toEqual([]);
      nothingWritten();
      rmSync(path(huge));
      await converges();
    });

    it('a key file that is not one → refused_file', async () => {
      await fresh();
      const key = path('suikouji-sync.json');
      const original = readFileSync(key);
      writeFileSync(key, '{"format":"suikouji-sync","version":1,"remoteId":"../../etc/passwd"}');
      expect((await c.syncFails(direct(folder))).code).toBe('refused_file');
      nothingWritten();
      writeFileSync(key, original);
      await converges();
    });

    /** A real-looking 207 of the folder: what is there, plus `extra` hrefs. */
    function multistatus(extra: string[]): string {
      const entry = (href: string, size: number | null) =>
        `<D:response><D:href>${href}</D:href><D:propstat><D:prop>${size === null ? '<D:resourcetype><D:collection/></D:resourcetype>' : `<D:resourcetype/><D:getcontentlength>${size}</D:getcontentlength>`}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
      const real = listRemoteFiles(dav)
        .filter((f) => f.path.startsWith(`${folder}/`))
        .map((f) => entry(`/${encodeURI(f.path)}`, f.bytes.length));
      return `<?xml version="1.0" encoding="utf-8"?><D:multistatus xmlns:D="DAV:">${entry(`/${folder}/`, null)}${real.join('')}${extra.map((h) => entry(h, 900)).join('')}</D:multistatus>`;
    }

    it('a listing with ../ and absolute names, and data-file names outside the folder → none of them is read or written', async () => {
      await fresh();
      const fake = 'f'.repeat(16);
      const crafted = [
        '/../../etc/passwd',
        '/etc/passwd',
        `/${folder}/x/../../y.skj`,
        `/${folder}/../../etc/${fake}.s.0000000001.skj`,
        `/${fake}.c.0000000001.skj`,
        `/elsewhere/${fake}.c.0000000002.skj`,
        `/${folder}/..%2F..%2Fetc%2F${fake}.c.0000000003.skj`,
        `/${folder}/sub/${fake}.c.0000000004.skj`,
        `/${folder}/..\\..\\${fake}.c.0000000005.skj`,
        `/${folder}/${fake}.tmp.00000000/../../../tmp/x`,
      ];
      const seen = proxy.requests().length;
      proxy.inject({ method: 'PROPFIND', action: { kind: 'nonXml', body: multistatus(crafted), contentType: 'application/xml; charset=utf-8' } });
      const result = await c.sync(proxied(folder));
      expect(result.pulled).toBeGreaterThan(0); // the real files were still read
      const asked = proxy.requests().slice(seen);
      for (const r of asked) expect(r.path === `/${folder}` || r.path.startsWith(`/${folder}/`), `${r.method} ${r.path}`).toBe(true);
      expect(asked.filter((r) => r.path.includes(fake))).toEqual([]);
      expect(newFiles(dir, before.local)).toEqual([]);
      await converges();
    });

    it('a listing naming a file on another host is only ever asked of our own server', async () => {
      await fresh(true);
      const other = await recorder();
      try {
        const name = `${'d'.repeat(16)}.c.0000000001.skj`;
        proxy.inject({
          method: 'PROPFIND',
          action: { kind: 'nonXml', body: multistatus([`${other.origin}/${folder}/${name}`]), contentType: 'application/xml' },
        });
        const error = await c.syncFails(proxied(folder));
        expect(error.code).toBe('changed_underneath'); // our own server has no such file
        expect(other.seen).toEqual([]);
        nothingWritten();
        await converges();
      } finally {
        await other.close();
      }
    });

    it('the CLI exit codes of transport failures: 401, unreachable, redirect → 4', async () => {
      await fresh();
      const url = `${dav.url}${folder}/`;
      const other = await recorder();
      try {
        proxy.inject({ method: 'PROPFIND', action: { kind: 'redirect', location: `${other.origin}/` } });
        const runs = await Promise.all([
          syncCli(c.path, url, { user: dav.user, password: 'wrong' }),
          syncCli(c.path, `${other.origin.replace(/:\d+$/, ':9')}/x/`, { user: dav.user, password: dav.password }),
        ]);
        const redirected = await syncCli(c.path, `${proxy.url}${folder}/`, { user: dav.user, password: dav.password });
        for (const r of [...runs, redirected]) {
          expect(r.code, r.stderr).toBe(4);
          expect(r.stderr).toMatch(CHINESE);
          expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
        }
        expect(runs[0]!.stderr).toContain('拒绝了登录');
        expect(other.seen).toEqual([]);
      } finally {
        await other.close();
      }
      nothingWritten();
      await converges();
    });
  });
});

// Kept apart so a hostile folder remote cannot reach the WebDAV suites' state.
describe('hostile synced folders (FolderRemote)', () => {
  it('reads no more than the limit, and a file gone since the listing is changed_underneath', async () => {
    const folder = join(dir, 'read-limit');
    mkdirSync(folder);
    const remote = new FolderRemote(folder, 'a'.repeat(16));
    writeFileSync(join(folder, 'x.skj'), Buffer.alloc(20, 1));
    expect((await remote.read('x.skj', 20)).length).toBe(20);
    await expect(remote.read('x.skj', 19)).rejects.toMatchObject({ code: 'refused_file' });
    await expect(remote.read('gone.skj', 19)).rejects.toMatchObject({ code: 'changed_underneath' });
    await expect(remote.read('../x.skj', 19)).rejects.toMatchObject({ code: 'refused_file' });
  });

  it('a 1 GB file, a directory and a flipped byte named like data files: refused or skipped, nothing read beyond the limit', async () => {
    const folder = join(dir, 'shared-folder');
    const remote: MakeRemote = (d) => new FolderRemote(folder, d);
    const [a, b] = [device('A'), device('B')];
    a.add({ amount: 1, description: '文件夹' });
    await a.sync(remote);
    await b.sync(remote);
    const huge = join(folder, `${'e'.repeat(16)}.s.0000000001.skj`);
    writeFileSync(huge, '');
    truncateSync(huge, 1024 ** 3);
    const error = await b.syncFails(remote);
    expect(error.code).toBe('refused_file');
    rmSync(huge);
    // A sub-folder with a data file's name is not a file: skipped.
    mkdirSync(join(folder, `${'c'.repeat(16)}.c.0000000001.skj`));
    a.add({ amount: 2, description: '又一笔' });
    await a.sync(remote);
    const name = readdirSync(folder).find((f) => /\.c\.\d+\.skj$/.test(f) && statSync(join(folder, f)).isFile())!;
    const original = readFileSync(join(folder, name));
    const spoiled = Buffer.from(original);
    spoiled[spoiled.length - 3]! ^= 0x80;
    writeFileSync(join(folder, name), spoiled);
    // In a synced folder a file that does not open may still be arriving: waited for, not an error
    // (refused only when it stays so for 3 rounds and 10 minutes: sync/heal.test.ts).
    const waiting = await b.sync(remote);
    expect(waiting.waiting).toEqual([expect.objectContaining({ seq: Number(name.split('.')[2]), reason: 'copying' })]);
    writeFileSync(join(folder, name), original);
    await b.sync(remote);
    await a.sync(remote);
    expectSameBooks(a, b);
  });
});

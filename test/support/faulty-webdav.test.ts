// Proves faulty-webdav.ts with the real `webdav` client: every method answers as a WebDAV server
// should, and each fault does exactly what it says — so the sync tests built on it can trust it.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type FileStat, type ResponseDataDetailed, type WebDAVClient } from 'webdav';
import { WebDavRemote } from '../../src/main/core/sync/webdav-remote';
import { startFaultyWebDav, type FaultyWebDav } from './faulty-webdav';

/** The error a call rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<Error & { status?: number; response?: Response }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status?: number };
  }
  throw new Error('expected the call to fail, it succeeded');
}

const sha = (bytes: string | Buffer) => createHash('sha1').update(bytes).digest('hex').slice(0, 16);

describe('the faulty WebDAV server', () => {
  let dav: FaultyWebDav;
  let client: WebDAVClient;
  /** A raw request with the right credentials, for what the client does not expose (HEAD, OPTIONS, a path Destination). */
  const raw = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${dav.origin}${path}`, {
      method,
      headers: { Authorization: `Basic ${Buffer.from(`${dav.user}:${dav.password}`).toString('base64')}`, ...headers },
    });
  const list = async (path = '/') => (await client.getDirectoryContents(path)) as FileStat[];
  const stat = async (path: string) => (await client.stat(path, { details: true })) as ResponseDataDetailed<FileStat>;
  const get = async (path: string) => Buffer.from((await client.getFileContents(path, { format: 'binary' })) as ArrayBuffer).toString();

  beforeEach(async () => {
    dav = await startFaultyWebDav();
    client = createClient(dav.url, { username: dav.user, password: dav.password });
  });
  afterEach(async () => {
    await dav.close();
  });

  it('PUT, conditional PUT, GET, PROPFIND Depth 1 and 0, HEAD, OPTIONS — with content-derived ETags', async () => {
    expect(dav.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dav\/$/);
    expect(await client.putFileContents('/账本.json', '{"v":1}')).toBe(true);
    expect(await client.putFileContents('/账本.json', '{"v":22}', { overwrite: true })).toBe(true);
    // overwrite:false sends If-None-Match: * and the server answers 412: the client returns false.
    expect(await client.putFileContents('/账本.json', 'no', { overwrite: false })).toBe(false);
    expect(await client.putFileContents('/b.skj', Buffer.from([0, 1, 2]), { overwrite: false })).toBe(true);
    expect(await get('/账本.json')).toBe('{"v":22}');

    const listing = (await client.getDirectoryContents('/', { details: true })) as ResponseDataDetailed<FileStat[]>;
    // The client returns ETags without their quotes.
    expect(listing.data.map((f) => [f.filename, f.basename, f.type, f.size, f.etag])).toEqual([
      ['/b.skj', 'b.skj', 'file', 3, sha(Buffer.from([0, 1, 2]))],
      ['/账本.json', '账本.json', 'file', 8, sha('{"v":22}')],
    ]);
    expect(dav.etag('账本.json')).toBe(`"${sha('{"v":22}')}"`);
    expect(Math.abs(Date.parse(String((listing.headers as Record<string, string>)['date'])) - Date.now())).toBeLessThan(5000);
    expect(Date.parse(listing.data[0]?.lastmod ?? '')).not.toBeNaN();

    const one = await stat('/账本.json');
    expect([one.data.filename, one.data.type, one.data.size, one.data.etag]).toEqual(['/账本.json', 'file', 8, sha('{"v":22}')]);
    expect(one.data.props?.displayname).toBe('账本.json');
    expect((await stat('/')).data.type).toBe('directory');
    expect((await failure(client.stat('/missing'))).status).toBe(404);

    // The wire format: a percent-encoded href, and HEAD/OPTIONS headers.
    const xml = await (await raw('PROPFIND', '/dav/', { Depth: '1' })).text();
    expect(xml).toContain(`<d:href>/dav/${encodeURIComponent('账本.json')}</d:href>`);
    expect(xml).toContain('<d:resourcetype><d:collection/></d:resourcetype>');
    expect((await raw('PROPFIND', '/dav/')).status).toBe(403); // no Depth = infinity, refused as Apache does
    const head = await raw('HEAD', `/dav/${encodeURIComponent('账本.json')}`);
    expect([head.status, head.headers.get('content-length'), head.headers.get('etag')]).toEqual([200, '8', `"${sha('{"v":22}')}"`]);
    expect(Date.parse(head.headers.get('last-modified') ?? '')).not.toBeNaN();
    const options = await raw('OPTIONS', '/dav/');
    expect([options.status, options.headers.get('dav')]).toEqual([200, '1,2']);
    expect(options.headers.get('date')).toBeTruthy();

    expect(dav.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'PUT /dav/账本.json 201',
      'PUT /dav/账本.json 204',
      'PUT /dav/账本.json 412',
      'PUT /dav/b.skj 201',
      'GET /dav/账本.json 200',
      'PROPFIND /dav 207', // getDirectoryContents('/') drops the collection's trailing slash
      'PROPFIND /dav/账本.json 207',
      'PROPFIND /dav 207',
      'PROPFIND /dav/missing 404',
      'PROPFIND /dav/ 207',
      'PROPFIND /dav/ 403',
      'HEAD /dav/账本.json 200',
      'OPTIONS /dav/ 200',
    ]);
    dav.resetRequests();
    expect(dav.requests()).toEqual([]);
    expect(dav.files()).toEqual([
      { name: 'b.skj', size: 3 },
      { name: '账本.json', size: 8 },
    ]);
  });

  it('MKCOL makes a sub-folder; PUT into a missing folder is a 409', async () => {
    await client.createDirectory('/books');
    expect((await failure(client.createDirectory('/books'))).status).toBe(405);
    await client.putFileContents('/books/x.skj', 'xyz');
    expect((await failure(client.putFileContents('/nowhere/x.skj', 'xyz'))).status).toBe(409);
    expect((await list()).map((f) => [f.basename, f.type])).toEqual([['books', 'directory']]);
    expect((await list('/books')).map((f) => [f.filename, f.size])).toEqual([['/books/x.skj', 3]]);
    expect(dav.files('books')).toEqual([{ name: 'x.skj', size: 3 }]);
    expect(dav.read('books/x.skj').toString()).toBe('xyz');
    expect(dav.pathFor('books/x.skj')).toBe(join(dav.root, 'books', 'x.skj'));
    expect(() => dav.pathFor('../x')).toThrow(/outside/);
    expect(dav.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toContain('MKCOL /dav/books/ 201');
  });

  it('MOVE with Overwrite T replaces, with F is a 412; DELETE is a 204, then a 404', async () => {
    await client.putFileContents('/tmp.1', 'new');
    await client.putFileContents('/a.json', 'old');
    await client.moveFile('/tmp.1', '/a.json', { overwrite: true });
    expect(dav.files()).toEqual([{ name: 'a.json', size: 3 }]);
    expect(dav.read('a.json').toString()).toBe('new');

    await client.putFileContents('/tmp.2', 'other');
    expect((await failure(client.moveFile('/tmp.2', '/a.json', { overwrite: false }))).status).toBe(412);
    expect((await failure(client.moveFile('/gone', '/b.json'))).status).toBe(404);
    // A Destination given as a bare path works as well as the absolute URL the client sends.
    expect((await raw('MOVE', '/dav/tmp.2', { Destination: '/dav/b.json' })).status).toBe(201);
    expect(dav.files().map((f) => f.name)).toEqual(['a.json', 'b.json']);

    await client.deleteFile('/b.json');
    expect((await failure(client.deleteFile('/b.json'))).status).toBe(404);
    expect(dav.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(
      expect.arrayContaining([
        'MOVE /dav/tmp.1 204',
        'MOVE /dav/tmp.2 412',
        'MOVE /dav/gone 404',
        'DELETE /dav/b.json 204',
        'DELETE /dav/b.json 404',
      ]),
    );
  });

  it('refuses requests without (or with wrong) credentials: 401 with WWW-Authenticate', async () => {
    const anonymous = await fetch(dav.url, { method: 'PROPFIND', headers: { Depth: '1' } });
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Basic realm="dav"']);
    expect(anonymous.headers.get('date')).toBeTruthy();
    const wrong = createClient(dav.url, { username: dav.user, password: 'nope' });
    expect((await failure(wrong.getDirectoryContents('/'))).status).toBe(401);
    expect((await failure(wrong.putFileContents('/x', 'x'))).status).toBe(401);
    expect(dav.files()).toEqual([]);
    expect(dav.requests().map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('loseWrites: a matching PUT or MOVE answers success and stores nothing', async () => {
    await client.putFileContents('/ledger.json', 'v1');
    const off = dav.loseWrites((name) => name === 'ledger.json');
    expect(await client.putFileContents('/ledger.json', 'v2')).toBe(true);
    expect(await client.putFileContents('/new.json', 'kept')).toBe(true); // not matched
    await client.putFileContents('/tmp.1', 'v3');
    await client.moveFile('/tmp.1', '/ledger.json'); // the source goes, the target is not written
    expect(dav.files()).toEqual([
      { name: 'ledger.json', size: 2 },
      { name: 'new.json', size: 4 },
    ]);
    expect(dav.read('ledger.json').toString()).toBe('v1');
    expect(
      dav
        .requests()
        .filter((r) => r.path === '/dav/ledger.json')
        .map((r) => r.status),
    ).toEqual([201, 204]);

    // Matching every name: a PUT to a temp name is lost, and its MOVE plays along (success, nothing moved).
    off();
    dav.loseWrites();
    await client.putFileContents('/tmp.2', 'v4');
    await client.moveFile('/tmp.2', '/fresh.json');
    expect(dav.files().map((f) => f.name)).toEqual(['ledger.json', 'new.json']);
    expect((await failure(client.stat('/fresh.json'))).status).toBe(404);

    dav.heal();
    await client.putFileContents('/ledger.json', 'v5');
    expect(dav.read('ledger.json').toString()).toBe('v5');
  });

  it('truncateWrites: a matching PUT or MOVE target keeps the first half of the bytes', async () => {
    const off = dav.truncateWrites((name) => name.endsWith('.skj'));
    expect(await client.putFileContents('/a.skj', '0123456789')).toBe(true);
    await client.putFileContents('/tmp.1', 'abcdefgh');
    await client.moveFile('/tmp.1', '/b.skj');
    expect(dav.files()).toEqual([
      { name: 'a.skj', size: 5 },
      { name: 'b.skj', size: 4 },
    ]);
    expect(dav.read('a.skj').toString()).toBe('01234');
    expect(dav.read('b.skj').toString()).toBe('abcd');
    expect((await stat('/a.skj')).data.etag).toBe(sha('01234'));

    // Matching every name, the temp PUT is cut and the MOVE carries it: half, not a quarter.
    off();
    dav.truncateWrites();
    await client.putFileContents('/tmp.2', '01234567');
    await client.moveFile('/tmp.2', '/c.skj');
    expect(dav.read('c.skj').toString()).toBe('0123');
    dav.heal();
    await client.putFileContents('/c.skj', '01234567');
    expect(dav.read('c.skj').toString()).toBe('01234567');
  });

  it('rollback: files written since vanish, removed ones return with their bytes, ETags and mtimes', async () => {
    await client.createDirectory('/books');
    await client.putFileContents('/a.json', 'a1');
    await client.putFileContents('/books/b.skj', 'b1');
    const before = await stat('/a.json');
    const state = dav.saveState();
    await new Promise((r) => setTimeout(r, 1100)); // let a rewrite get a later Last-Modified

    await client.putFileContents('/a.json', 'a2-longer');
    await client.deleteFile('/books/b.skj');
    await client.putFileContents('/c.json', 'c');
    expect((await stat('/a.json')).data.etag).not.toBe(before.data.etag);

    dav.rollback(state);
    expect(dav.files()).toEqual([{ name: 'a.json', size: 2 }]);
    expect(dav.files('books')).toEqual([{ name: 'b.skj', size: 2 }]);
    expect(dav.read('books/b.skj').toString()).toBe('b1');
    const after = await stat('/a.json');
    expect([after.data.size, after.data.etag, after.data.lastmod]).toEqual([before.data.size, before.data.etag, before.data.lastmod]);
    expect((await failure(client.stat('/c.json'))).status).toBe(404);
    expect(() => dav.rollback(99)).toThrow(/no saved state/);
  });

  it('damage flips a byte in the middle; the ETag changes, unless keepEtag', async () => {
    await client.putFileContents('/a.skj', 'abcdefgh');
    await client.putFileContents('/b.skj', 'abcdefgh');
    const [a, b] = await list();
    dav.damage('a.skj');
    expect(dav.read('a.skj')).toEqual(Buffer.from([0x61, 0x62, 0x63, 0x64, 0x65 ^ 0xff, 0x66, 0x67, 0x68]));
    const damaged = (await stat('/a.skj')).data;
    expect([damaged.size, damaged.etag, damaged.lastmod]).toEqual([8, sha(dav.read('a.skj')), a?.lastmod]);
    expect(damaged.etag).not.toBe(a?.etag);

    // A server whose ETag does not notice: same size, same ETag, other bytes.
    dav.damage('b.skj', { keepEtag: true });
    expect(await get('/b.skj')).not.toBe('abcdefgh');
    expect((await stat('/b.skj')).data.etag).toBe(b?.etag);
    expect((await list()).find((f) => f.basename === 'b.skj')?.etag).toBe(b?.etag);
    expect((await raw('HEAD', '/dav/b.skj')).headers.get('etag')).toBe(`"${b?.etag}"`);
    dav.heal(); // now it tells the truth again; the byte stays damaged
    expect((await stat('/b.skj')).data.etag).toBe(sha(dav.read('b.skj')));
    expect(() => dav.damage('missing.skj')).toThrow();
  });

  it('omitFromListing: left out of Depth 1, still answered by stat (Depth 0) and GET', async () => {
    await client.putFileContents('/a.skj', 'a');
    await client.putFileContents('/b.skj', 'b');
    const off = dav.omitFromListing((name) => name === 'b.skj');
    expect((await list()).map((f) => f.basename)).toEqual(['a.skj']);
    expect((await stat('/b.skj')).data.size).toBe(1);
    expect(await get('/b.skj')).toBe('b');
    off();
    expect((await list()).map((f) => f.basename)).toEqual(['a.skj', 'b.skj']);
  });

  it('dateOffsetMs skews the Date header of every answer', async () => {
    dav.dateOffsetMs = -3_600_000;
    const listing = (await client.getDirectoryContents('/', { details: true })) as ResponseDataDetailed<FileStat[]>;
    const date = Date.parse(String((listing.headers as Record<string, string>)['date']));
    expect(Math.abs(date - (Date.now() - 3_600_000))).toBeLessThan(5000);
    dav.heal();
    expect(Math.abs(Date.parse((await raw('OPTIONS', '/dav/')).headers.get('date') ?? '') - Date.now())).toBeLessThan(5000);
  });

  it('close() stops it and removes the temp folder, but never a root it was given', async () => {
    const root = dav.root;
    expect(existsSync(root)).toBe(true);
    await dav.close();
    await dav.close();
    expect(existsSync(root)).toBe(false);
    await expect(fetch(dav.url)).rejects.toThrow();

    const mine = mkdtempSync(join(tmpdir(), 'faulty-dav-test-'));
    try {
      dav = await startFaultyWebDav({ root: mine, user: 'bob', password: 'pw' });
      await createClient(dav.url, { username: 'bob', password: 'pw' }).putFileContents('/x', 'x');
      await dav.close();
      expect(existsSync(join(mine, 'x'))).toBe(true);
    } finally {
      rmSync(mine, { recursive: true, force: true });
    }
  });

  // Last: constructing a WebDavRemote patches the `webdav` client's fetch for the whole process.
  it('WebDavRemote can ensureFolder, write, list and read against it — and loses a write without noticing', async () => {
    const remote = new WebDavRemote({ url: `${dav.url}books/`, user: dav.user, password: dav.password, device: '0123456789abcdef' });
    await remote.ensureFolder(); // PROPFIND 404, then MKCOL — both without the trailing slash the URL has
    expect(dav.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['PROPFIND /dav/books 404', 'MKCOL /dav/books 201']);
    await remote.write('a.skj', Buffer.from('hello ledger'));
    const listing = await remote.list();
    // Only name and size: the entries may carry more (an ETag) as the sync code grows.
    const namesAndSizes = (l: typeof listing) => l.entries.map((e) => ({ name: e.name, size: e.size }));
    expect(namesAndSizes(listing)).toEqual([{ name: 'a.skj', size: 12 }]);
    expect(Math.abs((listing.serverTime ?? 0) - Date.now())).toBeLessThan(5000);
    expect((await remote.read('a.skj', 1000)).toString()).toBe('hello ledger');
    // Its (new) stat: PROPFIND Depth 0, size and the content's ETag; a missing file is null.
    expect(await remote.stat('a.skj')).toMatchObject({ name: 'a.skj', size: 12, etag: sha('hello ledger') });
    expect(await remote.stat('missing.skj')).toBeNull();
    expect(dav.files('books')).toEqual([{ name: 'a.skj', size: 12 }]); // no temp file left behind

    dav.loseWrites();
    await remote.write('b.skj', Buffer.from('gone'));
    dav.truncateWrites((name) => name === 'a.skj');
    dav.loseWrites(() => false);
    await remote.write('a.skj', Buffer.from('0123456789'));
    expect(namesAndSizes(await remote.list())).toEqual([{ name: 'a.skj', size: 5 }]);
  });
});

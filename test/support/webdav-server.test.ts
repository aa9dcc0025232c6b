// Proves the sync tests' two helpers against the real Apache: webdav-server.ts (a WebDAV server
// whose disk the test can see) and fault-proxy.ts (faults between the client and it). It also pins
// down what the `webdav` client itself does with each fault, which the sync code has to handle.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FileStat, type WebDAVClient } from 'webdav';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { apacheAvailable, listRemoteFiles, startWebDav, writeRemoteFile, type WebDavServer } from './webdav-server';

/** The error a client call rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<Error & { status?: number; code?: string; type?: string; response?: Response }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status?: number };
  }
  throw new Error('expected the call to fail, it succeeded');
}

const text = (files: { path: string; bytes: Buffer }[]) => Object.fromEntries(files.map((f) => [f.path, f.bytes.toString()]));

describe.skipIf(!apacheAvailable())('a real WebDAV server (Apache mod_dav) and the fault proxy (skipped when apache2 is not installed)', () => {
  let dav: WebDavServer;
  let client: WebDAVClient;

  beforeAll(async () => {
    dav = await startWebDav({ folder: 'suikouji' });
    client = createClient(dav.url, { username: dav.user, password: dav.password });
  });
  afterAll(async () => {
    await dav?.stop();
  });

  it('PUT, conditional PUT, GET, PROPFIND, MOVE, DELETE — and the disk shows each step', async () => {
    expect(dav.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await client.putFileContents('/suikouji/账本.json', '{"v":1}')).toBe(true);
    // overwrite:false sends If-None-Match: * — Apache answers 412 and the client returns false.
    expect(await client.putFileContents('/suikouji/账本.json', '{"v":2}', { overwrite: false })).toBe(false);
    expect(await client.getFileContents('/suikouji/账本.json', { format: 'text' })).toBe('{"v":1}');
    expect(text(listRemoteFiles(dav))).toEqual({ 'suikouji/账本.json': '{"v":1}' });

    const listing = (await client.getDirectoryContents('/suikouji')) as FileStat[];
    expect(listing.map((f) => [f.basename, f.type, f.size])).toEqual([['账本.json', 'file', 7]]);
    expect(listing[0]?.etag).toBeTruthy();

    await client.moveFile('/suikouji/账本.json', '/suikouji/ledger.json');
    expect(text(listRemoteFiles(dav))).toEqual({ 'suikouji/ledger.json': '{"v":1}' });
    // MOVE onto an existing file without overwrite is refused (412), as on real servers.
    await client.putFileContents('/suikouji/other.json', 'x');
    expect((await failure(client.moveFile('/suikouji/other.json', '/suikouji/ledger.json', { overwrite: false }))).status).toBe(412);

    await client.deleteFile('/suikouji/ledger.json');
    await client.deleteFile('/suikouji/other.json');
    expect(listRemoteFiles(dav)).toEqual([]);

    await dav.waitForRequest((r) => r.method === 'DELETE' && r.path === '/suikouji/other.json');
    const log = dav.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(log[0]).toBe('PUT /suikouji/账本.json 201'); // startWebDav's readiness poll is not listed
    expect(log).toEqual(
      expect.arrayContaining([
        'PUT /suikouji/账本.json 201',
        'PUT /suikouji/账本.json 412',
        'GET /suikouji/账本.json 200',
        'PROPFIND /suikouji 207',
        'MOVE /suikouji/账本.json 201',
        'MOVE /suikouji/other.json 412',
        'DELETE /suikouji/ledger.json 204',
      ]),
    );
    const conditional = dav.requests().find((r) => r.method === 'PUT' && r.status === 412);
    expect(conditional?.ifNoneMatch).toBe('*');
    expect(dav.requests().find((r) => r.method === 'MOVE')?.destination).toBe(`${dav.origin}/suikouji/ledger.json`);
  });

  it('a wrong password is a 401 (and Apache logs it)', async () => {
    const wrong = createClient(dav.url, { username: dav.user, password: 'nope' });
    const err = await failure(wrong.getDirectoryContents('/suikouji'));
    expect(err.status).toBe(401);
    await dav.waitForRequest((r) => r.status === 401);
  });

  it('files the test writes onto the disk are served, overwritten, moved and deleted by Apache', async () => {
    writeRemoteFile(dav, 'suikouji/foreign/旧.json', '{"tampered":true}');
    expect(await client.getFileContents('/suikouji/foreign/旧.json', { format: 'text' })).toBe('{"tampered":true}');
    expect(await client.putFileContents('/suikouji/foreign/旧.json', 'replaced')).toBe(true);
    await client.moveFile('/suikouji/foreign/旧.json', '/suikouji/foreign/new.json');
    expect(text(listRemoteFiles(dav))).toEqual({ 'suikouji/foreign/new.json': 'replaced' });
    await client.deleteFile('/suikouji/foreign');
    expect(listRemoteFiles(dav)).toEqual([]);
    expect(() => writeRemoteFile(dav, '../escape', 'x')).toThrow(/outside/);
  });

  describe('through the fault proxy', () => {
    let proxy: FaultProxy;
    let viaProxy: WebDAVClient;
    beforeAll(async () => {
      proxy = await startFaultProxy(dav.url);
      viaProxy = createClient(proxy.url, { username: dav.user, password: dav.password });
    });
    afterAll(async () => {
      await proxy?.stop();
    });

    it('passes everything else through unchanged: auth, conditional PUT, a 1 MB body both ways, MOVE (Destination rewritten)', async () => {
      const big = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
      expect(await viaProxy.putFileContents('/suikouji/big.bin', big)).toBe(true);
      expect(await viaProxy.putFileContents('/suikouji/big.bin', 'x', { overwrite: false })).toBe(false);
      expect(Buffer.from((await viaProxy.getFileContents('/suikouji/big.bin')) as ArrayBuffer).equals(big)).toBe(true);
      await viaProxy.moveFile('/suikouji/big.bin', '/suikouji/moved.bin');
      expect(listRemoteFiles(dav).map((f) => f.path)).toEqual(['suikouji/moved.bin']);
      expect(((await viaProxy.getDirectoryContents('/suikouji')) as FileStat[]).map((f) => f.filename)).toEqual(['/suikouji/moved.bin']);
      await viaProxy.deleteFile('/suikouji/moved.bin');
      expect((await failure(createClient(proxy.url, { username: 'alice', password: 'bad' }).stat('/suikouji'))).status).toBe(401);
      // The server saw the proxy's requests with the proxy's Destination rewritten to its own origin.
      await dav.waitForRequest((r) => r.method === 'MOVE' && r.path === '/suikouji/big.bin');
      expect(dav.requests().find((r) => r.method === 'MOVE' && r.path === '/suikouji/big.bin')?.destination).toBe(`${dav.origin}/suikouji/moved.bin`);
      expect(proxy.requests().map((r) => r.method)).toEqual(['PUT', 'PUT', 'GET', 'MOVE', 'PROPFIND', 'DELETE', 'PROPFIND']);
    });

    it('error statuses reach the client as WebDAVClientError.status; 429 keeps its Retry-After', async () => {
      for (const status of [500, 503, 507, 401]) {
        proxy.inject({ method: 'PUT', action: { kind: 'status', status } });
        expect((await failure(viaProxy.putFileContents('/suikouji/s.json', 'x'))).status).toBe(status);
      }
      proxy.inject({ action: { kind: 'status', status: 429, headers: { 'Retry-After': '2' } } });
      const err = await failure(viaProxy.getDirectoryContents('/suikouji'));
      expect(err.status).toBe(429);
      expect(err.response?.headers.get('retry-after')).toBe('2');
      // One-shot faults are used up: the next PUT goes through.
      expect(await viaProxy.putFileContents('/suikouji/s.json', 'x')).toBe(true);
      expect(listRemoteFiles(dav).map((f) => f.path)).toEqual(['suikouji/s.json']);
      await viaProxy.deleteFile('/suikouji/s.json');
    });

    it('faults match by method and path; a persistent one lasts until removed', async () => {
      const fault = proxy.inject({ method: 'GET', path: /\.lock$/, times: Infinity, action: { kind: 'status', status: 503 } });
      await viaProxy.putFileContents('/suikouji/a.lock', 'l');
      await viaProxy.putFileContents('/suikouji/a.json', 'j');
      expect(await viaProxy.getFileContents('/suikouji/a.json', { format: 'text' })).toBe('j');
      for (let i = 0; i < 3; i++) expect((await failure(viaProxy.getFileContents('/suikouji/a.lock'))).status).toBe(503);
      expect(fault.hits).toBe(3);
      fault.remove();
      expect(await viaProxy.getFileContents('/suikouji/a.lock', { format: 'text' })).toBe('l');
      expect(proxy.requests().filter((r) => r.fault === 'status' && r.path === '/suikouji/a.lock')).toHaveLength(3);
      await viaProxy.deleteFile('/suikouji/a.lock');
      await viaProxy.deleteFile('/suikouji/a.json');
    });

    it('a hang: the client has no timeout of its own — only its signal ends the call', async () => {
      proxy.inject({ method: 'PROPFIND', action: { kind: 'hang' } });
      const started = Date.now();
      const err = await failure(viaProxy.getDirectoryContents('/suikouji', { signal: AbortSignal.timeout(300) }));
      expect(err.name).toBe('AbortError');
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('a reset: the client rejects with a FetchError, code ECONNRESET, and no status', async () => {
      proxy.inject({ method: 'GET', action: { kind: 'reset' } });
      const err = await failure(viaProxy.getFileContents('/suikouji/x'));
      expect(err.status).toBeUndefined();
      expect(err.name).toBe('FetchError');
      expect(err.code).toBe('ECONNRESET');
    });

    it('forward: the PUT lands on the server, yet the client sees the reset', async () => {
      proxy.inject({ method: 'PUT', forward: true, action: { kind: 'reset' } });
      const err = await failure(viaProxy.putFileContents('/suikouji/landed.json', '{"ok":1}'));
      expect(err.code).toBe('ECONNRESET');
      expect(text(listRemoteFiles(dav))).toEqual({ 'suikouji/landed.json': '{"ok":1}' });
      await viaProxy.deleteFile('/suikouji/landed.json');
    });

    it('a truncated body (Content-Length larger than sent, then the socket closes) rejects the download', async () => {
      writeRemoteFile(dav, 'suikouji/t.json', JSON.stringify({ rows: 'x'.repeat(10_000) }));
      proxy.inject({ method: 'GET', forward: true, action: { kind: 'truncate' } });
      const err = await failure(viaProxy.getFileContents('/suikouji/t.json', { format: 'text' }));
      expect(err.status).toBeUndefined();
      expect(err.name).toBe('FetchError');
      expect(err.code).toBe('ECONNRESET');
      expect(err.message).toMatch(/^Invalid response body while trying to fetch .*: aborted$/);
      // Without `forward` it makes up a body of its own; the same error.
      proxy.inject({ method: 'GET', action: { kind: 'truncate', sendBytes: 10 } });
      expect((await failure(viaProxy.getFileContents('/suikouji/t.json'))).code).toBe('ECONNRESET');
      await viaProxy.deleteFile('/suikouji/t.json');
    });

    it('an endless body: the client keeps reading until its signal aborts (it has no size limit)', async () => {
      proxy.inject({ method: 'GET', action: { kind: 'endless' } });
      const started = Date.now();
      const err = await failure(viaProxy.getFileContents('/suikouji/endless', { signal: AbortSignal.timeout(400) }));
      expect(err.name).toBe('AbortError');
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('a 207 PROPFIND whose body is not XML', async () => {
      proxy.inject({ method: 'PROPFIND', action: { kind: 'nonXml' } });
      const err = await failure(viaProxy.getDirectoryContents('/suikouji'));
      expect(err.status).toBeUndefined();
      // Not a parse error: the XML parser accepts the text and finds no <multistatus> in it.
      expect(err.message).toBe('Invalid response: No root multistatus found');
      // An HTML page (a captive portal) parses as "XML" but has no multistatus either.
      proxy.inject({ method: 'PROPFIND', action: { kind: 'nonXml', body: '<html><body>Log in</body></html>', contentType: 'text/html' } });
      expect((await failure(viaProxy.stat('/suikouji'))).message).toBe('Invalid response: No root multistatus found');
    });

    describe('a 302 to another host', () => {
      let other: Server;
      let otherPort: number;
      const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
      beforeAll(async () => {
        // The "other host": answers every request with 200 and a body of its own.
        other = createServer((req, res) => {
          seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
          req.resume();
          req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('from the other host'));
        });
        await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
        otherPort = (other.address() as AddressInfo).port;
      });
      afterAll(async () => {
        await new Promise((r) => other?.close(r));
      });

      it('the client FOLLOWS it, and its answer becomes the answer; same hostname, other port: Authorization goes along', async () => {
        proxy.inject({ method: 'GET', action: { kind: 'redirect', location: `http://127.0.0.1:${otherPort}/elsewhere` } });
        expect(await viaProxy.getFileContents('/suikouji/ledger.json', { format: 'text' })).toBe('from the other host');
        expect(seen.at(-1)?.url).toBe('/elsewhere');
        // node-fetch compares hostnames only, not ports: the password is sent to the other port.
        expect(seen.at(-1)?.headers.authorization).toMatch(/^Basic /);
      });

      it('another hostname: followed too, without the Authorization header', async () => {
        proxy.inject({ method: 'GET', action: { kind: 'redirect', location: `http://localhost:${otherPort}/elsewhere2` } });
        expect(await viaProxy.getFileContents('/suikouji/ledger.json', { format: 'text' })).toBe('from the other host');
        expect(seen.at(-1)?.url).toBe('/elsewhere2');
        expect(seen.at(-1)?.headers.authorization).toBeUndefined();
      });

      it('a PUT with a Buffer body is re-sent as a PUT with its body: the data goes to the other host', async () => {
        const before = listRemoteFiles(dav);
        proxy.inject({ method: 'PUT', action: { kind: 'redirect', location: `http://127.0.0.1:${otherPort}/put-here` } });
        expect(await viaProxy.putFileContents('/suikouji/secret.json', Buffer.from('{"secret":1}'))).toBe(true);
        expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/put-here' });
        expect(seen.at(-1)?.headers['content-length']).toBe('12');
        expect(listRemoteFiles(dav)).toEqual(before); // nothing reached the real server
      });
    });

    it('a delay holds the request, then passes it through', async () => {
      proxy.inject({ method: 'PROPFIND', action: { kind: 'delay', ms: 300 } });
      const started = Date.now();
      await viaProxy.getDirectoryContents('/suikouji');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    });
  });

  it('stop() ends Apache and removes its folder; a second stop is harmless', async () => {
    const extra = await startWebDav({ user: 'bob', password: 'pw' });
    const c = createClient(extra.url, { username: 'bob', password: 'pw' });
    await c.putFileContents('/x', 'y');
    expect(text(listRemoteFiles(extra))).toEqual({ x: 'y' });
    await extra.stop();
    await extra.stop();
    expect(() => process.kill(extra.pid, 0)).toThrow();
    await expect(fetch(extra.url)).rejects.toThrow();
  });
});

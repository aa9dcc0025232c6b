// Downloads over real TLS: loopback node:https servers with self-signed certificates made at
// test time by the openssl CLI (nothing of them in the repo), beside a plain node:http server.
// The downloader trusts a test certificate only through the manager's `dispatcher` option (an
// undici Agent with that CA); verification stays on, so a certificate it was not given fails.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent } from '@shared/ipc/models';
import type { CatalogEntry, ModelSource } from './catalog';
import { downloadToFile, type DownloadDispatcher } from './download';
import { ModelError } from './errors';
import { listFiles } from './folder-files';
import { createModelManager, type ModelManagerOptions } from './manager';
import { READY_MARKER } from './ready-marker';
import type { ModelManager } from './types';
import {
  archiveSource,
  buildModelArchive,
  hasOpenssl,
  removeTempDirs,
  selfSignedCertificate,
  SHARED_MODEL,
  sha256,
  startArchiveServer,
  tempDir,
  testEntry,
  type ArchiveServer,
  type TestCertificate,
} from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);
afterAll(removeTempDirs);

const A = 'test-model-a';
const B = 'test-model-b';
const OPENSSL = hasOpenssl();

function installedSame(dir: string): boolean {
  const left = listFiles(dir).filter((f) => f.path !== READY_MARKER);
  const right = listFiles(SHARED_MODEL);
  return (
    JSON.stringify(left.map((f) => f.path)) === JSON.stringify(right.map((f) => f.path)) &&
    left.every((f) => readFileSync(join(dir, f.path)).equals(readFileSync(join(SHARED_MODEL, f.path))))
  );
}

describe.skipIf(!OPENSSL)('the downloader over https with a certificate it was not given (skipped without the openssl CLI)', () => {
  let untrusted: ArchiveServer;
  beforeAll(async () => {
    untrusted = await startArchiveServer({ tls: selfSignedCertificate() });
  });
  afterAll(() => untrusted.close());

  it('no CA passed: the self-signed server is refused at the handshake, once (not retried) → certificate 「下载源（https://…）的证书无效，已停止下载」', async () => {
    untrusted.serve('/m.tar.bz2', { body: Buffer.from('never read') });
    let connections = 0;
    const counting: typeof fetch = (input, init) => {
      connections++;
      return fetch(input, init);
    };
    const logged: string[] = [];
    const err = await rejection(
      downloadToFile({
        url: `${untrusted.base}/m.tar.bz2`,
        partPath: join(tempDir('untrusted'), 'x.part'),
        signal: new AbortController().signal,
        onProgress: () => {},
        fetch: counting,
        retryDelayMs: () => 5,
        log: (message) => logged.push(message),
      }),
    );
    expect(err.code).toBe('certificate');
    expect(err.message).toBe(`下载源（${untrusted.base}）的证书无效，已停止下载`);
    expect(connections).toBe(1);
    expect(untrusted.requests).toEqual([]);
    expect(logged.join('\n')).toMatch(/certificate of 127\.0\.0\.1:\d+ refused: [A-Z_]+/);
  });
});

describe.skipIf(!OPENSSL || !existsSync(SHARED_MODEL))(
  'installing over https (real TLS, self-signed; skipped without the openssl CLI or ../shared/models)',
  () => {
    let good: Buffer;
    let trusted: TestCertificate;
    let secure: ArchiveServer;
    let stranger: ArchiveServer;
    let plain: ArchiveServer;
    let agent: Agent;
    let dispatcher: DownloadDispatcher;
    const managers: ModelManager[] = [];

    beforeAll(async () => {
      good = buildModelArchive(A);
      trusted = selfSignedCertificate();
      secure = await startArchiveServer({ tls: trusted });
      // Same name (127.0.0.1), its own key: only the agent's CA tells the two apart.
      stranger = await startArchiveServer({ tls: selfSignedCertificate() });
      plain = await startArchiveServer();
      agent = new Agent({ connect: { ca: trusted.cert } });
      // npm's undici and the one inside Node declare Dispatcher separately; the object is the same kind.
      dispatcher = agent as unknown as DownloadDispatcher;
    });
    afterAll(async () => {
      await Promise.all(managers.map((m) => m.dispose()));
      await Promise.all([secure.close(), stranger.close(), plain.close()]);
      await agent.close();
    });

    const pinned = (id: 'github' | 'huggingface', server: ArchiveServer, path: string, hosts?: string[]): ModelSource =>
      archiveSource(id, `${server.base}${path}`, good.length, sha256(good), hosts);
    function manager(dir: string, catalog: CatalogEntry[], extra: Partial<ModelManagerOptions> = {}): ModelManager {
      const m = createModelManager({ modelsDir: dir, catalog, retryDelayMs: () => 5, downloadAttempts: 2, dispatcher, ...extra });
      managers.push(m);
      return m;
    }

    describe('a model installed over https, then a source that redirects down to http', () => {
      let dir: string;
      beforeAll(() => {
        dir = tempDir('https');
      });

      it('(a) the pinned archive over https downloads, matches its SHA-256, installs and becomes active', async () => {
        secure.serve(`/${A}.tar.bz2`, { body: good });
        const m = manager(dir, [testEntry(A, '', good.length, { sources: [pinned('github', secure, `/${A}.tar.bz2`)] })]);
        await m.download(A);
        expect(m.activeModelDir()).toBe(join(dir, A));
        expect(installedSame(join(dir, A))).toBe(true);
        expect(secure.requests.map((r) => r.path)).toContain(`/${A}.tar.bz2`);
        expect(secure.tlsFailures).toEqual([]);
        // Verified and installed: no partial download is left.
        expect(listFiles(join(dir, '.partial'))).toEqual([]);
      });

      it('(b) the https server answers 302 to the http server, same path → redirect_refused; http never asked, nothing installed, the model in use kept', async () => {
        const path = `/${B}.tar.bz2`;
        plain.serve(path, { body: good });
        secure.serve(path, { body: Buffer.alloc(0), redirectTo: `${plain.base}${path}` });
        // Both hosts are the source's own: the scheme alone is what refuses the hop.
        const source = pinned('github', secure, path, [new URL(secure.base).host, new URL(plain.base).host]);
        const m = manager(dir, [
          testEntry(A, '', good.length, { sources: [pinned('github', secure, `/${A}.tar.bz2`)] }),
          { ...testEntry(B, '', good.length, { sources: [source] }), folder: A },
        ]);
        const asked = secure.requests.length;

        const err = await rejection(m.download(B));

        expect(err.code).toBe('redirect_refused');
        // The scheme is named with the host: here it is what makes the address untrusted.
        expect(err.message).toBe(`下载地址跳转到了不受信任的地址（${plain.base}），已拒绝。之前使用的模型保持不变。`);
        expect(secure.requests.slice(asked).map((r) => r.path)).toEqual([path]);
        expect(plain.requests).toEqual([]);
        expect(existsSync(join(dir, B))).toBe(false);
        expect(m.list().models.find((model) => model.id === B)?.state).toBe('failed');
        expect(m.activeModelDir()).toBe(join(dir, A));
        expect(installedSame(join(dir, A))).toBe(true);
      });
    });

    it('(c) a source whose certificate the agent does not trust fails with 「下载源（https://…）的证书无效，已停止下载」 and the next source installs', async () => {
      stranger.serve(`/${A}.tar.bz2`, { body: good });
      secure.serve(`/mirror/${A}.tar.bz2`, { body: good });
      const dir = tempDir('stranger');
      const m = manager(
        dir,
        [
          testEntry(A, '', good.length, {
            sources: [pinned('github', stranger, `/${A}.tar.bz2`), pinned('huggingface', secure, `/mirror/${A}.tar.bz2`)],
          }),
        ],
        // The default number of attempts: a certificate failure is not one of them to repeat.
        { downloadAttempts: undefined },
      );
      const events: ModelEvent[] = [];
      m.onEvent((e) => events.push(e));

      await m.download(A);

      const switches = events.filter((e) => e.type === 'source');
      expect(switches.map((e) => e.source)).toEqual(['github', 'huggingface']);
      expect(switches[1]!.reason).toBe(`下载源（${stranger.base}）的证书无效，已停止下载`);
      expect(stranger.requests).toEqual([]);
      expect(m.activeModelDir()).toBe(join(dir, A));
      expect(installedSame(join(dir, A))).toBe(true);
    });
  },
);

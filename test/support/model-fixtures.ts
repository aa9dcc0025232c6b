// Helpers for the speech model tests (src/main/core/models): a loopback server for archives and
// archives built from the shared test model.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { ArchiveSource, CatalogEntry, ModelSource } from '../../src/main/core/models/catalog';
import type { ModelSourceId } from '../../src/shared/ipc/models';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** An archive source on loopback; its host is the only one it may be redirected to unless `hosts`. */
export function archiveSource(id: ModelSourceId, url: string, bytes: number, pin: string | null, hosts?: string[]): ArchiveSource {
  return { id, kind: 'archive', url, bytes, sha256: pin, confirmed: true, origin: 'test', hosts: hosts ?? [new URL(url).host] };
}

/** The real 3.3M-parameter streaming transducer, read in place (never copied into the repo). */
export const SHARED_MODEL = fileURLToPath(new URL('../../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M', import.meta.url));
export const SHARED_MODEL_FILES = [
  'encoder-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
  'decoder-epoch-12-avg-2-chunk-16-left-64.onnx',
  'joiner-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
  'tokens.txt',
];

const made: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `suikouji-models-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made (each test file calls it in afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A `.tar.bz2` of the shared model under `folder`, built with the system tar + bzip2 in a
 * temporary folder; `change` may edit the copy first (delete tokens.txt, break the encoder).
 */
export function buildModelArchive(folder: string, change?: (modelDir: string) => void): Buffer {
  const work = tempDir('archive');
  const modelDir = join(work, folder);
  cpSync(SHARED_MODEL, modelDir, { recursive: true });
  change?.(modelDir);
  const archive = join(work, `${folder}.tar.bz2`);
  execFileSync('tar', ['-C', work, '-cjf', archive, folder]);
  return readFileSync(archive);
}

/**
 * A catalog entry for the shared model served from loopback. `url` alone makes one GitHub
 * style archive source (unpinned unless `sha256`); `sources` replaces that list.
 */
export function testEntry(id: string, url: string, archiveBytes: number, more: { sha256?: string; sources?: ModelSource[] } = {}): CatalogEntry {
  return {
    id,
    name: '测试模型',
    description: '共享的 3.3M 测试模型',
    sources: more.sources ?? [archiveSource('github', url, archiveBytes, more.sha256 ?? null)],
    archiveBytes,
    folder: id,
    requiredFiles: SHARED_MODEL_FILES,
    testWav: 'test_wavs/4.wav',
    recommended: true,
  };
}

export interface Served {
  body: Buffer;
  status?: number;
  /** Sends this many bytes of the first response, then destroys the socket. */
  cutAfter?: number;
  /** Answers every request with the whole file (200), as a server without Range support. */
  ignoreRange?: boolean;
  /** Sends the body in 16 KiB pieces this far apart, so a test can act mid-download. */
  pieceDelayMs?: number;
  /** Sends this many bytes of the first response, then nothing more, the socket left open. */
  stallAfter?: number;
  /** Answers 302 with this Location. */
  redirectTo?: string;
  /** Sends zeros for ever (no Content-Length), as fast as the client reads. */
  endless?: boolean;
}

export interface ArchiveServer {
  base: string;
  /** Each request: path and Range header. */
  requests: { path: string; range: string | undefined }[];
  /** TLS handshakes the client broke off (an https server whose certificate it refused). */
  tlsFailures: Error[];
  serve(path: string, file: Served): void;
  close(): Promise<void>;
}

/** A key and self-signed certificate for 127.0.0.1 (PEM), made for one test run. */
export interface TestCertificate {
  key: Buffer;
  cert: Buffer;
}

/** True when the `openssl` CLI is there to make test certificates. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A fresh P-256 key and a one-day self-signed certificate for IP 127.0.0.1, made by the
 * `openssl` CLI in a temporary folder (removed with the others): no key material in the repo.
 */
export function selfSignedCertificate(): TestCertificate {
  const dir = tempDir('tls');
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/**
 * Timers a test fires by hand (the downloader's `timers` option): nothing runs until `fire`,
 * so a stall limit of 30 s passes without a real second going by.
 */
export interface ManualTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** The delays of the timers armed and neither fired nor cleared. */
  pending(): number[];
  /** Runs (once) every pending timer armed with `ms`; returns how many ran. */
  fire(ms: number): number;
}

export function manualTimers(): ManualTimers {
  const armed = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  return {
    setTimeout: (callback, ms) => {
      armed.set(next, { callback, ms });
      return next++;
    },
    clearTimeout: (handle) => {
      armed.delete(handle as number);
    },
    pending: () => [...armed.values()].map((t) => t.ms),
    fire: (ms) => {
      const due = [...armed].filter(([, t]) => t.ms === ms);
      for (const [handle] of due) armed.delete(handle);
      for (const [, t] of due) t.callback();
      return due.length;
    },
  };
}

/** A loopback archive server: plain http, or https with `tls` (its certificate, e.g. self-signed). */
export async function startArchiveServer(options: { tls?: TestCertificate } = {}): Promise<ArchiveServer> {
  const files = new Map<string, Served & { cuts: number }>();
  const requests: ArchiveServer['requests'] = [];
  const tlsFailures: Error[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push({ path, range: req.headers.range });
    const file = files.get(path);
    if (!file || file.status === 404) {
      res.writeHead(404).end('not found');
      return;
    }
    if (file.status && file.status !== 200) {
      res.writeHead(file.status).end('error');
      return;
    }
    if (file.redirectTo) {
      res.writeHead(302, { Location: file.redirectTo }).end();
      return;
    }
    if (file.endless) {
      res.writeHead(200, { 'Content-Type': 'application/x-bzip2' });
      const zeros = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(zeros));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range && !file.ignoreRange ? Number(range[1]) : 0;
    const total = file.body.length;
    if (start > 0 && start >= total) {
      res.writeHead(416, { 'Content-Range': `bytes */${total}` }).end();
      return;
    }
    const headers = { 'Content-Length': String(total - start), 'Content-Type': 'application/x-bzip2' };
    if (start > 0) res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${total - 1}/${total}` });
    else res.writeHead(200, headers);
    const body = file.body.subarray(start);
    if (file.stallAfter !== undefined && file.cuts === 0) {
      file.cuts++;
      res.write(body.subarray(0, file.stallAfter));
      return;
    }
    if (file.cutAfter !== undefined && file.cuts === 0) {
      file.cuts++;
      res.write(body.subarray(0, file.cutAfter), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    if (!file.pieceDelayMs) {
      res.end(body);
      return;
    }
    let at = 0;
    const next = () => {
      if (res.destroyed) return;
      const piece = body.subarray(at, at + 16 * 1024);
      at += piece.length;
      if (at >= body.length) res.end(piece);
      else res.write(piece, () => setTimeout(next, file.pieceDelayMs));
    };
    next();
  };
  const server: Server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createServer(handler);
  server.on('tlsClientError', (err: Error) => tlsFailures.push(err));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    base: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    tlsFailures,
    serve: (path, file) => files.set(path, { ...file, cuts: 0 }),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

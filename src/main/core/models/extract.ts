import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '@shared/errors';
import { resolveForWorker } from '../worker-require';
import { isDiskFull, MESSAGES, ModelError } from './errors';
import { PLAIN_DIR_MODE, PLAIN_EXEC_MODE, PLAIN_FILE_MODE, plainModes } from './folder-files';
import { RESERVED_NAME } from './reserved-names';

/** Entry types a model archive may hold: regular files and folders, nothing else. */
const ALLOWED_TYPES = ['File', 'OldFile', 'ContiguousFile', 'Directory'];

/** A model folder holds a few dozen files; the largest published archive unpacks to < 1 GB. */
export const DEFAULT_CAPS = { maxEntries: 2000, maxBytes: 2 * 1024 ** 3 } as const;

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Entries (files and folders) the archive may hold. */
  maxEntries?: number;
  /** Bytes the archive's files may add up to. */
  maxBytes?: number;
  /**
   * The bzip2 decoder: 'system' spawns the system's `bzip2 -dc` (found on PATH), 'js' the
   * bounded JavaScript decoder, 'auto' (default) the system's when present. Both are fed and
   * drained with backpressure, so memory stays bounded whatever the archive expands to.
   */
  decoder?: 'auto' | 'system' | 'js';
}

/**
 * Unpacks a `.tar.bz2` into `dest` (created). Only regular files and folders with relative
 * paths inside `dest` are written: a symlink, hardlink, device or FIFO, an absolute path, a
 * `..` component or a name the installer reserves (reserved-names.ts) refuses the whole archive
 * ('unsafe_archive'), as do more entries or bytes than the caps. What is written gets plain
 * modes (files 0644, or 0755 when the archive marks them executable; folders 0755) and belongs
 * to this process's user, whatever the archive's modes and owners say. Damage ends as
 * 'corrupt_archive', ENOSPC as 'disk_full'. The caller removes `dest` on failure.
 *
 * Decoding runs in a worker thread (bzip2 in JavaScript holds a thread ~250 ms per block),
 * with tar and unbzip2-stream's block decoder required from outside the asar.
 */
export async function extractTarBz2(archive: string, dest: string, options: ExtractOptions = {}): Promise<void> {
  mkdirSync(dest, { recursive: true });
  const decoder = options.decoder ?? 'auto';
  const bzip2 = decoder === 'js' ? null : findSystemBzip2();
  if (decoder === 'system' && !bzip2) throw new ModelError('io_error', MESSAGES.ioError('找不到系统的 bzip2'));
  const unbzip2Dir = dirname(resolveForWorker('unbzip2-stream'));
  await extractInWorker(
    {
      archive,
      dest,
      tar: resolveForWorker('tar'),
      bz2Lib: join(unbzip2Dir, 'lib', 'bzip2.js'),
      bitIterator: join(unbzip2Dir, 'lib', 'bit_iterator.js'),
      bzip2,
      allowedTypes: ALLOWED_TYPES,
      reservedName: RESERVED_NAME.source,
      modes: { file: PLAIN_FILE_MODE, exec: PLAIN_EXEC_MODE, dir: PLAIN_DIR_MODE },
      maxEntries: options.maxEntries ?? DEFAULT_CAPS.maxEntries,
      maxBytes: options.maxBytes ?? DEFAULT_CAPS.maxBytes,
    },
    options.signal,
  );
  try {
    plainModes(dest);
  } catch (err) {
    throw new ModelError('io_error', MESSAGES.ioError(errorMessage(err)), { cause: err });
  }
}

/** The system's bzip2 on PATH (Linux and macOS ship it; Windows usually does not). */
export function findSystemBzip2(): string | null {
  const names = process.platform === 'win32' ? ['bzip2.exe'] : ['bzip2'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

interface WorkerInput {
  archive: string;
  dest: string;
  tar: string;
  bz2Lib: string;
  bitIterator: string;
  bzip2: string | null;
  allowedTypes: string[];
  /** RESERVED_NAME's source (the worker builds the same pattern, case-insensitive). */
  reservedName: string;
  modes: { file: number; exec: number; dir: number };
  maxEntries: number;
  maxBytes: number;
}

type WorkerReply = { type: 'done' } | { type: 'failed'; message: string; code: string | null; unsafe: string | null };

// Plain CommonJS evaluated in the worker. `unsafe` carries the Chinese reason shown to the user.
const EXTRACT_WORKER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const { createReadStream } = require('node:fs');
const { spawn } = require('node:child_process');
const { Transform } = require('node:stream');
const tar = require(w.tar);
const allowed = new Set(w.allowedTypes);
const reserved = new RegExp(w.reservedName, 'i');
let settled = false;
const closers = [];
const fail = (err, unsafe) => {
  if (settled) return;
  settled = true;
  for (const close of closers) { try { close(); } catch {} }
  parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err), code: (err && typeof err.code === 'string' && err.code) || null, unsafe: unsafe || null });
};
const refuse = (reason) => fail(new Error(reason), reason);

// unbzip2-stream's own stream decodes every block it has input for, without waiting for the
// reader (a 1.7 KB bomb became gigabytes in memory). This decoder takes one block at a time and
// waits for the reader between blocks; one block expands to at most ~46 MB.
class Bz2Decoder extends Transform {
  constructor() {
    super({ readableHighWaterMark: 1 << 20 });
    this.bz2 = require(w.bz2Lib);
    this.queue = [];
    this.has = 0;
    this.reader = null;
    this.blockSize = 0;
    this.crc = null;
    this.waiting = null;
  }
  _transform(chunk, _enc, done) {
    this.queue.push(chunk);
    this.has += chunk.length;
    if (!this.reader) this.reader = require(w.bitIterator)(() => this.queue.shift());
    this.pump(false, done);
  }
  _flush(done) {
    if (!this.reader) return done(new Error('empty bzip2 stream'));
    this.pump(true, (err) => {
      if (err) return done(err);
      if (this.crc !== null) return done(new Error('bzip2 stream ended prematurely'));
      done();
    });
  }
  _read(size) {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) process.nextTick(waiting);
    super._read(size);
  }
  pump(final, done) {
    try {
      for (;;) {
        const left = this.has - this.reader.bytesRead;
        const enough = final ? left > 0 : left + 1 >= (25000 + 100000 * this.blockSize || 4);
        if (!enough) return done();
        this.block();
        if (this.readableLength >= this.readableHighWaterMark) {
          this.waiting = () => this.pump(final, done);
          return;
        }
      }
    } catch (err) {
      done(err);
    }
  }
  block() {
    if (!this.blockSize) {
      this.blockSize = this.bz2.header(this.reader);
      this.crc = 0;
      return;
    }
    const size = 100000 * this.blockSize;
    let out = Buffer.allocUnsafe(65536);
    let at = 0;
    const emit = (b) => {
      out[at++] = b;
      if (at === out.length) {
        this.push(out);
        out = Buffer.allocUnsafe(65536);
        at = 0;
      }
    };
    this.crc = this.bz2.decompress(this.reader, emit, new Int32Array(size), size, this.crc);
    if (at > 0) this.push(out.subarray(0, at));
    if (this.crc === null) this.blockSize = 0;
  }
}

// The decompressed bytes may not exceed the files' cap plus tar's headers and padding. The
// bytes go to tar by hand: once tar has read its end-of-archive blocks it stops draining, and
// whatever follows (a bomb's gigabytes of zeros) is counted and dropped here until the cap.
let decoded = 0;
let tarEnded = false;
const decodedCap = w.maxBytes + (w.maxEntries + 2) * 1024 + 10240;
const counter = new Transform({
  transform(chunk, _enc, done) {
    decoded += chunk.length;
    if (decoded > decodedCap) return refuse('解压后超过 ' + Math.round(w.maxBytes / 1048576) + ' MB');
    if (tarEnded || unpack.write(chunk) || tarEnded) return done();
    unpack.once('drain', () => done());
  },
  flush(done) {
    unpack.end();
    done();
  },
});

let source;
if (w.bzip2) {
  const child = spawn(w.bzip2, ['-dc', w.archive], { stdio: ['ignore', 'pipe', 'pipe'] });
  closers.push(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d) => { if (stderr.length < 2000) stderr += d; });
  child.on('error', fail);
  child.on('close', (code) => { if (code !== 0 && code !== null) fail(new Error('bzip2 exited ' + code + ': ' + stderr.trim())); });
  source = child.stdout;
} else {
  const input = createReadStream(w.archive);
  closers.push(() => input.destroy());
  input.on('error', fail);
  const decoder = new Bz2Decoder();
  closers.push(() => decoder.destroy());
  decoder.on('error', fail);
  source = input.pipe(decoder);
}

let entries = 0;
let bytes = 0;
const unpack = tar.x({
  cwd: w.dest,
  strict: true,
  // tar keeps the archive's owners by default when running as root: never.
  preserveOwner: false,
  // Folders tar makes on its own (a file's parent the archive does not list).
  dmode: w.modes.dir,
  fmode: w.modes.file,
  filter: (_path, entry) => {
    if (settled) return false;
    const raw = String(entry.header && entry.header.path || entry.path);
    const path = String(entry.path);
    // Paths before types, so that a link or a device with a reserved name is refused by that name.
    for (const p of [raw, path]) {
      if (/^([\\\\/]|[a-zA-Z]:)/.test(p)) { refuse('绝对路径：' + p); return false; }
      const parts = p.split(/[\\\\/]/);
      if (parts.includes('..')) { refuse('指向上级目录的路径：' + p); return false; }
      if (parts.some((part) => reserved.test(part))) { refuse('安装程序自用的名称：' + p); return false; }
    }
    if (!allowed.has(entry.type)) {
      const kind = /Link/.test(entry.type) ? '链接' : /Device|FIFO/.test(entry.type) ? '设备文件' : '特殊文件';
      refuse(kind + '：' + path);
      return false;
    }
    if (++entries > w.maxEntries) { refuse('文件数超过 ' + w.maxEntries); return false; }
    bytes += Number(entry.size) || 0;
    if (bytes > w.maxBytes) { refuse('解压后超过 ' + Math.round(w.maxBytes / 1048576) + ' MB'); return false; }
    // Created with a plain mode, so no setuid, setgid, sticky or world-writable bit is on disk
    // even before the pass that makes the modes exact once tar is done.
    entry.mode = entry.type === 'Directory' ? w.modes.dir : (Number(entry.mode) & 0o111) ? w.modes.exec : w.modes.file;
    return true;
  },
});
unpack.on('eof', () => {
  tarEnded = true;
  unpack.emit('drain');
});
closers.push(() => counter.destroy());
closers.push(() => unpack.destroy && unpack.destroy());
counter.on('error', fail);
unpack.on('error', fail);
unpack.on('close', () => {
  if (settled) return;
  settled = true;
  parentPort.postMessage({ type: 'done' });
});
source.on('error', fail);
source.pipe(counter).resume();
`;

function extractInWorker(workerData: WorkerInput, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('cancelled', MESSAGES.cancelled, { cause: signal.reason }));
    const worker = new Worker(EXTRACT_WORKER, { eval: true, workerData });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(new ModelError('cancelled', MESSAGES.cancelled, { cause: signal?.reason })));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'done') settle(() => resolve());
      else if (reply.unsafe) settle(() => reject(new ModelError('unsafe_archive', MESSAGES.unsafeArchive(reply.unsafe!))));
      else settle(() => reject(archiveError(Object.assign(new Error(reply.message), { code: reply.code }))));
    });
    worker.on('error', (err) => settle(() => reject(archiveError(err))));
    worker.on('exit', () => settle(() => reject(archiveError(new Error('extraction worker exited')))));
  });
}

function archiveError(err: unknown): ModelError {
  return isDiskFull(err)
    ? new ModelError('disk_full', MESSAGES.diskFull, { cause: err })
    : new ModelError('corrupt_archive', MESSAGES.corruptArchive, { cause: err });
}

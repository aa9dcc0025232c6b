import { mkdirSync, statSync, unlinkSync } from 'node:fs';
import type { Dispatcher } from 'undici-types';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ModelProgress } from '@shared/ipc/models';
import { errorMessage } from '@shared/errors';
import { isDiskFull, MESSAGES, ModelError } from './errors';
import { ProgressMeter } from './progress-meter';

/** The timers the stall watchdog and the wait between attempts use; the globals by default. */
export interface DownloadTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const GLOBAL_TIMERS: DownloadTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};

/** What fetch connects through (undici's `dispatcher`); absent means Node's global one. */
export type DownloadDispatcher = Dispatcher;

export interface DownloadOptions {
  url: string;
  /** Where the bytes land; an existing file is resumed with a Range request. */
  partPath: string;
  signal: AbortSignal;
  /** The catalog's size, used when the server sends no length. */
  expectedBytes?: number;
  onProgress: (progress: ModelProgress) => void;
  /** Consecutive failed attempts (without a byte of progress) before giving up. Default 5. */
  attempts?: number;
  /** Wait before attempt n+1 (n from 1). Default 0.5 s doubling, at most 8 s. */
  retryDelayMs?: (failedAttempts: number) => number;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (message: string, err?: unknown) => void;
  /**
   * Hosts (`host[:port]` as in a URL) this download may start at or be redirected to; absent
   * means any host of the first URL only. A redirect elsewhere, or from https to http, fails.
   */
  allowedHosts?: readonly string[];
  /** The most bytes the file may have; more (announced or received) fails as 'too_large'. */
  maxBytes?: number;
  /** No byte (or no answer) for this long fails the attempt as 'stalled'. Default 30 s. */
  stallMs?: number;
  /** Timers for the stall watchdog and the retry wait (a test's fake clock); the globals by default. */
  timers?: DownloadTimers;
  /**
   * Passed to fetch as its dispatcher: a test's agent that trusts its own certificate authority.
   * Production passes none, so downloads keep the system's trust store and full verification.
   */
  dispatcher?: DownloadDispatcher;
}

/** Redirects followed before giving up (GitHub uses one, Hugging Face one or two). */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Why following a redirect from `from` to `to` is refused, or null when it is allowed: only
 * http(s), never from https down to http, and only to a host the catalog names for the source.
 */
export function redirectRefusal(from: URL, to: URL, allowedHosts: readonly string[]): string | null {
  if (to.protocol !== 'https:' && to.protocol !== 'http:') return `unsupported protocol ${to.protocol}`;
  if (from.protocol === 'https:' && to.protocol !== 'https:') return `https to ${to.protocol} downgrade`;
  if (!allowedHosts.includes(to.host)) return `host ${to.host} is not one of this source's hosts`;
  return null;
}

/**
 * What a refusal names for `url`: its scheme and host (`https://github.com`), 「本地文件」 for a
 * file: URL (whose host is empty), or the scheme alone for one without a host (`data:`). Never
 * the path or the user info, which may hold a token.
 */
export function describeUrl(url: URL): string {
  if (url.protocol === 'file:') return MESSAGES.localFile;
  return url.host ? `${url.protocol}//${url.host}` : url.protocol;
}

/** The Location of a redirect resolved against the URL asked, or null when absent or unreadable. */
function redirectTarget(location: string | null, base: URL): URL | null {
  if (!location) return null;
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** The size cap for a file the catalog says has `bytes`: 1 % or 64 KiB more, whichever is larger. */
export function sizeCap(bytes: number): number {
  return bytes + Math.max(64 * 1024, Math.ceil(bytes / 100));
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

/** A failure worth another attempt (the connection, or a server that may recover). */
class Retryable extends Error {}

/**
 * Downloads `url` into `partPath`, resuming what is there. Rejects with ModelError
 * (network, not_found, http_error, disk_full, cancelled); the .part file is left in place
 * for the caller to keep (resume later) or delete.
 */
export async function downloadToFile(options: DownloadOptions): Promise<{ bytes: number }> {
  const { signal } = options;
  const attempts = options.attempts ?? 5;
  const delay = options.retryDelayMs ?? ((n) => Math.min(8000, 500 * 2 ** (n - 1)));
  const meter = new ProgressMeter(options.onProgress, options.now);
  mkdirSync(dirname(options.partPath), { recursive: true });
  let failures = 0;
  for (;;) {
    const before = fileSize(options.partPath);
    try {
      return await attempt(options, meter);
    } catch (err) {
      if (signal.aborted) throw new ModelError('cancelled', MESSAGES.cancelled, { cause: err });
      if (!(err instanceof Retryable)) throw toModelError(err);
      failures = fileSize(options.partPath) > before ? 1 : failures + 1;
      if (failures >= attempts) {
        // A server that kept failing says why (HTTP 503…); a connection that kept failing is the network.
        throw err.cause instanceof ModelError ? err.cause : new ModelError('network', MESSAGES.network, { cause: err.cause ?? err });
      }
      options.log?.(`model download: attempt failed (${errorMessage(err.cause ?? err)}), resuming`);
      await sleep(delay(failures), signal, options.timers ?? GLOBAL_TIMERS).catch((abort: unknown) => {
        throw new ModelError('cancelled', MESSAGES.cancelled, { cause: abort });
      });
    }
  }
}

async function attempt(options: DownloadOptions, meter: ProgressMeter): Promise<{ bytes: number }> {
  // One controller per attempt: the user's cancel and the stall watchdog both end it.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal.reason);
  options.signal.addEventListener('abort', onAbort, { once: true });
  const stallMs = options.stallMs ?? 30_000;
  const timers = options.timers ?? GLOBAL_TIMERS;
  let stalled = false;
  let timer: unknown;
  const watch = () => {
    timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      stalled = true;
      controller.abort(new Error('stalled'));
    }, stallMs);
  };
  watch();
  try {
    return await attemptWith(options, meter, controller.signal, watch);
  } catch (err) {
    if (stalled && !options.signal.aborted) throw new ModelError('stalled', MESSAGES.stalled(Math.round(stallMs / 1000)), { cause: err });
    throw err;
  } finally {
    timers.clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

async function attemptWith(options: DownloadOptions, meter: ProgressMeter, signal: AbortSignal, alive: () => void): Promise<{ bytes: number }> {
  const doFetch = options.fetch ?? fetch;
  let start = fileSize(options.partPath);
  const maxBytes = options.maxBytes ?? Infinity;
  let url = new URL(options.url);
  const allowedHosts = options.allowedHosts ?? [url.host];
  if (!allowedHosts.includes(url.host)) throw new ModelError('redirect_refused', MESSAGES.sourceRefused(describeUrl(url)));
  let response: Response;
  for (let hops = 0; ; hops++) {
    try {
      response = await doFetch(url, {
        headers: start > 0 ? { Range: `bytes=${start}-` } : {},
        // Followed by hand: fetch's own following would accept any host and scheme.
        redirect: 'manual',
        signal,
        // Node's fetch takes undici's dispatcher; the DOM's RequestInit type does not know it.
        ...((options.dispatcher ? { dispatcher: options.dispatcher } : {}) as RequestInit),
      });
    } catch (err) {
      if (signal.aborted && !options.signal.aborted) throw err;
      const certificate = certificateErrorCode(err);
      if (certificate) {
        // Another attempt would meet the same certificate: this source is left for the next.
        options.log?.(`model download: certificate of ${url.host} refused: ${certificate}`);
        throw new ModelError('certificate', MESSAGES.certificate(describeUrl(url)), { cause: err });
      }
      throw new Retryable('connect failed', { cause: err });
    }
    alive();
    if (!REDIRECT_STATUSES.has(response.status)) break;
    await response.body?.cancel().catch(() => undefined);
    const next = redirectTarget(response.headers.get('location'), url);
    const refusal = next ? redirectRefusal(url, next, allowedHosts) : 'redirect without a usable Location';
    if (refusal || hops >= MAX_REDIRECTS) {
      options.log?.(`model download: redirect from ${url.href} refused: ${refusal ?? 'too many redirects'}`);
      if (!next) throw new ModelError('redirect_refused', MESSAGES.redirectUnusable(describeUrl(url)));
      throw new ModelError('redirect_refused', refusal ? MESSAGES.redirectRefused(describeUrl(next)) : MESSAGES.tooManyRedirects(describeUrl(next)));
    }
    url = next!;
  }

  let total: number;
  if (response.status === 206) {
    const range = CONTENT_RANGE.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== start) {
      // The server answered another range than asked: the bytes on disk cannot be trusted.
      await response.body?.cancel();
      unlinkIfExists(options.partPath);
      throw new Retryable(`unexpected Content-Range ${response.headers.get('content-range')}`);
    }
    total = range[3] === '*' ? start + contentLength(response, 0) : Number(range[3]);
  } else if (response.status === 416 && start > 0) {
    // Everything is already on disk (the app stopped after the last byte), or the file on the
    // server changed size: either way the server's total decides.
    await response.body?.cancel();
    const total416 = /^bytes \*\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    if (total416 && Number(total416[1]) === start) {
      meter.update(start, start, true);
      return { bytes: start };
    }
    unlinkIfExists(options.partPath);
    throw new Retryable('range not satisfiable');
  } else if (response.status === 200) {
    if (start > 0) meter.reset();
    start = 0;
    total = contentLength(response, options.expectedBytes ?? 0);
  } else {
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 404) throw new ModelError('not_found', MESSAGES.notFound);
    const error = new ModelError('http_error', MESSAGES.httpError(response.status));
    if (response.status >= 500 || response.status === 408 || response.status === 429) throw new Retryable(error.message, { cause: error });
    throw error;
  }
  if (!response.body) throw new Retryable('empty body');
  if (total > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw new ModelError('too_large', MESSAGES.tooLarge);
  }

  const file = await open(options.partPath, start > 0 ? 'a' : 'w');
  let received = start;
  meter.update(received, total, true);
  try {
    try {
      for await (const chunk of response.body) {
        alive();
        if (received + chunk.byteLength > maxBytes) {
          // Nothing past the cap reaches the disk: an endless body ends here.
          await file.write(chunk.subarray(0, Math.max(0, maxBytes - received)));
          throw new ModelError('too_large', MESSAGES.tooLarge);
        }
        await file.write(chunk);
        received += chunk.byteLength;
        meter.update(received, total);
      }
    } catch (err) {
      if (err instanceof ModelError || isDiskFull(err) || signal.aborted) throw err;
      throw new Retryable('connection lost', { cause: err });
    }
  } finally {
    await file.close();
  }
  if (received < total) throw new Retryable(`connection closed after ${received} of ${total} bytes`);
  meter.update(received, received, true);
  return { bytes: received };
}

function toModelError(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (isDiskFull(err)) return new ModelError('disk_full', MESSAGES.diskFull, { cause: err });
  return new ModelError('network', `${MESSAGES.network}（${errorMessage(err)}）`, { cause: err });
}

/** OpenSSL's verification failures as Node reports them (err.code), and a name mismatch. */
const CERTIFICATE_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The code of a certificate the TLS handshake refused, found along fetch's cause chain; else null. */
function certificateErrorCode(err: unknown): string | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) return code;
  }
  return null;
}

function contentLength(response: Response, fallback: number): number {
  const value = Number(response.headers.get('content-length'));
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function unlinkIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number, signal: AbortSignal, timers: DownloadTimers): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      timers.clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import { randomBytes } from 'node:crypto';
import { createClient, getPatcher, type FileStat, type ResponseDataDetailed, type WebDAVClient } from 'webdav';
import { SyncError } from './errors';
import { TEMP_FILE, type Remote, type RemoteListing } from './remote';

export interface WebDavRemoteOptions {
  /** The sync folder's URL, e.g. https://dav.jianguoyun.com/dav/随口记/. */
  url: string;
  user: string;
  password: string;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  /** The device id: temp files carry it so each device only ever touches its own. */
  device: string;
  /**
   * Files up to this size are written with one PUT to their name; larger ones (snapshots)
   * go to a temporary name first and are then MOVEd. Default 1 MiB.
   */
  directPutMaxBytes?: number;
}

/**
 * An ETag where the server gives one, else its modification time: what changes when the file
 * does. Apache marks an ETag weak (`W/`) while the file's modification time is the current
 * second and strong a moment later: the same file, so the mark is dropped.
 */
function tagOf(f: FileStat): string | null {
  return (f.etag ? f.etag.replace(/^W\//, '') : null) || f.lastmod || null;
}

const LIMIT_HEADER = 'x-suikouji-limit';
const LISTING_LIMIT = 16 * 1024 * 1024;

/**
 * The `webdav` client follows redirects — to another host too, where it would send the
 * password along — and has no size limit. Its fetch is replaced (once, for every client of
 * the process) by Node's own with redirects refused and bodies cut at a per-request limit
 * (passed in a header that never leaves the process).
 */
let patched = false;
function patchFetch(): void {
  if (patched) return;
  patched = true;
  getPatcher().patch('fetch', async (...args: unknown[]) => {
    const [url, init] = args as [string, RequestInit & { headers?: Record<string, string> }];
    const headers = { ...(init.headers ?? {}) };
    // A file read names its limit; anything else (a listing) gets the listing's, and an answer
    // beyond it is the server's fault, not a file to refuse.
    const fileLimit = headers[LIMIT_HEADER];
    const limit = Number(fileLimit ?? LISTING_LIMIT);
    delete headers[LIMIT_HEADER];
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const where = response.headers.get('location') ?? '另一个地址';
      throw new SyncError('server_error', `服务器把请求转到了 ${where.slice(0, 200)}，为保护密码已拒绝：请在设置里填写最终的 WebDAV 地址。`);
    }
    const body = await readCapped(response, limit, fileLimit !== undefined);
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  });
}

async function readCapped(response: Response, limit: number, file: boolean): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(0);
  const tooLarge = (bytes: string) =>
    file
      ? new SyncError('refused_file', `服务器返回的数据${bytes}，已拒绝。`)
      : new SyncError('server_error', `同步服务器的回答${bytes}，不像是同步文件夹的列表：请检查地址是不是 WebDAV 地址，稍后会自动重试。`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body.cancel();
    throw tooLarge(`过大（${declared} 字节）`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    // Leaving the loop cancels the stream: the rest of an endless answer is never read.
    if (total > limit) throw tooLarge(`超过 ${limit} 字节`);
    chunks.push(chunk);
  }
  // One ArrayBuffer of exactly the body, as a Response body must be.
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** The sync folder on the user's WebDAV server (坚果云, Nextcloud, a NAS), through the `webdav` client. */
export class WebDavRemote implements Remote {
  readonly label: string;
  private readonly client: WebDAVClient;
  private readonly timeoutMs: number;
  private readonly device: string;
  private readonly directPutMaxBytes: number;

  constructor(options: WebDavRemoteOptions) {
    patchFetch();
    const url = options.url.endsWith('/') ? options.url : `${options.url}/`;
    this.label = url;
    this.client = createClient(url, { username: options.user, password: options.password });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.device = options.device;
    this.directPutMaxBytes = options.directPutMaxBytes ?? 1024 * 1024;
  }

  async list(): Promise<RemoteListing> {
    const answer = (await this.call(() => this.client.getDirectoryContents('/', { details: true, signal: this.signal() }))) as ResponseDataDetailed<
      FileStat[]
    >;
    const date = Date.parse(String((answer.headers as Record<string, string>)['date'] ?? ''));
    const entries = answer.data
      .filter((f) => f.type === 'file' && !f.filename.slice(1).includes('/'))
      .map((f) => ({ name: f.basename, size: f.size, etag: tagOf(f) }));
    return { entries, serverTime: Number.isNaN(date) ? null : date };
  }

  async stat(name: string): Promise<{ name: string; size: number; etag: string | null } | null> {
    try {
      const f = (await this.call(() => this.client.stat(`/${name}`, { signal: this.signal() }), name)) as FileStat;
      return f.type === 'file' ? { name, size: f.size, etag: tagOf(f) } : null;
    } catch (err) {
      if (err instanceof SyncError && err.code === 'changed_underneath') return null;
      throw err;
    }
  }

  async ensureFolder(): Promise<void> {
    try {
      await this.call(() => this.client.getDirectoryContents('/', { signal: this.signal() }));
    } catch (err) {
      if (!(err instanceof SyncError) || err.code !== 'not_found') throw err;
      await this.call(() => this.client.createDirectory('/', { signal: this.signal() }));
    }
  }

  async read(name: string, maxBytes: number): Promise<Buffer> {
    const data = await this.call(
      () => this.client.getFileContents(`/${name}`, { format: 'binary', signal: this.signal(), headers: { [LIMIT_HEADER]: String(maxBytes) } }),
      name,
    );
    return Buffer.from(data as ArrayBuffer);
  }

  /**
   * A small file is one PUT: servers store a PUT's body before the name answers (Apache and
   * Nextcloud write a temporary file and rename it), a reader that still catches one half
   * written refuses it whole, and the writer checks what the server kept. A large one (a
   * snapshot, seconds of upload) goes to a temporary name first and is then MOVEd.
   */
  async write(name: string, data: Buffer): Promise<void> {
    if (data.length <= this.directPutMaxBytes) {
      await this.call(() => this.client.putFileContents(`/${name}`, data, { overwrite: true, signal: this.signal(data.length) }));
      return;
    }
    const temp = `${this.device}.tmp.${randomBytes(4).toString('hex')}`;
    if (!TEMP_FILE.test(temp)) throw new Error(`bad temp name ${temp}`);
    await this.call(() => this.client.putFileContents(`/${temp}`, data, { overwrite: true, signal: this.signal(data.length) }));
    await this.call(() => this.client.moveFile(`/${temp}`, `/${name}`, { overwrite: true, signal: this.signal() }));
  }

  async create(name: string, data: Buffer): Promise<boolean> {
    return (await this.call(() => this.client.putFileContents(`/${name}`, data, { overwrite: false, signal: this.signal() }))) as boolean;
  }

  async remove(name: string): Promise<void> {
    try {
      await this.call(() => this.client.deleteFile(`/${name}`, { signal: this.signal() }));
    } catch (err) {
      if (!(err instanceof SyncError) || (err.code !== 'not_found' && err.code !== 'changed_underneath')) throw err;
    }
  }

  /** Large uploads get longer: 30 s plus a second per MB. */
  private signal(bytes = 0): AbortSignal {
    return AbortSignal.timeout(this.timeoutMs + Math.floor(bytes / 1_000_000) * 1000);
  }

  private async call<T>(fn: () => Promise<T>, file?: string): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw httpError(err, this.label, file);
    }
  }
}

/** What a failed request means for the user. */
export function httpError(err: unknown, label: string, file?: string): SyncError {
  if (err instanceof SyncError) return err;
  const e = err as { status?: number; name?: string; code?: string; message?: string; response?: Response; cause?: { code?: string } };
  const status = e.status;
  if (status === 401 || status === 403) {
    return new SyncError(
      'login_refused',
      `同步服务器拒绝了登录（${status}）：请检查用户名和应用密码（坚果云、Nextcloud 需使用“应用密码”，不是登录密码）。`,
    );
  }
  if (status === 404 || status === 409) {
    if (file) return new SyncError('changed_underneath', `远端文件 ${file} 在同步过程中被其他设备移走了，稍后会自动重试。`);
    return new SyncError('not_found', `同步文件夹不存在：${label}。请检查地址，或在设置里重新开始同步以创建它。`);
  }
  if (status === 429 || status === 503) {
    const retry = Number(e.response?.headers.get('retry-after') ?? NaN);
    const error = new SyncError('server_error', `同步服务器暂时繁忙（${status}），稍后会自动重试。坚果云免费账户每 30 分钟最多 600 次请求。`);
    if (Number.isFinite(retry)) error.retryAfterMs = retry * 1000;
    return error;
  }
  if (status === 507) return new SyncError('server_error', '同步服务器的空间已满（507）：请清理空间或升级存储后再同步。');
  if (status !== undefined && status >= 400) return new SyncError('server_error', `同步服务器出错（${status}），稍后会自动重试。`);
  const message = String(e.message ?? err);
  if (/multistatus|parsing|xml/i.test(message)) {
    return new SyncError('server_error', `服务器的回答不是 WebDAV 格式：请检查 ${label} 是不是 WebDAV 地址。`);
  }
  const reason = e.name === 'TimeoutError' || e.name === 'AbortError' ? '服务器回答超时' : networkReason(e.cause?.code ?? e.code, message);
  return new SyncError('unreachable', `连不上同步服务器（${reason}）：请检查网络和地址，恢复后会自动重试。`);
}

/** A socket error code in a household's words; an unknown one is kept, short, for support. */
function networkReason(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return '服务器拒绝连接';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return '找不到这个地址';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return '连接被中断';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return '服务器回答超时';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return '网络不通';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return '服务器的证书不受信任';
    default:
      return (code ?? message).slice(0, 80);
  }
}

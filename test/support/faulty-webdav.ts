// A small WebDAV server that misbehaves on purpose, for the sync tests that prove sync heals
// itself. It serves a genuine folder on disk at http://127.0.0.1:PORT/dav/ (Basic auth, one level
// of sub-folders or more) and answers what the `webdav` client sends — OPTIONS, PROPFIND Depth 0/1,
// GET, HEAD, PUT (If-None-Match: *), MKCOL, MOVE (Destination, Overwrite), DELETE — correctly,
// until the test switches on a fault: writes that are lost or truncated behind a success status,
// a rollback to an older state, a file damaged at rest (with or without the ETag noticing), files
// left out of listings, a skewed Date header. The real-server tests use Apache (webdav-server.ts);
// this one exists because Apache cannot be told to lie.
//
// ETags are derived from the content ("sha1(content).slice(0,16)", quoted), so a changed file gets
// a new one unless `damage(…, { keepEtag: true })` says otherwise. Quoted matters: the client's XML
// parser turns an unquoted all-digit ETag into a number and then reports `etag: null`.
// Node-only, no dependency (node:http, node:crypto, node:fs).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Matches a file's base name (`账本.json`, not `books/账本.json`). */
export type NameMatch = (name: string) => boolean;
export type StateId = number;

export interface FaultyRequest {
  method: string;
  /** Decoded path without the query string (`/dav/books/账本.json`); as sent when it does not decode. */
  path: string;
  status: number;
}

export interface FaultyWebDav {
  /** `http://127.0.0.1:PORT/dav/` — the collection the client is given. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  user: string;
  password: string;
  /** The folder on disk that holds `/dav/`. */
  root: string;
  /** The disk path of a path inside the collection (`books/x.skj`). */
  pathFor(relPath: string): string;
  /** The files (not folders) of a collection (`''` = `/dav/`, `'books'`), sorted by name. */
  files(collection?: string): { name: string; size: number }[];
  /** The stored bytes of `name` (`a.skj`, `books/a.skj`). */
  read(name: string): Buffer;
  /** The ETag the server currently answers for `name`, quoted. */
  etag(name: string): string;
  /** Every request answered so far (401s included), oldest first. */
  requests(): FaultyRequest[];
  resetRequests(): void;
  /** PUT / MOVE onto a matching name answers success and stores nothing. Returns the switch-off. */
  loseWrites(match?: NameMatch): () => void;
  /** PUT / MOVE onto a matching name stores only the first half of the bytes. Returns the switch-off. */
  truncateWrites(match?: NameMatch): () => void;
  /** PROPFIND Depth 1 leaves matching files out (Depth 0, GET, HEAD still answer them). Returns the switch-off. */
  omitFromListing(match: NameMatch): () => void;
  /** Flips one byte in the middle of a stored file (mtime kept); with keepEtag the old ETag keeps being answered. */
  damage(name: string, options?: { keepEtag?: boolean }): void;
  /** A copy of every file and folder (bytes, mtimes, answered ETags) as they are now. */
  saveState(): StateId;
  /** Puts the folder back exactly as it was at saveState(id). */
  rollback(id: StateId): void;
  /** The Date header of every answer is off by this much (settable at any time). */
  dateOffsetMs: number;
  /**
   * Switches every fault off: lost/truncated writes, listing omission, Date offset, and stale
   * (keepEtag) ETags, which become content-derived again. What already happened to the data — a
   * damaged byte, a rollback — stays.
   */
  heal(): void;
  /** Stops the server and removes the temp folder (not a `root` that was passed in). Safe to call twice. */
  close(): Promise<void>;
}

export interface StartFaultyWebDavOptions {
  user?: string;
  password?: string;
  /** Serve this folder (created if missing, kept on close) instead of a fresh temp folder. */
  root?: string;
}

const PREFIX = '/dav';
const MAX_BODY = 64 * 1024 * 1024;

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

interface State {
  dirs: string[];
  files: { rel: string; bytes: Buffer; mtimeMs: number }[];
  staleEtags: Map<string, string>;
}

const contentEtag = (bytes: Buffer) => `"${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}"`;
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const hrefOf = (rel: string, dir: boolean) => `${PREFIX}/${rel.split('/').map(encodeURIComponent).join('/')}${dir && rel !== '' ? '/' : ''}`;

/** `a/b.skj` → `['a', 'b.skj']`; null for anything that could leave the folder. */
function segmentsOf(rel: string): string[] | null {
  const segments = rel.split('/').filter((s) => s !== '');
  return segments.every((s) => s !== '.' && s !== '..' && !/[\\\0]/.test(s)) ? segments : null;
}

/** The collection-relative path of a URL path (`/dav/books/%E8%B4%A6.json` → `books/账.json`); null when outside /dav/. */
function relOf(urlPath: string): string | null {
  if (urlPath !== PREFIX && !urlPath.startsWith(`${PREFIX}/`)) return null;
  try {
    const parts = urlPath.slice(PREFIX.length).split('/').map(decodeURIComponent);
    if (parts.some((s) => s.includes('/'))) return null; // an encoded slash
    return segmentsOf(parts.join('/'))?.join('/') ?? null;
  } catch {
    return null; // a malformed escape
  }
}

/** A request header as one string (the first, if sent twice). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function walk(root: string, rel = ''): { dirs: string[]; files: string[] } {
  const out = { dirs: [] as string[], files: [] as string[] };
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      const inner = walk(root, child);
      out.dirs.push(child, ...inner.dirs);
      out.files.push(...inner.files);
    } else if (e.isFile()) out.files.push(child);
  }
  return out;
}

/** Start the server on a free loopback port; resolves once it listens. */
export async function startFaultyWebDav(options: StartFaultyWebDavOptions = {}): Promise<FaultyWebDav> {
  const user = options.user ?? 'alice';
  const password = options.password ?? 's3cret';
  const ownRoot = options.root === undefined;
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'suikouji-faulty-dav-'));
  mkdirSync(root, { recursive: true });
  const expectedAuth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  let log: FaultyRequest[] = [];
  let lose: NameMatch | null = null;
  let truncate: NameMatch | null = null;
  let omit: NameMatch | null = null;
  /** Files whose answered ETag is not their content's (damaged with keepEtag). */
  let staleEtags = new Map<string, string>();
  /** Where a PUT was lost or truncated: the MOVE that follows (temp → name) carries the fault, it does not add another. */
  let faulted = new Map<string, 'lost' | 'truncated'>();
  const states: State[] = [];

  const pathFor = (rel: string) => {
    const segments = segmentsOf(rel);
    if (!segments) throw new Error(`${rel} is outside the served folder`);
    return join(root, ...segments);
  };
  const kind = (rel: string) => {
    const p = pathFor(rel);
    if (!existsSync(p)) return null;
    return statSync(p).isDirectory() ? 'dir' : 'file';
  };
  const parentExists = (rel: string) => kind(rel.split('/').slice(0, -1).join('/')) === 'dir';
  const etagOf = (rel: string) => staleEtags.get(rel) ?? contentEtag(readFileSync(pathFor(rel)));
  /** Drops whatever the server remembered about a path whose content has just changed. */
  const forget = (rel: string) => {
    staleEtags.delete(rel);
    faulted.delete(rel);
  };
  const fileHeaders = (rel: string) => {
    const st = statSync(pathFor(rel));
    return {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(st.size),
      ETag: etagOf(rel),
      'Last-Modified': new Date(st.mtimeMs).toUTCString(),
    };
  };

  function propResponse(rel: string): string {
    const p = pathFor(rel);
    const st = statSync(p);
    const dir = st.isDirectory();
    const name = rel === '' ? 'dav' : basename(p);
    const props = [
      `<d:displayname>${xml(name)}</d:displayname>`,
      `<d:getlastmodified>${new Date(st.mtimeMs).toUTCString()}</d:getlastmodified>`,
      dir ? '<d:resourcetype><d:collection/></d:resourcetype>' : '<d:resourcetype/>',
      dir ? '<d:getcontenttype>httpd/unix-directory</d:getcontenttype>' : '<d:getcontenttype>application/octet-stream</d:getcontenttype>',
      ...(dir ? [] : [`<d:getcontentlength>${st.size}</d:getcontentlength>`, `<d:getetag>${etagOf(rel)}</d:getetag>`]),
    ];
    return `<d:response><d:href>${xml(hrefOf(rel, dir))}</d:href><d:propstat><d:prop>${props.join('')}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
  }

  function propfind(rel: string, depth: string | undefined): Answer {
    const what = kind(rel);
    if (!what) return { status: 404 };
    // Apache's default (DavDepthInfinity off): no infinite listings. A missing Depth means infinity.
    if (depth !== '0' && depth !== '1') return { status: 403, body: 'Depth infinity is not supported' };
    const rels = [rel];
    if (depth === '1' && what === 'dir') {
      for (const e of readdirSync(pathFor(rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.isFile() && omit?.(e.name)) continue;
        if (e.isFile() || e.isDirectory()) rels.push(rel ? `${rel}/${e.name}` : e.name);
      }
    }
    const body = `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">${rels.map(propResponse).join('')}</d:multistatus>\n`;
    return { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8' }, body };
  }

  /** The fault a write onto `rel` suffers now, if any. */
  const faultFor = (rel: string) => (lose?.(basename(rel)) ? 'lost' : truncate?.(basename(rel)) ? 'truncated' : undefined);

  /** Writes `bytes` to `rel` as `fault` has it: all of them, half of them, or none. */
  function store(rel: string, bytes: Buffer, fault: 'lost' | 'truncated' | undefined): void {
    const absent = !existsSync(pathFor(rel));
    forget(rel);
    if (fault === 'truncated' || (fault === 'lost' && absent)) faulted.set(rel, fault);
    if (fault !== 'lost') writeFileSync(pathFor(rel), fault === 'truncated' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes);
  }

  function put(rel: string, req: IncomingMessage, body: Buffer): Answer {
    const what = kind(rel);
    if (rel === '' || what === 'dir') return { status: 405 };
    if (!parentExists(rel)) return { status: 409 };
    if (header(req, 'if-none-match') === '*' && what) return { status: 412 };
    store(rel, body, faultFor(rel));
    return { status: what ? 204 : 201 };
  }

  function move(rel: string, req: IncomingMessage): Answer {
    const destination = header(req, 'destination');
    let to: string | null = null;
    try {
      to = relOf(new URL(destination ?? '', 'http://127.0.0.1').pathname);
    } catch {
      // not a URL
    }
    if (!destination || to === null) return { status: 400, body: 'Destination missing or outside /dav/' };
    const from = kind(rel);
    // A file whose PUT was lost: the server said it stored it, so it plays along with the MOVE.
    const phantom = !from && faulted.get(rel) === 'lost';
    if (!from && !phantom) return { status: 404 };
    if (rel === '' || to === '' || to === rel) return { status: 403 };
    if (!parentExists(to)) return { status: 409 };
    const existing = kind(to);
    if (existing && (header(req, 'overwrite') ?? 'T').toUpperCase() === 'F') return { status: 412 };
    const status = existing ? 204 : 201;
    if (from === 'dir') {
      rmSync(pathFor(to), { recursive: true, force: true });
      renameSync(pathFor(rel), pathFor(to));
      return { status };
    }
    // The fault of a PUT carries over to the MOVE that follows it (temp → name) instead of striking twice.
    const carried = faulted.has(rel);
    forget(rel);
    if (phantom) return { status }; // nothing to move; the target stays as it was
    const bytes = readFileSync(pathFor(rel));
    const { mtime } = statSync(pathFor(rel));
    rmSync(pathFor(rel));
    if (existing === 'dir') rmSync(pathFor(to), { recursive: true });
    const fault = carried ? undefined : faultFor(to);
    store(to, bytes, fault);
    // A MOVE keeps the file's modification time, as a rename does.
    if (!fault) utimesSync(pathFor(to), mtime, mtime);
    return { status };
  }

  function handle(method: string, rel: string, req: IncomingMessage, body: Buffer): Answer {
    switch (method) {
      case 'OPTIONS':
        return { status: 200, headers: { DAV: '1,2', 'MS-Author-Via': 'DAV', Allow: 'OPTIONS, PROPFIND, GET, HEAD, PUT, MKCOL, MOVE, DELETE' } };
      case 'PROPFIND':
        return propfind(rel, header(req, 'depth')?.toLowerCase());
      case 'GET':
      case 'HEAD': {
        const what = kind(rel);
        if (what !== 'file') return { status: what ? 405 : 404 };
        return { status: 200, headers: fileHeaders(rel), body: method === 'GET' ? readFileSync(pathFor(rel)) : undefined };
      }
      case 'PUT':
        return put(rel, req, body);
      case 'MKCOL':
        if (kind(rel)) return { status: 405 };
        if (!parentExists(rel)) return { status: 409 };
        mkdirSync(pathFor(rel));
        return { status: 201 };
      case 'MOVE':
        return move(rel, req);
      case 'DELETE': {
        const what = kind(rel);
        if (rel === '') return { status: 403 };
        forget(rel);
        if (!what) return { status: 404 };
        rmSync(pathFor(rel), { recursive: true, force: true });
        return { status: 204 };
      }
      default:
        return { status: 405 };
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    let path = rawPath;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      // keep it as sent
    }
    let answer: Answer;
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
      }
      const rel = relOf(rawPath);
      if (req.headers.authorization !== expectedAuth) answer = { status: 401, headers: { 'WWW-Authenticate': 'Basic realm="dav"' } };
      else if (size > MAX_BODY) answer = { status: 413 };
      else if (rel === null) answer = { status: 404 };
      else answer = handle(method, rel, req, Buffer.concat(chunks));
    } catch (err) {
      answer = { status: 500, body: String(err) };
    }
    const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
    const headers: Record<string, string> = { 'Content-Length': String(body.length), ...answer.headers };
    // Set explicitly, Node leaves out its own Date header.
    headers.Date = new Date(Date.now() + api.dateOffsetMs).toUTCString();
    log.push({ method, path, status: answer.status });
    res.writeHead(answer.status, headers);
    res.end(method === 'HEAD' ? undefined : body);
  }

  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const on = (set: (m: NameMatch | null) => void, match: NameMatch) => {
    set(match);
    return () => set(null);
  };
  let closing: Promise<void> | undefined;

  const api: FaultyWebDav = {
    url: `${origin}${PREFIX}/`,
    origin,
    user,
    password,
    root,
    pathFor,
    files(collection = '') {
      return readdirSync(pathFor(collection), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => ({ name: e.name, size: statSync(join(pathFor(collection), e.name)).size }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    read: (name) => readFileSync(pathFor(name)),
    etag: (name) => etagOf(segmentsOf(name)?.join('/') ?? name),
    requests: () => [...log],
    resetRequests() {
      log = [];
    },
    loseWrites: (match = () => true) => on((m) => (lose = m), match),
    truncateWrites: (match = () => true) => on((m) => (truncate = m), match),
    omitFromListing: (match) => on((m) => (omit = m), match),
    damage(name, { keepEtag = false } = {}) {
      const rel = segmentsOf(name)?.join('/') ?? name;
      const p = pathFor(rel);
      const bytes = readFileSync(p);
      if (bytes.length === 0) throw new Error(`${name} is empty: no byte to damage`);
      const { mtime } = statSync(p);
      const before = etagOf(rel);
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      writeFileSync(p, bytes);
      utimesSync(p, mtime, mtime);
      if (keepEtag) staleEtags.set(rel, before);
      else staleEtags.delete(rel);
    },
    saveState() {
      const { dirs, files } = walk(root);
      const at = (rel: string) => ({ rel, bytes: readFileSync(pathFor(rel)), mtimeMs: statSync(pathFor(rel)).mtimeMs });
      states.push({ dirs, files: files.map(at), staleEtags: new Map(staleEtags) });
      return states.length - 1;
    },
    rollback(id) {
      const state = states[id];
      if (!state) throw new Error(`no saved state ${id}`);
      for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
      for (const dir of state.dirs) mkdirSync(pathFor(dir), { recursive: true });
      for (const f of state.files) {
        writeFileSync(pathFor(f.rel), f.bytes);
        utimesSync(pathFor(f.rel), new Date(f.mtimeMs), new Date(f.mtimeMs));
      }
      staleEtags = new Map(state.staleEtags);
      faulted = new Map();
    },
    dateOffsetMs: 0,
    heal() {
      lose = truncate = omit = null;
      api.dateOffsetMs = 0;
      staleEtags.clear();
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => {
        if (ownRoot) rmSync(root, { recursive: true, force: true });
      });
      return closing;
    },
  };
  return api;
}

// A real WebDAV server for the sync tests: Apache httpd + mod_dav_fs, started as a child of the
// test in a temp folder of its own (no system service, nothing under /etc/apache2 touched). An
// in-process stand-in would be faster, but the npm `webdav-server` ignores If-Match/If-None-Match
// on PUT, and conditional writes are exactly what sync relies on. See the recipe in
// /work/shared/recipes/README.md ("A real WebDAV server for tests").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { freePort } from './child-daemons';

const MODULES = '/usr/lib/apache2/modules';
const NEEDED_MODULES = [
  'mod_mpm_event',
  'mod_authn_core',
  'mod_authn_file',
  'mod_auth_basic',
  'mod_authz_core',
  'mod_authz_user',
  'mod_dav',
  'mod_dav_fs',
];

export interface RequestLogEntry {
  method: string;
  /** Decoded path, without the query string (`/suikouji/账本.json`). */
  path: string;
  /** The path as sent on the wire (percent-encoded, with any query string). */
  rawPath: string;
  status: number;
  /** Request headers sync cares about; absent when the request had none. */
  destination?: string;
  ifMatch?: string;
  ifNoneMatch?: string;
  overwrite?: string;
}

export interface WebDavServer {
  /** `http://127.0.0.1:PORT/` — the root collection (the `folder` option lives below it). */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  user: string;
  password: string;
  /** The folder on disk the server stores into (its DocumentRoot), so tests can see and tamper with everything. */
  root: string;
  /** The Apache process id (for tests that want to kill it the hard way). */
  pid: number;
  /** Every request Apache has answered so far, oldest first, parsed from its access log. */
  requests(): RequestLogEntry[];
  /**
   * Apache writes the access-log line just AFTER the response has gone out, so a client can hold
   * its answer a moment before `requests()` shows it; this waits until the predicate matches one.
   */
  waitForRequest(match: (r: RequestLogEntry) => boolean, timeoutMs?: number): Promise<RequestLogEntry>;
  /** SIGTERM, wait for the exit, remove the temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartWebDavOptions {
  user?: string;
  password?: string;
  /** A sub-folder created inside the root (e.g. `suikouji`), as a user would prepare on their server. */
  folder?: string;
}

let available: boolean | undefined;

/** Whether apache2, htpasswd and the DAV modules are installed (suites `describe.skipIf(!apacheAvailable())`). */
export function apacheAvailable(): boolean {
  if (available === undefined) {
    const runs = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { stdio: 'ignore' });
      return !r.error && r.status === 0;
    };
    available =
      process.platform === 'linux' &&
      runs('apache2', ['-v']) &&
      // htpasswd without arguments prints its usage and exits 2; a missing binary gives `error`.
      !spawnSync('htpasswd', [], { stdio: 'ignore' }).error &&
      NEEDED_MODULES.every((m) => existsSync(`${MODULES}/${m}.so`));
  }
  return available;
}

const isRoot = () => process.getuid?.() === 0;

/** uid/gid of www-data, which the workers run as when the test runs as root. */
function wwwData(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('www-data:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no www-data user in /etc/passwd: Apache workers would run as root');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Hand a path to the workers' user, so Apache can read, overwrite and delete what the test wrote. */
function giveToApache(path: string): void {
  if (!isRoot()) return; // the workers run as us: nothing to hand over
  const { uid, gid } = wwwData();
  chownSync(path, uid, gid);
}

function config(dir: string, port: number): string {
  return `ServerRoot "${dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile "${dir}/run/httpd.pid"
DefaultRuntimeDir "${dir}/run"
ErrorLog "${dir}/logs/error.log"
LogLevel warn
${isRoot() ? 'User www-data\nGroup www-data\n' : ''}${NEEDED_MODULES.map((m) => `LoadModule ${m.slice(4)}_module ${MODULES}/${m}.so`).join('\n')}
# One process is plenty for a test; the defaults start three and keep 75 spare threads.
StartServers 1
MinSpareThreads 5
MaxSpareThreads 50
# Tab-separated, so requests() can split it: status, request line, then the headers sync sends.
LogFormat "%>s\\t%r\\t%{Destination}i\\t%{If-Match}i\\t%{If-None-Match}i\\t%{Overwrite}i" davtest
CustomLog "${dir}/logs/access.log" davtest
DocumentRoot "${dir}/dav"
# Without a lock database every PUT is a 500.
DavLockDB "${dir}/lock/DavLock"
<Directory "${dir}/dav">
    Dav On
    AuthType Basic
    AuthName "dav"
    AuthUserFile "${dir}/conf/htpasswd"
    Require valid-user
</Directory>
`;
}

/** The path startWebDav polls until Apache answers; left out of requests(). */
const PROBE = '/.webdav-server-ready';

function parseLog(file: string): RequestLogEntry[] {
  if (!existsSync(file)) return [];
  const out: RequestLogEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const [status, requestLine = '', destination, ifMatch, ifNoneMatch, overwrite] = line.split('\t');
    const [method = '', rawPath = ''] = requestLine.split(' ');
    const bare = rawPath.split('?')[0] ?? '';
    let path = bare;
    try {
      path = decodeURIComponent(bare);
    } catch {
      // A malformed escape (a fault test's doing): keep it as sent.
    }
    if (rawPath === PROBE) continue; // our own readiness poll, not the test's
    const entry: RequestLogEntry = { method, path, rawPath, status: Number(status) };
    // Apache logs an absent header as "-".
    if (destination && destination !== '-') entry.destination = destination;
    if (ifMatch && ifMatch !== '-') entry.ifMatch = ifMatch;
    if (ifNoneMatch && ifNoneMatch !== '-') entry.ifNoneMatch = ifNoneMatch;
    if (overwrite && overwrite !== '-') entry.overwrite = overwrite;
    out.push(entry);
  }
  return out;
}

// Servers a test forgot to stop (or a test process that exits mid-test): SIGTERM them on exit so no
// Apache outlives the run. SIGTERM, not SIGKILL: the parent then takes its workers down with it.
const live = new Map<number, string>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [pid, dir] of live) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Start Apache with WebDAV on a free loopback port; resolves once it answers HTTP. */
export async function startWebDav(options: StartWebDavOptions = {}): Promise<WebDavServer> {
  if (!apacheAvailable()) throw new Error('apache2 is not installed (apt-get install apache2-bin apache2-utils)');
  const user = options.user ?? 'alice';
  const password = options.password ?? 's3cret';
  const dir = mkdtempSync(join(tmpdir(), 'suikouji-dav-'));
  for (const sub of ['conf', 'dav', 'lock', 'run', 'logs']) mkdirSync(join(dir, sub));
  const root = join(dir, 'dav');
  if (options.folder) mkdirSync(join(root, options.folder), { recursive: true });
  if (isRoot()) {
    // mkdtemp makes the folder 0700: the www-data workers could not even reach dav/ (403).
    chmodSync(dir, 0o711);
    giveToApache(join(dir, 'lock'));
    for (const p of walk(root, root, true)) giveToApache(join(root, p));
    giveToApache(root);
  }
  const htpasswd = spawnSync('htpasswd', ['-bcB', join(dir, 'conf', 'htpasswd'), user, password], { encoding: 'utf8' });
  if (htpasswd.status !== 0) throw new Error(`htpasswd failed: ${htpasswd.stderr}`);
  const conf = join(dir, 'conf', 'httpd.conf');

  installExitHook();
  // The free port is only free until someone else takes it: on a bind failure, try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    writeFileSync(conf, config(dir, port));
    const child = spawn('apache2', ['-f', conf, '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 10_000) stderr += d.toString();
    });
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    const pid = child.pid;
    if (pid !== undefined) live.set(pid, dir);
    const origin = `http://127.0.0.1:${port}`;
    const ready = await waitUntilServing(origin, child, spawnError);
    if (ready !== true || pid === undefined) {
      if (pid !== undefined) live.delete(pid);
      child.kill('SIGTERM');
      await exited(child);
      const errorLog = existsSync(join(dir, 'logs', 'error.log')) ? readFileSync(join(dir, 'logs', 'error.log'), 'utf8') : '';
      const why = `${ready === true ? 'no pid' : ready}\n${stderr}${errorLog}`;
      if (attempt < 3 && /Address already in use|could not bind/i.test(why)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`apache2 did not start: ${why}`);
    }
    let stopping: Promise<void> | undefined;
    const accessLog = join(dir, 'logs', 'access.log');
    const server: WebDavServer = {
      url: `${origin}/`,
      origin,
      user,
      password,
      root,
      pid,
      requests: () => parseLog(accessLog),
      async waitForRequest(match, timeoutMs = 2000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = parseLog(accessLog).find(match);
          if (found) return found;
          if (Date.now() > deadline) throw new Error(`no matching request in Apache's access log after ${timeoutMs} ms`);
          await sleep(10);
        }
      },
      stop() {
        stopping ??= (async () => {
          child.kill('SIGTERM');
          const done = await Promise.race([exited(child).then(() => true), sleep(5000).then(() => false)]);
          if (!done) {
            child.kill('SIGKILL');
            await exited(child);
          }
          live.delete(pid);
          rmSync(dir, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
    return server;
  }
}

/** Polls until Apache answers anything (401 counts); `true`, or why it did not. */
async function waitUntilServing(origin: string, child: ChildProcess, spawnError: Promise<Error>): Promise<true | string> {
  let failed: string | undefined;
  void spawnError.then((e) => (failed = `spawn failed: ${e.message}`));
  child.once('exit', (code, signal) => (failed ??= `apache2 exited (${code ?? signal}) before serving`));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (failed) return failed;
    try {
      await fetch(origin + PROBE, { method: 'OPTIONS', signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      await sleep(20);
    }
  }
  return failed ?? 'not serving after 10 s';
}

// mod_dav_fs keeps dead properties in `.DAV/` folders and writes a PUT into `.davfs.tmp*` before
// renaming it into place: server bookkeeping, not what a client stored.
const isBookkeeping = (name: string) => name === '.DAV' || name.startsWith('.davfs.tmp');

function walk(root: string, dir: string, withDirs = false): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (isBookkeeping(e.name)) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (withDirs) out.push(relative(root, full));
      out.push(...walk(root, full, withDirs));
    } else if (e.isFile()) out.push(relative(root, full));
  }
  return out;
}

/** Relative POSIX-style path (`suikouji/a.json`) of a file under the server's root. */
const posix = (p: string) => p.split(sep).join('/');

/**
 * Everything stored on the server, as the disk holds it: relative paths (forward slashes, sorted)
 * and their bytes. Folders are implied by the paths; Apache's own bookkeeping files are left out.
 */
export function listRemoteFiles(server: Pick<WebDavServer, 'root'>): { path: string; bytes: Buffer }[] {
  return walk(server.root, server.root)
    .map(posix)
    .sort()
    .map((path) => ({ path, bytes: readFileSync(join(server.root, path)) }));
}

/**
 * Write a file straight onto the server's disk (a tampered or foreign file), creating its folders.
 * As root it also hands them to www-data, so Apache can still overwrite, move and delete them.
 */
export function writeRemoteFile(server: Pick<WebDavServer, 'root'>, relPath: string, bytes: string | Uint8Array): void {
  const target = join(server.root, relPath);
  if (relative(server.root, target).startsWith('..')) throw new Error(`${relPath} is outside the server's root`);
  // Create the missing folders one by one, so each new one can be handed over too.
  const missing: string[] = [];
  for (let d = dirname(target); !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    mkdirSync(d);
    giveToApache(d);
  }
  writeFileSync(target, bytes);
  giveToApache(target);
}

// Opening the ledger file: the checks that refuse — without writing anything — a file that is
// not SQLite, damaged, empty or newer than this build; read-only files opened for viewing with
// every write refused; and the integrity check that runs in a worker for large files.
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  existsSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LedgerOpenError, type LedgerWriteRefusedError } from './errors';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

/**
 * Ledgers up to this size (file + WAL) get PRAGMA quick_check before open returns; larger ones
 * in a worker thread after it. quick_check reads every page, ≈ 1.2 ms per MB: ≈ 160 ms at this
 * size (≈ 400 000 rows), ≈ 390 ms for 1 M rows (bench: ledger.quickCheckSync1M), past the
 * 300 ms an open may take (ledger.openQuickCheck1M: the open itself, check deferred).
 */
const SQLITE_MAGIC = 'SQLite format 3\u0000';

export const SYNC_CHECK_MAX_BYTES = 128 * 1024 * 1024;

/** The SQLite file header: magic, page size, change counter, page count, version-valid-for. */
const HEADER_BYTES = 100;

interface Opened {
  db: Database.Database;
  /** The file or its folder cannot be written: opened read-only, every write is refused. */
  readOnly: boolean;
  /** quick_check did not run at open (large file): run it in the background. */
  checkLater: boolean;
  /** Which of -wal/-shm existed before this open. */
  sidecarsBefore: Sidecars;
}

export interface Sidecars {
  wal: boolean;
  shm: boolean;
}

const NO_SIDECARS: Sidecars = { wal: false, shm: false };

/**
 * Opens (or creates) the database and migrates it, refusing — without writing anything —
 * a file that is not SQLite, is damaged, or whose schema is newer than this build knows.
 * Every check of an existing file runs on a read-only connection (which cannot checkpoint a
 * WAL or write a header); only an acceptable, writable file is then reopened read-write.
 */
export function openChecked(path: string, syncCheckMaxBytes: number): Opened {
  if (path === ':memory:' || path.startsWith('file:')) {
    return { db: openWritable(path, false), readOnly: false, checkLater: false, sidecarsBefore: NO_SIDECARS };
  }
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw openError(path, err);
    create(path);
    stat = statSync(path);
  }
  if (!stat.isFile()) {
    const what = stat.isDirectory() ? '是一个文件夹' : '不是普通文件';
    throw new LedgerOpenError('open_failed', `无法打开账本文件：${path}${what}，不是账本。它未被改动，请检查或更换数据目录。`, path);
  }
  if (stat.size === 0) {
    throw new LedgerOpenError(
      'empty_file',
      `账本文件是空的（0 字节）：${path}。文件未被改动。如有备份，请从备份恢复；若这是新账本，把这个文件移走后随口记会新建账本。`,
      path,
    );
  }
  const header = readHeader(path);
  if (header.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
    throw new LedgerOpenError('not_a_database', `账本文件不是有效的数据库：${path}。文件未被改动，请检查或更换数据目录。`, path);
  }
  const walBytes = sizeOf(`${path}-wal`);
  if (truncated(header, stat.size, walBytes)) throw corruptError(path, '文件不完整，比它记录的长度短');
  // Before SQLite holds the file: closing another descriptor of it would drop SQLite's locks.
  const writable = canWrite(path);
  const before = sidecars(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new LedgerOpenError(
        'schema_too_new',
        `账本文件来自更新版本的随口记（数据版本 ${version}，本程序支持 ${SCHEMA_VERSION}）：${path}。请升级应用；文件未被改动。`,
        path,
      );
    }
    const checkNow = stat.size + walBytes <= syncCheckMaxBytes;
    if (checkNow) {
      const problems = quickCheck(db);
      if (problems) throw corruptError(path, problems);
    }
    if (!writable && version < SCHEMA_VERSION) {
      throw new LedgerOpenError(
        'read_only',
        `账本文件是只读的，而它需要升级数据格式才能使用：${path}。文件未被改动，请检查文件权限或更换数据目录。`,
        path,
      );
    }
    if (!writable) {
      db.pragma('foreign_keys = ON');
      return { db, readOnly: true, checkLater: !checkNow, sidecarsBefore: before };
    }
    db.close();
    return { db: openWritable(path, true), readOnly: false, checkLater: !checkNow, sidecarsBefore: before };
  } catch (err) {
    if (db?.open) db.close();
    restoreSidecars(path, before);
    throw openError(path, err);
  }
}

/**
 * A new ledger is built beside its final name and renamed into place once migrated and
 * closed: a crash while creating it leaves no ledger.db at all (the next start creates it
 * again), never an empty or half-made one — which is why an empty ledger.db is refused.
 */
function create(path: string): void {
  const temp = `${path}.creating`;
  const clear = () => {
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`]) rmSync(leftover, { force: true });
  };
  try {
    clear();
  } catch (err) {
    throw openError(path, err);
  }
  try {
    openWritable(temp, false, path).close();
  } catch (err) {
    clear();
    throw err;
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    clear();
    throw openError(path, err);
  }
}

/** `shown`: the path error messages name (the final one while creating under a temporary name). */
function openWritable(path: string, mustExist: boolean, shown = path): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: mustExist });
  } catch (err) {
    throw openError(shown, err);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Every write that fires triggers (all of them: balances, the sync journal) keeps a
    // statement journal, spilled past 64 KiB to a temp file of its own: a catch-up of 1 000
    // recurring entries spent two thirds of its time creating and truncating those files.
    // Set before the journal's TEMP triggers exist: changing it later drops them.
    db.pragma('temp_store = MEMORY');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      db.transaction(() => {
        db.exec(m.up);
        db.pragma(`user_version = ${m.version}`);
      })();
    }
    return db;
  } catch (err) {
    if (db.open) db.close();
    throw openError(shown, err);
  }
}

/** The first bytes of the file, read on their own: a multi-GB file costs the same as a small one. */
function readHeader(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw openError(path, err);
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    return header.subarray(0, readSync(fd, header, 0, HEADER_BYTES, 0));
  } catch (err) {
    throw openError(path, err);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file shorter than the page count its header records was cut short — unless a WAL is
 * there, which may hold the missing pages until its next checkpoint.
 */
function truncated(header: Buffer, size: number, walBytes: number): boolean {
  if (header.length < HEADER_BYTES) return true;
  if (walBytes > 0) return false;
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = header.readUInt32BE(28);
  // The page count is only kept up to date when version-valid-for matches the change counter.
  const valid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  return valid && pages * pageSize > size;
}

/**
 * Whether this process may write the file and create the -wal/-shm beside it. The file is
 * opened for writing (and closed, unchanged), which sees what access(2) misses: the effective
 * user, ACLs, read-only mounts and immutable files.
 */
function canWrite(path: string): boolean {
  try {
    closeSync(openSync(path, 'r+'));
    accessSync(dirname(path), fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function sidecars(path: string): Sidecars {
  return { wal: existsSync(`${path}-wal`), shm: existsSync(`${path}-shm`) };
}

/**
 * Opening a WAL ledger, even read-only, creates an empty -wal and an -shm beside it: after a
 * refusal, or when a read-only ledger closes, the ones this open created go again, so the
 * folder is left as it was found.
 */
export function restoreSidecars(path: string, before: Sidecars): void {
  try {
    if (!before.wal && existsSync(`${path}-wal`) && sizeOf(`${path}-wal`) === 0) unlinkSync(`${path}-wal`);
    if (!before.shm && existsSync(`${path}-shm`)) unlinkSync(`${path}-shm`);
  } catch {
    // Leftover empty companions are harmless; the ledger file itself was not touched.
  }
}

/** The problems quick_check reports (at most 5), or null when the file is sound. */
function quickCheck(db: Database.Database): string | null {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  if (rows.length === 1 && rows[0]!.quick_check === 'ok') return null;
  return rows.map((r) => r.quick_check).join('；');
}

function corruptError(path: string, detail: string): LedgerOpenError {
  return new LedgerOpenError(
    'corrupt',
    `账本文件已损坏，无法安全使用：${path}（${brief(detail)}）。随口记没有改动这个文件。` +
      '请用最新的备份恢复：账本旁的 backups 文件夹里保存着最近的备份，先把损坏的 ledger.db 改名保留，再把最新的备份复制为 ledger.db；' +
      '备份之后记的账，可以用 SQLite 工具（如 sqlite3 的 .recover 命令）从保留的文件中导出仍可读取的部分。',
    path,
  );
}

/** SQLite's report on one line, cut to a readable length. */
function brief(detail: string): string {
  const line = detail.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** Damage found by the background check while the app runs: writes stop, reads go on. */
export function damagedError(path: string, detail: string): LedgerOpenError {
  return new LedgerOpenError(
    'corrupt',
    `账本文件已损坏：${path}（${brief(detail)}）。为免损坏扩大，随口记已停止写入它；已记的账仍可查看。` +
      '请先导出仍可读取的记录（导出 CSV），再在「设置 → 从备份恢复」中恢复最新的备份。',
    path,
  );
}

/** Any failure while opening, as the LedgerOpenError the shell shows. */
function openError(path: string, err: unknown): LedgerOpenError {
  if (err instanceof LedgerOpenError) return err;
  const code = String((err as { code?: unknown }).code ?? '');
  const message = (err as Error).message;
  if (code === 'SQLITE_NOTADB') {
    return new LedgerOpenError('not_a_database', `账本文件已损坏或不是数据库：${path}。文件未被改动。`, path);
  }
  if (code.startsWith('SQLITE_CORRUPT')) return corruptError(path, message);
  if (code === 'SQLITE_READONLY_DIRECTORY' || code === 'EROFS') {
    return new LedgerOpenError(
      'read_only',
      `账本所在的文件夹是只读的，随口记无法打开账本：${path}。文件未被改动，请检查文件夹权限或更换数据目录。`,
      path,
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new LedgerOpenError('open_failed', `没有权限读取账本文件：${path}。文件未被改动，请检查文件权限或更换数据目录。`, path);
  }
  return new LedgerOpenError('open_failed', `无法打开账本文件：${path}（${message}）。文件未被改动，请检查或更换数据目录。`, path);
}

/**
 * The connection as the ledger uses it: a statement that would write throws the ledger's
 * refusal (read-only file, damage found after open) before it runs, whichever method — or
 * caller of `database` — prepared it. Read-only statements are the driver's own.
 */
export function guardWrites(db: Database.Database, refusal: () => LedgerWriteRefusedError | null): Database.Database {
  const check = () => {
    const reason = refusal();
    if (reason) throw reason;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => {
          const stmt = target.prepare(sql);
          return stmt.readonly ? stmt : guardStatement(stmt, check);
        };
      }
      if (prop === 'exec') {
        return (sql: string) => {
          check();
          target.exec(sql);
          return db;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as AnyFunction).bind(target) : value;
    },
  });
}

type AnyFunction = (...args: unknown[]) => unknown;

const RUNS = new Set<PropertyKey>(['run', 'get', 'all', 'iterate']);

function guardStatement(stmt: Database.Statement, check: () => void): Database.Statement {
  const guarded: Database.Statement = new Proxy(stmt, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (RUNS.has(prop)) check();
        const result = (value as AnyFunction).apply(target, args);
        // raw(), pluck() and the like return the statement: keep handing out the guarded one.
        return result === target ? guarded : result;
      };
    },
  });
  return guarded;
}

/** Runs PRAGMA quick_check on its own read-only connection; posts the problems or null. */
export const QUICK_CHECK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let result;
try {
  const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('quick_check(5)');
    result = rows.length === 1 && rows[0].quick_check === 'ok' ? { problems: null } : { problems: rows.map((r) => r.quick_check).join('；') };
  } finally {
    db.close();
  }
} catch (err) {
  const code = String(err && err.code);
  result = code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' ? { problems: String(err.message) } : { failed: String(err && err.message) };
}
parentPort.postMessage(result);
`;

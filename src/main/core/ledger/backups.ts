import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CodedError } from '@shared/errors';
import type { BackupInfo } from '@shared/ipc/backups';
import { SCHEMA_VERSION } from './migrations';
import { ATTACHMENTS_DIR } from './attachments';

/**
 * Automatic ledger backups and the staged restore.
 *
 * Backups are single-file copies in `<dataDir>/backups/ledger-YYYYMMDD-HHmmss.db` (local
 * time), made with SQLite's online backup API from the app's own connection, so the app
 * keeps writing while a copy is taken. Every copy is written under a temporary name,
 * switched to rollback-journal mode (one self-contained file), checked with
 * `PRAGMA quick_check` and only then renamed into place: a file with a backup's name is
 * always complete.
 *
 * A restore never swaps the open ledger: the chosen backup is copied (and checked) to
 * `<dataDir>/ledger.db.restore`, and the next start applies it before the ledger opens
 * (see applyPendingRestore), where a crash at any step leaves an intact ledger.
 *
 * Pictures kept with entries (attachments/<file>, never changed once written) go with the
 * copies: every backup makes sure `<dataDir>/backups/attachments/` holds the files its copy
 * refers to, shared by all copies, and pruning drops the files no kept copy refers to. A
 * restore puts back the files the restored ledger refers to.
 */

export const BACKUP_DIR = 'backups';
export const LEDGER_FILE = 'ledger.db';
export const RESTORE_FILE = 'ledger.db.restore';
const TMP_SUFFIX = '.tmp';
const NAME_RE = /^ledger-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(-before-restore)?\.db$/;
const HOUR_MS = 60 * 60 * 1000;

export class BackupError extends CodedError {}

export interface BackupRetention {
  /** Newest backup of each of the last N days that have one. */
  daily: number;
  /** Newest backup of each of the last N ISO weeks older than the kept days. */
  weekly: number;
  /** Copies taken before a restore (kept apart from the rotation). */
  beforeRestore: number;
}

export const DEFAULT_RETENTION: BackupRetention = { daily: 7, weekly: 4, beforeRestore: 3 };

interface ParsedName {
  name: string;
  /** Local wall-clock time of the copy. */
  date: Date;
  dayKey: string;
  weekKey: string;
  beforeRestore: boolean;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `ledger-YYYYMMDD-HHmmss[-before-restore].db` in local time. */
export function backupName(at: Date, beforeRestore = false): string {
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `ledger-${stamp}${beforeRestore ? '-before-restore' : ''}.db`;
}

/** ISO 8601 week of a local calendar day, as `YYYY-Www`. */
function isoWeekKey(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const weekYear = d.getUTCFullYear();
  const week = Math.ceil(((d.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 + 1) / 7);
  return `${weekYear}-W${pad(week)}`;
}

export function parseBackupName(name: string): ParsedName | null {
  const m = NAME_RE.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return { name, date, dayKey: `${y}-${pad(mo)}-${pad(d)}`, weekKey: isoWeekKey(y, mo, d), beforeRestore: m[7] !== undefined };
}

/** The backups to keep, by name: pure, so retention is tested without files. */
export function selectRetained(names: readonly string[], retention: BackupRetention = DEFAULT_RETENTION): Set<string> {
  const parsed = names.map(parseBackupName).filter((p): p is ParsedName => p !== null);
  const newestFirst = (a: ParsedName, b: ParsedName) => b.date.getTime() - a.date.getTime() || (a.name < b.name ? 1 : -1);
  const regular = parsed.filter((p) => !p.beforeRestore).sort(newestFirst);
  const keep = new Set<string>();
  const days = new Set<string>();
  const dailyWeeks = new Set<string>();
  for (const p of regular) {
    if (days.has(p.dayKey)) continue;
    if (days.size >= retention.daily) break;
    days.add(p.dayKey);
    dailyWeeks.add(p.weekKey);
    keep.add(p.name);
  }
  const weeks = new Set<string>();
  const oldestDaily = [...days].sort()[0];
  for (const p of regular) {
    if (oldestDaily === undefined || p.dayKey >= oldestDaily) continue;
    // "Beyond the dailies": a week that already has a kept daily gets no weekly copy.
    if (dailyWeeks.has(p.weekKey) || weeks.has(p.weekKey)) continue;
    if (weeks.size >= retention.weekly) break;
    weeks.add(p.weekKey);
    keep.add(p.name);
  }
  for (const p of parsed
    .filter((q) => q.beforeRestore)
    .sort(newestFirst)
    .slice(0, retention.beforeRestore))
    keep.add(p.name);
  return keep;
}

export interface VerifiedCopy {
  /** Rows in `transactions`, or null when the table is missing. */
  rows: number | null;
}

/**
 * Turns a fresh copy into a self-contained rollback-journal file and checks it. Throws when
 * the copy is damaged or from a newer schema; the caller deletes it.
 */
function finishCopy(path: string): VerifiedCopy {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError('backup_corrupt', `备份文件校验失败（${String(check)}）。`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new BackupError('backup_too_new', '这个备份来自更新版本的随口记，无法恢复。');
    return { rows: countRows(db) };
  } finally {
    db.close();
  }
}

function countRows(db: Database.Database): number | null {
  try {
    return (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } catch {
    return null;
  }
}

function fsyncPath(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Directories cannot be fsynced on every platform (Windows); the rename is still atomic.
  }
}

function removeQuietly(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Copies `source` (an open connection) with the online backup API to `dest` through a
 * temporary name: `dest` appears only once the copy is complete and checked.
 */
async function onlineCopy(source: Database.Database, dest: string, hooks: { onStep?: (remaining: number) => void } = {}): Promise<VerifiedCopy> {
  const tmp = dest + TMP_SUFFIX;
  removeQuietly(tmp);
  try {
    let last = Number.POSITIVE_INFINITY;
    let restarts = 0;
    await source.backup(tmp, {
      progress: ({ remainingPages }) => {
        hooks.onStep?.(remainingPages);
        // Another connection's write restarts the copy; after a few restarts copy the rest
        // in one step so a busy writer cannot starve the backup.
        if (remainingPages > last) restarts += 1;
        last = remainingPages;
        return restarts >= 3 ? 0x7fffffff : 1024;
      },
    });
    const verified = finishCopy(tmp);
    fsyncPath(tmp);
    renameSync(tmp, dest);
    return verified;
  } catch (err) {
    removeQuietly(tmp);
    removeQuietly(tmp + '-journal');
    removeQuietly(tmp + '-wal');
    removeQuietly(tmp + '-shm');
    throw err;
  }
}

export interface LedgerBackupsOptions {
  dataDir: string;
  /** The app's open ledger connection (Ledger.database). */
  source: () => Database.Database;
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
  retention?: BackupRetention;
  /** How often the running app checks that today has a backup; default one hour. */
  intervalMs?: number;
  /** Test hook: called after each backup step with the pages left. */
  onStep?: (remaining: number) => void;
}

export class LedgerBackups {
  readonly dir: string;
  private readonly now: () => Date;
  private readonly log: (message: string, err?: unknown) => void;
  private readonly retention: BackupRetention;
  private running: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | null = null;
  private disposed = false;
  private readonly rowCache = new Map<string, { key: string; rows: number | null }>();

  constructor(private readonly options: LedgerBackupsOptions) {
    this.dir = join(options.dataDir, BACKUP_DIR);
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => {});
    this.retention = options.retention ?? DEFAULT_RETENTION;
  }

  /**
   * Backs up now when today has no backup, then checks every interval (timer unref'ed).
   * The promise (which never rejects) settles when the first check is done.
   */
  start(): Promise<BackupInfo | null> {
    if (this.timer) clearInterval(this.timer);
    this.removeStaleTemporaries();
    const first = this.ensureToday().catch((err: unknown) => {
      this.log('automatic backup failed', err);
      return null;
    });
    this.timer = setInterval(() => {
      void this.ensureToday().catch((err: unknown) => this.log('automatic backup failed', err));
    }, this.options.intervalMs ?? HOUR_MS);
    this.timer.unref?.();
    return first;
  }

  /** Stops the timer and waits for a backup in progress (the ledger closes after this). */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running.catch(() => {});
  }

  /** Backup names on disk, newest first (only complete, well-named files). */
  names(): string[] {
    let entries: string[];
    try {
      entries = readdirSync(this.dir);
    } catch {
      return [];
    }
    return entries
      .map(parseBackupName)
      .filter((p): p is ParsedName => p !== null)
      .sort((a, b) => b.date.getTime() - a.date.getTime() || (a.name < b.name ? 1 : -1))
      .map((p) => p.name);
  }

  list(): BackupInfo[] {
    const out: BackupInfo[] = [];
    for (const name of this.names()) {
      const parsed = parseBackupName(name)!;
      const path = join(this.dir, name);
      let size: number;
      let mtime: number;
      try {
        const st = statSync(path);
        if (!st.isFile()) continue;
        size = st.size;
        mtime = st.mtimeMs;
      } catch {
        continue;
      }
      const d = parsed.date;
      out.push({
        name,
        takenAt: `${parsed.dayKey} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
        size,
        rows: this.rowsOf(path, `${size}:${mtime}`),
        kind: parsed.beforeRestore ? 'before-restore' : 'daily',
      });
    }
    return out;
  }

  /** Takes a backup now (serialised with any other), then applies the retention. */
  backupNow(): Promise<BackupInfo> {
    return this.serial(async () => {
      const info = await this.copy(false);
      this.prune();
      return info;
    });
  }

  /** Backs up when today (local) has no regular backup yet; null when it already has one. */
  ensureToday(): Promise<BackupInfo | null> {
    return this.serial(async () => {
      if (this.disposed) return null;
      const today = parseBackupName(backupName(this.now()))!.dayKey;
      const has = this.names().some((n) => {
        const p = parseBackupName(n)!;
        return !p.beforeRestore && p.dayKey === today;
      });
      if (has) return null;
      const info = await this.copy(false);
      this.prune();
      return info;
    });
  }

  /** Deletes backups outside the retention; returns the names removed. */
  prune(): string[] {
    const names = this.names();
    const keep = selectRetained(names, this.retention);
    const removed: string[] = [];
    for (const name of names) {
      if (keep.has(name)) continue;
      try {
        rmSync(join(this.dir, name), { force: true });
        rmSync(join(this.dir, name + '-wal'), { force: true });
        removed.push(name);
      } catch (err) {
        this.log(`could not remove old backup ${name}`, err);
      }
    }
    if (removed.length > 0) this.pruneAttachments();
    return removed;
  }

  /** Drops the pictures in backups/attachments that no remaining copy refers to. */
  private pruneAttachments(): void {
    const dir = join(this.dir, ATTACHMENTS_DIR);
    if (!existsSync(dir)) return;
    const wanted = new Set(this.names().flatMap((name) => attachmentFilesIn(join(this.dir, name))));
    for (const file of readdirSync(dir)) {
      if (!wanted.has(file)) removeQuietly(join(dir, file));
    }
  }

  /**
   * Copies a listed backup to ledger.db.restore (checked), to be applied at the next start.
   * Only names currently listed are accepted: nothing from the renderer becomes a path.
   */
  stageRestore(name: string): Promise<BackupInfo> {
    return this.serial(async () => {
      const info = this.list().find((b) => b.name === name);
      if (!info) throw new BackupError('backup_not_found', '找不到这个备份，请刷新列表后重试。');
      const staged = join(this.options.dataDir, RESTORE_FILE);
      const backup = new Database(join(this.dir, info.name), { readonly: true, fileMustExist: true });
      try {
        await onlineCopy(backup, staged);
      } catch (err) {
        if (err instanceof BackupError) throw err;
        this.log(`staging restore from ${name} failed`, err);
        throw new BackupError('backup_unreadable', '这个备份无法读取或已损坏，请选择其他备份。');
      } finally {
        backup.close();
      }
      fsyncPath(this.options.dataDir);
      return info;
    });
  }

  /** True when a restore is staged and waits for the next start. */
  restorePending(): boolean {
    return existsSync(join(this.options.dataDir, RESTORE_FILE));
  }

  private async copy(beforeRestore: boolean): Promise<BackupInfo> {
    mkdirSync(this.dir, { recursive: true });
    const at = this.now();
    const name = backupName(at, beforeRestore);
    const dest = join(this.dir, name);
    const verified = await onlineCopy(this.options.source(), dest, this.options.onStep ? { onStep: this.options.onStep } : {});
    // The copy's pictures: a picture deleted with its row after the copy was taken is still
    // in the folder until the next start's sweep, so every one the copy names is found.
    copyAttachments(join(this.options.dataDir, ATTACHMENTS_DIR), join(this.dir, ATTACHMENTS_DIR), attachmentFilesIn(dest));
    fsyncPath(this.dir);
    const size = statSync(dest).size;
    this.rowCache.set(dest, { key: `${size}:${statSync(dest).mtimeMs}`, rows: verified.rows });
    const parsed = parseBackupName(name)!;
    return {
      name,
      takenAt: `${parsed.dayKey} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`,
      size,
      rows: verified.rows,
      kind: beforeRestore ? 'before-restore' : 'daily',
    };
  }

  private rowsOf(path: string, key: string): number | null {
    const cached = this.rowCache.get(path);
    if (cached && cached.key === key) return cached.rows;
    let rows: number | null = null;
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        rows = countRows(db);
      } finally {
        db.close();
      }
    } catch {
      rows = null;
    }
    this.rowCache.set(path, { key, rows });
    return rows;
  }

  private removeStaleTemporaries(): void {
    let entries: string[];
    try {
      entries = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.includes(TMP_SUFFIX)) removeQuietly(join(this.dir, entry));
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.running.then(task, task);
    this.running = next.catch(() => {});
    return next;
  }
}

export interface AppliedRestore {
  /** The copy of the ledger as it was before the restore. */
  beforeRestore: string | null;
}

/**
 * Applies a staged restore; call before the ledger opens. Order matters for crashes:
 * 1. the current ledger is copied to backups/…-before-restore.db (complete or absent);
 * 2. its WAL is folded in and -wal/-shm removed, so ledger.db alone is the old ledger;
 * 3. ledger.db.restore is renamed over ledger.db (atomic).
 * A crash before 3 leaves the old ledger and the staged file (the next start tries again);
 * after 3, the new ledger. A staged file that fails its check is deleted, the old kept.
 */
export function applyPendingRestore(
  dataDir: string,
  options: { now?: () => Date; log?: (message: string, err?: unknown) => void } = {},
): AppliedRestore | null {
  const log = options.log ?? (() => {});
  const staged = join(dataDir, RESTORE_FILE);
  const ledgerPath = join(dataDir, LEDGER_FILE);
  removeQuietly(staged + TMP_SUFFIX);
  if (!existsSync(staged)) return null;
  try {
    const db = new Database(staged, { readonly: true, fileMustExist: true });
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
    } finally {
      db.close();
    }
  } catch (err) {
    log('the staged restore is damaged; keeping the current ledger', err);
    removeQuietly(staged);
    return null;
  }

  let beforeRestore: string | null = null;
  if (existsSync(ledgerPath)) {
    const dir = join(dataDir, BACKUP_DIR);
    mkdirSync(dir, { recursive: true });
    const name = backupName((options.now ?? (() => new Date()))(), true);
    const dest = join(dir, name);
    const tmp = dest + TMP_SUFFIX;
    removeQuietly(tmp);
    try {
      // Synchronous (the core starts synchronously): VACUUM INTO writes one consistent file
      // that includes what is still in the WAL, from a read-only connection.
      const db = new Database(ledgerPath, { readonly: true, fileMustExist: true });
      try {
        db.prepare('VACUUM INTO ?').run(tmp);
      } finally {
        db.close();
      }
      const check = new Database(tmp, { readonly: true, fileMustExist: true });
      try {
        if (check.pragma('quick_check', { simple: true }) !== 'ok') throw new Error('copy failed quick_check');
      } finally {
        check.close();
      }
    } catch (err) {
      // The current file cannot be read as a database: keep its bytes as they are.
      log('current ledger unreadable; keeping a plain copy before the restore', err);
      removeQuietly(tmp);
      try {
        copyFileSync(ledgerPath, tmp);
        if (existsSync(ledgerPath + '-wal')) copyFileSync(ledgerPath + '-wal', dest + '-wal');
      } catch (copyErr) {
        // No copy of the current file, no restore: both files stay as they are.
        log('could not keep the current ledger; the restore waits', copyErr);
        removeQuietly(tmp);
        return null;
      }
    }
    fsyncPath(tmp);
    renameSync(tmp, dest);
    fsyncPath(dir);
    beforeRestore = name;

    // Fold the WAL into the old file (the last connection to close checkpoints), so that
    // removing -wal/-shm loses nothing even if we stop right after.
    try {
      const db = new Database(ledgerPath, { fileMustExist: true });
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    } catch (err) {
      log('could not checkpoint the ledger before the restore', err);
    }
  }
  // The pictures of the ledger as it was go with its before-restore copy.
  if (beforeRestore) {
    copyAttachments(
      join(dataDir, ATTACHMENTS_DIR),
      join(dataDir, BACKUP_DIR, ATTACHMENTS_DIR),
      attachmentFilesIn(join(dataDir, BACKUP_DIR, beforeRestore)),
    );
  }
  removeQuietly(ledgerPath + '-wal');
  removeQuietly(ledgerPath + '-shm');
  removeQuietly(ledgerPath + '-journal');
  renameSync(staged, ledgerPath);
  fsyncPath(dataDir);
  // The restored ledger's pictures, from the backups' folder (the ones still here stay).
  copyAttachments(join(dataDir, BACKUP_DIR, ATTACHMENTS_DIR), join(dataDir, ATTACHMENTS_DIR), attachmentFilesIn(ledgerPath));
  log(`restored the ledger from a backup (previous ledger kept as ${beforeRestore ?? 'nothing'})`);
  return { beforeRestore };
}

/** The picture files a ledger file refers to (none for one from before pictures, or unreadable). */
export function attachmentFilesIn(path: string): string[] {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT file FROM attachments').pluck().all() as string[];
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

/**
 * Copies the named files that `to` lacks from `from`, each through a temporary name. Pictures
 * never change once written, so a file of that name is that picture. A file missing at `from`
 * is skipped: the entry shows without its picture, the rest is copied.
 */
export function copyAttachments(from: string, to: string, files: readonly string[]): number {
  let copied = 0;
  for (const file of files) {
    // Names come from a ledger file: only a plain name may become a path.
    if (!/^[A-Za-z0-9-]+\.[a-z]+$/.test(file)) continue;
    const source = join(from, file);
    const dest = join(to, file);
    if (existsSync(dest) || !existsSync(source)) continue;
    mkdirSync(to, { recursive: true });
    copyFileSync(source, dest + TMP_SUFFIX);
    renameSync(dest + TMP_SUFFIX, dest);
    copied++;
  }
  return copied;
}

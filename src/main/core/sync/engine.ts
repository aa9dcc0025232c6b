import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { SyncError } from './errors';
import { changesPayload, parseChanges, type FileHeader } from './files';
import { DeviceClock, skewError } from './hlc';
import type { Journal } from './journal';
import { Merger } from './merge';
import { dataFileName, KEY_FILE, parseDataFileName, TEMP_FILE, type DataFileName, type Remote, type RemoteListing } from './remote';
import { DEFAULT_KDF, deriveKey, newKdfParams, open, openToFile, passphraseMatches, seal, sealCheck, type KdfParams } from './seal';
import { AttachedSnapshot, buildSnapshot, buildSnapshotInWorker } from './snapshot';

export interface SyncEngineOptions {
  db: Database.Database;
  journal: Journal;
  /** The ledger file, so snapshots are built off the main thread; null for an in-memory ledger. */
  dbPath: string | null;
  remote: Remote;
  passphrase: string;
  deviceName: string;
  /** The wall clock, compared with the server's. */
  now?: () => number;
  /** scrypt cost for a NEW remote (tests use a cheaper one; the default is N = 2^17). */
  kdf?: Omit<KdfParams, 'salt'>;
  /** Own change files kept before they are compacted into a snapshot. */
  compactAfter?: number;
  /** Largest sealed file read from the remote. */
  maxFileBytes?: number;
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface RoundResult {
  /** Journal entries sent (for a first push, the snapshot's transactions). */
  pushed: number;
  /** Rows changed here by other devices' files. */
  pulled: number;
  filesRead: number;
  filesWritten: number;
}

const keyFileSchema = z
  .object({
    format: z.literal('suikouji-sync'),
    version: z.literal(1),
    remoteId: z.string().regex(/^[0-9a-f]{16}$/),
    kdf: z.object({ name: z.literal('scrypt'), N: z.number().int(), r: z.number().int(), p: z.number().int(), salt: z.string().max(64) }).strict(),
    check: z.string().max(512),
  })
  .strict();
type KeyFile = z.infer<typeof keyFileSchema>;

const MAX_FILE_BYTES = 256 * 1024 * 1024;
const MAX_PLAIN_BYTES = 1024 * 1024 * 1024;
const MAX_CHANGES_PER_FILE = 20_000;

/**
 * One sync round against the remote: list (one request), open the key file once, apply the
 * other devices' new files in order, push this device's journal as its next file, and
 * compact this device's files into a snapshot when they pile up. An idle round — nothing
 * new anywhere — is the listing alone.
 */
export class SyncEngine {
  private readonly db: Database.Database;
  private readonly journal: Journal;
  private readonly remote: Remote;
  private readonly merger: Merger;
  private readonly now: () => number;
  private key: { remoteId: string; key: Buffer; check: string } | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    this.db = options.db;
    this.journal = options.journal;
    this.remote = options.remote;
    this.merger = new Merger(this.db, this.journal);
    this.now = options.now ?? Date.now;
  }

  get device(): string {
    return this.journal.deviceId;
  }

  /**
   * Checks the remote without changing anything: reachable, logged in, and — when it holds
   * books already — the passphrase. Returns whether books exist there.
   */
  async probe(): Promise<{ existing: boolean }> {
    let listing: RemoteListing;
    try {
      listing = await this.remote.list();
    } catch (err) {
      if (err instanceof SyncError && err.code === 'not_found') return { existing: false };
      throw err;
    }
    if (!listing.entries.some((e) => e.name === KEY_FILE)) return { existing: false };
    const keyFile = await this.readKeyFile();
    await this.unlock(keyFile);
    return { existing: true };
  }

  async round(): Promise<RoundResult> {
    const result: RoundResult = { pushed: 0, pulled: 0, filesRead: 0, filesWritten: 0 };
    const listing = await this.list();
    const { remoteId, key } = await this.keyFor(listing, result);
    let files = listing.entries.map(parseDataFileName).filter((f): f is DataFileName => f !== null);
    const refused = await this.pull(files, remoteId, key, result);
    const written = await this.push(files, listing, remoteId, key, result);
    files = [...files, ...written];
    await this.compact(files, listing, remoteId, key, result);
    this.journal.setState('clock', this.journal.clock.lastSent());
    // One device's bad file stops that device's files only; the round says so once the rest is done.
    if (refused) throw refused;
    this.journal.setState('last_sync', new Date(this.now()).toISOString());
    return result;
  }

  /** The listing; on the very first round the sync folder is created when missing. */
  private async list(): Promise<RemoteListing> {
    try {
      return await this.remote.list();
    } catch (err) {
      if (!(err instanceof SyncError) || err.code !== 'not_found' || this.journal.state('key_file') !== null) throw err;
      await this.remote.ensureFolder();
      return this.remote.list();
    }
  }

  /** A snapshot now, whatever the thresholds, and this device's superseded files removed. */
  async compactNow(): Promise<RoundResult> {
    const result: RoundResult = { pushed: 0, pulled: 0, filesRead: 0, filesWritten: 0 };
    const listing = await this.list();
    const { remoteId, key } = await this.keyFor(listing, result);
    const files = listing.entries.map(parseDataFileName).filter((f): f is DataFileName => f !== null);
    await this.compact(files, listing, remoteId, key, result, true);
    return result;
  }

  // ---- the key ------------------------------------------------------------------------

  private async keyFor(listing: RemoteListing, result: RoundResult): Promise<{ remoteId: string; key: Buffer }> {
    const cachedText = this.journal.state('key_file');
    const cached = cachedText ? keyFileSchema.safeParse(JSON.parse(cachedText)) : null;
    let keyFile: KeyFile;
    if (listing.entries.some((e) => e.name === KEY_FILE)) {
      keyFile = cached?.success && this.key?.remoteId === cached.data.remoteId ? cached.data : await this.readKeyFile();
      if (!cached?.success || cached.data.remoteId !== keyFile.remoteId) result.filesRead += 1;
    } else if (cached?.success) {
      // The remote lost everything (emptied by hand, a new server at the same address): put the
      // same key back and push the whole books again.
      keyFile = cached.data;
      await this.remote.ensureFolder();
      if (!(await this.remote.create(KEY_FILE, Buffer.from(JSON.stringify(keyFile))))) keyFile = await this.readKeyFile();
      this.journal.setState('pushed_remote', null);
      result.filesWritten += 1;
    } else {
      const kdf = newKdfParams(this.options.kdf ?? DEFAULT_KDF);
      const remoteId = randomBytes(8).toString('hex');
      const key = await deriveKey(this.options.passphrase, kdf);
      keyFile = { format: 'suikouji-sync', version: 1, remoteId, kdf, check: sealCheck(key, remoteId) };
      await this.remote.ensureFolder();
      if (await this.remote.create(KEY_FILE, Buffer.from(JSON.stringify(keyFile)))) {
        this.key = { remoteId, key, check: keyFile.check };
        result.filesWritten += 1;
      } else {
        keyFile = await this.readKeyFile(); // another device set it up at the same moment
      }
    }
    const key = await this.unlock(keyFile);
    if (this.journal.state('remote_id') !== keyFile.remoteId) {
      // Another remote than last time: start over with it (the books themselves stay).
      this.db.transaction(() => {
        this.db.prepare('UPDATE sync_peers SET applied = 0').run();
        this.journal.setState('remote_id', keyFile.remoteId);
        this.journal.setState('pushed_remote', null);
      })();
    }
    this.journal.setState('key_file', JSON.stringify(keyFile));
    return { remoteId: keyFile.remoteId, key };
  }

  private async readKeyFile(): Promise<KeyFile> {
    const bytes = await this.remote.read(KEY_FILE, 64 * 1024);
    let parsed;
    try {
      parsed = keyFileSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) throw new SyncError('refused_file', `远端的 ${KEY_FILE} 不是随口记的同步密钥文件，已拒绝。`);
    return parsed.data;
  }

  /** Derives the key (once per process) and proves the passphrase before anything is applied. */
  private async unlock(keyFile: KeyFile): Promise<Buffer> {
    if (this.key && this.key.remoteId === keyFile.remoteId && this.key.check === keyFile.check) return this.key.key;
    const key = await deriveKey(this.options.passphrase, keyFile.kdf);
    if (!passphraseMatches(key, keyFile.remoteId, keyFile.check)) {
      throw new SyncError('wrong_passphrase', '同步密码不对：请输入第一台设备设置同步时用的同步密码。');
    }
    this.key = { remoteId: keyFile.remoteId, key, check: keyFile.check };
    return key;
  }

  // ---- pull ---------------------------------------------------------------------------

  private applied(): Map<string, number> {
    return new Map((this.db.prepare('SELECT device, applied FROM sync_peers').raw(true).all() as [string, number][]).map(([d, n]) => [d, n]));
  }

  /** Applies what is new; returns the first refusal (a bad file, a clock far ahead) of a device whose files stopped there. */
  private async pull(files: DataFileName[], remoteId: string, key: Buffer, result: RoundResult): Promise<SyncError | null> {
    let refused: SyncError | null = null;
    const devices = [...new Set(files.map((f) => f.device))];
    const snapshotOf = (d: string) => files.filter((f) => f.device === d && f.kind === 'snapshot').sort((a, b) => b.seq - a.seq)[0];
    // The largest snapshot first: a joining device then needs that one plus recent changes.
    devices.sort((a, b) => (snapshotOf(b)?.size ?? 0) - (snapshotOf(a)?.size ?? 0));
    const plan = (d: string, applied: number) => {
      const changes = files.filter((f) => f.device === d && f.kind === 'changes' && f.seq > applied).sort((a, b) => a.seq - b.seq);
      const snapshot = snapshotOf(d);
      const needSnapshot = snapshot !== undefined && snapshot.seq > applied && (changes.length === 0 || changes[0]!.seq !== applied + 1);
      return { changes, snapshot: needSnapshot ? snapshot : undefined };
    };
    let total = devices.reduce((n, d) => {
      const p = plan(d, this.applied().get(d) ?? 0);
      return n + p.changes.length + (p.snapshot ? 1 : 0);
    }, 0);
    let done = 0;
    const progress = () => total > 0 && this.options.onProgress?.({ done, total: Math.max(total, done) });
    progress();
    const pullDevice = async (d: string): Promise<void> => {
      let applied = this.applied().get(d) ?? 0;
      const p = plan(d, applied);
      if (p.snapshot) {
        result.pulled += await this.applyFile(p.snapshot, remoteId, key);
        result.filesRead += 1;
        done += 1;
        progress();
        applied = this.applied().get(d) ?? 0;
      }
      for (const file of p.changes) {
        if (file.seq <= applied) {
          total -= 1;
          continue;
        }
        // A gap no snapshot covers is a file still on its way (a synced folder): wait for it.
        if (file.seq !== applied + 1) break;
        result.pulled += await this.applyFile(file, remoteId, key);
        result.filesRead += 1;
        applied = file.seq;
        done += 1;
        progress();
      }
    };
    for (const d of devices) {
      try {
        await pullDevice(d);
      } catch (err) {
        if (!(err instanceof SyncError) || (err.code !== 'refused_file' && err.code !== 'clock_skew')) throw err;
        refused ??= err;
      }
    }
    return refused;
  }

  /** Reads, opens and checks a whole file, then applies it in ONE transaction (or nothing of it). */
  private async applyFile(file: DataFileName, remoteId: string, key: Buffer): Promise<number> {
    const limit = this.options.maxFileBytes ?? MAX_FILE_BYTES;
    if (file.size > limit) throw new SyncError('refused_file', `远端文件 ${file.name} 过大（${file.size} 字节），已拒绝。`);
    const sealed = await this.remote.read(file.name, limit);
    if (file.kind === 'snapshot') return this.applySnapshot(file, key, remoteId, sealed);
    const payload = parseChanges(open(key, remoteId, file.name, sealed, MAX_PLAIN_BYTES), file);
    this.observe(file, payload.maxTs);
    return this.db.transaction(() => {
      const changed = this.merger.merge(payload.changes);
      this.upsertPeer({ device: file.device, name: file.device === this.device ? '' : payload.name, applied: file.seq, seen: payload.at });
      return changed;
    })();
  }

  /**
   * A snapshot is an SQLite file: written next to the ledger (a temp folder for an in-memory
   * one), attached, checked and merged in one transaction, then detached and removed.
   */
  private async applySnapshot(file: DataFileName, key: Buffer, remoteId: string, sealed: Buffer): Promise<number> {
    const path = this.options.dbPath ? `${this.options.dbPath}.sync-in` : join(tmpdir(), `suikouji-sync-in-${randomBytes(8).toString('hex')}.db`);
    try {
      await openToFile(key, remoteId, file.name, sealed, path, MAX_PLAIN_BYTES);
      const snapshot = AttachedSnapshot.attach(this.db, path, file.name, file);
      try {
        this.observe(file, snapshot.maxTs);
        const own = file.device === this.device;
        return this.merger.applySnapshot(snapshot, () => {
          for (const p of snapshot.peers) this.upsertPeer({ device: p.device, name: p.name, applied: p.applied, seen: p.lastSeen });
          this.upsertPeer({ device: file.device, name: own ? '' : snapshot.header.name, applied: file.seq, seen: snapshot.header.at });
        });
      } finally {
        snapshot.detach();
      }
    } finally {
      await rm(path, { force: true });
    }
  }

  /** The clock moves past what a file carries (a file stamped far ahead is refused). */
  private observe(file: DataFileName, maxTs: string): void {
    if (file.device !== this.device) this.journal.clock.recv(maxTs);
    else this.journal.clock.advancePast(maxTs);
  }

  private upsertPeer(peer: { device: string; name: string; applied: number; seen: string | null }): void {
    this.db
      .prepare(
        `INSERT INTO sync_peers (device, name, applied, last_seen) VALUES (@device, @name, @applied, @seen)
         ON CONFLICT (device) DO UPDATE SET
           name = CASE WHEN @name = '' THEN name ELSE @name END,
           applied = MAX(applied, @applied),
           last_seen = CASE WHEN last_seen IS NULL OR (@seen IS NOT NULL AND @seen > last_seen) THEN @seen ELSE last_seen END`,
      )
      .run(peer);
  }

  // ---- push ---------------------------------------------------------------------------

  private nextSeq(files: DataFileName[]): number {
    const own = files.filter((f) => f.device === this.device).map((f) => f.seq);
    return Math.max(this.applied().get(this.device) ?? 0, ...own) + 1;
  }

  private head(seq: number): FileHeader {
    return { device: this.device, name: this.options.deviceName, seq, at: new Date(this.now()).toISOString() };
  }

  private checkClock(listing: RemoteListing): void {
    if (this.journal.clock.skewed) throw skewError(0);
    if (listing.serverTime !== null && Math.abs(listing.serverTime - this.now()) > DeviceClock.MAX_DRIFT_MS) {
      throw skewError(this.now() - listing.serverTime);
    }
  }

  private async push(files: DataFileName[], listing: RemoteListing, remoteId: string, key: Buffer, result: RoundResult): Promise<DataFileName[]> {
    const firstPush = this.journal.state('pushed_remote') !== remoteId;
    const pending = this.journal.pendingCount();
    if (!firstPush && pending === 0) return [];
    this.checkClock(listing);
    const written: DataFileName[] = [];
    if (firstPush) {
      // This device's whole books, once: rows it had before syncing (joining merges them in).
      const seq = this.nextSeq(files);
      const lastId = this.db.prepare('SELECT COALESCE(MAX(id), 0) FROM sync_outbox').pluck().get() as number;
      written.push(await this.writeSnapshot(seq, remoteId, key));
      this.db.transaction(() => {
        this.db.prepare('DELETE FROM sync_outbox WHERE id <= ?').run(lastId);
        this.markPushed(seq);
        this.journal.setState('pushed_remote', remoteId);
      })();
      result.pushed += this.db.prepare('SELECT COUNT(*) FROM transactions').pluck().get() as number;
      result.filesWritten += 1;
      return written;
    }
    for (;;) {
      const entries = this.db.prepare('SELECT id, ts, tbl, row, vals FROM sync_outbox ORDER BY id LIMIT ?').all(MAX_CHANGES_PER_FILE) as {
        id: number;
        ts: string;
        tbl: string;
        row: string;
        vals: string;
      }[];
      if (entries.length === 0) break;
      const seq = this.nextSeq([...files, ...written]);
      const name = dataFileName(this.device, 'changes', seq);
      const sealed = seal(key, remoteId, name, changesPayload(this.head(seq), entries));
      await this.remote.write(name, sealed);
      // Entries written meanwhile have larger ids and stay for the next file.
      this.db.transaction(() => {
        this.db.prepare('DELETE FROM sync_outbox WHERE id <= ?').run(entries.at(-1)!.id);
        this.markPushed(seq);
      })();
      written.push({ name, device: this.device, kind: 'changes', seq, size: sealed.length });
      result.pushed += entries.length;
      result.filesWritten += 1;
    }
    return written;
  }

  private markPushed(seq: number): void {
    this.db
      .prepare(
        `INSERT INTO sync_peers (device, name, applied, last_seen) VALUES (?, ?, ?, ?)
         ON CONFLICT (device) DO UPDATE SET name = excluded.name, applied = MAX(applied, excluded.applied), last_seen = excluded.last_seen`,
      )
      .run(this.device, this.options.deviceName, seq, new Date(this.now()).toISOString());
  }

  private async writeSnapshot(seq: number, remoteId: string, key: Buffer): Promise<DataFileName> {
    const name = dataFileName(this.device, 'snapshot', seq);
    const head = this.head(seq);
    const zipped = this.options.dbPath ? await buildSnapshotInWorker(this.db, this.options.dbPath, head) : buildSnapshot(this.db, head);
    const sealed = seal(key, remoteId, name, zipped, true);
    await this.remote.write(name, sealed);
    return { name, device: this.device, kind: 'snapshot', seq, size: sealed.length };
  }

  // ---- compaction ---------------------------------------------------------------------

  /**
   * Once this device's change files pile up — in number, or in bytes against its last
   * snapshot — one snapshot replaces them (a new device then downloads it instead of every
   * change ever made) and this device removes its own superseded files, never another
   * device's. The most recent change files stay a while: a device that is only a little
   * behind keeps reading small change files instead of the whole snapshot.
   */
  private async compact(
    files: DataFileName[],
    listing: RemoteListing,
    remoteId: string,
    key: Buffer,
    result: RoundResult,
    force = false,
  ): Promise<void> {
    const mine = files.filter((f) => f.device === this.device);
    const changes = mine.filter((f) => f.kind === 'changes').sort((a, b) => a.seq - b.seq);
    const snapshots = mine.filter((f) => f.kind === 'snapshot').sort((a, b) => b.seq - a.seq);
    const after = this.options.compactAfter ?? 50;
    const keep = Math.min(20, Math.floor(after / 2));
    let latest = snapshots[0];
    const since = changes.filter((f) => !latest || f.seq > latest.seq);
    const sinceBytes = since.reduce((n, f) => n + f.size, 0);
    // A large book's snapshot is costly to write and to read: small edits wait for more of them.
    const worthIt = !latest || sinceBytes * 4 >= latest.size || since.length >= after * 4;
    if (force || (since.length >= after && worthIt)) {
      const seq = this.applied().get(this.device) ?? 0;
      if (!latest || latest.seq < seq) {
        latest = await this.writeSnapshot(seq, remoteId, key);
        result.filesWritten += 1;
      }
    }
    const superseded = latest
      ? [...changes.filter((f) => f.seq <= latest.seq).slice(0, -keep || undefined), ...snapshots.filter((f) => f.seq < latest.seq)]
      : [];
    const stale = listing.entries.filter((e) => TEMP_FILE.test(e.name) && e.name.startsWith(`${this.device}.`)).map((e) => e.name);
    for (const name of [...superseded.map((f) => f.name), ...stale]) await this.remote.remove(name);
  }

  // ---- status -------------------------------------------------------------------------

  devices(): { id: string; name: string; lastSeen: string | null; self: boolean }[] {
    const rows = this.db.prepare('SELECT device, name, last_seen FROM sync_peers ORDER BY last_seen DESC').raw(true).all() as [
      string,
      string,
      string | null,
    ][];
    return rows.map(([id, name, lastSeen]) => ({
      id,
      name: id === this.device ? this.options.deviceName : name || '未命名设备',
      lastSeen,
      self: id === this.device,
    }));
  }
}

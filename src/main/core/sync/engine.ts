import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { SyncDevice, SyncWaiting } from '@shared/ipc/sync';
import { parseStateFile, statePayload, type PublishedState } from './device-state';
import { forgetKeptDigest, keptBooksDigest, type BooksDigest } from './digest';
import { SyncError } from './errors';
import { changesPayload, parseChanges, type FileHeader } from './files';
import { DeviceClock, skewError } from './hlc';
import type { Journal } from './journal';
import { Merger } from './merge';
import { OwnFiles, sha256, type OwnFile } from './own-files';
import {
  dataFileName,
  KEY_FILE,
  parseDataFileName,
  stateFileDevice,
  stateFileName,
  TEMP_FILE,
  type DataFileName,
  type Remote,
  type RemoteEntry,
  type RemoteListing,
} from './remote';
import { DEFAULT_KDF, deriveKey, newKdfParams, open, openToFile, passphraseMatches, seal, sealCheck, type KdfParams } from './seal';
import { AttachedSnapshot, buildSnapshot, buildSnapshotInWorker } from './snapshot';
import { WaitList } from './waiting';

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
  /** This device's own files the server had lost, cut or changed, written again this round. */
  rewritten: number;
  /** Other devices' changes this device cannot apply yet, and since when. */
  waiting: SyncWaiting[];
  /** This computer's clock minus the server's, ms; null when the server gives no time (a folder). */
  clockOffsetMs: number | null;
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
const STATE_FILE_BYTES = 256 * 1024;
/** A device not seen for this long no longer holds back the removal of superseded files. */
export const AWAY_MS = 90 * 24 * 3600_000;

/** A file the round could not apply: why, and whether the round must fail for it. */
interface Refusal {
  error: SyncError;
  file: DataFileName;
}

/**
 * One sync round against the remote: list (one request), open the key file once, apply the
 * other devices' new files in order, check this device's own files against the listing and
 * write again what the server lost, cut or changed, push this device's journal as its next
 * file (done only once the server shows it whole), compact this device's files into a
 * snapshot when they pile up, and publish what this device now holds (its books'
 * fingerprint, how far it has read). An idle round — nothing new anywhere — is the listing alone.
 */
export class SyncEngine {
  private readonly db: Database.Database;
  private readonly journal: Journal;
  private readonly remote: Remote;
  private readonly merger: Merger;
  private readonly own: OwnFiles;
  private readonly now: () => number;
  private key: { remoteId: string; key: Buffer; check: string } | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    this.db = options.db;
    this.journal = options.journal;
    this.remote = options.remote;
    this.merger = new Merger(this.db, this.journal);
    this.own = new OwnFiles(this.db);
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
    const result: RoundResult = { pushed: 0, pulled: 0, filesRead: 0, filesWritten: 0, rewritten: 0, waiting: [], clockOffsetMs: null };
    let listing = await this.list();
    result.clockOffsetMs = listing.serverTime === null ? null : this.now() - listing.serverTime;
    this.journal.setState('clock_offset', result.clockOffsetMs === null ? null : String(result.clockOffsetMs));
    const { remoteId, key, relist } = await this.keyFor(listing, result);
    if (relist) listing = await this.remote.list();
    let files = listing.entries.map(parseDataFileName).filter((f): f is DataFileName => f !== null);
    const listed = new Map(listing.entries.map((e) => [e.name, e]));
    const { refusals, waiting } = await this.pull(files, remoteId, key, result);
    result.waiting = waiting;
    await this.readStates(listing, remoteId, key, result);
    const state = this.publishable(result, refusals, listed);
    // The clock is checked before anything of this device goes out: it cannot stamp edits into the future.
    const writes = this.journal.pendingCount() > 0 || this.journal.state('pushed_remote') !== remoteId;
    if (writes) this.checkClock(listing);
    files = [...files, ...(await this.heal(files, listed, remoteId, key, result))];
    const written = await this.push(files, remoteId, key, result, state);
    files = [...files, ...written];
    await this.compact(files, listing, remoteId, key, result);
    if (written.length === 0) await this.publish(listed, remoteId, key, state, result);
    this.journal.setState('clock', this.journal.clock.lastSent());
    // One device's bad file stops that device's files only; the round says so once the rest is done.
    const refused = refusals.find((r) => r.error.code !== 'refused_file' || !this.remote.partialFiles || r.error.overdue);
    if (refused) throw Object.assign(refused.error, { result });
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
    const result: RoundResult = { pushed: 0, pulled: 0, filesRead: 0, filesWritten: 0, rewritten: 0, waiting: [], clockOffsetMs: null };
    const listing = await this.list();
    const { remoteId, key } = await this.keyFor(listing, result);
    const files = listing.entries.map(parseDataFileName).filter((f): f is DataFileName => f !== null);
    await this.compact(files, listing, remoteId, key, result, true);
    return result;
  }

  // ---- the key ------------------------------------------------------------------------

  /** The key; `relist` when this device took its own files away (it followed a new key file). */
  private async keyFor(listing: RemoteListing, result: RoundResult): Promise<{ remoteId: string; key: Buffer; relist: boolean }> {
    let relist = false;
    const cachedText = this.journal.state('key_file');
    const cached = cachedText ? keyFileSchema.safeParse(JSON.parse(cachedText)) : null;
    const listedKey = listing.entries.find((e) => e.name === KEY_FILE);
    const keyTag = listedKey ? tagOf(listedKey) : null;
    let keyFile: KeyFile;
    if (listedKey) {
      // Read once per process, and again whenever the listing shows it changed.
      const fresh = cached?.success && this.key?.remoteId === cached.data.remoteId && this.journal.state('key_tag') === keyTag;
      keyFile = fresh ? cached.data : await this.readKeyFile(this.remote.partialFiles && cached?.success ? cached.data : null);
      if (!fresh) result.filesRead += 1;
      if (cached?.success && !sameKeyFile(cached.data, keyFile)) relist = await this.keyChanged(keyFile, listing);
    } else if (cached?.success) {
      // The remote lost everything (emptied by hand, a new server at the same address): put the
      // same key back and push the whole books again.
      keyFile = cached.data;
      await this.remote.ensureFolder();
      if (!(await this.remote.create(KEY_FILE, Buffer.from(JSON.stringify(keyFile))))) keyFile = await this.readKeyFile();
      this.journal.setState('pushed_remote', null);
      this.own.clear();
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
        this.db
          .prepare(
            'UPDATE sync_peers SET applied = 0, digest = NULL, rows = NULL, progress = NULL, refused = NULL, reported_at = NULL, state_tag = NULL',
          )
          .run();
        this.journal.setState('remote_id', keyFile.remoteId);
        this.journal.setState('pushed_remote', null);
        this.journal.setState('adopted', null);
        this.journal.setState('published', null);
        this.own.clear();
      })();
    }
    this.journal.setState('key_file', JSON.stringify(keyFile));
    this.journal.setState('key_tag', keyTag);
    return { remoteId: keyFile.remoteId, key, relist };
  }

  /**
   * The key file differs from the one this device synced with. A device that was alone on
   * the old one (two new computers that set up one synced folder at the same moment, whose
   * sync tool then kept one key file) follows the new one when its passphrase opens it, and
   * takes its own files sealed under the old key away. A device that shared the old key with
   * others stops: following would leave their books behind, and nothing here can tell a
   * household's re-setup from a replaced file.
   */
  private async keyChanged(found: KeyFile, listing: RemoteListing): Promise<boolean> {
    // Alone: no other device ever seen here (its files, a snapshot's list, its state file).
    const shared = (this.db.prepare('SELECT COUNT(*) FROM sync_peers WHERE device <> ?').pluck().get(this.device) as number) > 0;
    let opens = false;
    if (!shared) {
      const key = await deriveKey(this.options.passphrase, found.kdf);
      opens = passphraseMatches(key, found.remoteId, found.check);
    }
    if (shared || !opens) {
      throw new SyncError(
        'key_changed',
        `同步位置的密钥文件（${KEY_FILE}）被替换或改动了，和本机之前同步时用的不一样，已暂停同步，本机账本没有变化。如果你在另一台电脑上重新设置了这个同步位置，请在本机“停止同步”后重新连接；否则请把这个文件恢复原样（例如从服务器的历史版本）。`,
      );
    }
    for (const e of listing.entries) {
      const f = parseDataFileName(e);
      if (f?.device === this.device || stateFileDevice(e.name) === this.device) await this.remote.remove(e.name);
    }
    return true;
  }

  /** `copying`: the key this device knows, used while a sync tool is still copying a key file in that does not parse yet. */
  private async readKeyFile(copying: KeyFile | null = null): Promise<KeyFile> {
    const bytes = await this.remote.read(KEY_FILE, 64 * 1024);
    let parsed;
    try {
      parsed = keyFileSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    } catch {
      parsed = null;
    }
    if (!parsed?.success && copying) return copying;
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

  /**
   * Applies what is new, per device in sequence. A gap in a device's sequence, or a file that
   * does not open, is waited for — reported, never silently — unless that device's newer
   * snapshot covers it, which is then applied instead. Returns the files refused.
   */
  private async pull(
    files: DataFileName[],
    remoteId: string,
    key: Buffer,
    result: RoundResult,
  ): Promise<{ refusals: Refusal[]; waiting: SyncWaiting[] }> {
    const refusals: Refusal[] = [];
    const waits = new WaitList(this.journal, this.now);
    const devices = [...new Set(files.map((f) => f.device))];
    const snapshotOf = (d: string) => files.filter((f) => f.device === d && f.kind === 'snapshot').sort((a, b) => b.seq - a.seq)[0];
    const changesOf = (d: string, after: number) =>
      files.filter((f) => f.device === d && f.kind === 'changes' && f.seq > after).sort((a, b) => a.seq - b.seq);
    // The largest snapshot first: a joining device then needs that one plus recent changes.
    devices.sort((a, b) => (snapshotOf(b)?.size ?? 0) - (snapshotOf(a)?.size ?? 0));
    let total = devices.reduce((n, d) => {
      const applied = this.applied().get(d) ?? 0;
      const changes = changesOf(d, applied);
      const snapshot = snapshotOf(d);
      return n + changes.length + (snapshot && snapshot.seq > applied && changes[0]?.seq !== applied + 1 ? 1 : 0);
    }, 0);
    let done = 0;
    const progress = () => total > 0 && this.options.onProgress?.({ done, total: Math.max(total, done) });
    progress();
    /** Applies one file; a refusal is returned, not thrown: a snapshot may still cover it. */
    const apply = async (f: DataFileName): Promise<SyncError | null> => {
      try {
        result.pulled += await this.applyFile(f, remoteId, key);
      } catch (err) {
        if (!refusable(err)) throw err;
        return err;
      }
      result.filesRead += 1;
      done += 1;
      progress();
      return null;
    };
    const pullDevice = async (d: string): Promise<void> => {
      const snapshot = snapshotOf(d);
      let snapshotTried = false;
      for (;;) {
        const applied = this.applied().get(d) ?? 0;
        const next = changesOf(d, applied)[0];
        let failed: SyncError | null = null;
        let file = next?.seq === applied + 1 ? next : undefined;
        if (file) {
          failed = await apply(file);
          if (!failed) continue;
        }
        // The next file is missing or does not open: a newer snapshot of the device covers it.
        if (snapshot && snapshot.seq > applied && !snapshotTried) {
          snapshotTried = true;
          const refused = await apply(snapshot);
          if (!refused) continue;
          failed ??= refused;
          file ??= snapshot;
        }
        if (failed && file) {
          const copying = this.remote.partialFiles === true && failed.code === 'refused_file';
          const waited = failed.code === 'refused_file' ? waits.note(d, file.seq, copying ? 'copying' : 'damaged') : null;
          refusals.push({
            error: Object.assign(failed, { overdue: failed.overdue === true || (copying && waited !== null && waits.overdue(waited)) }),
            file,
          });
        } else if (next) {
          // A gap no snapshot covers: lost by the server, or still on its way. Its writer puts it back.
          waits.note(d, applied + 1, 'missing');
        }
        // What was counted for this device and will not be read this round.
        const left = changesOf(d, applied).length;
        if (left > 0) {
          total -= left;
          progress();
        }
        return;
      }
    };
    for (const d of devices) await pullDevice(d);
    const waiting = waits.finish((d) => this.peerName(d));
    return { refusals, waiting };
  }

  private peerName(device: string): string {
    const name = this.db.prepare('SELECT name FROM sync_peers WHERE device = ?').pluck().get(device) as string | undefined;
    return name || '另一台设备';
  }

  /** Reads, opens and checks a whole file, then applies it in ONE transaction (or nothing of it). */
  private async applyFile(file: DataFileName, remoteId: string, key: Buffer): Promise<number> {
    const limit = this.options.maxFileBytes ?? MAX_FILE_BYTES;
    // Too large is final, not a file still being copied in.
    if (file.size > limit)
      throw Object.assign(new SyncError('refused_file', `远端文件 ${file.name} 过大（${file.size} 字节），已拒绝。`), { overdue: true });
    const sealed = await this.remote.read(file.name, limit);
    if (file.kind === 'snapshot') return this.applySnapshot(file, key, remoteId, sealed);
    const payload = parseChanges(open(key, remoteId, file.name, sealed, MAX_PLAIN_BYTES), file);
    this.observe(file, payload.maxTs);
    return this.db.transaction(() => {
      const changed = this.merger.merge(payload.changes);
      this.upsertPeer({ device: file.device, name: file.device === this.device ? '' : payload.name, applied: file.seq, seen: payload.at });
      if (payload.state && file.device !== this.device) this.notePeerState(file.device, payload.at, payload.state, null);
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
          // A new device that took the books whole holds nothing the others lack: it sends no copy back.
          if (this.merger.lastAdopted) this.journal.setState('adopted', remoteId);
          // Tables replaced or loaded whole: the fingerprint is read whole next time.
          forgetKeptDigest(this.db);
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

  // ---- what the devices publish -----------------------------------------------------

  /** Another device's published state (its row in sync_peers upserted first), kept when it is newer than what is known of it. */
  private notePeerState(device: string, at: string, state: PublishedState, tag: string | null): void {
    this.db
      .prepare(
        `UPDATE sync_peers SET digest = @digest, rows = @rows, progress = @progress, refused = @refused, reported_at = @at
         WHERE device = @device AND (reported_at IS NULL OR reported_at <= @at)`,
      )
      .run({ device, at, digest: state.digest, rows: state.rows, progress: JSON.stringify(state.applied), refused: JSON.stringify(state.refused) });
    if (tag !== null) this.db.prepare('UPDATE sync_peers SET state_tag = ? WHERE device = ?').run(tag, device);
  }

  /** Other devices' state files that changed since they were last read (advisory: one that does not open is skipped). */
  private async readStates(listing: RemoteListing, remoteId: string, key: Buffer, result: RoundResult): Promise<void> {
    const tags = new Map(this.db.prepare('SELECT device, state_tag FROM sync_peers').raw(true).all() as [string, string | null][]);
    for (const entry of listing.entries) {
      const device = stateFileDevice(entry.name);
      if (!device || device === this.device) continue;
      const tag = tagOf(entry);
      if (tags.get(device) === tag || entry.size > STATE_FILE_BYTES) continue;
      try {
        const sealed = await this.remote.read(entry.name, STATE_FILE_BYTES);
        result.filesRead += 1;
        const file = parseStateFile(open(key, remoteId, entry.name, sealed, STATE_FILE_BYTES * 4), { device, name: entry.name });
        this.db.transaction(() => {
          this.upsertPeer({ device, name: file.name, applied: 0, seen: file.at });
          this.notePeerState(device, file.at, file.state, tag);
        })();
      } catch (err) {
        if (!refusable(err) && !(err instanceof SyncError && err.code === 'changed_underneath')) throw err;
      }
    }
  }

  /** What this device publishes after this round: its books' fingerprint (recomputed only when they changed), how far it has read, what it refused. */
  private publishable(result: RoundResult, refusals: Refusal[], listed: ReadonlyMap<string, RemoteEntry>): PublishedState {
    // Kept up to date bucket by bucket: a round that changed a few rows re-reads a few buckets.
    const cached = keptBooksDigest(this.db);
    this.journal.setState('digest', JSON.stringify(cached));
    const applied = Object.fromEntries([...this.applied()].filter(([d, n]) => d !== this.device && n > 0));
    const refused = refusals
      .filter((r) => r.error.code === 'refused_file')
      .map((r) => ({ name: r.file.name, size: r.file.size, etag: listed.get(r.file.name)?.etag ?? null }));
    return { digest: cached.digest, rows: cached.rows, applied, refused };
  }

  private cachedDigest(): BooksDigest | null {
    try {
      const parsed = JSON.parse(this.journal.state('digest') ?? 'null') as BooksDigest | null;
      return parsed && typeof parsed.digest === 'string' && typeof parsed.rows === 'number' ? parsed : null;
    } catch {
      return null;
    }
  }

  /**
   * A round that wrote no change file but changed what this device would say (it applied
   * other devices' files, refused one, or its state file is gone) writes its state file.
   */
  /** This device's books are on this remote: it pushed them, or it joined by adopting them. */
  private joined(remoteId: string): boolean {
    return this.journal.state('pushed_remote') === remoteId || this.journal.state('adopted') === remoteId;
  }

  private async publish(
    listed: ReadonlyMap<string, RemoteEntry>,
    remoteId: string,
    key: Buffer,
    state: PublishedState,
    result: RoundResult,
  ): Promise<void> {
    if (!this.joined(remoteId)) return;
    const name = stateFileName(this.device);
    const text = JSON.stringify(state);
    // Said already — in a change file's header, or in the state file, which is still there.
    if (this.journal.state('published') === text && (this.journal.state('published_via') !== 'state' || listed.has(name))) return;
    const at = new Date(this.now()).toISOString();
    const sealed = seal(key, remoteId, name, statePayload({ v: 1, kind: 'state', device: this.device, name: this.options.deviceName, at, state }));
    await this.remote.write(name, sealed);
    this.journal.setState('published', text);
    this.journal.setState('published_via', 'state');
    result.filesWritten += 1;
  }

  // ---- this device's own files ----------------------------------------------------------

  /**
   * Every round checks the files of this device another device may still need against the
   * listing it already has — present, with the size and tag the server showed after the
   * write — and writes again what is missing, cut, changed, or what a device reported it
   * could not open: a change file from its kept bytes, anything else by a fresh snapshot.
   */
  private async heal(
    files: DataFileName[],
    listed: ReadonlyMap<string, RemoteEntry>,
    remoteId: string,
    key: Buffer,
    result: RoundResult,
  ): Promise<DataFileName[]> {
    if (!this.joined(remoteId)) return [];
    const at = new Date(this.now()).toISOString();
    this.own.adopt(
      files.filter((f) => f.device === this.device).map((f) => ({ ...f, etag: listed.get(f.name)?.etag ?? null })),
      at,
    );
    const problems = this.own.check(listed, this.refusedByOthers(listed));
    // Unconfirmed files the listing now shows whole (the check after the write failed): confirmed.
    const bad = new Set(problems.map((p) => p.file.name));
    for (const f of this.own.all())
      if (!f.verified && !bad.has(f.name) && listed.has(f.name)) this.own.confirm(f.name, listed.get(f.name)!.etag ?? null);
    if (problems.length === 0) return [];
    const written: DataFileName[] = [];
    let snapshot = false;
    for (const { file, problem } of problems) {
      if (file.kind === 'snapshot' && problem === 'changed' && file.sha256 && (await this.unchanged(file))) continue;
      const bytes = file.kind === 'changes' ? this.own.bytes(file.name) : null;
      if (!bytes) {
        snapshot = true;
        continue;
      }
      await this.writeConfirmed(file.name, bytes);
      written.push({ name: file.name, device: this.device, kind: 'changes', seq: file.seq, size: bytes.length });
      result.rewritten += 1;
      result.filesWritten += 1;
    }
    if (snapshot) {
      // A snapshot lost or damaged (or a change file whose bytes are no longer kept): a fresh one covers them.
      const seq = Math.max(this.nextSeq(files) - 1, 1);
      written.push(await this.writeSnapshot(seq, remoteId, key));
      result.rewritten += 1;
      result.filesWritten += 1;
    }
    return written;
  }

  /**
   * A snapshot whose tag changed but not its size: a server may give a file a new ETag without
   * changing it (a restore, a migration). Its bytes decide before a whole new snapshot is built.
   */
  private async unchanged(file: OwnFile): Promise<boolean> {
    try {
      const bytes = await this.remote.read(file.name, file.size);
      if (sha256(bytes) !== file.sha256) return false;
    } catch (err) {
      if (err instanceof SyncError && (err.code === 'refused_file' || err.code === 'changed_underneath')) return false;
      throw err;
    }
    const shown = await this.remote.stat(file.name);
    this.own.confirm(file.name, shown?.etag ?? null);
    return true;
  }

  /** Own files a device seen lately reported it could not open, as the listing still shows them. */
  private refusedByOthers(listed: ReadonlyMap<string, RemoteEntry>): Set<string> {
    const rows = this.db.prepare('SELECT refused FROM sync_peers WHERE device <> ? AND refused IS NOT NULL').pluck().all(this.device) as string[];
    const out = new Set<string>();
    for (const text of rows) {
      let list: PublishedState['refused'] = [];
      try {
        list = JSON.parse(text) as PublishedState['refused'];
      } catch {
        continue;
      }
      for (const r of list) {
        const entry = listed.get(r.name);
        // Only what the device saw is what is there now: once written again, the tag differs.
        if (entry && entry.size === r.size && (entry.etag ?? null) === r.etag && r.name.startsWith(`${this.device}.`)) out.add(r.name);
      }
    }
    return out;
  }

  /** Writes a file and holds it done only once the server shows it whole (else the round fails, the file kept for the next). */
  private async writeConfirmed(name: string, sealed: Buffer): Promise<void> {
    await this.remote.write(name, sealed);
    const shown = await this.remote.stat(name);
    if (!shown || shown.size !== sealed.length) {
      throw new SyncError(
        'server_error',
        `同步服务器说已保存 ${name}，但${shown ? `服务器上只有 ${shown.size} / ${sealed.length} 字节` : '服务器上没有这个文件'}：服务器可能出了问题。本机的更改已保留，下次同步会重新上传。`,
      );
    }
    this.own.confirm(name, shown.etag ?? null);
  }

  // ---- push ---------------------------------------------------------------------------

  private nextSeq(files: DataFileName[]): number {
    const own = files.filter((f) => f.device === this.device).map((f) => f.seq);
    return Math.max(this.applied().get(this.device) ?? 0, this.own.maxSeq(), ...own) + 1;
  }

  private head(seq: number): FileHeader {
    return { device: this.device, name: this.options.deviceName, seq, at: new Date(this.now()).toISOString() };
  }

  private checkClock(listing: RemoteListing): void {
    if (this.journal.clock.skewed) throw skewError(0);
    if (listing.serverTime !== null && Math.abs(listing.serverTime - this.now()) > DeviceClock.MAX_DRIFT_MS) {
      throw skewError(this.now() - listing.serverTime, '服务器');
    }
  }

  private async push(files: DataFileName[], remoteId: string, key: Buffer, result: RoundResult, state: PublishedState): Promise<DataFileName[]> {
    let firstPush = this.journal.state('pushed_remote') !== remoteId;
    if (firstPush && this.journal.state('adopted') === remoteId) {
      // Joined by adopting a snapshot: its books are the snapshot's; what it adds goes as change files.
      this.journal.setState('pushed_remote', remoteId);
      firstPush = false;
    }
    if (!firstPush && this.journal.pendingCount() === 0) return [];
    const written: DataFileName[] = [];
    if (firstPush) {
      // This device's whole books, once: rows it had before syncing (joining merges them in).
      const seq = this.nextSeq(files);
      const lastId = this.db.prepare('SELECT COALESCE(MAX(id), 0) FROM sync_outbox').pluck().get() as number;
      written.push(
        await this.writeSnapshot(seq, remoteId, key, () => {
          this.db.prepare('DELETE FROM sync_outbox WHERE id <= ?').run(lastId);
          this.markPushed(seq);
          this.journal.setState('pushed_remote', remoteId);
        }),
      );
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
      const sealed = seal(key, remoteId, name, changesPayload(this.head(seq), entries, state));
      const file: DataFileName = { name, device: this.device, kind: 'changes', seq, size: sealed.length };
      // Recorded with its bytes before it is written: entries written meanwhile have larger ids
      // and stay for the next file; if the write fails, the next round writes these bytes again.
      this.db.transaction(() => {
        this.own.record(file, sealed, { entries: entries.length, keepBytes: true, at: this.head(seq).at });
        this.db.prepare('DELETE FROM sync_outbox WHERE id <= ?').run(entries.at(-1)!.id);
        this.markPushed(seq);
      })();
      await this.writeConfirmed(name, sealed);
      written.push(file);
      result.pushed += entries.length;
      result.filesWritten += 1;
    }
    if (written.length > 0) {
      this.journal.setState('published', JSON.stringify(state));
      this.journal.setState('published_via', 'changes');
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

  /** A snapshot of the books as file `seq`, recorded (with `alongside`, in one transaction) before it is written, and confirmed. */
  private async writeSnapshot(seq: number, remoteId: string, key: Buffer, alongside: () => void = () => {}): Promise<DataFileName> {
    const name = dataFileName(this.device, 'snapshot', seq);
    const head = this.head(seq);
    const zipped = this.options.dbPath ? await buildSnapshotInWorker(this.db, this.options.dbPath, head) : buildSnapshot(this.db, head);
    const sealed = seal(key, remoteId, name, zipped, true);
    const file: DataFileName = { name, device: this.device, kind: 'snapshot', seq, size: sealed.length };
    this.db.transaction(() => {
      this.own.record(file, sealed, { keepBytes: false, at: head.at });
      alongside();
    })();
    await this.writeConfirmed(name, sealed);
    // Change files it covers need no kept bytes: a reader behind them takes the snapshot.
    this.own.dropBytesThrough(seq);
    return file;
  }

  // ---- compaction ---------------------------------------------------------------------

  /**
   * Once this device's change files pile up — in number, or in bytes against the book's
   * snapshot — one snapshot replaces them (a new device then downloads it instead of every
   * change ever made). Superseded files (change files the snapshot covers, older snapshots)
   * are removed once every device seen in the last 90 days has read past them: a device only
   * a little behind keeps reading small change files, one away longer takes the snapshot.
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
    let latest = snapshots[0];
    const since = changes.filter((f) => !latest || f.seq > latest.seq);
    const sinceBytes = since.reduce((n, f) => n + f.size, 0);
    // A large book's snapshot is costly to write and to read: small edits wait for more of them.
    const bookSize = latest?.size ?? Math.max(0, ...files.filter((f) => f.kind === 'snapshot').map((f) => f.size));
    const worthIt = sinceBytes * 4 >= bookSize || since.length >= after * 4;
    if (force || (since.length >= after && worthIt)) {
      const seq = this.applied().get(this.device) ?? 0;
      if (seq > 0 && (!latest || latest.seq < seq)) {
        latest = await this.writeSnapshot(seq, remoteId, key);
        result.filesWritten += 1;
      }
    }
    const progress = this.peersProgress();
    const movedPast = (seq: number) => progress.every((p) => p >= seq);
    const superseded = latest
      ? [...changes.filter((f) => f.seq <= latest.seq), ...snapshots.filter((f) => f.seq < latest.seq)]
          .filter((f) => movedPast(f.seq))
          .map((f) => f.name)
      : [];
    const stale = listing.entries.filter((e) => TEMP_FILE.test(e.name) && e.name.startsWith(`${this.device}.`)).map((e) => e.name);
    for (const name of [...superseded, ...stale]) await this.remote.remove(name);
    this.own.forget(superseded);
  }

  /** How far each other device seen in the last 90 days has read this device's files (0 where it has not said). */
  private peersProgress(): number[] {
    const rows = this.db.prepare('SELECT device, last_seen, progress FROM sync_peers WHERE device <> ?').raw(true).all(this.device) as [
      string,
      string | null,
      string | null,
    ][];
    const cutoff = this.now() - AWAY_MS;
    return rows
      .filter(([, seen]) => seen !== null && Date.parse(seen) >= cutoff)
      .map(([, , progress]) => {
        try {
          const map = JSON.parse(progress ?? '{}') as Record<string, number>;
          return typeof map[this.device] === 'number' ? map[this.device]! : 0;
        } catch {
          return 0;
        }
      });
  }

  // ---- status -------------------------------------------------------------------------

  /** Entries this device wrote that the server has not shown yet, plus those not written at all. */
  pending(): number {
    return this.journal.pendingCount() + this.own.unconfirmedEntries();
  }

  devices(): SyncDevice[] {
    const local = this.cachedDigest();
    const rows = this.db.prepare('SELECT device, name, last_seen, digest, rows FROM sync_peers ORDER BY last_seen DESC').raw(true).all() as [
      string,
      string,
      string | null,
      string | null,
      number | null,
    ][];
    // A device that joined by adopting the books has written nothing yet: it is listed all the same.
    if (!rows.some(([id]) => id === this.device)) rows.unshift([this.device, this.options.deviceName, this.journal.state('last_sync'), null, null]);
    return rows.map(([id, name, lastSeen, digest, count]) => {
      const self = id === this.device;
      return {
        id,
        name: self ? this.options.deviceName : name || '未命名设备',
        lastSeen,
        self,
        books: self || !digest || !local ? null : digest === local.digest ? 'same' : 'different',
        rows: self ? (local?.rows ?? null) : count,
      };
    });
  }

  /** What the last round found waiting, and the clock's offset then. */
  lastRound(): { waiting: SyncWaiting[]; clockOffsetMs: number | null } {
    const offset = this.journal.state('clock_offset');
    return { waiting: WaitList.last(this.journal, (d) => this.peerName(d)), clockOffsetMs: offset === null ? null : Number(offset) };
  }
}

/** Files that stop one device's sequence (damaged, from a clock far ahead, gone meanwhile), not the round. */
function refusable(err: unknown): err is SyncError {
  return err instanceof SyncError && (err.code === 'refused_file' || err.code === 'clock_skew');
}

/** What changes when a listed file does: its size and the server's tag. */
function tagOf(entry: RemoteEntry): string {
  return `${entry.size}:${entry.etag ?? ''}`;
}

function sameKeyFile(a: KeyFile, b: KeyFile): boolean {
  return a.remoteId === b.remoteId && a.check === b.check && JSON.stringify(a.kdf) === JSON.stringify(b.kdf);
}

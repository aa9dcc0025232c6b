import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { DataFileName, RemoteEntry } from './remote';

/** A file this device wrote, as the server showed it after the write (migration 11's `sync_files`). */
export interface OwnFile {
  name: string;
  kind: 'changes' | 'snapshot';
  seq: number;
  size: number;
  etag: string | null;
  sha256: string;
  /** Confirmed: the server showed it whole. */
  verified: boolean;
}

/** Why an own file must be written again. */
export type OwnFileProblem = 'missing' | 'resized' | 'changed' | 'refused';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The record of this device's own files on the remote. A file is recorded BEFORE it is
 * written (with a change file's bytes, in the same transaction that takes its entries out
 * of the outbox), confirmed once the server shows it whole, and checked every round against
 * the listing: what the server lost, cut or changed is written again from here.
 */
export class OwnFiles {
  constructor(private readonly db: Database.Database) {}

  all(): OwnFile[] {
    const rows = this.db.prepare('SELECT name, kind, seq, size, etag, sha256, verified FROM sync_files ORDER BY seq, kind').all() as (Omit<
      OwnFile,
      'verified'
    > & { verified: number })[];
    return rows.map((r) => ({ ...r, verified: r.verified === 1 }));
  }

  maxSeq(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(seq), 0) FROM sync_files').pluck().get() as number) ?? 0;
  }

  bytes(name: string): Buffer | null {
    return (this.db.prepare('SELECT bytes FROM sync_files WHERE name = ?').pluck().get(name) as Buffer | null | undefined) ?? null;
  }

  /** Records a file about to be written: unconfirmed until the server shows it. */
  record(file: DataFileName, sealed: Buffer, options: { entries?: number; keepBytes: boolean; at: string }): void {
    this.db
      .prepare(
        `INSERT INTO sync_files (name, kind, seq, size, etag, sha256, entries, bytes, verified, written_at)
         VALUES (@name, @kind, @seq, @size, NULL, @sha, @entries, @bytes, 0, @at)
         ON CONFLICT (name) DO UPDATE SET size = excluded.size, etag = NULL, sha256 = excluded.sha256, entries = excluded.entries,
           bytes = excluded.bytes, verified = 0, written_at = excluded.written_at`,
      )
      .run({
        name: file.name,
        kind: file.kind,
        seq: file.seq,
        size: sealed.length,
        sha: sha256(sealed),
        entries: options.entries ?? 0,
        bytes: options.keepBytes ? sealed : null,
        at: options.at,
      });
  }

  /** The server showed the file whole: its tag is what later listings must show. */
  confirm(name: string, etag: string | null): void {
    this.db.prepare('UPDATE sync_files SET verified = 1, etag = ? WHERE name = ?').run(etag ?? null, name);
  }

  /**
   * Files on the server this device has no record of (written before it kept records, or
   * by a copy of this ledger restored from a backup): taken as they are listed now.
   */
  adopt(entries: readonly (DataFileName & { etag?: string | null })[], at: string): void {
    const insert = this.db.prepare(
      `INSERT INTO sync_files (name, kind, seq, size, etag, sha256, entries, bytes, verified, written_at)
       VALUES (?, ?, ?, ?, ?, '', 0, NULL, 1, ?) ON CONFLICT (name) DO NOTHING`,
    );
    for (const e of entries) insert.run(e.name, e.kind, e.seq, e.size, e.etag ?? null, at);
  }

  forget(names: readonly string[]): void {
    const del = this.db.prepare('DELETE FROM sync_files WHERE name = ?');
    for (const name of names) del.run(name);
  }

  /** Every record gone: another remote, or a remote that lost everything (the first push starts over). */
  clear(): void {
    this.db.exec('DELETE FROM sync_files');
  }

  /** A change file's bytes are no longer needed once a snapshot that is on the server covers it. */
  dropBytesThrough(seq: number): void {
    this.db.prepare("UPDATE sync_files SET bytes = NULL WHERE kind = 'changes' AND seq <= ?").run(seq);
  }

  /** Entries of change files the server has not shown yet: still waiting to be confirmed uploaded. */
  unconfirmedEntries(): number {
    return this.db.prepare("SELECT COALESCE(SUM(entries), 0) FROM sync_files WHERE verified = 0 AND kind = 'changes'").pluck().get() as number;
  }

  /**
   * The files another device may still need — the newest snapshot and every change file
   * after it (a reader behind those older ones takes the snapshot) — and what is wrong with
   * each as the listing shows it.
   */
  check(listed: ReadonlyMap<string, RemoteEntry>, refused: ReadonlySet<string>): { file: OwnFile; problem: OwnFileProblem }[] {
    const files = this.all();
    const snapshot = files.filter((f) => f.kind === 'snapshot').at(-1);
    const needed = files.filter((f) => (f.kind === 'changes' && (!snapshot || f.seq > snapshot.seq)) || f === snapshot);
    const out: { file: OwnFile; problem: OwnFileProblem }[] = [];
    for (const file of needed) {
      const entry = listed.get(file.name);
      const problem: OwnFileProblem | null = !entry
        ? 'missing'
        : entry.size !== file.size
          ? 'resized'
          : file.etag && entry.etag && entry.etag !== file.etag
            ? 'changed'
            : refused.has(file.name)
              ? 'refused'
              : null;
      if (problem) out.push({ file, problem });
    }
    return out;
  }
}

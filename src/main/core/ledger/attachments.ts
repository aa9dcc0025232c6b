// Pictures kept with the entries read off them (截图记账, ledger migration 14). The bytes are
// a file in the book's folder, attachments/<id>.<ext>; the ledger holds the picture's row (its
// type, file and recognised text) and its links to the entries. A save writes the file first,
// then the rows in the SQLite transaction of the entries: a failed save leaves at most a file
// nobody links to, which the sweep at the book's next open removes. Local to this device: the
// tables are not declared in sync/tables.ts (see the migration for why).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { TransactionRow } from '@shared/domain';
import { toZonedIso, type ZonedNow } from '@shared/time';

export const ATTACHMENTS_DIR = 'attachments';

export type PictureFormat = 'png' | 'jpeg' | 'webp';

const MIME: Record<PictureFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const EXTENSION: Record<PictureFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** A picture to keep with the entries of a save: the drafts it gave carry its id (ParseResult.picture). */
export interface KeptPicture {
  id: string;
  bytes: Uint8Array;
  format: PictureFormat;
  /** What was read off it, lines joined by newlines. */
  text: string;
}

export interface StoredAttachment {
  mime: string;
  bytes: Uint8Array;
  text: string;
}

/** Ids are file names: nothing but these characters may reach a path. */
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export class Attachments {
  private readonly insertAttachment: Database.Statement;
  private readonly insertLink: Database.Statement;
  private readonly byTransaction: Database.Statement;

  /** `folder`: the book's folder; null for a ledger with no file (':memory:'), which keeps no pictures. */
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
    private readonly folder: string | null,
  ) {
    this.insertAttachment = db.prepare('INSERT OR IGNORE INTO attachments (id, mime, file, text, created_at) VALUES (?, ?, ?, ?, ?)');
    this.insertLink = db.prepare('INSERT OR IGNORE INTO transaction_attachments (transaction_id, attachment_id) VALUES (?, ?)');
    this.byTransaction = db.prepare(
      `SELECT a.mime, a.file, a.text FROM transaction_attachments l JOIN attachments a ON a.id = l.attachment_id
       WHERE l.transaction_id = ? ORDER BY a.created_at LIMIT 1`,
    );
  }

  get dir(): string | null {
    return this.folder === null ? null : join(this.folder, ATTACHMENTS_DIR);
  }

  /**
   * Writes the pictures' files (before the save's transaction): under a temporary name, then
   * renamed, so a file with an attachment's name is always whole. Returns the pictures that
   * can be linked; none without a folder.
   */
  writeFiles(pictures: readonly KeptPicture[]): KeptPicture[] {
    const dir = this.dir;
    if (dir === null || pictures.length === 0) return [];
    mkdirSync(dir, { recursive: true });
    const written: KeptPicture[] = [];
    for (const picture of pictures) {
      if (!SAFE_ID.test(picture.id)) continue;
      const path = join(dir, fileName(picture));
      if (!existsSync(path)) {
        const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
        writeFileSync(temp, picture.bytes);
        renameSync(temp, path);
      }
      written.push(picture);
    }
    return written;
  }

  /** Links a written picture to a saved row (call inside the save's transaction). */
  link(transactionId: string, picture: KeptPicture): void {
    this.insertAttachment.run(picture.id, MIME[picture.format], fileName(picture), picture.text, toZonedIso(this.clock()));
    this.insertLink.run(transactionId, picture.id);
  }

  /** The picture of a row with its text; null when it has none or its file is gone. */
  get(transactionId: string): StoredAttachment | null {
    const row = this.byTransaction.get(transactionId) as { mime: string; file: string; text: string } | undefined;
    const dir = this.dir;
    if (!row || dir === null) return null;
    try {
      return { mime: row.mime, bytes: new Uint8Array(readFileSync(join(dir, row.file))), text: row.text };
    } catch {
      return null;
    }
  }

  /** Sets `attachment` on the rows that have a picture (the 明细 list shows them). */
  decorate<T extends TransactionRow>(rows: T[]): T[] {
    if (rows.length === 0) return rows;
    const found = this.db
      .prepare(
        `SELECT l.transaction_id AS tx, a.id, a.mime FROM transaction_attachments l JOIN attachments a ON a.id = l.attachment_id
         WHERE l.transaction_id IN (SELECT value FROM json_each(?)) ORDER BY a.created_at DESC`,
      )
      .all(JSON.stringify(rows.map((r) => r.id))) as { tx: string; id: string; mime: string }[];
    if (found.length === 0) return rows;
    // Oldest last in the query: the first picture a row was saved with is the one it shows.
    const byRow = new Map(found.map((f) => [f.tx, { id: f.id, mime: f.mime }]));
    for (const row of rows) {
      const attachment = byRow.get(row.id);
      if (attachment) row.attachment = attachment;
    }
    return rows;
  }

  /**
   * The picture file and recognised text of each of these rows that has one (the first it was
   * saved with, as decorate shows), keyed by row id; the export copies them.
   */
  filesOf(transactionIds: readonly string[]): Map<string, { file: string; text: string }> {
    if (transactionIds.length === 0) return new Map();
    const found = this.db
      .prepare(
        `SELECT l.transaction_id AS tx, a.file, a.text FROM transaction_attachments l JOIN attachments a ON a.id = l.attachment_id
         WHERE l.transaction_id IN (SELECT value FROM json_each(?)) ORDER BY a.created_at DESC`,
      )
      .all(JSON.stringify(transactionIds)) as { tx: string; file: string; text: string }[];
    return new Map(found.map((f) => [f.tx, { file: f.file, text: f.text }]));
  }

  /** The file names every attachment row refers to. */
  files(): string[] {
    return this.db.prepare('SELECT file FROM attachments').pluck().all() as string[];
  }

  /**
   * Removes links whose row is gone (deleted, or a save that was undone), pictures with no
   * link left, and files no picture refers to (a save that failed after writing its file).
   * Run when the book opens: its undo history is empty then, so no redo can want them back.
   */
  sweep(): { rows: number; files: number } {
    const rows = this.db.transaction(() => {
      const links = this.db.prepare('DELETE FROM transaction_attachments WHERE transaction_id NOT IN (SELECT id FROM transactions)').run().changes;
      const pictures = this.db.prepare('DELETE FROM attachments WHERE id NOT IN (SELECT attachment_id FROM transaction_attachments)').run().changes;
      return links + pictures;
    })();
    const dir = this.dir;
    let files = 0;
    if (dir === null || !existsSync(dir)) return { rows, files };
    const kept = new Set(this.files());
    for (const name of readdirSync(dir)) {
      if (kept.has(name)) continue;
      rmSync(join(dir, name), { force: true, recursive: true });
      files++;
    }
    return { rows, files };
  }
}

function fileName(picture: KeptPicture): string {
  return `${picture.id}.${EXTENSION[picture.format]}`;
}

import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { SYNCED_TABLES, TABLES_BY_NAME, travellingValue, type SyncedTable } from './tables';

/**
 * A fingerprint of the synced books: two computers hold the same books exactly when their
 * digests are equal. It covers every row of every table declared in `tables.ts`, each as its
 * key and its declared columns in the form they travel in (references as the referenced row's
 * key, never a local id), and nothing else: not local ids, running totals or other columns
 * nobody declared, not the sync bookkeeping (`sync_rows`, `sync_outbox`, `sync_state`,
 * `sync_peers`, rows waiting or deleted), not the device's own tables (the merchant memory).
 *
 * What is hashed (one SHA-256 over it all): a version line, then per declared table, in
 * declaration order, a header line `#<table> <key> <column>…` and the table's rows ordered by
 * key, one line each: the JSON array [key, value…] as SQLite's json_array writes it. JSON keeps
 * the types apart (the integer 1 is `1`, the real 1.0 `1.0`, the text '1' `"1"`, NULL `null`;
 * integers exact to 64 bits, reals with the digits that read back to the same double), escapes
 * every quote, line break and NUL inside a text, and a blob (no declared column holds one; a
 * raw write could) is written as ["blob","<hex>"], which no other value reads as. So the text
 * parses back into exactly one set of rows. Keys are unique (each table has a unique index on
 * its key), so ORDER BY key fixes the order whatever order the rows were written in. Rows
 * without a key (only a write past the app's triggers leaves one) come first, where NULL
 * sorts, in the order of their lines. The text is hashed as the database stores it: UTF-8.
 */
export interface BooksDigest {
  /** Rows of `transactions` hashed: the count a user recognises. */
  rows: number;
  /** The full SHA-256, 64 lowercase hex digits: as long as it is, nothing gained by cutting it. */
  digest: string;
}

/** Names the form of the hashed text: a digest of another form never matches by accident. */
const FORMAT = 'suikouji-books-digest 2';

/**
 * Rows per read: SQLite joins a page's lines into one blob, so JavaScript sees one value per
 * page, not 21 per row, and hands its bytes to the hash as they are.
 */
const PAGE = 2000;

/**
 * A value as JSON, its type kept: a blob (which json_array would take for JSONB) as ["blob", hex].
 * `>= x''` is true of blobs alone (they sort after every other value; affinity never converts
 * one) and costs one comparison where typeof() costs a function call per cell.
 */
const typed = (sql: string) => `CASE WHEN ${sql} >= x'' THEN json_array('blob', hex(${sql})) ELSE ${sql} END`;

/**
 * The bucket of a row: the first two characters of its key (a text key; anything else, which
 * only a write past the app leaves, goes to a bucket of its type). A bucket is hashed whole;
 * the digest hashes the buckets' hashes, so a change to a few rows re-reads their buckets only.
 */
export const bucketSql = (key: string) => `CASE WHEN typeof(${key}) = 'text' THEN substr(${key}, 1, 2) ELSE '~' || typeof(${key}) END`;

/**
 * One row as a JSON array. A reference's lookup goes through `typed` (which evaluates it twice)
 * only when the table it names holds a blob key; otherwise the key it returns is plain JSON.
 */
function lineSql(table: SyncedTable, blobKeys: ReadonlySet<string>): string {
  const values = table.columns.map((c) => {
    if (!c.ref) return typed(`v.${c.name}`);
    const value = travellingValue(c, 'v');
    return blobKeys.has(c.ref) ? typed(value) : value;
  });
  return `json_array(${[typed(`v.${table.key}`), ...values].join(', ')})`;
}

interface Bucket {
  table: string;
  bucket: string;
  rows: number;
  hash: string;
}

/**
 * Reads the buckets of the synced books. The digest is the SHA-256 of: a version line, then
 * per declared table (in declaration order) a header line `#<table> <key> <column>…` and per
 * non-empty bucket (in code-unit order of its name) a line `<bucket> TAB <rows> TAB <hash>`,
 * where a bucket's hash is the SHA-256 of its rows ordered by key, one line each.
 */
class BucketReader {
  private readonly lines: Map<string, string>;

  constructor(private readonly db: Database.Database) {
    const referenced = new Set(SYNCED_TABLES.flatMap((t) => t.columns.flatMap((c) => (c.ref ? [c.ref] : []))));
    const blobKeys = new Set(
      [...referenced].filter((name) => {
        const t = TABLES_BY_NAME.get(name)!;
        return db.prepare(`SELECT EXISTS (SELECT 1 FROM main.${t.name} WHERE typeof(${t.key}) = 'blob')`).pluck().get() === 1;
      }),
    );
    this.lines = new Map(SYNCED_TABLES.map((t) => [t.name, lineSql(t, blobKeys)]));
  }

  private readonly prepared = new Map<string, { first: Database.Statement; next: Database.Statement; count: Database.Statement }>();

  /** A bucket's page and count statements, prepared once per table (their SQL is long: compiling it costs more than a page). */
  private statements(table: SyncedTable): { first: Database.Statement; next: Database.Statement; count: Database.Statement } {
    let got = this.prepared.get(table.name);
    if (!got) {
      const line = this.lines.get(table.name)!;
      const from = `FROM main.${table.name} v`;
      const k = `v.${table.key}`;
      const inBucket = `typeof(${k}) = 'text' AND ${k} >= @bucket AND ${k} < @end AND substr(${k}, 1, 2) = @bucket`;
      const page = (where: string) =>
        this.db
          .prepare(
            `SELECT count(*), max(k), CAST(group_concat(line, char(10)) || char(10) AS BLOB)
             FROM (SELECT ${k} AS k, ${line} AS line ${from} WHERE ${where} AND ${inBucket} ORDER BY ${k} LIMIT ${PAGE})`,
          )
          .raw(true);
      got = { first: page('1'), next: page(`${k} > @after`), count: this.db.prepare(`SELECT count(*) ${from} WHERE ${inBucket}`).pluck() };
      this.prepared.set(table.name, got);
    }
    return got;
  }

  /** Every bucket of the books, read. */
  readAll(): Bucket[] {
    return SYNCED_TABLES.flatMap((t) => this.bucketsOf(t).map((b) => this.read(t, b)));
  }

  /** Every non-empty bucket of a table. */
  private bucketsOf(table: SyncedTable): string[] {
    return this.db
      .prepare(`SELECT DISTINCT ${bucketSql(`v.${table.key}`)} FROM main.${table.name} v`)
      .pluck()
      .all() as string[];
  }

  /** One bucket's rows (0 when it is empty) and hash. */
  read(table: SyncedTable, bucket: string): Bucket {
    const hash = createHash('sha256');
    const line = this.lines.get(table.name)!;
    const from = `FROM main.${table.name} v`;
    const k = `v.${table.key}`;
    let read = 0;
    if (bucket.startsWith('~')) {
      // Keys that are not text (or none): few or none; in the order of their lines.
      const type = bucket.slice(1);
      const lines = this.db.prepare(`SELECT CAST(${line} || char(10) AS BLOB) ${from} WHERE typeof(${k}) = ?`).pluck().all(type) as Buffer[];
      for (const l of lines.sort(Buffer.compare)) hash.update(l);
      read = lines.length;
    } else {
      // Key after key within the bucket's range, a page at a time. The inner SELECT (ORDER BY
      // with LIMIT) runs as a co-routine handing its rows over in key order, and group_concat
      // appends them as they come; digest.test.ts holds the result to rows read one by one.
      const end = bucket.slice(0, -1) + String.fromCharCode(bucket.charCodeAt(bucket.length - 1) + 1);
      const { first, next, count } = this.statements(table);
      for (
        let got = first.get({ bucket, end }) as [number, string, Buffer | null];
        got[2] !== null;
        got = next.get({ bucket, end, after: got[1] }) as [number, string, Buffer | null]
      ) {
        hash.update(got[2]);
        read += got[0];
      }
      // Pages step from key to key: two rows of one key (a broken unique index) would lose one.
      const all = count.get({ bucket, end }) as number;
      if (read !== all) throw new Error(`${table.name}: ${all - read} rows share a key with another; the digest needs unique keys`);
    }
    return { table: table.name, bucket, rows: read, hash: hash.digest('hex') };
  }
}

function combine(buckets: readonly Bucket[]): BooksDigest {
  const hash = createHash('sha256').update(`${FORMAT}\n`);
  let rows = 0;
  for (const table of SYNCED_TABLES) {
    hash.update(`#${[table.name, table.key, ...table.columns.map((c) => c.name)].join(' ')}\n`);
    const own = buckets.filter((b) => b.table === table.name && b.rows > 0).sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
    for (const b of own) hash.update(`${b.bucket}\t${b.rows}\t${b.hash}\n`);
    if (table.name === 'transactions') rows = own.reduce((n, b) => n + b.rows, 0);
  }
  return { rows, digest: hash.digest('hex') };
}

/**
 * The digest of the synced books in `db` (a ledger's connection, or any file of its schema),
 * read whole. Reads inside one transaction, so a write from another connection lands wholly
 * before or after.
 */
export function booksDigest(db: Database.Database): BooksDigest {
  return db.transaction(() => {
    return combine(new BucketReader(db).readAll());
  })();
}

/**
 * The same digest on a ledger that syncs, kept up to date: the buckets' hashes are kept in
 * `sync_digest` (migration 11), and the journal's triggers note in `sync_digest_dirty` the
 * bucket of every row written since (local writes and merged changes alike), so a round that
 * changed a few rows re-reads a few buckets — not a million rows. Empty `sync_digest` (first
 * use, or after a snapshot was applied, which replaces tables whole): read whole.
 */
export function keptBooksDigest(db: Database.Database): BooksDigest {
  return db.transaction(() => {
    const reader = new BucketReader(db);
    const kept = db.prepare('SELECT tbl AS "table", bucket, rows, hash FROM sync_digest').all() as Bucket[];
    const put = db.prepare(
      'INSERT INTO sync_digest (tbl, bucket, rows, hash) VALUES (@table, @bucket, @rows, @hash) ON CONFLICT (tbl, bucket) DO UPDATE SET rows = excluded.rows, hash = excluded.hash',
    );
    let buckets: Bucket[];
    if (kept.length === 0) {
      buckets = reader.readAll();
      for (const b of buckets) put.run(b);
    } else {
      const dirty = db.prepare('SELECT tbl, bucket FROM sync_digest_dirty').raw(true).all() as [string, string][];
      const byKey = new Map(kept.map((b) => [`${b.table}\u0000${b.bucket}`, b]));
      for (const [table, bucket] of dirty) {
        const t = TABLES_BY_NAME.get(table);
        if (!t) continue;
        const fresh = reader.read(t, bucket);
        byKey.set(`${table}\u0000${bucket}`, fresh);
        if (fresh.rows > 0) put.run(fresh);
        else db.prepare('DELETE FROM sync_digest WHERE tbl = ? AND bucket = ?').run(table, bucket);
      }
      buckets = [...byKey.values()];
    }
    db.exec('DELETE FROM sync_digest_dirty');
    return combine(buckets);
  })();
}

/** Forgets the kept buckets: the next keptBooksDigest reads the books whole. */
export function forgetKeptDigest(db: Database.Database): void {
  db.exec('DELETE FROM sync_digest; DELETE FROM sync_digest_dirty');
}

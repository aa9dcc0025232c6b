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
const FORMAT = 'suikouji-books-digest 1';

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

/**
 * The digest of the synced books in `db` (a ledger's connection, or any file of its schema).
 * Reads inside one transaction, so a write from another connection lands wholly before or after.
 */
export function booksDigest(db: Database.Database): BooksDigest {
  return db.transaction(() => {
    const hash = createHash('sha256').update(`${FORMAT}\n`);
    const referenced = new Set(SYNCED_TABLES.flatMap((t) => t.columns.flatMap((c) => (c.ref ? [c.ref] : []))));
    const blobKeys = new Set(
      [...referenced].filter((name) => {
        const t = TABLES_BY_NAME.get(name)!;
        return db.prepare(`SELECT EXISTS (SELECT 1 FROM main.${t.name} WHERE typeof(${t.key}) = 'blob')`).pluck().get() === 1;
      }),
    );
    let rows = 0;
    for (const table of SYNCED_TABLES) {
      hash.update(`#${[table.name, table.key, ...table.columns.map((c) => c.name)].join(' ')}\n`);
      const count = hashTable(db, table, lineSql(table, blobKeys), hash);
      if (table.name === 'transactions') rows = count;
    }
    return { rows, digest: hash.digest('hex') };
  })();
}

/** Feeds `table`'s lines to `hash` in key order; returns how many rows it read. */
function hashTable(db: Database.Database, table: SyncedTable, line: string, hash: ReturnType<typeof createHash>): number {
  const from = `FROM main.${table.name} v`;
  const keyless = db.prepare(`SELECT CAST(${line} || char(10) AS BLOB) ${from} WHERE v.${table.key} IS NULL`).pluck().all() as Buffer[];
  for (const l of keyless.sort(Buffer.compare)) hash.update(l);
  let read = keyless.length;
  // Key after key, a page at a time. The inner SELECT (ORDER BY with LIMIT) runs as a
  // co-routine handing its rows over in key order, and group_concat appends them as they come.
  // SQLite calls that order arbitrary unless the aggregate has an ORDER BY of its own, which
  // sorts each page again (a third more time for nothing); digest.test.ts holds the result to
  // a hash of the rows read one by one in ORDER BY order, so a SQLite that did otherwise fails there.
  const page = (where: string) =>
    db
      .prepare(
        `SELECT count(*), max(k), CAST(group_concat(line, char(10)) || char(10) AS BLOB)
         FROM (SELECT v.${table.key} AS k, ${line} AS line ${from} WHERE ${where} ORDER BY v.${table.key} LIMIT ${PAGE})`,
      )
      .raw(true)
      // Keys go back in as they came out: integers beyond 2^53 too.
      .safeIntegers(true);
  const first = page(`v.${table.key} IS NOT NULL`);
  const next = page(`v.${table.key} > ?`);
  for (let got = first.get() as [bigint, unknown, Buffer | null]; got[2] !== null; got = next.get(got[1]) as [bigint, unknown, Buffer | null]) {
    hash.update(got[2]);
    read += Number(got[0]);
  }
  // Pages step from key to key: two rows of one key (a broken unique index) would lose one.
  const all = Number(db.prepare(`SELECT count(*) ${from}`).pluck().safeIntegers(true).get() as bigint);
  if (read !== all) throw new Error(`${table.name}: ${all - read} rows share a key with another; the digest needs unique keys`);
  return read;
}

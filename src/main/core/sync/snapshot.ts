import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { resolveForWorker } from '../worker-require';
import { SyncError } from './errors';
import type { FileHeader } from './files';
import { DeviceClock, isTimestamp } from './hlc';
import { SnapshotRow } from './rows';
import { SYNCED_TABLES, travellingValue, type SyncedTable } from './tables';

/**
 * A snapshot is an SQLite database (gzip'd, then sealed like every file): a copy of the
 * writer's synced tables and their stamps (`sync_rows`) in the ledger's own schema, plus the
 * writer's header and the devices it covers. A device that has nothing yet adopts those
 * tables whole (`INSERT … SELECT *`, which SQLite copies record by record, indexes
 * included) — joining a big book then costs about what copying its file does. Any other
 * device reads the same tables as rows in their travelling form (references as keys) and
 * merges them like any change.
 */
export const SNAPSHOT_VERSION = 2;
/** The schema a snapshot being built is attached as. */
const OUT = 'sync_out';
/** The schema a received snapshot is attached as. */
export const IN = 'sync_snap';
const META = 'snapshot_meta';
const PEERS = 'snapshot_peers';
/** The tables a snapshot copies: the synced ones and their stamps. */
export const COPIED_TABLES: readonly string[] = [...SYNCED_TABLES.map((t) => t.name), 'sync_rows'];
/**
 * The shape of an HLC timestamp (`2026-02-17T04:00:00.000Z-0000-0123456789abcdef`), checked
 * per row in SQLite; the largest stamp of a file is then parsed whole (isTimestamp).
 */
const TS_GLOB =
  '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z-[0-9A-F][0-9A-F][0-9A-F][0-9A-F]-????????????????';

export interface SnapshotStatement {
  sql: string;
  params?: unknown[];
}

/** The ledger's CREATE statements of a table and its indexes (implicit ones come with the table). */
export function schemaOf(db: Database.Database, schema: string, table: string): string[] {
  return db
    .prepare(`SELECT sql FROM ${schema}.sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC, name`)
    .pluck()
    .all(table) as string[];
}

/**
 * The statements that fill an attached, empty `sync_out` from the ledger (`main`), in one
 * read transaction: the copied tables in the ledger's own schema (their CREATE statements
 * read here, on the ledger's connection), then the header and the devices covered.
 */
export function snapshotPlan(db: Database.Database, head: FileHeader): SnapshotStatement[] {
  const plan: SnapshotStatement[] = [];
  for (const table of COPIED_TABLES) {
    for (const sql of schemaOf(db, 'main', table)) {
      plan.push({ sql: sql.replace(/^CREATE (TABLE|UNIQUE INDEX|INDEX)\s+/, `CREATE $1 ${OUT}.`) });
    }
    // Into an empty table of the same schema: copied record by record, indexes included.
    plan.push({ sql: `INSERT INTO ${OUT}.${table} SELECT * FROM main.${table}` });
  }
  plan.push(
    { sql: `CREATE TABLE ${OUT}.${META} (v INTEGER NOT NULL, device TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL)` },
    { sql: `INSERT INTO ${OUT}.${META} VALUES (?, ?, ?, ?, ?)`, params: [SNAPSHOT_VERSION, head.device, head.name, head.seq, head.at] },
    { sql: `CREATE TABLE ${OUT}.${PEERS} (device TEXT PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL, last_seen TEXT)` },
    { sql: `INSERT INTO ${OUT}.${PEERS} SELECT device, name, applied, last_seen FROM main.sync_peers` },
    {
      // The writer covers its own files up to this one.
      sql: `INSERT INTO ${OUT}.${PEERS} VALUES (?, ?, ?, ?) ON CONFLICT (device) DO UPDATE SET name = excluded.name, applied = excluded.applied, last_seen = excluded.last_seen`,
      params: [head.device, head.name, head.seq, head.at],
    },
  );
  return plan;
}

/** The snapshot of the books on this connection (an in-memory ledger: tests), gzip'd. The worker below runs the same steps. */
export function buildSnapshot(db: Database.Database, head: FileHeader): Buffer {
  const plan = snapshotPlan(db, head);
  db.exec(`ATTACH DATABASE ':memory:' AS ${OUT}`);
  try {
    db.transaction(() => {
      for (const { sql, params } of plan) db.prepare(sql).run(...(params ?? []));
    })();
    return gzipSync(db.serialize({ attached: OUT }), { level: 6 });
  } finally {
    db.exec(`DETACH DATABASE ${OUT}`);
  }
}

// A connection of its own, read-write though it only reads the ledger (a read-only
// connection cannot write even an attached in-memory database), foreign keys off so SQLite
// copies the tables whole; one read transaction.
const SNAPSHOT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
const Database = require(workerData.driver);
const { plan, path, out } = workerData;
const db = new Database(path, { fileMustExist: true });
try {
  db.pragma('foreign_keys = OFF');
  db.exec("ATTACH DATABASE ':memory:' AS " + out);
  db.exec('BEGIN');
  for (const { sql, params } of plan) db.prepare(sql).run(...(params || []));
  db.exec('COMMIT');
  parentPort.postMessage(gzipSync(db.serialize({ attached: out }), { level: 6 }));
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err) });
} finally {
  db.close();
}
`;

/** buildSnapshot off the main thread, on its own connection to the ledger file (`db` only reads the schema). */
export function buildSnapshotInWorker(db: Database.Database, path: string, head: FileHeader): Promise<Buffer> {
  const plan = snapshotPlan(db, head);
  return new Promise((resolve, reject) => {
    const worker = new Worker(SNAPSHOT_WORKER, {
      eval: true,
      workerData: { driver: resolveForWorker('better-sqlite3'), path, plan, out: OUT },
    });
    worker.once('message', (result: Uint8Array | { error: string }) => {
      if ('error' in result) reject(new Error(result.error));
      else resolve(Buffer.from(result.buffer, result.byteOffset, result.byteLength));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`snapshot worker exited (${code})`)));
  });
}

export interface SnapshotPeer {
  device: string;
  name: string;
  applied: number;
  lastSeen: string | null;
}

/** A table's rows as they travel: key, stamps, tombstone flag, waiting values (JSON), then the synced columns present. */
export function travellingRows(schema: string, table: SyncedTable, columns: readonly string[]): string {
  const present = table.columns.filter((c) => columns.includes(c.name));
  const values = present.map((c) => `${travellingValue(c, 'r', schema)} AS ${c.name}`);
  const nulls = present.map((c) => `NULL AS ${c.name}`);
  return `SELECT r.${table.key} AS k, COALESCE(s.ts, '${DeviceClock.ZERO}') AS ts, NULLIF(s.cols, '{}') AS stamps, 0 AS deleted, NULL AS waiting${values.map((v) => `, ${v}`).join('')}
    FROM ${schema}.${table.name} r LEFT JOIN ${schema}.sync_rows s ON s.tbl = '${table.name}' AND s.row = r.${table.key}
    UNION ALL
    SELECT row, ts, NULLIF(cols, '{}'), deleted, ghost${nulls.map((v) => `, ${v}`).join('')} FROM ${schema}.sync_rows WHERE tbl = '${table.name}' AND ghost IS NOT NULL`;
}

/**
 * A received snapshot, attached to the ledger's connection as `sync_snap` and checked
 * before anything of it is applied: its schema holds only plain tables and their indexes
 * (no views, triggers or computed columns that could run anything), its header matches the
 * file's authenticated name, and every key and stamp is of the kinds a snapshot holds.
 * Tables this version does not know are ignored; columns it does not know are too.
 */
export class AttachedSnapshot {
  readonly header: FileHeader;
  readonly peers: SnapshotPeer[];
  readonly maxTs: string;
  /** The synced columns each table of the file has. */
  private readonly columns = new Map<string, string[]>();

  private constructor(
    private readonly db: Database.Database,
    readonly fileName: string,
    expected: { device: string; seq: number },
  ) {
    const master = db.prepare(`SELECT type, name, tbl_name FROM ${IN}.sqlite_master`).all() as { type: string; name: string; tbl_name: string }[];
    const tables = new Set(master.filter((m) => m.type === 'table').map((m) => m.name));
    for (const m of master) {
      if (m.type !== 'table' && !(m.type === 'index' && tables.has(m.tbl_name))) throw this.refused('含有不该有的结构');
    }
    for (const table of tables) {
      const info = db.prepare(`SELECT hidden FROM pragma_table_xinfo(?, '${IN}')`).pluck().all(table) as number[];
      if (info.some((hidden) => hidden !== 0)) throw this.refused('含有不该有的结构');
    }
    if (!tables.has(META) || !tables.has(PEERS) || !tables.has('sync_rows')) throw this.refused('缺少文件头');

    const meta = db.prepare(`SELECT v, device, name, seq, at FROM ${IN}.${META}`).all() as Record<string, unknown>[];
    const m = meta[0];
    if (meta.length !== 1 || !m || m.v !== SNAPSHOT_VERSION) throw this.refused('版本不对');
    if (typeof m.name !== 'string' || m.name.length > 100 || typeof m.at !== 'string' || m.at.length > 40) throw this.refused('文件头无效');
    // The name was authenticated with the content; the header must agree with it.
    if (m.device !== expected.device || m.seq !== expected.seq) throw this.refused('文件头与文件名不符');
    this.header = { device: m.device, name: m.name, seq: m.seq, at: m.at };

    const peers = db.prepare(`SELECT device, name, applied, last_seen FROM ${IN}.${PEERS} LIMIT 10001`).all() as Record<string, unknown>[];
    if (peers.length > 10_000) throw this.refused('设备过多');
    this.peers = peers.map((p) => {
      if (
        typeof p.device !== 'string' ||
        !/^[0-9a-f]{16}$/.test(p.device) ||
        typeof p.name !== 'string' ||
        p.name.length > 100 ||
        !Number.isSafeInteger(p.applied) ||
        (p.applied as number) < 0 ||
        (p.last_seen !== null && (typeof p.last_seen !== 'string' || p.last_seen.length > 40))
      ) {
        throw this.refused('设备列表无效');
      }
      return { device: p.device, name: p.name, applied: p.applied as number, lastSeen: p.last_seen as string | null };
    });

    const need = ['tbl', 'row', 'ts', 'cols', 'deleted', 'ghost'];
    const stampColumns = this.columnsOf('sync_rows');
    if (need.some((c) => !stampColumns.includes(c))) throw this.refused('缺少时间戳表');
    // Keys, stamps and tombstones of every entry: one pass in SQLite.
    const bad = db
      .prepare(
        `SELECT 1 FROM ${IN}.sync_rows WHERE NOT (
           typeof(tbl) = 'text' AND typeof(row) = 'text' AND length(row) BETWEEN 1 AND 200 AND length(ts) = 46 AND ts GLOB '${TS_GLOB}'
           AND deleted IN (0, 1) AND sync_snapshot_stamps(cols) AND (ghost IS NULL OR sync_snapshot_values(ghost))) LIMIT 1`,
      )
      .get();
    if (bad !== undefined) throw this.refused('时间戳数据无效');
    const stats = db
      .prepare(`SELECT MAX(ts) AS ts, (SELECT MAX(j.value) FROM ${IN}.sync_rows s, json_each(s.cols) j) AS stamp FROM ${IN}.sync_rows`)
      .get() as { ts: string | null; stamp: string | null };
    let maxTs = DeviceClock.ZERO;
    for (const ts of [stats.ts, stats.stamp]) if (ts !== null && ts > maxTs) maxTs = ts;
    if (maxTs !== DeviceClock.ZERO && !isTimestamp(maxTs)) throw this.refused('时间戳无效');
    this.maxTs = maxTs;

    for (const t of SYNCED_TABLES) {
      if (!tables.has(t.name)) continue;
      const cols = this.columnsOf(t.name);
      if (!cols.includes(t.key) || (t.localId && !cols.includes(t.localId))) throw this.refused('快照表的列不对');
      this.columns.set(t.name, cols);
      const valid = [
        `typeof(r.${t.key}) = 'text' AND length(r.${t.key}) BETWEEN 1 AND 200`,
        ...t.columns.filter((c) => cols.includes(c.name)).map((c) => `typeof(r.${c.name}) <> 'blob'`),
      ];
      if (db.prepare(`SELECT 1 FROM ${IN}.${t.name} r WHERE NOT (${valid.join(' AND ')}) LIMIT 1`).get() !== undefined)
        throw this.refused('行数据无效');
    }
  }

  /** Attaches the snapshot file and checks it; SyncError 'refused_file' when anything is wrong (it is detached again). */
  static attach(db: Database.Database, path: string, fileName: string, expected: { device: string; seq: number }): AttachedSnapshot {
    registerChecks(db);
    try {
      db.prepare(`ATTACH DATABASE ? AS ${IN}`).run(path);
    } catch (err) {
      throw asRefusal(err, fileName);
    }
    try {
      return new AttachedSnapshot(db, fileName, expected);
    } catch (err) {
      db.exec(`DETACH DATABASE ${IN}`);
      throw asRefusal(err, fileName);
    }
  }

  detach(): void {
    this.db.exec(`DETACH DATABASE ${IN}`);
  }

  private columnsOf(table: string): string[] {
    return this.db.prepare(`SELECT name FROM pragma_table_xinfo(?, '${IN}')`).pluck().all(table) as string[];
  }

  has(table: SyncedTable): boolean {
    return this.columns.has(table.name);
  }

  count(table: SyncedTable): number {
    return this.has(table) ? (this.db.prepare(`SELECT COUNT(*) FROM ${IN}.${table.name}`).pluck().get() as number) : 0;
  }

  /** Whether the file's copy of a table has every synced column of this version (its rows can be loaded whole). */
  complete(table: SyncedTable): boolean {
    const cols = this.columns.get(table.name);
    return cols !== undefined && table.columns.every((c) => cols.includes(c.name));
  }

  /** Whether the file's copies of the tables have exactly this ledger's schema (they can be adopted as they are). */
  sameSchema(): boolean {
    return COPIED_TABLES.every((t) => {
      const mine = schemaOf(this.db, 'main', t);
      const theirs = schemaOf(this.db, IN, t);
      return mine.length === theirs.length && mine.every((sql, i) => sql === theirs[i]);
    });
  }

  /** The SQL naming the file's copy of a table. */
  source(table: string): string {
    return `${IN}.${table}`;
  }

  /** SQL of the table's rows in their travelling form (alias it), as travellingRows gives them. */
  travelling(table: SyncedTable): string {
    return travellingRows(IN, table, this.columns.get(table.name) ?? []);
  }

  /** The table's rows as the ordinary merge takes them, optionally only those matching `where` (over the travelling rows `v`). */
  *rows(table: SyncedTable, where = '1'): Generator<SnapshotRow> {
    const cols = this.columns.get(table.name);
    if (!cols) return;
    yield* readRows(this.db, travellingRows(IN, table, cols), table, cols, where);
  }

  refused(why: string): SyncError {
    return refusal(this.fileName, why);
  }
}

/** Rows in their travelling form (`sql` as travellingRows gives it) as SnapshotRows. */
export function* readRows(
  connection: Database.Database,
  sql: string,
  table: SyncedTable,
  columns: readonly string[],
  where = '1',
): Generator<SnapshotRow> {
  const cols = table.columns.map((c) => c.name).filter((c) => columns.includes(c));
  const statement = connection.prepare(`SELECT * FROM (${sql}) v WHERE ${where}`).raw(true);
  for (const row of statement.iterate() as IterableIterator<unknown[]>) {
    const [k, ts, stamps, deleted, waiting] = row as [string, string, string | null, 0 | 1, string | null];
    const values = waiting === null ? row.slice(5) : (JSON.parse(waiting) as Record<string, unknown>);
    yield new SnapshotRow(table.name, k, cols, ts, stamps === null ? null : (JSON.parse(stamps) as Record<string, string>), deleted, values);
  }
}

function refusal(fileName: string, why: string): SyncError {
  return new SyncError('refused_file', `远端文件 ${fileName} 内容无效（${why}），已拒绝，未应用其中任何内容。`);
}

/** SQLite's own complaints about a file (not a database, damaged, a key twice, a broken reference) as a refusal of that file. */
export function asRefusal(err: unknown, fileName: string): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT|CONSTRAINT)/.test(code)) return refusal(fileName, '数据损坏或不一致');
  return err;
}

const registered = new WeakSet<Database.Database>();

/** The per-entry checks of a received snapshot, as SQL functions so the check is one pass in SQLite. */
function registerChecks(connection: Database.Database): void {
  if (registered.has(connection)) return;
  registered.add(connection);
  const object = (json: unknown): Record<string, unknown> | null => {
    if (typeof json !== 'string') return null;
    try {
      const value: unknown = JSON.parse(json);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  // '{}' (a row of one stamp) is the common case: no JSON to parse.
  connection.function('sync_snapshot_stamps', { deterministic: true }, (json) => {
    if (json === '{}') return 1;
    const stamps = object(json);
    return stamps && Object.values(stamps).every(isTimestamp) ? 1 : 0;
  });
  connection.function('sync_snapshot_values', { deterministic: true }, (json) => {
    const values = object(json);
    return values && Object.values(values).every((v) => v === null || typeof v === 'number' || typeof v === 'string') ? 1 : 0;
  });
}

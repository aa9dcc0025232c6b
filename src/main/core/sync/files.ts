import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { resolveForWorker } from '../worker-require';
import { SyncError } from './errors';
import { DeviceClock, isTimestamp } from './hlc';
import { SnapshotRow, type Cell, type RowChange } from './rows';
import { SYNCED_TABLES, travellingValue } from './tables';

/**
 * What is inside a sealed file (gzip'd JSON). A change file carries the device's journal
 * entries since its previous file: `[ts, table, key, {column: value}]`. A snapshot carries
 * the whole books as that device has them — every row with its stamps, deleted rows and
 * rows still waiting for a reference — plus, per device, the last change file it covers.
 */
const header = {
  v: z.literal(1),
  device: z.string().regex(/^[0-9a-f]{16}$/),
  /** The device's name, shown in every device's list. */
  name: z.string().max(100),
  seq: z.number().int().positive(),
  /** When the file was written (ISO 8601). */
  at: z.string().max(40),
};

const changesSchema = z.object({ ...header, kind: z.literal('changes'), changes: z.array(z.unknown()) }).strict();
const snapshotSchema = z
  .object({
    ...header,
    kind: z.literal('snapshot'),
    covers: z.record(z.string().regex(/^[0-9a-f]{16}$/), z.number().int().nonnegative()),
    devices: z.array(z.tuple([z.string().regex(/^[0-9a-f]{16}$/), z.string().max(100), z.string().max(40).nullable()])).max(10_000),
    tables: z.record(z.string().max(64), z.object({ cols: z.array(z.string().max(64)).max(200), rows: z.array(z.unknown()) })),
  })
  .strict();

export type FileHeader = { device: string; name: string; seq: number; at: string };
export type ChangesFile = FileHeader & { kind: 'changes'; changes: RowChange[]; maxTs: string };
export type SnapshotFile = FileHeader & {
  kind: 'snapshot';
  covers: Record<string, number>;
  devices: [string, string, string | null][];
  rows: RowChange[];
  maxTs: string;
};

/** Parses a file's plaintext; anything malformed is refused as a whole. */
export function parsePayload(
  plain: Buffer,
  expected: { device: string; kind: 'changes' | 'snapshot'; seq: number; name: string },
): ChangesFile | SnapshotFile {
  const refused = (why: string) => new SyncError('refused_file', `远端文件 ${expected.name} 内容无效（${why}），已拒绝，未应用其中任何内容。`);
  let json: unknown;
  try {
    json = JSON.parse(plain.toString('utf8'));
  } catch {
    throw refused('不是有效的数据');
  }
  const schema = expected.kind === 'changes' ? changesSchema : snapshotSchema;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw refused(parsed.error.issues[0]?.message ?? '格式不对');
  const file = parsed.data;
  // The name was authenticated with the content; the header must agree with it.
  if (file.device !== expected.device || file.seq !== expected.seq) throw refused('文件头与文件名不符');
  let maxTs = DeviceClock.ZERO;
  const stamp = (ts: unknown): string => {
    if (!isTimestamp(ts)) throw refused('时间戳无效');
    if (ts > maxTs) maxTs = ts;
    return ts;
  };
  const key = (k: unknown): string => {
    if (typeof k !== 'string' || k.length === 0 || k.length > 200) throw refused('行标识无效');
    return k;
  };
  const value = (v: unknown): unknown => {
    if (v === null || typeof v === 'number' || typeof v === 'string') return v;
    throw refused('字段值无效');
  };
  if (file.kind === 'changes') {
    const changes = file.changes.map((entry): RowChange => {
      if (
        !Array.isArray(entry) ||
        entry.length !== 4 ||
        typeof entry[1] !== 'string' ||
        typeof entry[3] !== 'object' ||
        entry[3] === null ||
        Array.isArray(entry[3])
      ) {
        throw refused('变更条目格式不对');
      }
      const ts = stamp(entry[0]);
      const cells: Cell[] = Object.entries(entry[3] as Record<string, unknown>).map(([c, v]) => [c, ts, value(v)]);
      return { table: entry[1], key: key(entry[2]), cells };
    });
    return { kind: 'changes', device: file.device, name: file.name, seq: file.seq, at: file.at, changes, maxTs };
  }
  const rows: RowChange[] = [];
  for (const [table, { cols, rows: raw }] of Object.entries(file.tables)) {
    for (const row of raw) {
      if (!Array.isArray(row) || row.length < 5) throw refused('快照行格式不对');
      const [k, ts, overrides, deleted] = row as [unknown, unknown, unknown, unknown];
      const base = stamp(ts);
      if (overrides !== null && (typeof overrides !== 'object' || Array.isArray(overrides))) throw refused('快照行格式不对');
      const stamps = overrides as Record<string, unknown> | null;
      if (stamps) for (const c of Object.keys(stamps)) stamp(stamps[c]);
      const last = row[4];
      let values: unknown[] | Record<string, unknown>;
      if (row.length === 5 && last !== null && typeof last === 'object' && !Array.isArray(last)) {
        values = last as Record<string, unknown>;
        for (const c of Object.keys(values)) value(values[c]);
      } else {
        if (row.length !== 4 + cols.length) throw refused('快照行的列数不对');
        values = row.slice(4);
        for (const v of values) value(v);
      }
      rows.push(new SnapshotRow(table, key(k), cols, base, stamps as Record<string, string> | null, deleted === 1 ? 1 : 0, values));
    }
  }
  return {
    kind: 'snapshot',
    device: file.device,
    name: file.name,
    seq: file.seq,
    at: file.at,
    covers: file.covers,
    devices: file.devices,
    rows,
    maxTs,
  };
}

/** A change file's plaintext from journal entries. */
export function changesPayload(head: FileHeader, entries: { ts: string; tbl: string; row: string; vals: string }[]): Buffer {
  const parts = [JSON.stringify({ v: 1, kind: 'changes', ...head }).slice(0, -1), ',"changes":['];
  entries.forEach((e, i) => parts.push(`${i ? ',' : ''}[${JSON.stringify(e.ts)},${JSON.stringify(e.tbl)},${JSON.stringify(e.row)},${e.vals}]`));
  parts.push(']}');
  return Buffer.from(parts.join(''), 'utf8');
}

/**
 * The queries that read a snapshot: SQLite itself writes each row as a JSON array, so
 * building one walks the tables once and joins strings — in a worker thread on its own
 * connection for a file-backed ledger (a million rows never stall the window), in-thread for
 * an in-memory one. One read transaction: the rows and the covered change files agree.
 */
export function snapshotPlan(): { tables: { name: string; cols: string[]; rows: string; waiting: string }[]; covers: string; devices: string } {
  return {
    tables: SYNCED_TABLES.map((t) => ({
      name: t.name,
      cols: t.columns.map((c) => c.name),
      rows: `SELECT json_array(r.${t.key}, COALESCE(s.ts, '${DeviceClock.ZERO}'), CASE WHEN s.cols IS NULL OR s.cols = '{}' THEN NULL ELSE json(s.cols) END, 0,
               ${t.columns.map((c) => travellingValue(c, 'r')).join(', ')})
             FROM ${t.name} r LEFT JOIN sync_rows s ON s.tbl = '${t.name}' AND s.row = r.${t.key}`,
      waiting: `SELECT json_array(row, ts, CASE WHEN cols = '{}' THEN NULL ELSE json(cols) END, deleted, json(ghost)) FROM sync_rows WHERE tbl = '${t.name}' AND ghost IS NOT NULL`,
    })),
    covers: 'SELECT device, applied FROM sync_peers WHERE applied > 0',
    devices: 'SELECT device, name, last_seen FROM sync_peers',
  };
}

type Plan = ReturnType<typeof snapshotPlan>;

/** Runs the plan on a connection: the gzip'd snapshot. The worker below runs the same steps. */
export function buildSnapshot(db: Database.Database, plan: Plan, head: FileHeader): Buffer {
  return db.transaction(() => {
    const covers = Object.fromEntries((db.prepare(plan.covers).raw(true).all() as [string, number][]).map(([d, n]) => [d, n]));
    covers[head.device] = head.seq;
    const devices = db.prepare(plan.devices).raw(true).all();
    // Pieces go into buffers every few thousand rows: a million rows are more text than one JS string holds.
    const chunks: Buffer[] = [];
    let parts: string[] = [JSON.stringify({ v: 1, kind: 'snapshot', ...head, covers, devices }).slice(0, -1), ',"tables":{'];
    const flush = () => {
      chunks.push(Buffer.from(parts.join(''), 'utf8'));
      parts = [];
    };
    plan.tables.forEach((t, i) => {
      parts.push(`${i ? ',' : ''}${JSON.stringify(t.name)}:{"cols":${JSON.stringify(t.cols)},"rows":[`);
      let first = true;
      for (const sql of [t.rows, t.waiting]) {
        for (const [row] of db.prepare(sql).raw(true).iterate() as IterableIterator<[string]>) {
          parts.push(first ? row : `,${row}`);
          first = false;
          if (parts.length >= 5000) flush();
        }
      }
      parts.push(']}');
    });
    parts.push('}}');
    flush();
    return gzipSync(Buffer.concat(chunks), { level: 6 });
  })();
}

const SNAPSHOT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
const Database = require(workerData.driver);
const { plan, head, path } = workerData;
const db = new Database(path, { readonly: true, fileMustExist: true });
try {
  db.exec('BEGIN');
  const covers = {};
  for (const [d, n] of db.prepare(plan.covers).raw(true).all()) covers[d] = n;
  covers[head.device] = head.seq;
  const devices = db.prepare(plan.devices).raw(true).all();
  const chunks = [];
  let parts = [JSON.stringify({ v: 1, kind: 'snapshot', ...head, covers, devices }).slice(0, -1), ',"tables":{'];
  const flush = () => { chunks.push(Buffer.from(parts.join(''), 'utf8')); parts = []; };
  plan.tables.forEach((t, i) => {
    parts.push((i ? ',' : '') + JSON.stringify(t.name) + ':{"cols":' + JSON.stringify(t.cols) + ',"rows":[');
    let first = true;
    for (const sql of [t.rows, t.waiting]) {
      for (const [row] of db.prepare(sql).raw(true).iterate()) {
        parts.push(first ? row : ',' + row);
        first = false;
        if (parts.length >= 5000) flush();
      }
    }
    parts.push(']}');
  });
  parts.push('}}');
  flush();
  db.exec('COMMIT');
  parentPort.postMessage(gzipSync(Buffer.concat(chunks), { level: 6 }));
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err) });
} finally {
  db.close();
}
`;

/** buildSnapshot off the main thread, on its own read-only connection to the ledger file. */
export function buildSnapshotInWorker(path: string, plan: Plan, head: FileHeader): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SNAPSHOT_WORKER, { eval: true, workerData: { driver: resolveForWorker('better-sqlite3'), path, plan, head } });
    worker.once('message', (result: Uint8Array | { error: string }) => {
      if ('error' in result) reject(new Error(result.error));
      else resolve(Buffer.from(result.buffer, result.byteOffset, result.byteLength));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`snapshot worker exited (${code})`)));
  });
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../ledger/index';
import { SyncError } from './errors';
import { Merger } from './merge';
import { AttachedSnapshot, buildSnapshot } from './snapshot';
import { NOW } from '../../../../test/support/ledger-fixtures';
import { books } from '../../../../test/support/sync-devices';

/**
 * A snapshot is an SQLite file another device made. It is authenticated before it is
 * attached, so what is tested here is a file that decrypts fine but holds what a snapshot
 * never does — a view or trigger that could run something, a computed column, a header
 * naming another device, a malformed stamp, a reference to a row that is not there, bytes
 * that are no database: each is refused as a whole and the books stay as they were.
 */

const dirs: string[] = [];
const ledgers: Ledger[] = [];
afterEach(() => {
  for (const l of ledgers.splice(0)) if (l.database.open) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledger(): Ledger {
  const l = openLedger({ path: ':memory:', now: () => NOW, syncNow: () => Date.parse('2026-02-17T04:30:00Z') });
  ledgers.push(l);
  return l;
}

/** A small book written with the journal on (so its rows carry stamps) and its snapshot's SQLite bytes. */
function source(): { ledger: Ledger; bytes: Buffer; head: { device: string; seq: number } } {
  const a = ledger();
  a.journal.setCapture(true);
  a.addCategory('健身', 'EXPENSE');
  a.addAccount('招商银行', 500_00);
  for (let i = 0; i < 20; i += 1) {
    a.addTransaction({
      amountFen: 100 + i,
      type: 'EXPENSE',
      category: i % 2 ? '健身' : '餐饮',
      date: '2026-02-10',
      time: '12:00',
      account: '招商银行',
      note: `第${i}笔`,
    });
  }
  const head = { device: a.journal.deviceId, seq: 3 };
  const bytes = gunzipSync(buildSnapshot(a.database, { ...head, name: '书房', at: '2026-02-17T04:30:00.000Z' }));
  return { ledger: a, bytes, head };
}

function tamper(bytes: Buffer, sql: string): Buffer {
  const db = new Database(bytes);
  db.pragma('foreign_keys = OFF');
  db.exec(sql);
  const out = db.serialize();
  db.close();
  return out;
}

function attach(target: Ledger, bytes: Buffer, head: { device: string; seq: number }): AttachedSnapshot {
  const dir = mkdtempSync(join(tmpdir(), 'skj-snapshot-'));
  dirs.push(dir);
  const path = join(dir, 'in.db');
  writeFileSync(path, bytes);
  return AttachedSnapshot.attach(target.database, path, 'f.s.0000000003.skj', head);
}

/** Attaches and applies as the engine does; detached afterwards either way. */
function apply(target: Ledger, bytes: Buffer, head: { device: string; seq: number }): number {
  const snapshot = attach(target, bytes, head);
  try {
    return new Merger(target.database, target.journal).applySnapshot(snapshot);
  } finally {
    snapshot.detach();
  }
}

describe('snapshot files', () => {
  it('a new device adopts the tables whole; a device with rows of its own merges them in; both end with the same books', () => {
    const { ledger: a, bytes, head } = source();
    const fresh = ledger();
    fresh.journal.setCapture(true);
    const snapshot = attach(fresh, bytes, head);
    expect(snapshot.header).toMatchObject({ device: head.device, seq: 3, name: '书房' });
    expect(snapshot.peers).toContainEqual({ device: head.device, name: '书房', applied: 3, lastSeen: '2026-02-17T04:30:00.000Z' });
    expect(snapshot.maxTs > '2026-02-17').toBe(true);
    expect(new Merger(fresh.database, fresh.journal).canAdopt(snapshot)).toBe(true);
    snapshot.detach();

    expect(apply(fresh, bytes, head)).toBeGreaterThanOrEqual(20);
    expect(books(fresh)).toEqual(books(a));
    // The journal still records this device's edits after its tables were swapped under it.
    const id = fresh.list({ limit: 1 }).rows[0]!.id;
    const before = fresh.journal.pendingCount();
    fresh.updateTransaction(id, { description: '改过' });
    expect(fresh.journal.pendingCount()).toBe(before + 1);
    expect(fresh.database.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'sync_journal_%'").pluck().get()).toBe(0);

    const busy = ledger();
    busy.journal.setCapture(true);
    busy.addTransaction({ amountFen: 4200, type: 'EXPENSE', category: '交通', date: '2026-02-03', time: '08:00', note: '自己的' });
    const withOwn = attach(busy, bytes, head);
    expect(new Merger(busy.database, busy.journal).canAdopt(withOwn)).toBe(false);
    withOwn.detach();
    apply(busy, bytes, head);
    expect(busy.count()).toBe(21);
  });

  const hostile: [string, (bytes: Buffer) => Buffer][] = [
    ['a view', (b) => tamper(b, 'CREATE VIEW sneaky AS SELECT 1')],
    ['a trigger', (b) => tamper(b, 'CREATE TRIGGER sneaky AFTER INSERT ON transactions BEGIN SELECT 1; END')],
    ['a computed column', (b) => tamper(b, 'ALTER TABLE transactions ADD COLUMN sneaky AS (1)')],
    ['a header naming another device', (b) => tamper(b, "UPDATE snapshot_meta SET device = 'ffffffffffffffff'")],
    ['a header of another sequence number', (b) => tamper(b, 'UPDATE snapshot_meta SET seq = 2')],
    ['another format version', (b) => tamper(b, 'UPDATE snapshot_meta SET v = 1')],
    ['no header', (b) => tamper(b, 'DROP TABLE snapshot_meta')],
    [
      'a malformed stamp',
      (b) => tamper(b, "UPDATE sync_rows SET ts = '9999-99-99 later' WHERE row = (SELECT MIN(row) FROM sync_rows WHERE tbl = 'transactions')"),
    ],
    [
      'a stamp far in the future shape-wise broken',
      (b) => tamper(b, `UPDATE sync_rows SET cols = '{"amount_fen":"soon"}' WHERE row = (SELECT MIN(row) FROM sync_rows WHERE tbl = 'transactions')`),
    ],
    ['a device list entry that is no device id', (b) => tamper(b, "INSERT INTO snapshot_peers VALUES ('../../etc', 'x', 1, NULL)")],
    ['a key that is not text', (b) => tamper(b, "UPDATE transactions SET id = x'00ff' WHERE id = (SELECT MIN(id) FROM transactions)")],
    [
      'a row under a category that is not there',
      (b) => tamper(b, 'UPDATE transactions SET category_id = 999 WHERE id = (SELECT MIN(id) FROM transactions)'),
    ],
    ['bytes that are no database', () => randomBytes(64 * 1024)],
  ];

  it.each(hostile)('a snapshot holding %s is refused and nothing of it is applied', (_what, make) => {
    const { bytes, head } = source();
    const target = ledger();
    target.journal.setCapture(true);
    const empty = books(target);
    let error: unknown;
    try {
      apply(target, make(bytes), head);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({
      code: 'refused_file',
      message: expect.stringMatching(/^远端文件 f\.s\.0000000003\.skj 内容无效（.+），已拒绝，未应用其中任何内容。$/),
    });
    expect(books(target)).toEqual(empty);
    expect(target.database.prepare('SELECT COUNT(*) FROM sync_rows').pluck().get()).toBe(0);
    // Detached again: the next file can be attached under the same name.
    expect((target.database.prepare('PRAGMA database_list').all() as { name: string }[]).map((d) => d.name)).not.toContain('sync_snap');
  });
});

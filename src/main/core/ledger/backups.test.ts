import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParseResult } from '@shared/domain';
import { openLedger, type Ledger } from './index';
import { applyPendingRestore, backupName, BackupError, LedgerBackups, parseBackupName, RESTORE_FILE, selectRetained } from './backups';
import { item as baseItem, NOW } from '../../../../test/support/ledger-fixtures';

const item = (over: Partial<ParseResult> = {}): ParseResult => baseItem({ date: null, ...over });

let dir: string;
let ledger: Ledger;
let clock: Date;
let backups: LedgerBackups;

const make = (extra: Partial<ConstructorParameters<typeof LedgerBackups>[0]> = {}) =>
  new LedgerBackups({ dataDir: dir, source: () => ledger.database, now: () => clock, ...extra });

const rowsIn = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

const quickCheck = (path: string): unknown => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('quick_check', { simple: true });
  } finally {
    db.close();
  }
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-backup-'));
  ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
  clock = new Date(2026, 0, 5, 9, 0, 0);
  backups = make();
});

afterEach(async () => {
  await backups.dispose();
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup names', () => {
  it('are local time and parse back, with ISO weeks', () => {
    expect(backupName(new Date(2026, 2, 5, 20, 1, 2))).toBe('ledger-20260305-200102.db');
    expect(backupName(new Date(2026, 2, 5, 20, 1, 2), true)).toBe('ledger-20260305-200102-before-restore.db');
    expect(parseBackupName('ledger-20260305-200102.db')).toMatchObject({ dayKey: '2026-03-05', weekKey: '2026-W10', beforeRestore: false });
    // 2027-01-01 is a Friday: ISO week 53 of 2026.
    expect(parseBackupName('ledger-20270101-000000.db')?.weekKey).toBe('2026-W53');
    for (const bad of ['ledger-20260230-000000.db', 'ledger-20260305-200102.db.tmp', '../ledger.db', 'ledger.db']) {
      expect(parseBackupName(bad)).toBeNull();
    }
  });
});

describe('LedgerBackups', () => {
  it('keeps the last 7 daily and 4 weekly backups over 60 days of a fake clock', async () => {
    ledger.saveBatch([item()]);
    for (let day = 0; day < 60; day++) {
      clock = new Date(2026, 0, 5 + day, 9, 0, 0);
      expect(await backups.ensureToday()).not.toBeNull();
      // Later checks the same day (the hourly timer) add nothing.
      clock = new Date(2026, 0, 5 + day, 15, 0, 0);
      expect(await backups.ensureToday()).toBeNull();
    }
    // A manual backup the last evening replaces that day's morning copy.
    clock = new Date(2026, 2, 5, 20, 0, 0);
    await backups.backupNow();

    // Today is Thu 2026-03-05 (week 10). Dailies: 02-27 … 03-05 (they cover weeks 9 and 10).
    // Weeklies: the newest of weeks 8, 7, 6, 5 — the Sundays 02-22, 02-15, 02-08, 02-01.
    expect(backups.names().sort()).toEqual([
      'ledger-20260201-090000.db',
      'ledger-20260208-090000.db',
      'ledger-20260215-090000.db',
      'ledger-20260222-090000.db',
      'ledger-20260227-090000.db',
      'ledger-20260228-090000.db',
      'ledger-20260301-090000.db',
      'ledger-20260302-090000.db',
      'ledger-20260303-090000.db',
      'ledger-20260304-090000.db',
      'ledger-20260305-200000.db',
    ]);
    expect(readdirSync(backups.dir).sort()).toEqual(backups.names().sort());
    for (const name of backups.names()) expect(quickCheck(join(backups.dir, name))).toBe('ok');
    const list = backups.list();
    expect(list[0]).toMatchObject({ name: 'ledger-20260305-200000.db', takenAt: '2026-03-05 20:00:00', rows: 1, kind: 'daily' });
    expect(list[0]!.size).toBeGreaterThan(0);
  });

  it('keeps before-restore copies apart from the rotation', () => {
    const names = ['ledger-20260101-090000-before-restore.db', 'ledger-20260305-090000.db'];
    expect(selectRetained(names)).toEqual(new Set(names));
  });

  it('writes a self-contained, checked copy of what is committed', async () => {
    ledger.saveBatch([item(), item({ description: '咖啡' })]);
    const info = await backups.backupNow();
    const path = join(backups.dir, info.name);
    expect(info).toMatchObject({ rows: 2, kind: 'daily' });
    expect(rowsIn(path)).toBe(2);
    // Rollback-journal mode: the copy is one file, no -wal needed to read it.
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
    expect(readdirSync(backups.dir)).toEqual([info.name]);
  });

  it('makes a consistent copy while another connection writes', async () => {
    const other = new Database(join(dir, 'ledger.db'));
    other.exec('CREATE TABLE filler (x BLOB); CREATE TABLE pairs (n INTEGER)');
    // About 8 MB: the copy takes several steps, between which the other connection writes.
    const fill = other.prepare('INSERT INTO filler VALUES (randomblob(4000))');
    other.transaction(() => {
      for (let i = 0; i < 2000; i++) fill.run();
    })();
    const pair = other.transaction((n: number) => {
      other.prepare('INSERT INTO pairs VALUES (?)').run(n);
      other.prepare('INSERT INTO pairs VALUES (?)').run(n);
    });
    let steps = 0;
    backups = make({
      onStep: () => {
        steps += 1;
        pair(steps);
      },
    });
    const info = await backups.backupNow();
    other.close();
    expect(steps).toBeGreaterThan(1);
    const copy = new Database(join(backups.dir, info.name), { readonly: true });
    try {
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
      const pairs = (copy.prepare('SELECT count(*) AS n FROM pairs').get() as { n: number }).n;
      expect(pairs % 2).toBe(0);
      expect((copy.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(2000);
    } finally {
      copy.close();
    }
  });

  it('leaves no file that looks complete when a backup is interrupted', async () => {
    const other = new Database(join(dir, 'ledger.db'));
    other.exec('CREATE TABLE filler (x BLOB)');
    other.transaction(() => {
      for (let i = 0; i < 2000; i++) other.prepare('INSERT INTO filler VALUES (randomblob(4000))').run();
    })();
    other.close();
    backups = make({
      onStep: () => {
        throw new Error('power cut');
      },
    });
    await expect(backups.backupNow()).rejects.toThrow('power cut');
    expect(backups.names()).toEqual([]);
    expect(readdirSync(backups.dir)).toEqual([]);

    // What a killed process leaves behind: a partial file under the temporary name.
    writeFileSync(join(backups.dir, `${backupName(clock)}.tmp`), 'SQLite format 3\0 half');
    expect(backups.names()).toEqual([]);
    expect(backups.list()).toEqual([]);
    backups = make();
    await backups.start();
    // The stale temporary is gone and today's backup was made on start.
    expect(readdirSync(backups.dir)).toEqual([backupName(clock)]);
  });

  it('refuses a restore of a name that is not a listed backup', async () => {
    await backups.backupNow();
    mkdirSync(join(dir, 'backups', 'ledger-20260101-000000.db'));
    for (const name of ['../ledger.db', 'ledger.db', 'ledger-20990101-000000.db', 'ledger-20260101-000000.db', join(dir, 'ledger.db')]) {
      await expect(backups.stageRestore(name)).rejects.toMatchObject({ code: 'backup_not_found' });
    }
    await expect(backups.stageRestore('x')).rejects.toBeInstanceOf(BackupError);
    expect(existsSync(join(dir, RESTORE_FILE))).toBe(false);
  });

  it('stages a restore that the next open applies, keeping the old ledger as a backup', async () => {
    ledger.saveBatch([item({ description: '早餐' })]);
    const chosen = await backups.backupNow();
    ledger.saveBatch([item({ description: '午餐' }), item({ description: '晚餐' })]);

    const staged = await backups.stageRestore(chosen.name);
    expect(staged.name).toBe(chosen.name);
    expect(backups.restorePending()).toBe(true);
    // Staging does not touch the open ledger.
    expect(ledger.count()).toBe(3);
    ledger.saveBatch([item({ description: '夜宵' })]);
    await backups.dispose();
    ledger.close();

    clock = new Date(2026, 0, 6, 8, 0, 0);
    const applied = applyPendingRestore(dir, { now: () => clock });
    expect(applied).toEqual({ beforeRestore: 'ledger-20260106-080000-before-restore.db' });
    expect(existsSync(join(dir, RESTORE_FILE))).toBe(false);
    expect(existsSync(join(dir, 'ledger.db-wal'))).toBe(false);
    // The pre-restore copy has everything, including what was written after staging.
    expect(rowsIn(join(dir, 'backups', applied!.beforeRestore!))).toBe(4);
    expect(quickCheck(join(dir, 'backups', applied!.beforeRestore!))).toBe('ok');

    ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
    expect(ledger.list().rows.map((t) => t.description)).toEqual(['早餐']);
    expect(ledger.database.pragma('journal_mode', { simple: true })).toBe('wal');
    backups = make();
    expect(backups.list().map((b) => [b.name, b.kind, b.rows])).toEqual([
      ['ledger-20260106-080000-before-restore.db', 'before-restore', 4],
      [chosen.name, 'daily', 1],
    ]);
    // Nothing pending: a second start changes nothing.
    expect(applyPendingRestore(dir)).toBeNull();
  });

  it('discards a damaged staged file and keeps the ledger', async () => {
    ledger.saveBatch([item()]);
    await backups.dispose();
    ledger.close();
    writeFileSync(join(dir, RESTORE_FILE), 'SQLite format 3\0 but not really');
    expect(applyPendingRestore(dir)).toBeNull();
    expect(existsSync(join(dir, RESTORE_FILE))).toBe(false);
    expect(rowsIn(join(dir, 'ledger.db'))).toBe(1);
    ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
  });
});

describe('pictures kept with entries', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
  const saveWithPicture = (id: string) =>
    ledger.saveBatch([item({ amount: 23.9, picture: id })], { now: NOW, pictures: [{ id, bytes: PNG, format: 'png', text: '瑞幸咖啡\n¥23.90' }] });

  it('go with each backup, come back with a restore, and leave with the last copy that names them', async () => {
    const [row] = saveWithPicture('p-1');
    const first = await backups.backupNow();
    expect(readdirSync(join(dir, 'backups', 'attachments'))).toEqual(['p-1.png']);

    // The entry is deleted and its picture swept: only the backup has it now.
    ledger.deleteTransaction(row!.id);
    ledger.sweepAttachments();
    expect(readdirSync(join(dir, 'attachments'))).toEqual([]);
    await backups.stageRestore(first.name);
    await backups.dispose();
    ledger.close();
    applyPendingRestore(dir, { now: () => clock });
    ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
    backups = make();
    expect(ledger.attachment(row!.id)).toEqual({ mime: 'image/png', bytes: PNG, text: '瑞幸咖啡\n¥23.90' });
    expect(ledger.list({}).rows[0]?.attachment).toEqual({ id: 'p-1', mime: 'image/png' });

    // Once no kept copy names a picture, pruning removes it from the backups' folder.
    ledger.deleteTransaction(row!.id);
    ledger.sweepAttachments();
    const retention = { daily: 1, weekly: 0, beforeRestore: 0 };
    const pruning = make({ retention });
    clock = new Date(2026, 0, 6, 9, 0, 0);
    await pruning.backupNow();
    await pruning.dispose();
    expect(readdirSync(join(dir, 'backups', 'attachments'))).toEqual([]);
  });
});

describe('applyPendingRestore without a copy of the current file', () => {
  it('leaves both files alone when the current ledger cannot be copied', () => {
    const folder = mkdtempSync(join(tmpdir(), 'skj-backup-dir-'));
    try {
      mkdirSync(join(folder, 'ledger.db'));
      const staged = new Database(join(folder, RESTORE_FILE));
      staged.exec('CREATE TABLE t (x)');
      staged.close();
      expect(applyPendingRestore(folder)).toBeNull();
      expect(existsSync(join(folder, RESTORE_FILE))).toBe(true);
      expect(statSync(join(folder, 'ledger.db')).isDirectory()).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

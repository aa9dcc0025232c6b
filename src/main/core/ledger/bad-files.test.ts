import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { ParseResult } from '@shared/domain';
import { DraftBatch } from '@shared/draft-batch';
import { toZonedIso, toZonedNow } from '@shared/time';
import { SessionBook } from '../voice/session-book';
import { LedgerOpenError, LedgerWriteRefusedError, openLedger, READ_ONLY_MESSAGE, SCHEMA_VERSION, type LedgerOpenErrorCode } from './index';

/**
 * Damaged, foreign and unwritable ledger files: each is refused (or opened read-only) with a
 * message that says what happened, and none of them is changed by the attempt — not the file,
 * not its WAL, and no -wal/-shm appears or disappears beside it.
 */

const NOW = toZonedNow('2026-02-17T12:00:00+08:00');
const item: ParseResult = {
  amount: 12.5,
  type: 'EXPENSE',
  category: '餐饮',
  description: '午饭',
  date: null,
  account: null,
  confidence: 0.9,
  source: 'llm',
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skj-bad-files-'));
  // Cases that run as an unprivileged user (see asUnprivileged) must be able to reach them.
  chmodSync(root, 0o755);
});
afterAll(() => {
  chmodRecursive(root);
  rmSync(root, { recursive: true, force: true });
});

function chmodRecursive(dir: string): void {
  for (const sub of ['ro-dir', 'ro-file']) {
    const path = join(dir, sub);
    if (existsSync(path)) chmodSync(path, 0o777);
  }
}

/** A sound ledger with `rows` transactions, closed (no -wal/-shm left). */
function makeLedger(path: string, rows = 600): void {
  const ledger = openLedger({ path, now: () => NOW });
  const batch = Array.from({ length: 20 }, (_, i) => ({ ...item, description: `午饭${i}` }));
  ledger.transaction(() => {
    for (let i = 0; i < rows / 20; i++) ledger.saveBatch(batch);
  });
  ledger.close();
}

function caseDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
}

/** Overwrites `length` bytes at `offset` with 0xff. */
function scribble(path: string, offset: number, length: number): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(length, 0xff), 0, length, offset);
  } finally {
    closeSync(fd);
  }
}

/** Content hash; for a multi-GB sparse file its size, times and first MB (hashing it all takes seconds). */
function fingerprint(path: string): string | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  if (stat.isDirectory()) return `dir:${stat.mtimeMs}`;
  if (stat.size <= 64 * 1024 * 1024) return createHash('sha256').update(readFileSync(path)).digest('hex');
  const head = Buffer.alloc(1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${createHash('sha256').update(head).digest('hex')}`;
}

/** The ledger, its WAL (content) and its -shm (presence only: readers keep their marks in it). */
function snapshot(path: string) {
  return { file: fingerprint(path), wal: fingerprint(`${path}-wal`), shm: existsSync(`${path}-shm`) };
}

/**
 * Runs fn as an unprivileged user when the tests run as root, for whom permission bits do
 * not apply; as any other user the bits alone make the file or folder read-only.
 */
function asUnprivileged<T>(fn: () => T): T {
  if (process.geteuid?.() !== 0) return fn();
  process.setegid!(65534);
  process.seteuid!(65534);
  try {
    return fn();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}

type Expected = { code: LedgerOpenErrorCode; message: RegExp } | { readOnly: true };

interface BadFile {
  name: string;
  /** Builds the case in its own folder and returns the ledger path. */
  make: (dir: string) => string;
  expected: Expected;
  unprivileged?: boolean;
}

const BAD_FILES: BadFile[] = [
  {
    name: 'zero-byte file',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      writeFileSync(path, '');
      return path;
    },
    expected: { code: 'empty_file', message: /账本文件是空的（0 字节）.*文件未被改动/ },
  },
  {
    name: 'text file',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      writeFileSync(path, 'these are my notes, not a database\n'.repeat(100));
      return path;
    },
    expected: { code: 'not_a_database', message: /不是有效的数据库.*文件未被改动/ },
  },
  {
    name: 'truncated SQLite file',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      makeLedger(path);
      truncateSync(path, Math.floor(statSync(path).size / 2));
      return path;
    },
    expected: { code: 'corrupt', message: /账本文件已损坏.*没有改动这个文件.*backups.*导出仍可读取/ },
  },
  {
    name: 'corrupt pages',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      makeLedger(path);
      const pageSize = 4096;
      const pages = statSync(path).size / pageSize;
      // The b-tree page headers of a run of pages in the middle of the file.
      for (let p = Math.floor(pages / 2); p < Math.floor(pages / 2) + 3; p++) scribble(path, p * pageSize, 64);
      return path;
    },
    expected: { code: 'corrupt', message: /账本文件已损坏.*没有改动这个文件.*backups.*导出仍可读取/ },
  },
  {
    name: 'newer schema with a WAL present',
    make: (dir) => {
      // A newer app wrote it and is still running (or crashed): its last commits are in the WAL.
      const source = join(dir, 'source.db');
      makeLedger(source, 40);
      const writer = new Database(source);
      writer.pragma('wal_autocheckpoint = 0');
      writer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      writer.prepare("UPDATE transactions SET description = 'newer'").run();
      const path = join(dir, 'ledger.db');
      for (const suffix of ['', '-wal', '-shm']) copyFileSync(source + suffix, path + suffix);
      writer.close();
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      return path;
    },
    expected: { code: 'schema_too_new', message: /来自更新版本的随口记.*文件未被改动/ },
  },
  {
    name: 'read-only file',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      makeLedger(path, 40);
      chmodSync(path, 0o444);
      chmodSync(dir, 0o777);
      return path;
    },
    expected: { readOnly: true },
    unprivileged: true,
  },
  {
    name: 'read-only folder',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      makeLedger(path, 40);
      chmodSync(path, 0o666);
      chmodSync(dir, 0o555);
      return path;
    },
    expected: { code: 'read_only', message: /账本所在的文件夹是只读的.*文件未被改动/ },
    unprivileged: true,
  },
  {
    name: 'ledger.db is a directory',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      mkdirSync(path);
      return path;
    },
    expected: { code: 'open_failed', message: /无法打开账本文件.*是一个文件夹.*未被改动/ },
  },
  {
    name: 'sparse file over 2 GB',
    make: (dir) => {
      const path = join(dir, 'ledger.db');
      writeFileSync(path, '');
      truncateSync(path, 2_300_000_000);
      return path;
    },
    expected: { code: 'not_a_database', message: /不是有效的数据库.*文件未被改动/ },
  },
];

describe('bad ledger files', () => {
  it.each(BAD_FILES)('$name', ({ name, make, expected, unprivileged }) => {
    const dirName = { 'read-only file': 'ro-file', 'read-only folder': 'ro-dir' }[name] ?? name.replace(/\W+/g, '-');
    const path = make(caseDir(dirName));
    const before = snapshot(path);
    const started = performance.now();
    const outcome = (unprivileged ? asUnprivileged : <T>(fn: () => T) => fn())(() => {
      try {
        const ledger = openLedger({ path, now: () => NOW });
        try {
          const rows = ledger.count();
          let writeError: unknown = null;
          try {
            ledger.saveBatch([item]);
          } catch (err) {
            writeError = err;
          }
          return { opened: { readOnly: ledger.readOnly, rows, writeError } };
        } finally {
          ledger.close();
        }
      } catch (err) {
        return { error: err };
      }
    });
    const elapsed = performance.now() - started;

    if ('readOnly' in expected) {
      expect(outcome.opened, String(outcome.error)).toBeDefined();
      expect(outcome.opened!.readOnly).toBe(true);
      // The data shows; the write is refused with the reason, not a raw SQLITE_READONLY.
      expect(outcome.opened!.rows).toBe(40);
      expect(outcome.opened!.writeError).toBeInstanceOf(LedgerWriteRefusedError);
      expect((outcome.opened!.writeError as LedgerWriteRefusedError).code).toBe('read_only');
      expect((outcome.opened!.writeError as Error).message).toBe(READ_ONLY_MESSAGE);
    } else {
      expect(outcome.error).toBeInstanceOf(LedgerOpenError);
      const error = outcome.error as LedgerOpenError;
      expect(error.code).toBe(expected.code);
      expect(error.message).toMatch(expected.message);
      expect(error.message).toContain(path);
      expect(error.path).toBe(path);
    }
    // Only the header is read: a multi-GB file is refused as fast as a small one.
    expect(elapsed).toBeLessThan(2000);
    expect(snapshot(path)).toEqual(before);
  });
});

describe('damage found after open (large ledgers are checked in the background)', () => {
  it('stops writes, keeps reads and reports through integrity() and onDamage, leaving the file as it was', async () => {
    const path = join(caseDir('background-corrupt'), 'ledger.db');
    makeLedger(path, 2000);
    const pageSize = 4096;
    const pages = statSync(path).size / pageSize;
    for (let p = Math.floor(pages / 2); p < Math.floor(pages / 2) + 3; p++) scribble(path, p * pageSize, 64);
    const before = snapshot(path);
    const reported: LedgerOpenError[] = [];
    const ledger = openLedger({ path, now: () => NOW, syncCheckMaxBytes: 0, onDamage: (e) => reported.push(e) });
    try {
      const damage = await ledger.integrity();
      expect(damage?.code).toBe('corrupt');
      expect(damage?.message).toMatch(/账本文件已损坏.*已停止写入.*导出.*从备份恢复/);
      expect(reported).toEqual([damage]);
      expect(ledger.readOnly).toBe(true);
      expect(() => ledger.saveBatch([item])).toThrow(LedgerWriteRefusedError);
      expect(() => ledger.keepDrafts(null)).toThrow(/已损坏/);
      expect(() => ledger.addCategory('新分类', 'EXPENSE')).toThrow(/已损坏/);
      expect(ledger.accounts().length).toBeGreaterThan(0);
    } finally {
      ledger.close();
    }
    expect(snapshot(path)).toEqual(before);
  });

  it('a sound large ledger stays writable', async () => {
    const path = join(caseDir('background-sound'), 'ledger.db');
    makeLedger(path, 100);
    const ledger = openLedger({ path, now: () => NOW, syncCheckMaxBytes: 0 });
    try {
      expect(await ledger.integrity()).toBeNull();
      expect(ledger.readOnly).toBe(false);
      expect(ledger.saveBatch([item])).toHaveLength(1);
      expect(ledger.count()).toBe(101);
    } finally {
      ledger.close();
    }
  });
});

describe('a read-only ledger refuses every kind of write with the same message', () => {
  it('saves, drafts, edits, deletes, imports, categories and accounts', () => {
    const dir = caseDir('ro-every-write');
    const path = join(dir, 'ledger.db');
    makeLedger(path, 20);
    const id = (() => {
      const l = openLedger({ path });
      const first = l.list({ limit: 1 }).rows[0]!.id;
      l.close();
      return first;
    })();
    chmodSync(path, 0o444);
    chmodSync(dir, 0o777);
    const before = snapshot(path);
    const failures = asUnprivileged(() => {
      const ledger = openLedger({ path, now: () => NOW });
      try {
        const other = ledger.listCategories().find((c) => c.name === '餐饮')!;
        const account = ledger.listAccounts()[0]!;
        const writes: Record<string, () => unknown> = {
          saveBatch: () => ledger.saveBatch([item]),
          keepDrafts: () => ledger.keepDrafts(null),
          updateTransaction: () => ledger.updateTransaction(id, { description: '改了' }),
          deleteTransactions: () => ledger.deleteTransactions([id]),
          insertRaw: () => ledger.insertRaw(ledger.rawRows([id]).map((r) => ({ ...r, id: 'copy' }))),
          importRows: () =>
            ledger.importRows([
              {
                line: 2,
                date: '2026-02-01',
                time: '12:00:00',
                type: 'EXPENSE',
                category: '餐饮',
                amountFen: 100,
                account: '钱包',
                description: '新的',
              },
            ]),
          addCategory: () => ledger.addCategory('新分类', 'EXPENSE'),
          renameCategory: () => ledger.renameCategory(other.id, '吃饭'),
          setCategoryHidden: () => ledger.setCategoryHidden(other.id, true),
          addAccount: () => ledger.addAccount('银行卡'),
          renameAccount: () => ledger.renameAccount(account.id, '现金'),
          setDefaultAccount: () => ledger.setDefaultAccount(account.id),
        };
        return Object.fromEntries(
          Object.entries(writes).map(([name, write]) => {
            try {
              write();
              return [name, 'written'];
            } catch (err) {
              return [name, err instanceof LedgerWriteRefusedError ? err.message : `other: ${String(err)}`];
            }
          }),
        );
      } finally {
        ledger.close();
      }
    });
    for (const [name, result] of Object.entries(failures)) expect(`${name}: ${result}`).toBe(`${name}: ${READ_ONLY_MESSAGE}`);
    expect(snapshot(path)).toEqual(before);
  });

  it('the voice card says why it cannot save and keeps its drafts', () => {
    const dir = caseDir('ro-voice-card');
    const path = join(dir, 'ledger.db');
    makeLedger(path, 20);
    chmodSync(path, 0o444);
    chmodSync(dir, 0o777);
    const card = DraftBatch.fromResults([item, { ...item, amount: 3, description: '水' }], toZonedIso(NOW)).confirmAll();
    const before = card.toDto();
    const outcome = asUnprivileged(() => {
      const ledger = openLedger({ path, now: () => NOW });
      try {
        return new SessionBook(ledger, () => {}).save(card, NOW);
      } finally {
        ledger.close();
      }
    });
    expect(outcome).toEqual({ ok: false, reason: READ_ONLY_MESSAGE });
    expect(card.toDto()).toEqual(before);
  });
});

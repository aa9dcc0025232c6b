import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { toZonedIso } from '@shared/time';
import { openLedger, type Ledger, type RawTransaction } from '@core/ledger/index';
import { booksDigest, keptBooksDigest } from './digest';
import { SYNCED_TABLES, travellingValue } from './tables';
import { entry, NOW } from '../../../../test/support/ledger-fixtures';
import { makeDevices, quiesce, TestClock, type Device } from '../../../../test/support/sync-devices';

// The fingerprint of the synced books: equal on two ledgers exactly when their synced books
// are, whatever the local ids, the order rows were written in, the running totals, the
// device's own tables and the sync bookkeeping.

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** Migration 1 stamps the presets with SQLite's own clock: pinned, so two ledgers opened a second apart agree. */
const INSTALLED = '2026-01-01T00:00:00Z';

function fresh(): Ledger {
  const ledger = openLedger({ path: ':memory:', now: () => NOW });
  open.push(ledger);
  ledger.database.prepare('UPDATE accounts SET created_at = ?').run(INSTALLED);
  ledger.database.prepare('UPDATE categories SET created_at = ?').run(INSTALLED);
  return ledger;
}

const digest = (l: Ledger) => booksDigest(l.database).digest;
const categoryId = (l: Ledger, name: string) => l.listCategories().find((c) => c.name === name)!.id;
const accountId = (l: Ledger, name: string) => l.listAccounts().find((a) => a.name === name)!.id;
const personId = (l: Ledger, name: string) => l.database.prepare('SELECT id FROM people WHERE name = ?').pluck().get(name) as number;

/** Row `i` of a small ledger, its references taken from `l` by name (so each ledger gets its own local ids). */
function raw(l: Ledger, i: number): RawTransaction {
  const day = `2026-02-${String(10 + i).padStart(2, '0')}`;
  const at = `${day}T08:1${i}:00+08:00`;
  const transfer = i === 3;
  return {
    id: `row-${i}`,
    amount_fen: 1000 + i,
    currency: 'CNY',
    type: transfer ? 'TRANSFER' : 'EXPENSE',
    category_id: categoryId(l, transfer ? '转账' : i % 2 ? '健身' : '摄影'),
    account_id: accountId(l, i % 2 ? '招行' : '微信'),
    description: `第${i}笔`,
    occurred_at: at,
    occurred_date: day,
    occurred_ms: Date.parse(at),
    source: 'manual',
    created_at: at,
    // What an edit stamps (the ledger's clock is NOW): an edit undone leaves the row as it was.
    updated_at: toZonedIso(NOW),
    to_account_id: transfer ? accountId(l, '钱包') : null,
    counterparty: '',
    flow: i === 4 ? 'lend' : null,
    person_id: i === 4 ? personId(l, '小王') : null,
    refund_of: null,
    reimbursable: 0,
    reimbursed_by: null,
    recurrence_key: null,
    tags: i % 2 ? ['出差'] : ['家', '出差'],
  };
}

/**
 * Categories, accounts and a person made in `order` (so their local ids follow it), then the
 * rows in `rowOrder`. The order the user sees them in (sort_order) is part of the books, so it
 * is set alike whatever order they were made in.
 */
function books(order: 'forward' | 'backward', rowOrder: readonly number[]): Ledger {
  const l = fresh();
  const steps = [
    () => l.addCategory('健身', 'EXPENSE'),
    () => l.addCategory('摄影', 'EXPENSE'),
    () => l.addAccount('招行', 500_00),
    () => l.addAccount('微信'),
    () => l.database.prepare("INSERT INTO people (name, created_at) VALUES ('小王', '2026-02-01T00:00:00Z')").run(),
  ];
  for (const step of order === 'forward' ? steps : steps.reverse()) step();
  l.database.exec(`
    UPDATE categories SET sort_order = CASE name WHEN '健身' THEN 20 WHEN '摄影' THEN 21 ELSE sort_order END;
    UPDATE accounts SET sort_order = CASE name WHEN '招行' THEN 1 WHEN '微信' THEN 2 ELSE sort_order END;
  `);
  l.insertRaw(rowOrder.map((i) => raw(l, i)));
  l.setBudgets('2026-02', [{ categoryId: null, amountFen: 3000_00 }]);
  return l;
}

const ROWS = [0, 1, 2, 3, 4, 5];

describe('booksDigest', () => {
  it('is the same for the same rows written in any order, under other local ids', () => {
    const a = books('forward', ROWS);
    const b = books('backward', [...ROWS].reverse());
    expect(categoryId(a, '健身')).not.toBe(categoryId(b, '健身'));
    expect(accountId(a, '招行')).not.toBe(accountId(b, '招行'));
    expect(a.database.prepare("SELECT category_id FROM transactions WHERE id = 'row-1'").pluck().get()).not.toBe(
      b.database.prepare("SELECT category_id FROM transactions WHERE id = 'row-1'").pluck().get(),
    );
    expect(booksDigest(a.database)).toEqual(booksDigest(b.database));
    expect(booksDigest(a.database)).toEqual({ rows: ROWS.length, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Not a constant: one row fewer is other books.
    expect(digest(books('forward', ROWS.slice(1)))).not.toBe(digest(a));
  });

  it('counts the rows of transactions only', () => {
    const l = books('forward', ROWS);
    expect(l.database.prepare('SELECT COUNT(*) FROM transaction_tags').pluck().get()).toBeGreaterThan(0);
    expect(booksDigest(l.database).rows).toBe(ROWS.length);
    expect(booksDigest(fresh().database).rows).toBe(0);
  });

  it('changes with any one cell, row or link, and comes back with the value', () => {
    const l = books('forward', ROWS);
    const base = digest(l);
    const seen = new Set([base]);
    const changes: [string, () => void, () => void][] = [
      ['amount', () => l.updateTransaction('row-1', { amountFen: 1002 }), () => l.updateTransaction('row-1', { amountFen: 1001 })],
      ['description', () => l.updateTransaction('row-1', { description: '第1笔!' }), () => l.updateTransaction('row-1', { description: '第1笔' })],
      ['category', () => l.updateTransaction('row-1', { category: '摄影' }), () => l.updateTransaction('row-1', { category: '健身' })],
      ['account', () => l.updateTransaction('row-2', { account: '招行' }), () => l.updateTransaction('row-2', { account: '微信' })],
      // 家 exists (row 0 has it): only the link changes.
      ['a tag link', () => l.updateTransaction('row-1', { tags: ['出差', '家'] }), () => l.updateTransaction('row-1', { tags: ['出差'] })],
      ['a category name', () => l.renameCategory(categoryId(l, '健身'), '运动'), () => l.renameCategory(categoryId(l, '运动'), '健身')],
      [
        'a budget',
        () => l.setBudgets('2026-02', [{ categoryId: null, amountFen: 3001_00 }]),
        () => l.setBudgets('2026-02', [{ categoryId: null, amountFen: 3000_00 }]),
      ],
      [
        'a sort order',
        () => l.database.exec("UPDATE accounts SET sort_order = sort_order + 1 WHERE name = '招行'"),
        () => l.database.exec("UPDATE accounts SET sort_order = sort_order - 1 WHERE name = '招行'"),
      ],
    ];
    for (const [what, change, undo] of changes) {
      change();
      const changed = digest(l);
      expect(seen.has(changed), what).toBe(false);
      seen.add(changed);
      undo();
      expect(digest(l), `${what} undone`).toBe(base);
    }
  });

  it('changes when a row or a link is deleted', () => {
    const l = books('forward', ROWS);
    const base = digest(l);
    l.database.prepare("DELETE FROM transaction_tags WHERE transaction_id = 'row-0' AND tag_id = (SELECT id FROM tags WHERE name = '家')").run();
    const unlinked = digest(l);
    expect(unlinked).not.toBe(base);
    l.deleteTransaction('row-2');
    expect(digest(l)).not.toBe(unlinked);
    expect(booksDigest(l.database).rows).toBe(ROWS.length - 1);
  });

  it('ignores what is this device’s own: running totals, merchant memory, alerts, drafts and the sync bookkeeping', () => {
    const l = books('forward', ROWS);
    const base = booksDigest(l.database);
    const db = l.database;
    const flow = () => db.prepare("SELECT flow_fen FROM accounts WHERE name = '招行'").pluck().get() as number;
    const before = flow();
    db.exec(`
      UPDATE accounts SET flow_fen = flow_fen + 7, row_count = row_count + 1;
      UPDATE people SET balance_fen = balance_fen - 3, row_count = row_count + 2;
      INSERT INTO imported_merchants VALUES ('row-1', '美团');
      INSERT INTO budget_alerts (month, category_id, threshold, fired_at) VALUES ('2026-02', NULL, 80, 'x');
      INSERT INTO card_alerts VALUES (1, '2026-03-01', 'x');
      INSERT INTO import_removals VALUES ('gone', 'deleted');
      INSERT INTO drafts VALUES (1, '{"items":[]}', 'x');
      INSERT INTO sync_outbox (ts, tbl, row, vals) VALUES ('t', 'transactions', 'row-1', '{}');
      INSERT INTO sync_rows (tbl, row, ts, ghost) VALUES ('transactions', 'ghost-row', 't', '{"amount_fen": 1}');
      INSERT INTO sync_peers (device, name, applied) VALUES ('ffff', '书房', 9);
      UPDATE sync_state SET value = 'abcd' WHERE key = 'device_id';
    `);
    l.rememberMerchantCategory('滴滴出行', 'EXPENSE', '交通');
    expect(flow()).toBe(before + 7);
    expect(db.prepare('SELECT COUNT(*) FROM merchant_categories').pluck().get()).toBe(1);
    expect(booksDigest(db)).toEqual(base);
  });

  it('leaves out rows deleted while the device syncs (their ghosts stay in sync_rows)', () => {
    const kept = books('forward', ROWS);
    const l = books('forward', ROWS);
    l.journal.setCapture(true);
    const gone = l.addTransaction(entry({ tags: ['出差'] }));
    expect(digest(l)).not.toBe(digest(kept));
    l.deleteTransaction(gone.id);
    expect(l.database.prepare('SELECT COUNT(*) FROM sync_rows WHERE row = ? AND deleted = 1').pluck().get(gone.id)).toBe(1);
    expect(digest(l)).toBe(digest(kept));
  });

  it('is the same on two devices after they sync, while their local ids and bookkeeping differ', async () => {
    const clock = new TestClock();
    const { devices } = makeDevices(2, { clock });
    open.push(...devices);
    const [a, b] = devices as [Device, Device];
    // B was installed a minute after A: its presets carry another created_at, never edited.
    b.ledger.journal.applying(() => {
      b.ledger.database.exec("UPDATE categories SET created_at = '2099-01-01T00:00:00Z' WHERE preset = 1");
      b.ledger.database.exec("UPDATE accounts SET created_at = '2099-01-01T00:00:00Z'");
    });
    a.ledger.addCategory('健身', 'EXPENSE');
    a.ledger.addCategory('摄影', 'EXPENSE');
    a.ledger.addAccount('招行');
    b.ledger.addCategory('摄影', 'EXPENSE');
    b.ledger.addAccount('微信');
    b.ledger.addAccount('招行');
    a.history.addTransaction(entry({ category: '健身', account: '招行', tags: ['出差'] }));
    clock.tick(1000);
    b.history.addTransaction(entry({ category: '摄影', account: '微信', note: '猫粮', tags: ['家', '出差'] }));
    b.ledger.setBudgets('2026-02', [{ categoryId: categoryId(b.ledger, '摄影'), amountFen: 200_00 }]);
    expect(digest(a.ledger)).not.toBe(digest(b.ledger));
    await quiesce(devices);

    expect(categoryId(a.ledger, '摄影')).not.toBe(categoryId(b.ledger, '摄影'));
    expect(accountId(a.ledger, '招行')).not.toBe(accountId(b.ledger, '招行'));
    const deviceId = (d: Device) => d.ledger.database.prepare("SELECT value FROM sync_state WHERE key = 'device_id'").pluck().get();
    expect(deviceId(a)).not.toBe(deviceId(b));
    expect(booksDigest(a.ledger.database)).toEqual(booksDigest(b.ledger.database));
    expect(booksDigest(a.ledger.database).rows).toBe(2);

    // An edit on one side shows until it has travelled.
    clock.tick(60_000);
    b.ledger.updateTransaction(b.ledger.list().rows[0]!.id, { amountFen: 1 });
    expect(digest(a.ledger)).not.toBe(digest(b.ledger));
    await quiesce(devices);
    expect(digest(a.ledger)).toBe(digest(b.ledger));
  });
});

describe('booksDigest read page by page', () => {
  /** The hashed text as the module's comment defines it, read row by row in ORDER BY order (no blobs, ASCII keys here). */
  function rowByRow(db: Database.Database): string {
    const hash = createHash('sha256').update('suikouji-books-digest 2\n');
    for (const t of SYNCED_TABLES) {
      hash.update(`#${[t.name, t.key, ...t.columns.map((c) => c.name)].join(' ')}\n`);
      const values = [`v.${t.key}`, ...t.columns.map((c) => travellingValue(c, 'v'))];
      const rows = db.prepare(`SELECT v.${t.key} AS k, json_array(${values.join(', ')}) AS line FROM main.${t.name} v ORDER BY v.${t.key}`).all() as {
        k: string;
        line: string;
      }[];
      const buckets = new Map<string, string[]>();
      for (const r of rows) {
        const bucket = [...r.k].slice(0, 2).join('');
        buckets.set(bucket, [...(buckets.get(bucket) ?? []), r.line]);
      }
      for (const bucket of [...buckets.keys()].sort()) {
        const lines = buckets.get(bucket)!;
        const inner = createHash('sha256');
        for (const line of lines) inner.update(`${line}\n`);
        hash.update(`${bucket}\t${lines.length}\t${inner.digest('hex')}\n`);
      }
    }
    return hash.digest('hex');
  }

  it('hashes what reading every row in key order hashes, across many pages written out of order', () => {
    const l = books('forward', ROWS);
    const template = raw(l, 1);
    // 5 003 rows (pages of 2 000, the last one short), ids not in insertion order, every third tagged.
    const ids = Array.from({ length: 5003 }, (_, i) => `bulk-${String((i * 7919) % 5003).padStart(5, '0')}`);
    l.insertRaw(ids.map((id, i) => ({ ...template, id, amount_fen: 1 + i, description: `第${i}笔 "引号" \\ 换行\n`, tags: i % 3 ? [] : ['出差'] })));
    const digest = booksDigest(l.database);
    expect(digest.rows).toBe(ROWS.length + ids.length);
    expect(digest.digest).toBe(rowByRow(l.database));
  });
});

describe('booksDigest on the stored values themselves', () => {
  /**
   * The declared tables with no column affinity, so a cell keeps whatever type it is given
   * (the ledger's own columns convert '1' to 1 and back), and no triggers to assign keys.
   */
  function bare(): Database.Database {
    const db = new Database(':memory:');
    open.push(db);
    for (const t of SYNCED_TABLES) {
      const columns = [...(t.localId ? [`${t.localId} INTEGER PRIMARY KEY`] : []), t.key, ...t.columns.map((c) => c.name)];
      db.exec(`CREATE TABLE ${t.name} (${[...new Set(columns)].join(', ')})`);
    }
    return db;
  }

  /** The digest of books of one transaction 't1' whose cells are these SQL literals. */
  const withRow = (cells: Record<string, string>) => {
    const db = bare();
    db.exec(`INSERT INTO transactions (id, ${Object.keys(cells).join(', ')}) VALUES ('t1', ${Object.values(cells).join(', ')})`);
    return booksDigest(db).digest;
  };
  const withAmount = (sql: string) => withRow({ amount_fen: sql, description: "'x'" });

  it('keeps types apart: integer, real, text, blob and NULL of one look differ', () => {
    const values = ['1', '1.0', "'1'", "'1.0'", 'NULL', "''", "x'31'", '1.5', "'1.5'", '9007199254740992', '9007199254740993', '-0.0', '0'];
    const digests = values.map((v) => withAmount(v));
    expect(new Set(digests).size, JSON.stringify(values)).toBe(values.length);
    // -0.0 and 0.0 are one value to SQLite (and its comparisons); the real still differs from the integer 0.
    expect(digests[values.indexOf('-0.0')]).toBe(withAmount('0.0'));
    // The same again is the same.
    expect(withAmount('1.5')).toBe(digests[values.indexOf('1.5')]);
  });

  it('takes a blob key in a referenced row as a blob, not as JSON', () => {
    // x'00ff' is no valid JSONB (json_array would refuse it); x'37633a78' is JSONB for the text "c:x".
    const digestOf = (key: string) => {
      const db = bare();
      db.exec(`INSERT INTO categories (id, sync_id, name) VALUES (1, ${key}, '健身')`);
      db.exec("INSERT INTO transactions (id, category_id) VALUES ('t1', 1)");
      return booksDigest(db).digest;
    };
    const digests = ["x'00ff'", "x'00fe'", "x'37633a78'", "'c:x'"].map(digestOf);
    expect(new Set(digests).size).toBe(4);
  });

  it('lets no text move between cells: commas, quotes and line breaks stay inside their cell', () => {
    // counterparty and flow are neighbours: joined without quoting, each pair would read alike.
    const pairs = [
      ["'a,b'", "'c'"],
      ["'a'", "'b,c'"],
      [`'a","b'`, "'c'"],
      ["'a'", `'b","c'`],
      [`'a'||char(10)||'b'`, "'c'"],
      ["'a'", `'b'||char(10)||'c'`],
      [`'a'||char(0)||'b'`, "'c'"],
      ["'a'", `'b'||char(0)||'c'`],
    ];
    const digests = pairs.map(([counterparty, flow]) => withRow({ counterparty: counterparty!, flow: flow! }));
    expect(new Set(digests).size).toBe(pairs.length);
    // A NUL inside a text is part of it.
    expect(withRow({ counterparty: `'a'||char(0)||'b'` })).not.toBe(withRow({ counterparty: "'a'" }));
  });

  it('orders rows without a key by their content', () => {
    const digestOf = (order: string[]) => {
      const db = bare();
      for (const name of order) db.prepare('INSERT INTO tags (name) VALUES (?)').run(name);
      db.prepare("INSERT INTO tags (sync_id, name) VALUES ('g:旅行', '旅行')").run();
      return booksDigest(db).digest;
    };
    expect(digestOf(['家', '出差', '装修'])).toBe(digestOf(['装修', '家', '出差']));
    expect(digestOf(['家', '出差'])).not.toBe(digestOf(['家', '出差', '装修']));
  });
});

describe('keptBooksDigest: the fingerprint kept bucket by bucket on a ledger that syncs', () => {
  it('always equals the digest read whole — through local writes, merges, deletes, renames, tags and undo — and re-reads only what was written', async () => {
    const { devices } = makeDevices(2, { clock: new TestClock() });
    open.push(...devices);
    const [a, b] = devices as [Device, Device];
    const same = (d: Device) => expect(keptBooksDigest(d.ledger.database), d.name).toEqual(booksDigest(d.ledger.database));
    const ids: string[] = [];
    a.ledger.transaction(() => {
      for (let i = 0; i < 600; i += 1) {
        ids.push(
          a.ledger.addTransaction({ amountFen: 100 + i, type: 'EXPENSE', category: '餐饮', date: '2026-02-10', time: '12:00', note: `第${i}笔` }).id,
        );
      }
    });
    same(a);
    await quiesce(devices);
    for (const d of devices) same(d);

    // One edit notes one bucket; the kept digest re-reads it alone and still agrees.
    b.ledger.updateTransaction(ids[7]!, { description: '改过' });
    expect(b.ledger.database.prepare('SELECT tbl, bucket FROM sync_digest_dirty').all()).toEqual([
      { tbl: 'transactions', bucket: ids[7]!.slice(0, 2) },
    ]);
    same(b);
    expect(b.ledger.database.prepare('SELECT COUNT(*) FROM sync_digest_dirty').pluck().get()).toBe(0);

    b.history.deleteTransactions(ids.slice(10, 20));
    a.ledger.renameCategory(a.ledger.listCategories().find((c) => c.name === '餐饮')!.id, '吃饭');
    a.history.updateTransaction(ids[30]!, { tags: ['出差'] });
    await quiesce(devices);
    for (const d of devices) same(d);
    b.history.undo();
    await quiesce(devices);
    for (const d of devices) same(d);
    expect(keptBooksDigest(a.ledger.database).digest).toBe(keptBooksDigest(b.ledger.database).digest);
  });
});

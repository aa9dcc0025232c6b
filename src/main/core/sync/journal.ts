import type Database from 'better-sqlite3';
import { bucketSql, forgetKeptDigest } from './digest';
import { DeviceClock } from './hlc';
import { DELETED, SYNCED_TABLES, travellingValue, type SyncedTable } from './tables';

/**
 * The change journal: SQLite triggers, generated from the declared tables, record every
 * write of the books in the SAME transaction as the write itself (a kill -9 can never
 * separate them), whichever code path wrote it — voice saves, the form, edits, undo/redo,
 * imports, category moves. Once the device syncs, each write stamps its cells in `sync_rows`
 * and queues the change in `sync_outbox` for the next push. Before that nothing is kept: a
 * device's first push is a snapshot of its whole books, and rows without stamps count as
 * older than any edit.
 *
 * Writes that apply other devices' changes run with the journal paused (`applying`): they
 * carry their own timestamps, and re-journaling them would echo them back.
 */
export class Journal {
  readonly clock: DeviceClock;
  private applyingDepth = 0;

  constructor(
    private readonly db: Database.Database,
    options: { install?: boolean; now?: () => number } = {},
  ) {
    const device = db.prepare("SELECT value FROM sync_state WHERE key = 'device_id'").pluck().get() as string;
    this.clock = new DeviceClock(device, options.now);
    db.function('sync_local', { deterministic: false }, () => (this.applyingDepth === 0 ? 1 : 0));
    db.function('sync_ts', { deterministic: false }, () => this.clock.send());
    db.function('sync_last', { deterministic: false }, () => this.clock.lastSent());
    db.function('sync_capture', { deterministic: false }, () => (this.capturing ? 1 : 0));
    this.capturing = this.state('capture') === '1';
    // TEMP triggers: they live on this connection only, so another program writing the file
    // (the sqlite3 shell, a test's raw connection) neither fails on the app's functions nor
    // journals anything — the journal is the app's seam, installed at every open.
    if (options.install !== false) db.exec(journalTriggers());
    // The clock never runs behind the stamps already given (the wall clock may have been set back).
    try {
      const latest = db
        .prepare("SELECT MAX(ts) FROM (SELECT MAX(ts) AS ts FROM sync_outbox UNION ALL SELECT value FROM sync_state WHERE key = 'clock')")
        .pluck()
        .get() as string | null;
      if (latest) this.clock.advancePast(latest);
    } catch {
      // A damaged file: its check reports that; the clock starts from the wall clock.
    }
  }

  private capturing = false;

  get deviceId(): string {
    return this.clock.node;
  }

  /** True once this ledger syncs: changes queue for the remote. */
  get capture(): boolean {
    return this.capturing;
  }

  /** Turns the outbox on (sync configured) or off, emptying it (sync stopped: nothing waits for a remote). */
  setCapture(on: boolean): void {
    this.db.transaction(() => {
      this.setState('capture', on ? '1' : '0');
      if (!on) this.db.prepare('DELETE FROM sync_outbox').run();
      // Writes made while it was off noted nothing: the fingerprint is read whole next time.
      else forgetKeptDigest(this.db);
    })();
    this.capturing = on;
  }

  /** Runs `fn` with the journal paused: the writes are other devices' changes, stamped by the caller. */
  applying<T>(fn: () => T): T {
    this.applyingDepth += 1;
    try {
      return fn();
    } finally {
      this.applyingDepth -= 1;
    }
  }

  state(key: string): string | null {
    return (this.db.prepare('SELECT value FROM sync_state WHERE key = ?').pluck().get(key) as string | undefined) ?? null;
  }

  setState(key: string, value: string | null): void {
    if (value === null) this.db.prepare('DELETE FROM sync_state WHERE key = ?').run(key);
    else this.db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  pendingCount(): number {
    return this.db.prepare('SELECT COUNT(*) FROM sync_outbox').pluck().get() as number;
  }

  /**
   * Stamps a change the sync code itself makes on the device's behalf (a repair after a merge,
   * e.g. a budget whose category another device deleted): journaled like any local write.
   */
  record(table: string, key: string, values: Record<string, unknown>): void {
    const ts = this.clock.send();
    const cols = Object.fromEntries(Object.keys(values).map((c) => [c, ts]));
    this.db
      .prepare(
        `INSERT INTO sync_rows (tbl, row, ts, cols, deleted) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (tbl, row) DO UPDATE SET cols = json_patch(sync_rows.cols, excluded.cols), deleted = COALESCE(?, sync_rows.deleted)`,
      )
      .run(
        table,
        key,
        DeviceClock.ZERO,
        JSON.stringify(cols),
        values[DELETED] === 1 ? 1 : 0,
        DELETED in values ? (values[DELETED] === 1 ? 1 : 0) : null,
      );
    if (this.capturing) {
      this.db.prepare('INSERT INTO sync_outbox (ts, tbl, row, vals) VALUES (?, ?, ?, ?)').run(ts, table, key, JSON.stringify(values));
    }
  }
}

/** Every journal trigger, generated from the declarations (cheap; runs at each open). */
export function journalTriggers(): string {
  return SYNCED_TABLES.flatMap((t) => tableTriggers(t)).join('\n');
}

function tableTriggers(t: SyncedTable): string[] {
  const drop = (name: string) => `DROP TRIGGER IF EXISTS temp.${name};`;
  const lit = (s: string) => `'${s}'`;
  const values = (row: string) => t.columns.flatMap((c) => [lit(c.name), travellingValue(c, row)]).join(', ');
  const insertName = `sync_journal_${t.name}_insert`;
  const deleteName = `sync_journal_${t.name}_delete`;
  const keyName = `sync_key_${t.name}`;
  const out: string[] = [drop(insertName), drop(deleteName), drop(keyName)];
  // Every write of the table, local or merged, notes the bucket of the books fingerprint it
  // touched (digest.ts), so the next round re-reads that bucket only.
  // No conflict clause: an outer INSERT OR REPLACE / OR ABORT would override it inside the trigger.
  const dirty = (row: string) =>
    `INSERT INTO sync_digest_dirty (tbl, bucket) SELECT ${lit(t.name)}, b FROM (SELECT ${bucketSql(`${row}.${t.key}`)} AS b)
     WHERE NOT EXISTS (SELECT 1 FROM sync_digest_dirty d WHERE d.tbl = ${lit(t.name)} AND d.bucket = b);`;
  for (const [event, rows] of [
    ['INSERT', ['NEW']],
    ['UPDATE', ['NEW', 'OLD']],
    ['DELETE', ['OLD']],
  ] as const) {
    const name = `sync_digest_${t.name}_${event.toLowerCase()}`;
    // An update of what is not declared (an account's running totals) changes no fingerprint.
    const on = event === 'UPDATE' ? `UPDATE OF ${[t.key, ...t.columns.map((c) => c.name)].join(', ')}` : event;
    out.push(drop(name), `CREATE TEMP TRIGGER ${name} AFTER ${on} ON main.${t.name} WHEN sync_capture() BEGIN ${rows.map(dirty).join(' ')} END;`);
  }
  // Keys are assigned after the insert (SQLite triggers cannot change NEW), whether or not
  // the device syncs yet: a row made before sync was set up needs its key when it is sent.
  // The journal trigger assigns too, as the order in which SQLite fires the two is not given.
  const assign = t.assignKey
    ? `UPDATE ${t.name} SET ${t.key} = (SELECT ${t.assignKey} FROM ${t.name} r WHERE r.rowid = NEW.rowid) WHERE rowid = NEW.rowid AND ${t.key} IS NULL;`
    : '';
  if (t.assignKey) out.push(`CREATE TEMP TRIGGER ${keyName} AFTER INSERT ON main.${t.name} WHEN NEW.${t.key} IS NULL BEGIN ${assign} END;`);
  out.push(`CREATE TEMP TRIGGER ${insertName} AFTER INSERT ON main.${t.name} WHEN sync_local() AND sync_capture() BEGIN
    ${assign}
    INSERT INTO sync_rows (tbl, row, ts, cols, deleted, ghost)
      SELECT ${lit(t.name)}, r.${t.key}, sync_ts(), '{}', 0, NULL FROM ${t.name} r WHERE r.rowid = NEW.rowid
      ON CONFLICT (tbl, row) DO UPDATE SET ts = excluded.ts, cols = '{}', deleted = 0, ghost = NULL;
    INSERT INTO sync_outbox (ts, tbl, row, vals)
      SELECT sync_last(), ${lit(t.name)}, r.${t.key}, json_object('${DELETED}', 0, ${values('r')}) FROM ${t.name} r
      WHERE r.rowid = NEW.rowid;
  END;`);
  for (const c of t.columns) {
    const name = `sync_journal_${t.name}_${c.name}`;
    out.push(drop(name));
    out.push(`CREATE TEMP TRIGGER ${name} AFTER UPDATE OF ${c.name} ON main.${t.name} WHEN sync_local() AND sync_capture() AND OLD.${c.name} IS NOT NEW.${c.name} BEGIN
    INSERT INTO sync_rows (tbl, row, ts, cols) VALUES (${lit(t.name)}, NEW.${t.key}, '${DeviceClock.ZERO}', json_object('${c.name}', sync_ts()))
      ON CONFLICT (tbl, row) DO UPDATE SET cols = json_set(sync_rows.cols, '$.${c.name}', sync_last());
    INSERT INTO sync_outbox (ts, tbl, row, vals) VALUES (sync_last(), ${lit(t.name)}, NEW.${t.key}, json_object('${c.name}', ${travellingValue(c, 'NEW')}));
  END;`);
  }
  out.push(`CREATE TEMP TRIGGER ${deleteName} AFTER DELETE ON main.${t.name} WHEN sync_local() AND sync_capture() BEGIN
    INSERT INTO sync_rows (tbl, row, ts, cols, deleted, ghost)
      VALUES (${lit(t.name)}, OLD.${t.key}, '${DeviceClock.ZERO}', json_object('${DELETED}', sync_ts()), 1, json_object(${values('OLD')}))
      ON CONFLICT (tbl, row) DO UPDATE SET cols = json_set(sync_rows.cols, '$.${DELETED}', sync_last()), deleted = 1, ghost = excluded.ghost;
    INSERT INTO sync_outbox (ts, tbl, row, vals) VALUES (sync_last(), ${lit(t.name)}, OLD.${t.key}, json_object('${DELETED}', 1));
  END;`);
  return out;
}

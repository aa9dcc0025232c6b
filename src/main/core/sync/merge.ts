import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { OTHER_CATEGORY } from '@shared/categories';
import { DeviceClock } from './hlc';
import type { Journal } from './journal';
import type { RowChange, SnapshotRow } from './rows';
import { asRefusal, COPIED_TABLES, readRows, travellingRows, type AttachedSnapshot } from './snapshot';
import { DELETED, LOCAL_TABLES_WITH_REFERENCES, SYNCED_TABLES, TABLES_BY_NAME, travellingValue, type SyncedColumn, type SyncedTable } from './tables';

/** Below this many rows for one table, loading in bulk saves less than rebuilding its indexes costs. */
const BULK_MIN = 2000;

interface Entry {
  ts: string;
  cols: Record<string, string>;
  deleted: number;
  ghost: Record<string, unknown> | null;
}

/**
 * The per-field last-writer-wins apply step: for every cell of an incoming row, the value
 * with the later timestamp wins (timestamps are HLC strings, so a string comparison; ties
 * only happen for rows that predate sync on both sides and are broken by the value, so every
 * device decides alike). A row's existence is the cell `_deleted`: a delete wins over
 * concurrent edits of other fields, and only a later re-insert (undo) brings a row back.
 *
 * Incoming rows are materialized into the app's own tables, so every query, balance and
 * statistic reads them like local rows. What the app's rules would refuse after a merge —
 * rows under a category another device deleted, two categories of one name, two default
 * accounts — is repaired with ordinary journaled writes, which other devices then receive,
 * so the books converge to the same repaired state everywhere.
 *
 * Runs inside the caller's transaction.
 */
export class Merger {
  private readonly getEntry: Database.Statement;
  private readonly putEntry: Database.Statement;
  private readonly statements = new Map<string, Database.Statement>();
  /** Whether the last snapshot applied was adopted whole (a new device joining) rather than merged. */
  lastAdopted = false;
  constructor(
    private readonly db: Database.Database,
    private readonly journal: Journal,
  ) {
    this.getEntry = db.prepare('SELECT ts, cols, deleted, ghost FROM sync_rows WHERE tbl = ? AND row = ?');
    this.putEntry = db.prepare(
      `INSERT INTO sync_rows (tbl, row, ts, cols, deleted, ghost) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tbl, row) DO UPDATE SET ts = excluded.ts, cols = excluded.cols, deleted = excluded.deleted, ghost = excluded.ghost`,
    );
  }

  /** Merges rows (any order); returns how many rows changed here. */
  merge(changes: Iterable<RowChange>): number {
    const byTable = new Map<string, RowChange[]>();
    for (const change of changes) {
      if (!TABLES_BY_NAME.has(change.table)) continue; // a table of a newer version: ignored until this one knows it
      let list = byTable.get(change.table);
      if (!list) byTable.set(change.table, (list = []));
      list.push(change);
    }
    return this.apply((table) => ({ rows: byTable.get(table.name) ?? [], loaded: 0 }));
  }

  /**
   * Merges a whole snapshot. A table that holds nothing here yet takes the snapshot's
   * complete live rows straight from the attached file (`load`); everything else goes
   * through the ordinary merge.
   */
  mergeSnapshot(snapshot: AttachedSnapshot): number {
    return this.apply((table) => {
      if (snapshot.count(table) >= BULK_MIN && !table.uniqueName && snapshot.complete(table) && this.emptyHere(table)) {
        const { loaded, rest } = this.load(table, snapshot);
        return { rows: [...snapshot.rows(table, rest)], loaded };
      }
      return { rows: [...snapshot.rows(table)], loaded: 0 };
    });
  }

  /**
   * A snapshot in ONE transaction of its own, adopted when this device can (canAdopt), merged
   * otherwise; `alongside` runs in the same transaction (the engine records the devices
   * covered). SQLite copies tables whole only with foreign keys off, a pragma that cannot
   * change inside a transaction: it is set around it, and adopt checks every reference.
   */
  applySnapshot(snapshot: AttachedSnapshot, alongside: () => void = () => {}): number {
    const adopt = this.canAdopt(snapshot);
    this.lastAdopted = adopt;
    if (adopt) this.db.pragma('foreign_keys = OFF');
    try {
      return this.db.transaction(() => {
        const changed = adopt ? this.adopt(snapshot) : this.mergeSnapshot(snapshot);
        alongside();
        return changed;
      })();
    } finally {
      if (adopt) this.db.pragma('foreign_keys = ON');
    }
  }

  /**
   * Whether this device can adopt the snapshot's tables as they are: the same schema, and
   * nothing of its own but the rows others reference (its categories and accounts, merged
   * back in afterwards) — no rows elsewhere, no stamps. A new device, in short.
   */
  canAdopt(snapshot: AttachedSnapshot): boolean {
    return (
      SYNCED_TABLES.every((t) => snapshot.has(t) && (t.localId !== undefined || this.emptyHere(t))) &&
      this.stmt('SELECT 1 FROM sync_rows LIMIT 1').get() === undefined &&
      snapshot.sameSchema()
    );
  }

  /**
   * Takes the snapshot's tables whole (`INSERT … SELECT *` into empty tables of the same
   * schema, which SQLite copies record by record with their indexes), then merges this
   * device's own categories and accounts back in as rows that predate sync. Runs inside
   * applySnapshot's transaction, with foreign keys off; every reference is checked before it
   * commits.
   */
  adopt(snapshot: AttachedSnapshot): number {
    const referenced = SYNCED_TABLES.filter((t) => t.localId !== undefined);
    const travelling = () =>
      referenced.flatMap((t) => {
        const columns = t.columns.map((c) => c.name);
        return [...readRows(this.db, travellingRows('main', t, columns), t, columns)];
      });
    const own = travelling();
    const triggers = this.db
      .prepare(
        `SELECT 'main' AS schema, name, sql FROM main.sqlite_master WHERE type = 'trigger' AND tbl_name IN (SELECT value FROM json_each(?))
         UNION ALL SELECT 'temp', name, sql FROM temp.sqlite_master WHERE type = 'trigger' AND tbl_name IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(COPIED_TABLES), JSON.stringify(COPIED_TABLES)) as { schema: string; name: string; sql: string }[];
    let adopted = 0;
    this.applied(() => {
      for (const t of triggers) this.db.exec(`DROP TRIGGER ${t.schema}.${t.name}`);
      try {
        for (const table of COPIED_TABLES) {
          this.db.exec(`DELETE FROM main.${table}`);
          const n = this.db.prepare(`INSERT INTO main.${table} SELECT * FROM ${snapshot.source(table)}`).run().changes;
          if (!referenced.some((t) => t.name === table) && table !== 'sync_rows') adopted += n;
        }
        for (const table of LOCAL_TABLES_WITH_REFERENCES) this.db.exec(`DELETE FROM main.${table}`);
        for (const table of SYNCED_TABLES) {
          if (this.db.prepare('SELECT 1 FROM pragma_foreign_key_check(?) LIMIT 1').get(table.name) !== undefined) {
            throw snapshot.refused('引用了不存在的行');
          }
        }
      } catch (err) {
        throw asRefusal(err, snapshot.fileName);
      }
      // The temp schema keeps a trigger's CREATE without its TEMP: put it back, or it would land in the ledger.
      for (const t of triggers) this.db.exec(t.schema === 'temp' ? t.sql.replace(/^CREATE TRIGGER/, 'CREATE TEMP TRIGGER') : t.sql);
      for (const table of SYNCED_TABLES) if (table.bulk) this.db.exec(table.bulk.recompute);
    });
    // Of this device's own categories and accounts, those the snapshot holds (alive or
    // deleted) are the household's: its version stays, whatever this install made of its
    // presets — so the books are exactly the snapshot's, and this device has nothing to send
    // back. The others are new to the books: merged in and journaled like any local write,
    // so they reach the other devices in this device's first change file.
    const inSnapshot = (r: SnapshotRow) =>
      this.stmt(`SELECT 1 FROM ${r.table} WHERE ${TABLES_BY_NAME.get(r.table)!.key} = ?`).get(r.key) !== undefined ||
      this.stmt('SELECT 1 FROM sync_rows WHERE tbl = ? AND row = ?').get(r.table, r.key) !== undefined;
    const extra = own.filter((r) => !inSnapshot(r));
    this.merge(extra);
    for (const r of extra) {
      const values = Array.isArray(r.values) ? Object.fromEntries(r.cols.map((c, i) => [c, (r.values as unknown[])[i]])) : { ...r.values };
      this.journal.record(r.table, r.key, { [DELETED]: 0, ...values });
    }
    // Rows changed here: every row of the tables that were empty, and the categories and
    // accounts that differ now in what they are — not merely in when this install made its presets.
    const form = (r: SnapshotRow) => {
      const values = Array.isArray(r.values) ? r.values.filter((_, i) => r.cols[i] !== 'created_at') : r.values;
      return [`${r.table}:${r.key}`, JSON.stringify([r.deleted, values])] as const;
    };
    const before = new Map(own.map(form));
    const after = new Map(travelling().map(form));
    const differ = new Set([...before.keys(), ...after.keys()].filter((k) => before.get(k) !== after.get(k)));
    return adopted + differ.size;
  }

  /** `rowsOf` is asked for each table in order, once the tables it references are merged. */
  private apply(rowsOf: (table: SyncedTable) => { rows: RowChange[]; loaded: number }): number {
    const byTable = new Map<string, RowChange[]>();
    let changed = 0;
    // Referenced tables first, so references resolve within one file. Deletes go last, in
    // the reverse order: a file that moves rows out of a category and then deletes it (the
    // app's delete-with-move) must move them before the delete releases what still points
    // at the category — else the move arrives after a fallback repair stamped later than it.
    for (const table of SYNCED_TABLES) {
      const { rows, loaded } = rowsOf(table);
      byTable.set(table.name, parentsFirst(table, rows));
      changed += loaded;
      for (const change of rows) {
        if (!isDelete(change) && this.mergeRow(table, change)) changed += 1;
      }
    }
    for (const table of [...SYNCED_TABLES].reverse()) {
      for (const change of byTable.get(table.name) ?? []) {
        if (isDelete(change) && this.mergeRow(table, change)) changed += 1;
      }
    }
    if (changed > 0) {
      this.retryWaiting();
      this.repairDefaults();
      this.repairSelfTransfers();
      this.repairCategoryTree();
    }
    return changed;
  }

  private emptyHere(table: SyncedTable): boolean {
    return (
      this.stmt(`SELECT 1 FROM ${table.name} LIMIT 1`).get() === undefined &&
      this.stmt('SELECT 1 FROM sync_rows WHERE tbl = ? LIMIT 1').get(table.name) === undefined
    );
  }

  /**
   * A snapshot's rows into a table that holds none here: with nothing to compare against,
   * every live row whose references resolve goes straight in with `INSERT … SELECT`, the
   * table's secondary indexes (and the app triggers it declares) set aside and rebuilt once.
   * Returns how many went in and the condition (over the travelling rows `v`) of the rest —
   * tombstones, rows waiting, unresolved references — left for the ordinary merge.
   */
  private load(table: SyncedTable, snapshot: AttachedSnapshot): { loaded: number; rest: string } {
    const names = table.columns.map((c) => c.name);
    const target = (c: SyncedColumn) => TABLES_BY_NAME.get((c.ref ?? c.keyRef)!)!;
    const localId = (c: SyncedColumn) => `(SELECT x.${target(c).localId} FROM main.${target(c).name} x WHERE x.${target(c).key} = v.${c.name})`;
    const resolvable = table.columns
      .filter((c) => c.ref ?? c.keyRef)
      .map(
        (c) =>
          `(v.${c.name} IS NULL OR ${c.ref ? `${localId(c)} IS NOT NULL` : `EXISTS (SELECT 1 FROM main.${target(c).name} x WHERE x.${target(c).key} = v.${c.name})`})`,
      );
    const live = ['v.deleted = 0', 'v.waiting IS NULL', ...resolvable].join(' AND ');
    const values = table.columns.map((c) => (c.ref ? localId(c) : `v.${c.name}`));
    const rows = `(${snapshot.travelling(table)}) v`;
    const indexes = this.db
      .prepare(`SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`)
      .all(table.name) as { name: string; sql: string }[];
    const triggers = (table.bulk?.suspendTriggers ?? []).flatMap(
      (name) =>
        this.db.prepare(`SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' AND name = ?`).all(name) as { name: string; sql: string }[],
    );
    for (const i of indexes) this.db.exec(`DROP INDEX main.${i.name}`);
    for (const t of triggers) this.db.exec(`DROP TRIGGER main.${t.name}`);
    const loaded = this.applied(() => {
      try {
        const inserted = this.db
          .prepare(`INSERT INTO main.${table.name} (${[table.key, ...names].join(', ')}) SELECT v.k, ${values.join(', ')} FROM ${rows} WHERE ${live}`)
          .run().changes;
        // A row without stamps (it predates sync on the device that wrote it) needs no entry:
        // no entry means exactly that, here as there.
        this.db
          .prepare(
            `INSERT INTO main.sync_rows (tbl, row, ts, cols, deleted, ghost) SELECT ?, v.k, v.ts, COALESCE(v.stamps, '{}'), 0, NULL
             FROM ${rows} WHERE ${live} AND (v.ts <> '${DeviceClock.ZERO}' OR v.stamps IS NOT NULL)`,
          )
          .run(table.name);
        return inserted;
      } catch (err) {
        throw asRefusal(err, snapshot.fileName);
      }
    });
    for (const t of triggers) this.db.exec(t.sql);
    if (table.bulk) this.db.exec(table.bulk.recompute);
    for (const i of indexes) this.db.exec(i.sql);
    return { loaded, rest: `v.deleted = 1 OR v.waiting IS NOT NULL OR NOT EXISTS (SELECT 1 FROM main.${table.name} x WHERE x.${table.key} = v.k)` };
  }

  private mergeRow(table: SyncedTable, change: RowChange): boolean {
    const known = new Set([DELETED, ...table.columns.map((c) => c.name)]);
    const raw = this.getEntry.get(table.name, change.key) as { ts: string; cols: string; deleted: number; ghost: string | null } | undefined;
    const entry: Entry = raw
      ? {
          ts: raw.ts,
          cols: JSON.parse(raw.cols) as Record<string, string>,
          deleted: raw.deleted,
          ghost: raw.ghost === null ? null : (JSON.parse(raw.ghost) as Record<string, unknown>),
        }
      : { ts: DeviceClock.ZERO, cols: {}, deleted: 0, ghost: null };
    // Without an entry the row predates sync here: it is in its table or nowhere.
    const inTable = raw ? raw.deleted === 0 && raw.ghost === null : this.exists(table, change.key);
    if (!raw && !inTable) entry.ghost = {};
    const accepted: Record<string, unknown> = {};
    let current: Record<string, unknown> | null = null;
    for (const [column, ts, value] of change.cells) {
      if (!known.has(column)) continue;
      const local = entry.cols[column] ?? entry.ts;
      if (ts < local) continue;
      if (ts === local) {
        // Equal stamps are the same change — except on rows both sides had before sync.
        if (ts !== DeviceClock.ZERO) continue;
        current ??= inTable ? this.read(table, change.key) : (entry.ghost ?? {});
        const mine = column === DELETED ? (raw || inTable ? entry.deleted : undefined) : current?.[column];
        if (mine !== undefined && JSON.stringify(value) <= JSON.stringify(mine)) continue;
      }
      entry.cols[column] = ts;
      accepted[column] = value;
    }
    if (Object.keys(accepted).length === 0) return false;
    if (DELETED in accepted) entry.deleted = accepted[DELETED] ? 1 : 0;
    delete accepted[DELETED];
    this.compact(table, entry);
    const repairs: (() => void)[] = [];
    if (entry.deleted) {
      if (inTable) {
        entry.ghost = { ...this.read(table, change.key), ...accepted };
        this.releaseDependents(table, change.key);
        this.parkDependents(table, change.key);
        this.applied(() => this.stmt(`DELETE FROM ${table.name} WHERE ${table.key} = ?`).run(change.key));
      } else {
        entry.ghost = { ...(entry.ghost ?? {}), ...accepted };
      }
    } else if (inTable) {
      const resolved = this.resolve(table, change.key, accepted, repairs, false);
      if (resolved === null) {
        // A reference to a row not seen yet: the row waits out of its table until it arrives.
        entry.ghost = { ...this.read(table, change.key), ...accepted };
        this.applied(() => this.stmt(`DELETE FROM ${table.name} WHERE ${table.key} = ?`).run(change.key));
      } else if (Object.keys(resolved).length > 0) {
        this.applied(() => this.update(table, change.key, resolved));
      }
    } else {
      const values = { ...(entry.ghost ?? {}), ...accepted };
      entry.ghost = this.tryInsert(table, change.key, values, repairs) ? null : values;
    }
    this.putEntry.run(
      table.name,
      change.key,
      entry.ts,
      JSON.stringify(entry.cols),
      entry.deleted,
      entry.ghost === null ? null : JSON.stringify(entry.ghost),
    );
    for (const repair of repairs) repair();
    return true;
  }

  /** Folds per-column stamps equal to the row's into the row stamp (an insert message: one stamp for all). */
  private compact(table: SyncedTable, entry: Entry): void {
    const stamps = [DELETED, ...table.columns.map((c) => c.name)].map((c) => entry.cols[c] ?? entry.ts);
    if (stamps.every((s) => s === stamps[0])) {
      entry.ts = stamps[0]!;
      entry.cols = {};
    }
  }

  /** Inserts a complete row whose references resolve; false when it must wait. */
  private tryInsert(table: SyncedTable, key: string, values: Record<string, unknown>, repairs: (() => void)[]): boolean {
    if (!table.columns.every((c) => c.name in values)) return false;
    const resolved = this.resolve(table, key, values, repairs, true);
    if (resolved === null) return false;
    const columns = [table.key, ...table.columns.map((c) => c.name)];
    this.applied(() =>
      this.stmt(`INSERT INTO ${table.name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
        key,
        ...table.columns.map((c) => bindable(resolved[c.name])),
      ),
    );
    return true;
  }

  /**
   * Local values for travelling ones: references become local ids. null when a referenced
   * row is unknown here (the row waits). A reference to a deleted row is repaired the way the
   * app would have: rows move to the fallback category or the default account, a budget of a
   * deleted category goes. Name collisions are repaired by renaming one of the two rows.
   */
  private resolve(
    table: SyncedTable,
    key: string,
    values: Record<string, unknown>,
    repairs: (() => void)[],
    inserting: boolean,
  ): Record<string, unknown> | null {
    const out: Record<string, unknown> = {};
    for (const column of table.columns) {
      if (!(column.name in values)) continue;
      const value = values[column.name];
      if (column.keyRef && value !== null) {
        const target = TABLES_BY_NAME.get(column.keyRef)!;
        if (!this.exists(target, String(value))) {
          // Its row was deleted here (a tag put on a row meanwhile deleted): the delete wins
          // over the concurrent edit, as it does over edits of the row's own columns.
          if (this.tombstoned(target, String(value))) repairs.push(() => this.dropRow(table, key));
          return null;
        }
      }
      if (!column.ref || value === null) {
        out[column.name] = value;
        continue;
      }
      const target = TABLES_BY_NAME.get(column.ref)!;
      const id = this.localId(target, String(value));
      if (id !== undefined) {
        out[column.name] = id;
        continue;
      }
      if (!this.tombstoned(target, String(value))) return null;
      const fallback = this.fallback(table, column, values, key);
      if (fallback === null) {
        // A sub-category whose parent another device deleted: it stays, at the top level.
        out[column.name] = null;
        repairs.push(() => this.repair(table, key, { [column.name]: null }));
        continue;
      }
      if (fallback === 'drop') {
        repairs.push(() => this.dropRow(table, key));
        out[column.name] = null;
        return inserting ? null : out;
      }
      out[column.name] = fallback;
      repairs.push(() => this.repair(table, key, { [column.name]: fallback }));
    }
    if (table.uniqueName && table.uniqueName.column in out) this.settleName(table, key, values, out, repairs);
    return out;
  }

  private settleName(table: SyncedTable, key: string, values: Record<string, unknown>, out: Record<string, unknown>, repairs: (() => void)[]): void {
    const { column, scope } = table.uniqueName!;
    const name = String(out[column]);
    const scopeValues = scope.map((s) => (s in values ? values[s] : this.read(table, key)?.[s]));
    const where = [`${column} = ?`, `${table.key} != ?`, ...scope.map((s) => `${s} = ?`)].join(' AND ');
    const other = this.stmt(`SELECT ${table.key} AS k FROM ${table.name} WHERE ${where}`).get(name, key, ...scopeValues) as { k: string } | undefined;
    if (!other) return;
    // The row with the larger key yields, on every device alike.
    if (key > other.k) {
      const renamed = suffixed(name, key);
      out[column] = renamed;
      repairs.push(() => this.repair(table, key, { [column]: renamed }));
    } else {
      this.update(table, other.k, { [column]: suffixed(name, other.k) });
    }
  }

  /**
   * What a row's reference to a deleted row becomes. `leaving` is the local id of the row
   * being deleted right now, never a fallback: another device may have deleted the account
   * this one just made the default, or a custom category that took the name 其他.
   */
  private fallback(
    table: SyncedTable,
    column: SyncedColumn,
    values: Record<string, unknown>,
    key: string,
    leaving: number | null = null,
  ): number | null | 'drop' {
    if (table.name === 'categories' && column.name === 'parent_id') return null;
    // A recurring rule goes to the type's 其他 as its rows do: dropping it, like a budget, would lose what the user set up.
    if ((table.name === 'transactions' || table.name === 'recurring_rules') && column.ref === 'categories') {
      const type = (values.type as string | undefined) ?? (this.read(table, key)?.type as string | undefined) ?? 'EXPENSE';
      return this.fallbackCategory(type, leaving);
    }
    if (column.ref === 'accounts') return this.defaultAccount(leaving);
    return 'drop';
  }

  private fallbackCategory(type: string, leaving: number | null): number {
    const id = this.stmt(
      `SELECT id FROM categories WHERE type = ? AND id IS NOT ? ORDER BY (name = '${OTHER_CATEGORY}') DESC, sort_order, id LIMIT 1`,
    )
      .pluck()
      .get(type, leaving) as number | undefined;
    return id ?? (this.stmt('SELECT id FROM categories WHERE id IS NOT ? ORDER BY id LIMIT 1').pluck().get(leaving) as number);
  }

  /** The default account, or — when that is the one leaving — the account that will inherit the default. */
  private defaultAccount(leaving: number | null): number {
    return this.stmt(`SELECT id FROM accounts WHERE id IS NOT ? ORDER BY is_default DESC, archived_at IS NOT NULL, sync_id LIMIT 1`)
      .pluck()
      .get(leaving) as number;
  }

  /** Before a row another device deleted leaves its table: what points at it moves on, journaled. */
  private releaseDependents(table: SyncedTable, key: string): void {
    if (!table.localId) return;
    const id = this.localId(table, key);
    if (id === undefined) return;
    for (const dependent of SYNCED_TABLES) {
      for (const column of dependent.columns.filter((c) => c.ref === table.name)) {
        const rows = this.stmt(`SELECT ${dependent.key} AS k FROM ${dependent.name} WHERE ${column.name} = ?`).all(id) as { k: string }[];
        for (const { k } of rows) {
          const fallback = this.fallback(dependent, column, {}, k, id);
          if (fallback === 'drop') this.dropRow(dependent, k);
          else this.update(dependent, k, { [column.name]: fallback });
        }
      }
    }
  }

  /**
   * Before a row keyed the same everywhere (a transaction) leaves its table for another
   * device's delete: the rows naming it by key (its tags) leave with it, as the schema's
   * cascade would, but wait for it instead of being lost. The deleting device sent the links
   * it knew as deletes, which arrive first; what is left was made here meanwhile, and comes
   * back if the row does (an undo there), as it does on the device that made it.
   */
  private parkDependents(table: SyncedTable, key: string): void {
    if (table.localId) return;
    for (const dependent of SYNCED_TABLES) {
      for (const column of dependent.columns.filter((c) => c.keyRef === table.name)) {
        const rows = this.stmt(`SELECT ${dependent.key} AS k FROM ${dependent.name} WHERE ${column.name} = ?`).all(key) as { k: string }[];
        for (const { k } of rows) {
          const ghost = JSON.stringify(this.read(dependent, k));
          this.stmt(
            `INSERT INTO sync_rows (tbl, row, ts, cols, deleted, ghost) VALUES (?, ?, '${DeviceClock.ZERO}', '{}', 0, ?)
             ON CONFLICT (tbl, row) DO UPDATE SET ghost = excluded.ghost`,
          ).run(dependent.name, k, ghost);
          this.applied(() => this.stmt(`DELETE FROM ${dependent.name} WHERE ${dependent.key} = ?`).run(k));
        }
      }
    }
  }

  /** Deletes a row as a local, journaled change (a repair); a row not in its table is tombstoned in the journal. */
  private dropRow(table: SyncedTable, key: string): void {
    if (this.exists(table, key)) this.stmt(`DELETE FROM ${table.name} WHERE ${table.key} = ?`).run(key);
    else this.journal.record(table.name, key, { [DELETED]: 1 });
  }

  /** Rows that waited for a referenced row: inserted once it is here. */
  private retryWaiting(): void {
    for (const table of SYNCED_TABLES) {
      const waiting = this.stmt('SELECT row, ghost FROM sync_rows WHERE tbl = ? AND ghost IS NOT NULL AND deleted = 0').all(table.name) as {
        row: string;
        ghost: string;
      }[];
      for (const { row, ghost } of waiting) {
        const repairs: (() => void)[] = [];
        if (this.tryInsert(table, row, JSON.parse(ghost) as Record<string, unknown>, repairs)) {
          this.stmt('UPDATE sync_rows SET ghost = NULL WHERE tbl = ? AND row = ?').run(table.name, row);
          for (const repair of repairs) repair();
        }
      }
    }
  }

  /**
   * Exactly one open default account, on every device alike. Two devices may each have set
   * one (the later choice stays); a concurrent archive may have hit the default (it stops
   * being the default); and a row created on two devices at once takes the later insert's
   * cells whole, so a default set on the earlier copy can come back unset. Without a default
   * left, the preset account (or else the first open one by key) takes it.
   */
  private repairDefaults(): void {
    const accounts = TABLES_BY_NAME.get('accounts')!;
    const defaults = this.stmt(
      `SELECT a.sync_id AS k, a.archived_at IS NOT NULL AS archived, COALESCE(json_extract(s.cols, '$.is_default'), s.ts, '${DeviceClock.ZERO}') AS ts
       FROM accounts a LEFT JOIN sync_rows s ON s.tbl = 'accounts' AND s.row = a.sync_id WHERE a.is_default = 1`,
    ).all() as { k: string; archived: number; ts: string }[];
    const open = defaults.filter((d) => !d.archived);
    open.sort((a, b) => (a.ts === b.ts ? (a.k < b.k ? -1 : 1) : a.ts > b.ts ? -1 : 1));
    const keep = open[0];
    for (const loser of defaults.filter((d) => d !== keep)) this.update(accounts, loser.k, { is_default: 0 });
    if (keep) return;
    const heir = this.stmt(`SELECT sync_id FROM accounts ORDER BY archived_at IS NOT NULL, sync_id LIMIT 1`).pluck().get() as string | undefined;
    if (heir !== undefined) this.update(accounts, heir, { is_default: 1 });
  }

  /**
   * A repair of the row being merged, journaled whatever the table holds: the incoming values
   * were already written repaired (the fallback category, the suffixed name), so an UPDATE
   * would change nothing, fire no trigger, and the repair would stay on this device alone —
   * the others keeping the unrepaired value under the same stamp.
   */
  private repair(table: SyncedTable, key: string, values: Record<string, unknown>): void {
    this.applied(() => this.update(table, key, values));
    const row = this.read(table, key);
    if (!row) return;
    this.journal.record(table.name, key, Object.fromEntries(Object.keys(values).map((c) => [c, row[c]])));
  }

  /**
   * Two devices each changed one side of a transfer (or its target account was deleted and
   * the default took its place) so it now goes from an account to itself: it becomes a
   * transfer to someone outside, named after that account — the money still leaves it, as
   * on the device that made it.
   */
  private repairSelfTransfers(): void {
    const rows = this.stmt(
      `SELECT t.id AS k, a.name AS name FROM transactions t JOIN accounts a ON a.id = t.account_id
       WHERE t.to_account_id IS NOT NULL AND t.to_account_id = t.account_id`,
    ).all() as { k: string; name: string }[];
    const transactions = TABLES_BY_NAME.get('transactions')!;
    for (const { k, name } of rows) this.update(transactions, k, { to_account_id: null, counterparty: name });
  }

  /**
   * Two levels at most, a child of its parent's type: concurrent moves on two devices (one
   * puts 早餐 under 餐饮 while the other puts 餐饮 under 生活, or each puts one of a pair under
   * the other) can break that. A category whose parent is itself a child, or of another
   * type, goes to the top level: decided from the merged rows alone, so alike everywhere.
   */
  private repairCategoryTree(): void {
    const categories = TABLES_BY_NAME.get('categories')!;
    const broken = this.stmt(
      `SELECT c.sync_id FROM categories c JOIN categories p ON p.id = c.parent_id WHERE p.parent_id IS NOT NULL OR p.type <> c.type`,
    )
      .pluck()
      .all() as string[];
    for (const k of broken) this.update(categories, k, { parent_id: null });
  }

  // ---- small helpers ----------------------------------------------------------------

  private applied<T>(fn: () => T): T {
    return this.journal.applying(fn);
  }

  private update(table: SyncedTable, key: string, values: Record<string, unknown>): void {
    const columns = Object.keys(values);
    this.stmt(`UPDATE ${table.name} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE ${table.key} = ?`).run(
      ...columns.map((c) => bindable(values[c])),
      key,
    );
  }

  private exists(table: SyncedTable, key: string): boolean {
    return this.stmt(`SELECT 1 FROM ${table.name} WHERE ${table.key} = ?`).get(key) !== undefined;
  }

  private localId(table: SyncedTable, key: string): number | undefined {
    return this.stmt(`SELECT ${table.localId} FROM ${table.name} WHERE ${table.key} = ?`).pluck().get(key) as number | undefined;
  }

  private tombstoned(table: SyncedTable, key: string): boolean {
    return this.stmt('SELECT deleted FROM sync_rows WHERE tbl = ? AND row = ?').pluck().get(table.name, key) === 1;
  }

  /** A row's travelling values (references as keys), or null. */
  private read(table: SyncedTable, key: string): Record<string, unknown> | null {
    const select = table.columns.map((c) => `${travellingValue(c, 'r')} AS ${c.name}`).join(', ');
    return (this.stmt(`SELECT ${select} FROM ${table.name} r WHERE r.${table.key} = ?`).get(key) as Record<string, unknown> | undefined) ?? null;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }
}

/**
 * A table that references itself (a category's parent): rows without such a reference
 * first, so a child finds the parent that came in the same file instead of waiting for it.
 */
function parentsFirst(table: SyncedTable, rows: RowChange[]): RowChange[] {
  const self = table.columns.filter((c) => c.ref === table.name).map((c) => c.name);
  if (self.length === 0) return rows;
  const child = (change: RowChange) => change.cells.some(([column, , value]) => self.includes(column) && value !== null);
  return [...rows.filter((r) => !child(r)), ...rows.filter(child)];
}

/** A change that deletes its row (a change file's delete, or a snapshot's tombstone). */
function isDelete(change: RowChange): boolean {
  return change.cells.some(([column, , value]) => column === DELETED && value === 1);
}

function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

function suffixed(name: string, key: string): string {
  return `${name}·${createHash('sha1').update(key).digest('hex').slice(0, 4)}`;
}

import { recomputeTotals } from '../ledger/flow-sql';

/**
 * The tables that sync, declared once. The change journal (triggers generated from these
 * declarations), the apply step, snapshots and repairs all work from this list, so a new
 * table of the books syncs by being declared here (plus a migration giving it a `sync_id`
 * when its own key differs per device), not by new sync code.
 */
export interface SyncedColumn {
  name: string;
  /** The column holds the local integer id of a row of this synced table; it travels as that row's sync key. */
  ref?: string;
  /** The column holds the key of a row of this synced table (the same value everywhere) that must exist first. */
  keyRef?: string;
}

export interface SyncedTable {
  name: string;
  /** The column holding the row's key, the same on every device. */
  key: string;
  /** The integer id column other tables reference (local to one device). */
  localId?: string;
  /**
   * SQL computing the key of a row inserted without one (`r.` is the new row). Keys derived
   * from what the row is (a category's type and name, a budget's month and category) make
   * two devices that create "the same" row create ONE row, never a duplicate.
   */
  assignKey?: string;
  columns: readonly SyncedColumn[];
  /** UNIQUE name columns: a collision between rows of two devices is repaired by renaming one. */
  uniqueName?: { column: string; scope: readonly string[] };
  /**
   * Loading many rows into the empty table (a device joining): these triggers of the app
   * are set aside during the load and `recompute` restores what they keep, once.
   */
  bulk?: { suspendTriggers: readonly string[]; recompute: string };
}

const randomKey = (prefix: string) => `'${prefix}' || lower(hex(randomblob(8)))`;

export const SYNCED_TABLES: readonly SyncedTable[] = [
  {
    name: 'accounts',
    key: 'sync_id',
    localId: 'id',
    assignKey: `CASE WHEN EXISTS (SELECT 1 FROM accounts x WHERE x.sync_id = 'a:' || r.name) THEN ${randomKey('u:')} ELSE 'a:' || r.name END`,
    columns: [
      { name: 'name' },
      { name: 'is_default' },
      { name: 'hidden' },
      { name: 'sort_order' },
      { name: 'created_at' },
      { name: 'initial_balance_fen' },
      { name: 'archived_at' },
      { name: 'kind' },
      { name: 'statement_day' },
      { name: 'due_day' },
      { name: 'credit_limit_fen' },
    ],
    uniqueName: { column: 'name', scope: [] },
  },
  {
    name: 'categories',
    key: 'sync_id',
    localId: 'id',
    assignKey: `CASE WHEN EXISTS (SELECT 1 FROM categories x WHERE x.sync_id = 'c:' || r.type || ':' || r.name) THEN ${randomKey('u:')} ELSE 'c:' || r.type || ':' || r.name END`,
    columns: [
      { name: 'name' },
      { name: 'type' },
      { name: 'preset' },
      { name: 'hidden' },
      { name: 'sort_order' },
      { name: 'created_at' },
      // A reference within the table: the merge applies top-level rows before children, a
      // child whose parent is not here yet waits for it, and one whose parent another device
      // deleted moves to the top level (merge.ts).
      { name: 'parent_id', ref: 'categories' },
    ],
    uniqueName: { column: 'name', scope: ['type'] },
  },
  {
    name: 'budget_months',
    key: 'month',
    columns: [{ name: 'updated_at' }],
  },
  {
    name: 'budgets',
    key: 'sync_id',
    assignKey: `r.month || ':' || COALESCE((SELECT sync_id FROM categories c WHERE c.id = r.category_id), '*')`,
    columns: [{ name: 'month', keyRef: 'budget_months' }, { name: 'category_id', ref: 'categories' }, { name: 'amount_fen' }],
  },
  {
    name: 'people',
    key: 'sync_id',
    localId: 'id',
    assignKey: `CASE WHEN EXISTS (SELECT 1 FROM people x WHERE x.sync_id = 'p:' || r.name) THEN ${randomKey('u:')} ELSE 'p:' || r.name END`,
    columns: [{ name: 'name' }, { name: 'created_at' }, { name: 'archived_at' }],
    uniqueName: { column: 'name', scope: [] },
  },
  {
    name: 'tags',
    key: 'sync_id',
    localId: 'id',
    // Two devices tagging 「出差」 make one tag; a key held by a tag since renamed gives way.
    assignKey: `CASE WHEN EXISTS (SELECT 1 FROM tags x WHERE x.sync_id = 'g:' || r.name) THEN ${randomKey('u:')} ELSE 'g:' || r.name END`,
    columns: [{ name: 'name' }, { name: 'created_at' }],
    uniqueName: { column: 'name', scope: [] },
  },
  {
    // Before transactions, though none references a rule by column: an occurrence names its
    // rule inside recurrence_key, a plain value.
    name: 'recurring_rules',
    key: 'sync_id',
    // A rule is its own: two rules alike (two phones on one plan) are two rules.
    assignKey: randomKey('r'),
    columns: [
      { name: 'type' },
      { name: 'amount_fen' },
      { name: 'category_id', ref: 'categories' },
      { name: 'account_id', ref: 'accounts' },
      { name: 'to_account_id', ref: 'accounts' },
      { name: 'description' },
      { name: 'every' },
      { name: 'day' },
      { name: 'month' },
      { name: 'start_date' },
      { name: 'end_date' },
      { name: 'max_count' },
      { name: 'mode' },
      { name: 'paused' },
      { name: 'next_date' },
      { name: 'created_count' },
      { name: 'created_at' },
      { name: 'updated_at' },
    ],
  },
  {
    name: 'transactions',
    key: 'id',
    // Rows get random ids from the app; an occurrence of a recurring rule comes without one
    // and takes its occurrence's key, the same on every device: two devices that both catch
    // up 「房租 3月5日」 make the same row, which the merge then holds once.
    assignKey: `COALESCE('r:' || r.recurrence_key, lower(hex(randomblob(16))))`,
    columns: [
      { name: 'amount_fen' },
      { name: 'currency' },
      { name: 'type' },
      { name: 'category_id', ref: 'categories' },
      { name: 'account_id', ref: 'accounts' },
      { name: 'description' },
      { name: 'occurred_at' },
      { name: 'occurred_date' },
      { name: 'occurred_ms' },
      { name: 'source' },
      { name: 'created_at' },
      { name: 'updated_at' },
      { name: 'to_account_id', ref: 'accounts' },
      { name: 'counterparty' },
      { name: 'flow' },
      { name: 'person_id', ref: 'people' },
      // Links to other transactions stay plain ids: a link to a row not here yet reads as none.
      { name: 'refund_of' },
      { name: 'reimbursable' },
      { name: 'reimbursed_by' },
      { name: 'recurrence_key' },
      { name: 'recorded_by' },
    ],
    // The running totals of accounts and people, from one pass over the loaded rows instead
    // of the insert trigger's updates per row.
    bulk: { suspendTriggers: ['transactions_flow_insert'], recompute: recomputeTotals },
  },
  {
    // A row's tag: the link exists or not (a delete unlinks). Keyed by what it joins, so two
    // devices putting one tag on one row make one link. After transactions: it needs its row.
    name: 'transaction_tags',
    key: 'sync_id',
    assignKey: `r.transaction_id || ':' || (SELECT g.sync_id FROM tags g WHERE g.id = r.tag_id)`,
    columns: [
      { name: 'transaction_id', keyRef: 'transactions' },
      { name: 'tag_id', ref: 'tags' },
    ],
  },
  {
    // The part of a 待报销 expense a reimbursement paid. Keyed by the two rows it joins, so two
    // devices recording the same settlement make one part; plain ids, as refund_of.
    name: 'reimbursement_parts',
    key: 'sync_id',
    assignKey: `r.expense_id || '>' || r.payment_id`,
    columns: [{ name: 'expense_id' }, { name: 'payment_id' }, { name: 'amount_fen' }],
  },
];

/**
 * Tables of this device alone (never journalled nor copied) that hold local ids of synced
 * rows: the merchant memory of bill imports (ledger migration 9). Adopting a snapshot replaces
 * those rows and their ids with foreign keys off, so it empties these too; a remembered
 * category would otherwise point at whichever category took its old id.
 */
export const LOCAL_TABLES_WITH_REFERENCES: readonly string[] = ['imported_merchants', 'merchant_categories'];

// Not declared above, on purpose: the pictures kept with entries (attachments and
// transaction_attachments, ledger migration 14). A picture is hundreds of kilobytes to
// megabytes, and the sync's encrypted log carries rows only, into the user's own WebDAV quota:
// each device keeps the pictures it read, in its book's folder. Their links name rows by the
// row's id, which is the same on every device, so adopting a snapshot leaves them valid.

export const TABLES_BY_NAME: ReadonlyMap<string, SyncedTable> = new Map(SYNCED_TABLES.map((t) => [t.name, t]));

/** The pseudo-column of a row's existence: 1 deleted, 0 alive. A delete wins over concurrent edits of other columns. */
export const DELETED = '_deleted';

/** SQL for a column's value as it travels: references become the referenced row's key (looked up in `schema`). */
export function travellingValue(column: SyncedColumn, row: string, schema = 'main'): string {
  if (!column.ref) return `${row}.${column.name}`;
  const target = TABLES_BY_NAME.get(column.ref)!;
  return `(SELECT x.${target.key} FROM ${schema}.${target.name} x WHERE x.${target.localId} = ${row}.${column.name})`;
}

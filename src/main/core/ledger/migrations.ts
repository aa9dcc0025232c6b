import { PRESET_CATEGORIES, DEFAULT_ACCOUNT } from '@shared/categories';
import { flowTriggers } from './flow-sql';

/**
 * Numbered schema migrations; PRAGMA user_version holds the number of the last one applied.
 * Append only: a released migration is never edited, a fix is a new migration.
 */
export interface Migration {
  version: number;
  description: string;
  up: string;
}

const seedCategories = PRESET_CATEGORIES.map(
  (c, i) =>
    `INSERT INTO categories (name, type, preset, hidden, sort_order, created_at) VALUES ('${c.name}', '${c.type}', 1, ${c.hidden ? 1 : 0}, ${i}, strftime('%Y-%m-%dT%H:%M:%SZ','now'));`,
).join('\n');

const presetCategoryKeys = PRESET_CATEGORIES.map(
  (c, i) => `UPDATE categories SET sync_id = 'c:${c.type}:${c.name}' WHERE id = ${i + 1} AND preset = 1;`,
).join('\n');

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'accounts, categories, transactions with the list and month indexes; presets',
    up: `
      CREATE TABLE accounts (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        is_default  INTEGER NOT NULL DEFAULT 0,
        hidden      INTEGER NOT NULL DEFAULT 0,
        sort_order  INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL
      );
      CREATE TABLE categories (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL,
        type        TEXT NOT NULL CHECK (type IN ('EXPENSE', 'INCOME', 'TRANSFER')),
        preset      INTEGER NOT NULL DEFAULT 0,
        hidden      INTEGER NOT NULL DEFAULT 0,
        sort_order  INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL,
        UNIQUE (type, name)
      );
      CREATE TABLE transactions (
        id             TEXT PRIMARY KEY,
        amount_fen     INTEGER NOT NULL CHECK (amount_fen > 0),
        currency       TEXT NOT NULL DEFAULT 'CNY',
        type           TEXT NOT NULL CHECK (type IN ('EXPENSE', 'INCOME', 'TRANSFER')),
        category_id    INTEGER NOT NULL REFERENCES categories (id),
        account_id     INTEGER NOT NULL REFERENCES accounts (id),
        description    TEXT NOT NULL DEFAULT '',
        -- ISO 8601 with the user's offset at entry time; the local day and the epoch are
        -- kept beside it so day grouping and ordering never re-parse strings.
        occurred_at    TEXT NOT NULL,
        occurred_date  TEXT NOT NULL,
        occurred_ms    INTEGER NOT NULL,
        source         TEXT NOT NULL,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL
      );
      -- newest-first pages within a date range
      CREATE INDEX transactions_by_day ON transactions (occurred_date, occurred_ms);
      -- month summary by type and category without touching the table (covering)
      CREATE INDEX transactions_by_day_type_category ON transactions (occurred_date, type, category_id, amount_fen);
      CREATE INDEX transactions_by_category ON transactions (category_id, occurred_date);
      CREATE INDEX transactions_by_account ON transactions (account_id, occurred_date);
      INSERT INTO accounts (name, is_default, sort_order, created_at)
        VALUES ('${DEFAULT_ACCOUNT}', 1, 0, strftime('%Y-%m-%dT%H:%M:%SZ','now'));
      ${seedCategories}
    `,
  },
  {
    version: 2,
    description: 'per-category range sums without sorting: statistics read one short index range per category',
    up: `
      CREATE INDEX transactions_by_type_category_day ON transactions (type, category_id, occurred_date, amount_fen);
    `,
  },
  {
    version: 3,
    description: 'the voice card left unconfirmed, kept apart from the transactions',
    up: `
      CREATE TABLE drafts (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        batch       TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'accounts with initial balances, archiving and running totals; transfer targets; monthly budgets and their alerts',
    up: `
      ALTER TABLE accounts ADD COLUMN initial_balance_fen INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE accounts ADD COLUMN archived_at TEXT NULL;
      -- income − expense − transfers out + transfers in, and the rows naming the account on
      -- either side: kept by the triggers below in the same transaction as every write, so
      -- balances and the delete check read one row per account instead of the whole ledger.
      ALTER TABLE accounts ADD COLUMN flow_fen INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE accounts ADD COLUMN row_count INTEGER NOT NULL DEFAULT 0;
      -- A TRANSFER moves money out of account_id: into another of the user's accounts
      -- (to_account_id) or to someone outside them (counterparty).
      ALTER TABLE transactions ADD COLUMN to_account_id INTEGER NULL REFERENCES accounts (id);
      ALTER TABLE transactions ADD COLUMN counterparty TEXT NOT NULL DEFAULT '';
      CREATE INDEX transactions_by_to_account ON transactions (to_account_id) WHERE to_account_id IS NOT NULL;
      UPDATE accounts SET
        flow_fen = COALESCE((SELECT SUM(CASE t.type WHEN 'INCOME' THEN t.amount_fen ELSE -t.amount_fen END)
                             FROM transactions t WHERE t.account_id = accounts.id), 0),
        row_count = (SELECT COUNT(*) FROM transactions t WHERE t.account_id = accounts.id);
      CREATE TRIGGER transactions_flow_insert AFTER INSERT ON transactions BEGIN
        UPDATE accounts SET flow_fen = flow_fen + CASE NEW.type WHEN 'INCOME' THEN NEW.amount_fen ELSE -NEW.amount_fen END,
          row_count = row_count + 1 WHERE id = NEW.account_id;
        UPDATE accounts SET flow_fen = flow_fen + CASE NEW.type WHEN 'TRANSFER' THEN NEW.amount_fen ELSE 0 END,
          row_count = row_count + 1 WHERE id = NEW.to_account_id;
      END;
      CREATE TRIGGER transactions_flow_delete AFTER DELETE ON transactions BEGIN
        UPDATE accounts SET flow_fen = flow_fen - CASE OLD.type WHEN 'INCOME' THEN OLD.amount_fen ELSE -OLD.amount_fen END,
          row_count = row_count - 1 WHERE id = OLD.account_id;
        UPDATE accounts SET flow_fen = flow_fen - CASE OLD.type WHEN 'TRANSFER' THEN OLD.amount_fen ELSE 0 END,
          row_count = row_count - 1 WHERE id = OLD.to_account_id;
      END;
      CREATE TRIGGER transactions_flow_update AFTER UPDATE OF amount_fen, type, account_id, to_account_id ON transactions BEGIN
        UPDATE accounts SET flow_fen = flow_fen - CASE OLD.type WHEN 'INCOME' THEN OLD.amount_fen ELSE -OLD.amount_fen END,
          row_count = row_count - 1 WHERE id = OLD.account_id;
        UPDATE accounts SET flow_fen = flow_fen - CASE OLD.type WHEN 'TRANSFER' THEN OLD.amount_fen ELSE 0 END,
          row_count = row_count - 1 WHERE id = OLD.to_account_id;
        UPDATE accounts SET flow_fen = flow_fen + CASE NEW.type WHEN 'INCOME' THEN NEW.amount_fen ELSE -NEW.amount_fen END,
          row_count = row_count + 1 WHERE id = NEW.account_id;
        UPDATE accounts SET flow_fen = flow_fen + CASE NEW.type WHEN 'TRANSFER' THEN NEW.amount_fen ELSE 0 END,
          row_count = row_count + 1 WHERE id = NEW.to_account_id;
      END;
      -- A month that has budgets of its own (possibly none: an emptied month ends the
      -- inheritance); a month without a row takes the latest earlier month's.
      CREATE TABLE budget_months (
        month       TEXT PRIMARY KEY,
        updated_at  TEXT NOT NULL
      );
      CREATE TABLE budgets (
        id           INTEGER PRIMARY KEY,
        month        TEXT NOT NULL REFERENCES budget_months (month) ON DELETE CASCADE,
        -- NULL: the month's total budget
        category_id  INTEGER NULL REFERENCES categories (id) ON DELETE CASCADE,
        amount_fen   INTEGER NOT NULL CHECK (amount_fen > 0)
      );
      CREATE UNIQUE INDEX budgets_by_month_category ON budgets (month, IFNULL(category_id, 0));
      CREATE TABLE budget_alerts (
        id           INTEGER PRIMARY KEY,
        month        TEXT NOT NULL,
        category_id  INTEGER NULL REFERENCES categories (id) ON DELETE CASCADE,
        threshold    INTEGER NOT NULL CHECK (threshold IN (80, 100)),
        fired_at     TEXT NOT NULL
      );
      CREATE UNIQUE INDEX budget_alerts_once ON budget_alerts (month, IFNULL(category_id, 0), threshold);
    `,
  },
  {
    version: 5,
    description: 'sync: keys the same on every device, per-cell timestamps, the outbox, this device and the devices seen',
    up: `
      -- Accounts, categories and budgets have local integer ids; sync_id is the key they share
      -- across devices. Presets get the same key on every install (the preset account is id 1;
      -- preset categories are ids 1..n in PRESET_CATEGORIES order), custom rows a key derived
      -- from what they are, so two devices creating 「宠物」 create one category.
      ALTER TABLE accounts ADD COLUMN sync_id TEXT NULL;
      ALTER TABLE categories ADD COLUMN sync_id TEXT NULL;
      ALTER TABLE budgets ADD COLUMN sync_id TEXT NULL;
      UPDATE accounts SET sync_id = CASE WHEN id = 1 THEN 'a0' ELSE 'a:' || name END;
      ${presetCategoryKeys}
      UPDATE categories SET sync_id = CASE
          WHEN EXISTS (SELECT 1 FROM categories x WHERE x.sync_id = 'c:' || categories.type || ':' || categories.name) THEN 'u:' || lower(hex(randomblob(8)))
          ELSE 'c:' || type || ':' || name END
        WHERE sync_id IS NULL;
      UPDATE budgets SET sync_id = month || ':' || COALESCE((SELECT sync_id FROM categories c WHERE c.id = budgets.category_id), '*');
      CREATE UNIQUE INDEX accounts_by_sync_id ON accounts (sync_id);
      CREATE UNIQUE INDEX categories_by_sync_id ON categories (sync_id);
      CREATE UNIQUE INDEX budgets_by_sync_id ON budgets (sync_id);
      -- Per row of a synced table: the timestamp of its cells (ts, with per-column overrides
      -- in cols), whether it is deleted, and — while it is not in its table (deleted, or not
      -- complete yet) — its values (ghost). A row without an entry predates sync: its cells
      -- are older than any edit.
      CREATE TABLE sync_rows (
        tbl      TEXT NOT NULL,
        row      TEXT NOT NULL,
        ts       TEXT NOT NULL,
        cols     TEXT NOT NULL DEFAULT '{}',
        deleted  INTEGER NOT NULL DEFAULT 0,
        ghost    TEXT NULL,
        PRIMARY KEY (tbl, row)
      ) WITHOUT ROWID;
      CREATE INDEX sync_rows_ghosts ON sync_rows (tbl) WHERE ghost IS NOT NULL AND deleted = 0;
      -- Local changes not yet on the remote, in the order they were made.
      CREATE TABLE sync_outbox (
        id    INTEGER PRIMARY KEY,
        ts    TEXT NOT NULL,
        tbl   TEXT NOT NULL,
        row   TEXT NOT NULL,
        vals  TEXT NOT NULL
      );
      CREATE TABLE sync_state (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
      );
      INSERT INTO sync_state (key, value) VALUES ('device_id', lower(hex(randomblob(8))));
      -- Every device seen on the remote (this one too): its name, the last of its change files
      -- applied here, and when it was last heard from.
      CREATE TABLE sync_peers (
        device     TEXT PRIMARY KEY,
        name       TEXT NOT NULL DEFAULT '',
        applied    INTEGER NOT NULL DEFAULT 0,
        last_seen  TEXT NULL
      );
    `,
  },
  {
    version: 6,
    description: 'money flows: people and their balances, refunds linked to expenses, 待报销 and its settlement, credit cards',
    up: `
      -- Someone money is lent to or borrowed from. balance_fen is what they owe the user
      -- (negative: what the user owes them), kept by the triggers below like an account's.
      CREATE TABLE people (
        id           INTEGER PRIMARY KEY,
        name         TEXT NOT NULL UNIQUE,
        sync_id      TEXT NULL,
        created_at   TEXT NOT NULL,
        archived_at  TEXT NULL,
        balance_fen  INTEGER NOT NULL DEFAULT 0,
        row_count    INTEGER NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX people_by_sync_id ON people (sync_id);
      -- A credit card is an account whose balance is normally a debt; it bills on
      -- statement_day and is due on due_day (days of the month, clamped in short months).
      ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT 'cash' CHECK (kind IN ('cash', 'credit'));
      ALTER TABLE accounts ADD COLUMN statement_day INTEGER NULL CHECK (statement_day BETWEEN 1 AND 31);
      ALTER TABLE accounts ADD COLUMN due_day INTEGER NULL CHECK (due_day BETWEEN 1 AND 31);
      -- The due-day reminders shown on this device, each once per card and due date.
      CREATE TABLE card_alerts (
        account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        due_date    TEXT NOT NULL,
        fired_at    TEXT NOT NULL,
        PRIMARY KEY (account_id, due_date)
      );
      -- flow: what a row is beyond spending, income or a transfer between the user's accounts.
      --   lend/repay (TRANSFER): money out of account_id to person_id; borrow/collect
      --   (TRANSFER): money in from person_id; writeoff (EXPENSE): what person_id will never
      --   pay back, no account moves; refund (EXPENSE, counted negative): money back for the
      --   expense refund_of (NULL or missing: a refund of its category only); reimbursement
      --   (INCOME, not counted as income): the payment that settles the expenses whose
      --   reimbursed_by names it. Links are plain ids, no foreign keys: a link to a row that
      --   is gone (deleted, or not synced yet) reads as no link, and undo can put rows back
      --   in any order.
      ALTER TABLE transactions ADD COLUMN flow TEXT NULL
        CHECK (flow IN ('lend', 'borrow', 'repay', 'collect', 'writeoff', 'refund', 'reimbursement'));
      ALTER TABLE transactions ADD COLUMN person_id INTEGER NULL REFERENCES people (id);
      ALTER TABLE transactions ADD COLUMN refund_of TEXT NULL;
      -- 待报销: to be paid back by someone else (an employer); left out of net spending.
      ALTER TABLE transactions ADD COLUMN reimbursable INTEGER NOT NULL DEFAULT 0 CHECK (reimbursable IN (0, 1));
      ALTER TABLE transactions ADD COLUMN reimbursed_by TEXT NULL;
      -- The rows statistics treat apart (few in any ledger): one short range read per period
      -- corrects the covering sums instead of widening the hot indexes.
      CREATE INDEX transactions_marked ON transactions (occurred_date, type, category_id, flow, reimbursable, amount_fen)
        WHERE flow IS NOT NULL OR reimbursable = 1;
      CREATE INDEX transactions_by_person ON transactions (person_id, occurred_date) WHERE person_id IS NOT NULL;
      -- 待报销 oldest first, without the other marked rows.
      CREATE INDEX transactions_reimbursable ON transactions (occurred_date, occurred_ms) WHERE reimbursable = 1 AND flow IS NULL;
      CREATE INDEX transactions_refunds ON transactions (refund_of) WHERE refund_of IS NOT NULL;
      CREATE INDEX transactions_reimbursed ON transactions (reimbursed_by) WHERE reimbursed_by IS NOT NULL;
      DROP TRIGGER transactions_flow_insert;
      DROP TRIGGER transactions_flow_delete;
      DROP TRIGGER transactions_flow_update;
      ${flowTriggers}
    `,
  },
  {
    version: 7,
    description: 'recurring entries: the rules, and each occurrence keyed so it exists at most once',
    up: `
      -- A rule and the entry it makes. Category and accounts are references like a row's, so
      -- a rename shows in the rule and a merge repairs them the same way. day: 1–31 or -1
      -- (月末) for months, the weekday 1–7 for weeks, the day of month for years; stored
      -- complete (never NULL where the start date would decide), so every device computes
      -- the same dates from the row alone.
      CREATE TABLE recurring_rules (
        id             INTEGER PRIMARY KEY,
        sync_id        TEXT NULL,
        type           TEXT NOT NULL CHECK (type IN ('EXPENSE', 'INCOME', 'TRANSFER')),
        amount_fen     INTEGER NOT NULL CHECK (amount_fen > 0),
        category_id    INTEGER NOT NULL REFERENCES categories (id),
        account_id     INTEGER NOT NULL REFERENCES accounts (id),
        to_account_id  INTEGER NULL REFERENCES accounts (id),
        description    TEXT NOT NULL DEFAULT '',
        every          TEXT NOT NULL CHECK (every IN ('day', 'week', 'month', 'year')),
        day            INTEGER NULL CHECK (day = -1 OR day BETWEEN 1 AND 31),
        month          INTEGER NULL CHECK (month BETWEEN 1 AND 12),
        start_date     TEXT NOT NULL,
        end_date       TEXT NULL,
        max_count      INTEGER NULL CHECK (max_count > 0),
        -- save: due occurrences become rows; draft: they are offered to confirm, once.
        mode           TEXT NOT NULL DEFAULT 'save' CHECK (mode IN ('save', 'draft')),
        paused         INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
        -- The first occurrence not yet made (NULL: the rule has ended) and how many were made:
        -- advanced in the same transaction as the rows, so catch-up resumes where it stopped.
        next_date      TEXT NULL,
        created_count  INTEGER NOT NULL DEFAULT 0,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL
      );
      CREATE UNIQUE INDEX recurring_rules_by_sync_id ON recurring_rules (sync_id);
      -- Start-up reads only the rules due by today.
      CREATE INDEX recurring_rules_due ON recurring_rules (next_date) WHERE paused = 0 AND next_date IS NOT NULL;
      -- The rule's key and the occurrence's day (「r…:2026-03-05」): an occurrence made again —
      -- a second catch-up, one repeated after a crash, a draft confirmed twice — hits this
      -- index instead of adding a row. Sync derives the row's id from it, so two devices that
      -- both make an occurrence make one row.
      ALTER TABLE transactions ADD COLUMN recurrence_key TEXT NULL;
      CREATE UNIQUE INDEX transactions_by_recurrence ON transactions (recurrence_key) WHERE recurrence_key IS NOT NULL;
    `,
  },
  {
    version: 8,
    description: 'sub-categories (a parent per category, two levels) and tags on rows',
    up: `
      -- NULL: a top-level category. The app keeps the tree two levels deep and a child of its
      -- parent's type; names stay unique per type across the whole tree (UNIQUE (type, name)),
      -- so a name still identifies one category for voice, CSV and filters.
      ALTER TABLE categories ADD COLUMN parent_id INTEGER NULL REFERENCES categories (id);
      CREATE INDEX categories_by_parent ON categories (parent_id) WHERE parent_id IS NOT NULL;
      -- A tag is its name; sync_id is the key every device shares (see sync/tables.ts).
      CREATE TABLE tags (
        id          INTEGER PRIMARY KEY,
        sync_id     TEXT NULL,
        name        TEXT NOT NULL UNIQUE,
        created_at  TEXT NOT NULL
      );
      CREATE UNIQUE INDEX tags_by_sync_id ON tags (sync_id);
      -- A row's tags. Deleting the row or the tag removes the link; the rowid keeps the order
      -- the tags were given in. sync_id: the row's id and the tag's key, the same everywhere.
      CREATE TABLE transaction_tags (
        transaction_id  TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
        tag_id          INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
        sync_id         TEXT NULL,
        PRIMARY KEY (transaction_id, tag_id)
      );
      CREATE UNIQUE INDEX transaction_tags_by_sync_id ON transaction_tags (sync_id);
      -- Filtering by a tag reads its links only; the primary key serves a row's tags.
      CREATE INDEX transaction_tags_by_tag ON transaction_tags (tag_id, transaction_id);
    `,
  },
  {
    version: 9,
    description: 'the merchant of each row imported from a bill, and the category the user chose per merchant',
    up: `
      -- Both tables belong to this device: they are not declared in sync/tables.ts, so they
      -- neither travel nor go into snapshots (adopting one empties them, see sync/merge.ts).
      -- A bill row's merchant (交易对方 / 商户名称), beside the row rather than a column of
      -- it, because transactions sync whole and this does not. Gone with its row.
      CREATE TABLE imported_merchants (
        transaction_id  TEXT PRIMARY KEY REFERENCES transactions (id) ON DELETE CASCADE,
        merchant        TEXT NOT NULL
      ) WITHOUT ROWID;
      -- The category the user moved a merchant's imported row to, per type: later imports of
      -- that merchant follow it. Gone with its category.
      CREATE TABLE merchant_categories (
        merchant     TEXT NOT NULL,
        type         TEXT NOT NULL CHECK (type IN ('EXPENSE', 'INCOME', 'TRANSFER')),
        category_id  INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
        updated_at   TEXT NOT NULL,
        PRIMARY KEY (merchant, type)
      ) WITHOUT ROWID;
      -- Deleting a category finds its rules without a scan.
      CREATE INDEX merchant_categories_by_category ON merchant_categories (category_id);
    `,
  },
  {
    version: 10,
    description: 'bill rows the user deleted after importing them, so importing the bill again does not bring them back',
    up: `
      -- This device's own record (not declared in sync/tables.ts): the user's delete of an
      -- imported row ('deleted'), or an undone import ('undone', which does not count as one).
      -- A bill row's id is its identity in the bill (bills/bill-rows.ts), so an id here is the
      -- bill line itself. No foreign key: the row is gone.
      CREATE TABLE import_removals (
        transaction_id  TEXT PRIMARY KEY,
        how             TEXT NOT NULL CHECK (how IN ('deleted', 'undone'))
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 11,
    description: 'sync that heals itself: the files this device wrote, and what each other device last published',
    up: `
      -- This device's own files on the remote, as the server showed them after each write:
      -- every round checks them against the listing and writes again what was lost, cut or
      -- changed. A change file keeps its sealed bytes while a device may still need it, so it
      -- can be written again exactly (a snapshot is rebuilt instead). Local, never synced.
      CREATE TABLE sync_files (
        name        TEXT PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('changes', 'snapshot')),
        seq         INTEGER NOT NULL,
        size        INTEGER NOT NULL,
        etag        TEXT NULL,
        sha256      TEXT NOT NULL,
        entries     INTEGER NOT NULL DEFAULT 0,
        bytes       BLOB NULL,
        verified    INTEGER NOT NULL DEFAULT 0,
        written_at  TEXT NOT NULL
      ) WITHOUT ROWID;
      -- What each other device last published about itself: its books' fingerprint and row
      -- count, how far it has applied every device's files (JSON {device: seq}), the files it
      -- refused, and when (its own clock); plus the tag (size/ETag) of its state file read last.
      ALTER TABLE sync_peers ADD COLUMN digest TEXT NULL;
      ALTER TABLE sync_peers ADD COLUMN rows INTEGER NULL;
      ALTER TABLE sync_peers ADD COLUMN progress TEXT NULL;
      ALTER TABLE sync_peers ADD COLUMN refused TEXT NULL;
      ALTER TABLE sync_peers ADD COLUMN reported_at TEXT NULL;
      ALTER TABLE sync_peers ADD COLUMN state_tag TEXT NULL;
      -- The books fingerprint kept up to date (sync/digest.ts): each bucket's hash (rows whose
      -- keys share their first two characters), and the buckets written since it was read,
      -- noted by the journal's triggers. Local, never synced.
      CREATE TABLE sync_digest (
        tbl     TEXT NOT NULL,
        bucket  TEXT NOT NULL,
        rows    INTEGER NOT NULL,
        hash    TEXT NOT NULL,
        PRIMARY KEY (tbl, bucket)
      ) WITHOUT ROWID;
      CREATE TABLE sync_digest_dirty (
        tbl     TEXT NOT NULL,
        bucket  TEXT NOT NULL,
        PRIMARY KEY (tbl, bucket)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    description: 'screens a household trusts: a credit card’s limit, who recorded each row, reimbursements that settle part of an expense',
    up: `
      -- 额度: what a credit card may owe at most (NULL: not given), for 可用额度.
      ALTER TABLE accounts ADD COLUMN credit_limit_fen INTEGER NULL CHECK (credit_limit_fen >= 0);
      -- 记账人: the name of the device that recorded the row, as it was named then (a book
      -- that syncs shows it). NULL for rows from before, which read as recorded here.
      ALTER TABLE transactions ADD COLUMN recorded_by TEXT NULL;
      -- How much of a 待报销 expense a reimbursement paid back. A payment short of the
      -- expenses it settles pays the last one in part; another payment pays the rest. What an
      -- expense still waits for is its amount net of refunds minus its parts whose payment
      -- exists (links are plain ids, as refund_of: a deleted payment's parts read as none).
      -- reimbursed_by still names the payment that paid an expense in full, so rows settled
      -- before this table read as they did.
      CREATE TABLE reimbursement_parts (
        id          INTEGER PRIMARY KEY,
        sync_id     TEXT NULL,
        expense_id  TEXT NOT NULL,
        payment_id  TEXT NOT NULL,
        amount_fen  INTEGER NOT NULL CHECK (amount_fen > 0),
        UNIQUE (expense_id, payment_id)
      );
      CREATE UNIQUE INDEX reimbursement_parts_by_sync_id ON reimbursement_parts (sync_id);
      CREATE INDEX reimbursement_parts_by_payment ON reimbursement_parts (payment_id);
    `,
  },
  {
    version: 13,
    description: '明细 pages filtered by category or account read in list order, with no sort',
    up: `
      -- The list's order is (occurred_date, occurred_ms, rowid). Without occurred_ms these two
      -- indexes made a page filtered by category or account sort all of that category's or
      -- account's rows (seconds on a large ledger); with it each category's rows come in list
      -- order and a page reads about as many rows as it shows. Same leading columns: whatever
      -- used the old ones uses these.
      DROP INDEX transactions_by_category;
      CREATE INDEX transactions_by_category ON transactions (category_id, occurred_date, occurred_ms);
      DROP INDEX transactions_by_account;
      CREATE INDEX transactions_by_account ON transactions (account_id, occurred_date, occurred_ms);
    `,
  },
  {
    version: 14,
    description: 'pictures kept with the entries read off them (截图记账), and their recognised text',
    up: `
      -- This device's own (not declared in sync/tables.ts): a picture is big, and the sync's
      -- encrypted log carries rows only, within the user's own WebDAV quota. The bytes live in
      -- the book's folder as attachments/<file>; the row holds what was read off them.
      CREATE TABLE attachments (
        id          TEXT PRIMARY KEY,
        mime        TEXT NOT NULL,
        file        TEXT NOT NULL,
        text        TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL
      ) WITHOUT ROWID;
      -- One picture (a receipt) may give several entries. The row's id is a plain id, not a
      -- foreign key: an undone save that is redone (the same id put back) finds its picture
      -- again; links whose row is gone are swept when the book opens (attachments.ts).
      CREATE TABLE transaction_attachments (
        transaction_id  TEXT NOT NULL,
        attachment_id   TEXT NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
        PRIMARY KEY (transaction_id, attachment_id)
      ) WITHOUT ROWID;
      CREATE INDEX transaction_attachments_by_attachment ON transaction_attachments (attachment_id);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

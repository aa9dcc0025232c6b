import { PRESET_CATEGORIES, DEFAULT_ACCOUNT } from '@shared/categories';

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
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

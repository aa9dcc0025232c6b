// The ledger every ratio pair runs against: a real SQLite file made through the project's
// schema (openLedger runs the migrations, the account triggers run for every row) and filled
// by the seeding bench/suites/ledger.ts uses too, so both suites measure the same kind of books.
import { join } from 'node:path';
import { toZonedNow } from '@shared/time';
import { openLedger } from '@core/ledger/index';
import { seedLedger } from '../seed-ledger';
import type { RatioFixture } from './pair';

/**
 * `rows` transactions as bench/seed-ledger.ts seeds them, with sub-categories under the first
 * four expense categories; every 500th row carries the tag 出差 and every 20th 日常. The ledger is
 * left open, ANALYZEd.
 */
export function seedFixture(dir: string, rows: number): RatioFixture {
  const path = join(dir, 'ratios.db');
  const ledger = openLedger({ path, now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
  const db = ledger.database;
  seedLedger(ledger, { rows, subCategories: true });
  db.transaction(() => {
    const tag = db.prepare("INSERT INTO tags (name, created_at) VALUES (?, '2024-01-01T00:00:00+08:00')");
    const link = db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) SELECT id, ? FROM transactions WHERE rowid % ? = 0');
    link.run(tag.run('出差').lastInsertRowid, 500);
    link.run(tag.run('日常').lastInsertRowid, 20);
  })();
  db.exec('ANALYZE');
  return { path, rows, ledger, db, month: '2025-06', dir };
}

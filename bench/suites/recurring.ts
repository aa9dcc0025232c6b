import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, toZonedNow } from '@shared/time';
import { openLedger } from '@core/ledger/index';
import type { Suite } from '../harness';
import { benchTempDir } from '../temp';

const ROWS = 100_000;
const RULES = 1000;

/**
 * The catch-up at start-up: 1 000 recurring entries due at once (a thousand rules each due
 * today: the keys spread over the whole index, the worst case for a catch-up of that size),
 * written with their rules' advance in one transaction into a file ledger of 100 000 rows.
 * Each iteration is the next day, with its own 1 000 occurrences.
 */
const suite: Suite = {
  name: 'recurring',
  description: 'The start-up catch-up: 1 000 recurring entries due at once, written into a 100 000-row ledger',
  async run(ctx) {
    const dir = benchTempDir('recurring-');
    const start = '2026-01-01';
    const ledger = openLedger({ path: join(dir, 'bench.db'), now: () => toZonedNow(`${start}T08:00:00+08:00`) });
    try {
      const db = ledger.database;
      const cats = db.prepare("SELECT id FROM categories WHERE type = 'EXPENSE'").pluck().all() as number[];
      const insert = db.prepare(
        `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
           occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty)
         VALUES (?, ?, 'CNY', 'EXPENSE', ?, 1, '', ?, ?, ?, 'import', ?, ?, NULL, '')`,
      );
      db.transaction(() => {
        for (let i = 0; i < ROWS; i++) {
          const day = addDays('2023-01-01', i % 1095);
          const iso = `${day}T12:00:00+08:00`;
          insert.run(`seed-${i}`, 100 + (i % 5000), cats[i % cats.length], iso, day, Date.parse(iso), iso, iso);
        }
      })();
      for (let i = 0; i < RULES; i++) {
        ledger.addRecurringRule({ type: 'EXPENSE', amountFen: 100 + i, category: '餐饮', description: `订阅${i}`, rule: { every: 'day' }, start });
      }
      // A book that does not sync, then one that does: there every row also writes its
      // journal entries in the same transaction.
      let day = 0;
      for (const [metric, synced] of [
        ['recurring.catchUp1000', false],
        ['recurring.catchUp1000Synced', true],
      ] as const) {
        ledger.journal.setCapture(synced);
        await ctx.measure(
          metric,
          () => {
            const made = ledger.catchUpRecurring(toZonedNow(`${addDays(start, day++)}T08:00:00+08:00`)).saved.length;
            if (made !== RULES) throw new Error(`catch-up made ${made} rows, not ${RULES}`);
          },
          { iterations: 20, warmup: 3, budget: { p50: 200 } },
        );
      }
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;

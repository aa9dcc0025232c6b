import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import { exportCsv, openLedger } from '@core/ledger/index';
import type { Suite } from '../harness';

const ROWS = 1_000_000;

/** Deterministic PRNG so every run seeds the same ledger. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const suite: Suite = {
  name: 'ledger',
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'skj-bench-ledger-'));
    const ledger = openLedger({ path: join(dir, 'bench.db'), now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
    try {
      const batch: ParseResult[] = Array.from({ length: 10 }, (_, i) => ({
        amount: 10 + i,
        type: 'EXPENSE',
        category: '餐饮',
        description: `午饭${i}`,
        date: null,
        account: null,
        confidence: 0.9,
        source: 'llm',
      }));
      await ctx.measure('ledger.saveBatch10', () => ledger.saveBatch(batch), {
        iterations: 500,
        warmup: 50,
        budget: { p50: 2 },
      });

      // 1 000 000 rows over three years (≈ 27 000 a month), inserted in bulk.
      const db = ledger.database;
      const cats = db.prepare('SELECT id, type FROM categories').all() as { id: number; type: string }[];
      const expense = cats.filter((c) => c.type === 'EXPENSE').map((c) => c.id);
      const income = cats.filter((c) => c.type === 'INCOME').map((c) => c.id);
      const rnd = lcg(42);
      const insert = db.prepare(
        `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
           occurred_at, occurred_date, occurred_ms, source, created_at, updated_at)
         VALUES (?, ?, 'CNY', ?, ?, 1, ?, ?, ?, ?, 'import', ?, ?)`,
      );
      const start = Date.parse('2024-01-01T00:00:00+08:00');
      const span = Date.parse('2026-12-31T23:59:59+08:00') - start;
      db.transaction(() => {
        for (let i = 0; i < ROWS; i++) {
          const ms = start + Math.floor(rnd() * span);
          const local = new Date(ms + 8 * 3600_000).toISOString();
          const iso = `${local.slice(0, 19)}+08:00`;
          const isIncome = rnd() < 0.1;
          const pool = isIncome ? income : expense;
          insert.run(
            `bench-${i}`,
            1 + Math.floor(rnd() * 50_000),
            isIncome ? 'INCOME' : 'EXPENSE',
            pool[Math.floor(rnd() * pool.length)]!,
            `条目${i % 997}`,
            iso,
            iso.slice(0, 10),
            ms,
            iso,
            iso,
          );
        }
      })();
      db.exec('ANALYZE');

      await ctx.measure('ledger.monthSummary1M', () => ledger.monthSummary('2025-06'), {
        iterations: 100,
        warmup: 5,
        budget: { p50: 20 },
      });
      await ctx.measure('ledger.listPage1M', () => ledger.list({ from: '2025-06-01', to: '2025-06-30', limit: 50 }), {
        iterations: 500,
        warmup: 20,
        budget: { p50: 2 },
      });
      // The 统计 page for one month: totals, per-category sums and the daily trend.
      await ctx.measure('ledger.statsMonth1M', () => ledger.periodStats({ from: '2025-06-01', to: '2025-06-30', granularity: 'day' }), {
        iterations: 50,
        warmup: 5,
        budget: { p50: 20 },
      });
      // The list page's day headers for a month of ≈ 27 000 rows.
      await ctx.measure('ledger.listDaysMonth1M', () => ledger.days({ from: '2025-06-01', to: '2025-06-30' }), {
        iterations: 50,
        warmup: 5,
        budget: { p50: 20 },
      });
      let exported = 0;
      await ctx.measure(
        'ledger.csvExport100k',
        () => {
          exported = exportCsv(ledger, {}, { limit: 100_000 }).rows;
        },
        { iterations: 5, warmup: 1, budget: { p50: 2000 } },
      );
      if (exported !== 100_000) throw new Error(`csvExport100k exported ${exported} rows, expected 100000`);

      // Opening the 1 M-row ledger (≈ 330 MB) as the app does: header, read-only checks, then
      // read-write. Its damage check (PRAGMA quick_check reads every page) is past the
      // synchronous size limit, so it runs in a worker thread and only its start is counted.
      ledger.close();
      const path = join(dir, 'bench.db');
      await ctx.measure('ledger.openQuickCheck1M', () => openLedger({ path }).close(), { iterations: 10, warmup: 2, budget: { p50: 300 } });
      // The background check: open until its verdict arrives (off the main thread).
      await ctx.measureAsync(
        'ledger.backgroundCheck1M',
        async () => {
          const opened = openLedger({ path });
          const damage = await opened.integrity();
          opened.close();
          if (damage) throw damage;
        },
        { iterations: 5, warmup: 1 },
      );
      // For reference: the same check on the main thread, what a synchronous open would cost.
      await ctx.measure('ledger.quickCheckSync1M', () => openLedger({ path, syncCheckMaxBytes: Infinity }).close(), {
        iterations: 5,
        warmup: 1,
      });
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;

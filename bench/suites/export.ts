import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { toZonedNow } from '@shared/time';
import { openLedger } from '@core/ledger/index';
import { writeExportFile } from '@core/ledger/export-file';
import { sampleLoopDelay, type Suite } from '../harness';
import { benchTempDir } from '../temp';

const ROWS = 100_000;

/**
 * 导出 to Excel of 100 000 rows (≈ 27 years of a heavy user's ledger): both sheets built,
 * zipped and written through the temp file. The main process only reads the rows, in chunks
 * between turns of its event loop, and a worker builds the workbook: export.xlsx100k is how
 * long the user waits for the file, export.xlsx100k.mainLoopDelay how long the app's own IPC
 * can wait meanwhile.
 */
const suite: Suite = {
  name: 'export',
  description: "导出 of 100 000 rows to Excel: how long the user waits, and the main loop's delay meanwhile",
  async run(ctx) {
    const dir = benchTempDir('export-');
    const ledger = openLedger({ path: join(dir, 'bench.db'), now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
    try {
      const db = ledger.database;
      const bank = ledger.addAccount('银行卡', 0).id;
      const cats = db.prepare('SELECT id, type FROM categories').all() as { id: number; type: string }[];
      const insert = db.prepare(
        `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
           occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty)
         VALUES (?, ?, 'CNY', ?, ?, ?, ?, ?, ?, ?, 'import', ?, ?, ?, ?)`,
      );
      const start = Date.parse('2025-01-01T00:00:00+08:00');
      db.transaction(() => {
        for (let i = 0; i < ROWS; i++) {
          const ms = start + i * 300_000;
          const iso = `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
          // Every 50th row a transfer to the bank account, the rest spread over the categories.
          const category = i % 50 === 0 ? cats.find((c) => c.type === 'TRANSFER')! : cats[i % cats.length]!;
          const transfer = category.type === 'TRANSFER';
          insert.run(
            `x${i}`,
            1 + ((i * 7919) % 50_000),
            category.type,
            category.id,
            1,
            `条目${i % 997}`,
            iso,
            iso.slice(0, 10),
            ms,
            iso,
            iso,
            transfer ? bank : null,
            '',
          );
        }
      })();
      let rows = 0;
      await ctx.measureAsync(
        'export.xlsx100k',
        async () => {
          rows = await writeExportFile(ledger, 'xlsx', {}, join(dir, 'out.xlsx'));
        },
        { iterations: 3, warmup: 1, budget: { p50: 5000 } },
      );
      if (rows !== ROWS) throw new Error(`export.xlsx100k wrote ${rows} rows, expected ${ROWS}`);

      const { p99Ms: p99, maxMs } = await sampleLoopDelay(() => writeExportFile(ledger, 'xlsx', {}, join(dir, 'out.xlsx')));
      ctx.record('export.xlsx100k.mainLoopDelay', {
        p99_ms: p99,
        max_ms: maxMs,
        value: ROWS,
        unit: 'rows exported meanwhile',
        budget: 'p99 ≤ 50 ms',
        ok: p99 <= 50,
      });
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;

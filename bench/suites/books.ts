import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAppCore } from '@core/app-core';
import { openLedger } from '@core/ledger/index';
import type { Suite } from '../harness';
import { benchTempDir } from '../temp';

const ROWS = 1_000_000;

/**
 * Switching books with a 1 000 000-row book open: the switch itself and what the window asks
 * right after it (this month's summary and the first page of 明细), through IPC dispatch, as
 * the sidebar does. The first switch to a book opens its file; later ones find it open.
 */
const suite: Suite = {
  name: 'books',
  description: 'Switching books with a 1 000 000-row book open, and the summary and 明细 page the window asks for right after',
  async run(ctx) {
    const dir = benchTempDir('books-');
    const big = openLedger({ path: join(dir, 'ledger.db') });
    big.database.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS - 1})
      INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description, occurred_at, occurred_date,
        occurred_ms, source, created_at, updated_at, to_account_id, counterparty)
      SELECT 'big-' || i, 100 + i % 5000, 'CNY', 'EXPENSE', 1 + i % 10, 1, '条目' || (i % 997),
        strftime('%Y-%m-%dT12:00:00+08:00', '2024-01-01', '+' || (i % 1000) || ' days'),
        strftime('%Y-%m-%d', '2024-01-01', '+' || (i % 1000) || ' days'),
        1704081600000 + (i % 1000) * 86400000, 'import', '2024-01-01T12:00:00+08:00', '2024-01-01T12:00:00+08:00', NULL, '' FROM n`);
    big.database.exec('ANALYZE');
    big.close();
    const core = createAppCore({ dataDir: dir, version: 'bench', log: () => {}, backups: false });
    try {
      const call = async (name: string, input: unknown) => {
        const result = await core.dispatch(name, input);
        if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
        return result.value as { current: string; books: { id: string; name: string }[] };
      };
      const { books } = await call('createBook', { name: '空账本' });
      const empty = books.find((b) => b.name === '空账本')!.id;
      const month = '2025-06';
      const showBook = async (id: string) => {
        await call('switchBook', { id });
        await call('monthSummary', { month });
        await call('listTransactions', { limit: 50 });
      };
      const cold = performance.now();
      await showBook(empty);
      ctx.record('books.firstOpen', { value: Math.round((performance.now() - cold) * 10) / 10, unit: 'ms' });
      let next = 'main';
      await ctx.measureAsync(
        'books.switch',
        async () => {
          await showBook(next);
          next = next === 'main' ? empty : 'main';
        },
        { iterations: 100, warmup: 10, budget: { p50: 100 } },
      );
    } finally {
      await core.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;

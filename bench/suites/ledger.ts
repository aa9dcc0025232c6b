import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import { exportCsv, openLedger } from '@core/ledger/index';
import type { Suite } from '../harness';
import { seedLedger } from '../seed-ledger';
import { benchTempDir } from '../temp';

const ROWS = 1_000_000;

const suite: Suite = {
  name: 'ledger',
  description: 'The ledger on a 1 000 000-row file: saving a card, balances, budgets, summaries, list pages, statistics, opening',
  async run(ctx) {
    const dir = benchTempDir('ledger-');
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

      // 1 000 000 rows over three years in five accounts, with money flows (bench/seed-ledger.ts).
      const db = ledger.database;
      const { expenseCategories: expense } = seedLedger(ledger, { rows: ROWS });
      db.exec('ANALYZE');

      // Every account's balance and the total: one row per account (the triggers' running
      // totals), checked once against a full recomputation so the figure is the right one.
      const balances = ledger.accountBalances();
      const recomputed = db
        .prepare(
          `SELECT a.initial_balance_fen
             + COALESCE((SELECT SUM(CASE WHEN t.type = 'INCOME' OR t.flow IN ('borrow', 'collect', 'refund') THEN t.amount_fen ELSE -t.amount_fen END)
                         FROM transactions t WHERE t.account_id = a.id), 0)
             + COALESCE((SELECT SUM(t.amount_fen) FROM transactions t WHERE t.to_account_id = a.id AND t.type = 'TRANSFER'), 0) AS fen
           FROM accounts a ORDER BY a.sort_order, a.id`,
        )
        .pluck()
        .all() as number[];
      if (JSON.stringify(balances.accounts.map((a) => a.balanceFen)) !== JSON.stringify(recomputed)) {
        throw new Error(`balances ${JSON.stringify(balances.accounts.map((a) => a.balanceFen))} differ from the rows: ${JSON.stringify(recomputed)}`);
      }
      await ctx.measure('ledger.balances1M', () => ledger.accountBalances(), { iterations: 500, warmup: 20, budget: { p50: 20 } });

      // The 借贷 page and the 待报销 view, and the refund card's choice of expense.
      const owed = ledger.people();
      const recomputedOwed = db
        .prepare(
          `SELECT COALESCE(SUM(CASE WHEN flow IN ('lend', 'repay') THEN amount_fen ELSE -amount_fen END), 0) FROM transactions WHERE person_id IS NOT NULL`,
        )
        .pluck()
        .get() as number;
      if (owed.owedToMeFen - owed.iOweFen !== recomputedOwed)
        throw new Error(`people balances ${owed.owedToMeFen - owed.iOweFen} differ from the rows: ${recomputedOwed}`);
      await ctx.measure('ledger.people1M', () => ledger.people(), { iterations: 500, warmup: 20, budget: { p50: 20 } });
      const pending = ledger.pendingReimbursements();
      if (pending.rows.length === 0) throw new Error('the bench ledger has no 待报销 left');
      await ctx.measure('ledger.pendingReimbursements1M', () => ledger.pendingReimbursements(), { iterations: 200, warmup: 10, budget: { p50: 20 } });
      await ctx.measure(
        'ledger.refundCandidates1M',
        () => ledger.refundCandidates({ text: '条目12那笔退了', category: '购物', amountFen: 100, on: '2026-12-20' }),
        { iterations: 200, warmup: 10, budget: { p50: 10 } },
      );

      // A budget on every expense category and a total, set for May and inherited by June:
      // June's status reads its ≈ 27 000 rows once per budgeted category and once in total.
      ledger.setBudgets('2025-05', [
        { categoryId: null, amountFen: 30_000_000 },
        ...expense.map((categoryId) => ({ categoryId, amountFen: 2_000_000 })),
      ]);
      await ctx.measure('ledger.budgetMonth1M', () => ledger.budgetStatus('2025-06'), { iterations: 100, warmup: 5, budget: { p50: 20 } });

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
      // Sub-categories, so the 统计 page's roll-up has work: three under each of the first four
      // expense categories, each holding a quarter of its parent's rows (the parent keeps the rest).
      for (const parentId of expense.slice(0, 4)) {
        const children = [1, 2, 3].map((k) => ledger.addCategory(`子类${parentId}-${k}`, 'EXPENSE', parentId).id);
        const move = db.prepare('UPDATE transactions SET category_id = ? WHERE category_id = ? AND rowid % 4 = ?');
        children.forEach((child, k) => move.run(child, parentId, k + 1));
      }
      db.exec('ANALYZE');
      const rolled = ledger.periodStats({ from: '2025-06-01', to: '2025-06-30', granularity: 'day' });
      const rolledExpense = rolled.byParent.filter((p) => p.type === 'EXPENSE').reduce((sum, p) => sum + p.totalFen, 0);
      if (rolled.byParent.every((p) => p.children.length === 0)) throw new Error('the bench ledger rolls up no sub-category');
      if (rolledExpense !== rolled.expenseFen) throw new Error(`the roll-up ${rolledExpense} differs from the month's expense ${rolled.expenseFen}`);
      // The 统计 page for one month: totals, per-category sums rolled up into their parents and the daily trend.
      await ctx.measure('ledger.statsMonth1M', () => ledger.periodStats({ from: '2025-06-01', to: '2025-06-30', granularity: 'day' }), {
        iterations: 50,
        warmup: 5,
        budget: { p50: 20 },
      });
      // The same page filtered by a tag: one of trips (2 000 rows over the three years, ≈ 55
      // in June) and one on every 20th row (50 000, ≈ 1 350 in June), the worst a tag gets.
      const tagRows = (name: string, every: number) => {
        const tag = Number(db.prepare("INSERT INTO tags (name, created_at) VALUES (?, '2024-01-01T00:00:00+08:00')").run(name).lastInsertRowid);
        db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) SELECT id, ? FROM transactions WHERE rowid % ? = 0').run(tag, every);
      };
      tagRows('出差', 500);
      tagRows('日常', 20);
      db.exec('ANALYZE');
      await ctx.measure(
        'ledger.statsMonthTag1M',
        () => ledger.periodStats({ from: '2025-06-01', to: '2025-06-30', granularity: 'day', tag: '出差' }),
        { iterations: 50, warmup: 5, budget: { p50: 20 } },
      );
      await ctx.measure(
        'ledger.statsMonthBigTag1M',
        () => ledger.periodStats({ from: '2025-06-01', to: '2025-06-30', granularity: 'day', tag: '日常' }),
        { iterations: 20, warmup: 2, budget: { p50: 300 } },
      );
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

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import { exportCsv, openLedger } from '@core/ledger/index';
import type { Suite } from '../harness';
import { benchTempDir } from '../temp';

const ROWS = 1_000_000;

/** Deterministic PRNG so every run seeds the same ledger. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

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

      // 1 000 000 rows over three years (≈ 27 000 a month) in five accounts, inserted in bulk:
      // 90 % expense, 8 % income, 2 % transfers (half between the accounts, half to a
      // counterparty). The account triggers run for every row, as for any write.
      const db = ledger.database;
      const accounts = [1, ...['银行卡', '微信', '支付宝', '信用卡'].map((name, i) => ledger.addAccount(name, (i + 1) * 100_000).id)];
      const cats = db.prepare('SELECT id, type FROM categories').all() as { id: number; type: string }[];
      const expense = cats.filter((c) => c.type === 'EXPENSE').map((c) => c.id);
      const income = cats.filter((c) => c.type === 'INCOME').map((c) => c.id);
      const transfer = cats.filter((c) => c.type === 'TRANSFER').map((c) => c.id);
      const rnd = lcg(42);
      const insert = db.prepare(
        `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
           occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty,
           flow, person_id, refund_of, reimbursable, reimbursed_by)
         VALUES (?, ?, 'CNY', ?, ?, ?, ?, ?, ?, ?, 'import', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      // Money flows among them (≈ 3 %): debts with 50 people, refunds of earlier rows, 待报销
      // expenses (most settled by a reimbursement, some still owed) and the reimbursements.
      const people = Array.from({ length: 50 }, (_, i) =>
        Number(db.prepare('INSERT INTO people (name, created_at) VALUES (?, ?)').run(`朋友${i}`, '2024-01-01T00:00:00+08:00').lastInsertRowid),
      );
      const debts = ['lend', 'borrow', 'repay', 'collect'] as const;
      let reimbursement = 0;
      const start = Date.parse('2024-01-01T00:00:00+08:00');
      const span = Date.parse('2026-12-31T23:59:59+08:00') - start;
      db.transaction(() => {
        for (let i = 0; i < ROWS; i++) {
          const ms = start + Math.floor(rnd() * span);
          const local = new Date(ms + 8 * 3600_000).toISOString();
          const iso = `${local.slice(0, 19)}+08:00`;
          const kind = rnd();
          const marked = rnd();
          const debt = marked < 0.01 ? debts[Math.floor(rnd() * debts.length)]! : null;
          const refund = !debt && marked < 0.02;
          const pendingOrPaid = !debt && !refund && marked < 0.022;
          const paying = !debt && !refund && !pendingOrPaid && marked < 0.0225;
          const type = debt
            ? 'TRANSFER'
            : paying
              ? 'INCOME'
              : refund || pendingOrPaid
                ? 'EXPENSE'
                : kind < 0.02
                  ? 'TRANSFER'
                  : kind < 0.1
                    ? 'INCOME'
                    : 'EXPENSE';
          const pool = type === 'TRANSFER' ? transfer : type === 'INCOME' ? income : expense;
          const from = accounts[Math.floor(rnd() * accounts.length)]!;
          const to = type === 'TRANSFER' && !debt && kind < 0.01 ? accounts[(accounts.indexOf(from) + 1) % accounts.length]! : null;
          if (paying) reimbursement = i;
          insert.run(
            `bench-${i}`,
            1 + Math.floor(rnd() * 50_000),
            type,
            pool[Math.floor(rnd() * pool.length)]!,
            from,
            `条目${i % 997}`,
            iso,
            iso.slice(0, 10),
            ms,
            iso,
            iso,
            to,
            type === 'TRANSFER' && to === null ? '房东' : '',
            debt ?? (refund ? 'refund' : paying ? 'reimbursement' : null),
            debt ? people[Math.floor(rnd() * people.length)]! : null,
            refund && i > 0 ? `bench-${i - 1}` : null,
            pendingOrPaid ? 1 : 0,
            // All but the 待报销 of the last weeks were paid back by the latest reimbursement.
            pendingOrPaid && ms < start + span * 0.995 && reimbursement > 0 ? `bench-${reimbursement}` : null,
          );
        }
      })();
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

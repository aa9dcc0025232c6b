// The ledger every ratio pair runs against: a real SQLite file made through the project's
// schema (openLedger runs the migrations, the account triggers run for every row) and filled
// as bench/suites/ledger.ts fills its own, so both suites measure the same kind of books.
import { join } from 'node:path';
import { toZonedNow } from '@shared/time';
import { openLedger } from '@core/ledger/index';
import type { RatioFixture } from './pair';

/** Deterministic PRNG so every run seeds the same ledger. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * `rows` transactions over three years (2024–2026) in five accounts: 90 % expense, 8 % income,
 * 2 % transfers; ≈ 3 % money flows (debts with 50 people, refunds of the previous row, 待报销
 * expenses mostly settled by a reimbursement). The first four expense categories have three
 * sub-categories each, holding a quarter of their rows apiece; every 500th row carries the tag
 * 出差 and every 20th 日常. The ledger is left open, ANALYZEd.
 */
export function seedFixture(dir: string, rows: number): RatioFixture {
  const path = join(dir, 'ratios.db');
  const ledger = openLedger({ path, now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
  const db = ledger.database;
  const accounts = [1, ...['银行卡', '微信', '支付宝', '信用卡'].map((name, i) => ledger.addAccount(name, (i + 1) * 100_000).id)];
  const cats = db.prepare('SELECT id, type FROM categories').all() as { id: number; type: string }[];
  const expense = cats.filter((c) => c.type === 'EXPENSE').map((c) => c.id);
  const income = cats.filter((c) => c.type === 'INCOME').map((c) => c.id);
  const transfer = cats.filter((c) => c.type === 'TRANSFER').map((c) => c.id);
  const children = new Map(
    expense.slice(0, 4).map((parent) => [parent, [1, 2, 3].map((k) => ledger.addCategory(`子类${parent}-${k}`, 'EXPENSE', parent).id)]),
  );
  const people = Array.from({ length: 50 }, (_, i) =>
    Number(db.prepare('INSERT INTO people (name, created_at) VALUES (?, ?)').run(`朋友${i}`, '2024-01-01T00:00:00+08:00').lastInsertRowid),
  );
  const insert = db.prepare(
    `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
       occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty,
       flow, person_id, refund_of, reimbursable, reimbursed_by)
     VALUES (?, ?, 'CNY', ?, ?, ?, ?, ?, ?, ?, 'import', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const debts = ['lend', 'borrow', 'repay', 'collect'] as const;
  const rnd = lcg(42);
  let reimbursement = 0;
  const start = Date.parse('2024-01-01T00:00:00+08:00');
  const span = Date.parse('2026-12-31T23:59:59+08:00') - start;
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const ms = start + Math.floor(rnd() * span);
      const iso = `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
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
      let category = pool[Math.floor(rnd() * pool.length)]!;
      const under = children.get(category);
      const quarter = Math.floor(rnd() * 4);
      if (under && quarter > 0) category = under[quarter - 1]!;
      const from = accounts[Math.floor(rnd() * accounts.length)]!;
      const to = type === 'TRANSFER' && !debt && kind < 0.01 ? accounts[(accounts.indexOf(from) + 1) % accounts.length]! : null;
      if (paying) reimbursement = i;
      insert.run(
        `bench-${i}`,
        1 + Math.floor(rnd() * 50_000),
        type,
        category,
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
    const tag = db.prepare("INSERT INTO tags (name, created_at) VALUES (?, '2024-01-01T00:00:00+08:00')");
    const link = db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) SELECT id, ? FROM transactions WHERE rowid % ? = 0');
    link.run(tag.run('出差').lastInsertRowid, 500);
    link.run(tag.run('日常').lastInsertRowid, 20);
  })();
  db.exec('ANALYZE');
  return { path, rows, ledger, db, month: '2025-06', dir };
}

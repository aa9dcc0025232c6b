// The books the ledger and ratios suites measure: one seeding of a real SQLite ledger, so both
// measure the same kind of books and the mix of rows is written down once.
import type { Ledger } from '@core/ledger/index';

/** Deterministic PRNG so every run seeds the same ledger. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

export interface SeedOptions {
  rows: number;
  /**
   * The first four expense categories get three sub-categories each, holding a quarter of their
   * rows apiece (one more draw a row, so the rows differ from a seeding without them).
   */
  subCategories?: boolean;
}

/**
 * `rows` transactions over three years (2024–2026, ≈ 27 000 a month at 1 000 000) in five
 * accounts, inserted in bulk: 90 % expense, 8 % income, 2 % transfers (half between the
 * accounts, half to a counterparty); ≈ 3 % money flows (debts with 50 people, refunds of the
 * previous row, 待报销 expenses mostly settled by a reimbursement, and the reimbursements). The
 * account triggers run for every row, as for any write. Ids are `bench-<n>`. The caller ANALYZEs
 * once it has added its own rows.
 * Returns the top-level expense categories, in the order the rows drew them from.
 */
export function seedLedger(ledger: Ledger, { rows, subCategories = false }: SeedOptions): { expenseCategories: number[] } {
  const db = ledger.database;
  const accounts = [1, ...['银行卡', '微信', '支付宝', '信用卡'].map((name, i) => ledger.addAccount(name, (i + 1) * 100_000).id)];
  const cats = db.prepare('SELECT id, type FROM categories').all() as { id: number; type: string }[];
  const expense = cats.filter((c) => c.type === 'EXPENSE').map((c) => c.id);
  const income = cats.filter((c) => c.type === 'INCOME').map((c) => c.id);
  const transfer = cats.filter((c) => c.type === 'TRANSFER').map((c) => c.id);
  const children = new Map(
    subCategories
      ? expense.slice(0, 4).map((parent) => [parent, [1, 2, 3].map((k) => ledger.addCategory(`子类${parent}-${k}`, 'EXPENSE', parent).id)])
      : [],
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
      // The draws keep each suite's order (the category after the account and amount without
      // sub-categories), so the rows are the ones the suites' figures were measured on.
      let category = subCategories ? pool[Math.floor(rnd() * pool.length)]! : 0;
      if (subCategories) {
        const under = children.get(category);
        const quarter = Math.floor(rnd() * 4);
        if (under && quarter > 0) category = under[quarter - 1]!;
      }
      const from = accounts[Math.floor(rnd() * accounts.length)]!;
      const to = type === 'TRANSFER' && !debt && kind < 0.01 ? accounts[(accounts.indexOf(from) + 1) % accounts.length]! : null;
      if (paying) reimbursement = i;
      const amount = 1 + Math.floor(rnd() * 50_000);
      if (!subCategories) category = pool[Math.floor(rnd() * pool.length)]!;
      insert.run(
        `bench-${i}`,
        amount,
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
  })();
  return { expenseCategories: expense };
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import type { BudgetAlert } from '@shared/ipc/ledger';
import { LedgerHistory, openLedger, type Ledger, type RawTransaction } from './index';
import { LedgerValidationError } from './errors';
import { entry, item, NOW } from '../../../../test/support/ledger-fixtures';
import { prng } from '../../../../test/support/prng';

// Random ledgers against a plain recomputation: whatever mix of saves, form entries,
// transfers, debts with people, refunds, 待报销 and its settlement, write-offs, edits,
// deletes, undo and redo, every figure the ledger reports (account and people balances from
// their running totals, budget spent sums, net income/expense statistics) equals a sum the
// test computes itself from the stored rows, to the fen; and all balances together always
// equal the opening balances plus every row's effect on the user's money.

const MONTHS = ['2026-01', '2026-02', '2026-03'];

let ledger: Ledger;
let history: LedgerHistory;
let alerts: BudgetAlert[];

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  alerts = [];
  history = new LedgerHistory(ledger, { onBudgetAlert: (a) => alerts.push(...a), limit: 1000 });
});
afterEach(() => ledger.close());

function rows(): RawTransaction[] {
  return ledger.database.prepare('SELECT * FROM transactions').all() as RawTransaction[];
}

/** What the ledger should say, computed from the rows alone. */
function recompute() {
  const accounts = ledger.database.prepare('SELECT id, initial_balance_fen AS initial FROM accounts ORDER BY id').all() as {
    id: number;
    initial: number;
  }[];
  const balance = new Map(accounts.map((a) => [a.id, a.initial]));
  const count = new Map(accounts.map((a) => [a.id, 0]));
  const byMonth = new Map<string, Record<TransactionType, number>>();
  const spent = new Map<string, number>();
  const owes = new Map<number, number>();
  /** What the user's money (accounts and what people owe) changed by, row by row. */
  let worth = accounts.reduce((n, a) => n + a.initial, 0);
  for (const r of rows()) {
    const add = (id: number, fen: number) => {
      balance.set(id, balance.get(id)! + fen);
      count.set(id, count.get(id)! + 1);
    };
    const inflow = r.type === 'INCOME' || r.flow === 'borrow' || r.flow === 'collect' || r.flow === 'refund';
    add(r.account_id, r.flow === 'writeoff' ? 0 : inflow ? r.amount_fen : -r.amount_fen);
    if (r.to_account_id !== null) add(r.to_account_id, r.type === 'TRANSFER' ? r.amount_fen : 0);
    if (r.person_id !== null) {
      const sign = r.flow === 'lend' || r.flow === 'repay' ? 1 : -1;
      owes.set(r.person_id, (owes.get(r.person_id) ?? 0) + sign * r.amount_fen);
    }
    // Worth: earning and refunds add, spending and write-offs take away, money given to a
    // stranger is gone; moving money between accounts or to and from people changes nothing.
    if (r.type === 'INCOME' || r.flow === 'refund') worth += r.amount_fen;
    else if (r.type === 'EXPENSE') worth -= r.amount_fen;
    else if (r.to_account_id === null && r.person_id === null) worth -= r.amount_fen;
    const month = r.occurred_date.slice(0, 7);
    const sums = byMonth.get(month) ?? { EXPENSE: 0, INCOME: 0, TRANSFER: 0 };
    // Net: 待报销 (and refunds of it) and reimbursements do not count; a refund is negative spending.
    if (r.reimbursable === 1 || r.flow === 'reimbursement') continue;
    const fen = r.flow === 'refund' ? -r.amount_fen : r.amount_fen;
    sums[r.type] += fen;
    byMonth.set(month, sums);
    if (r.type === 'EXPENSE') {
      spent.set(`${month}:${r.category_id}`, (spent.get(`${month}:${r.category_id}`) ?? 0) + fen);
      spent.set(`${month}:total`, (spent.get(`${month}:total`) ?? 0) + fen);
    }
  }
  return { balance, count, byMonth, spent, owes, worth };
}

function verify(): void {
  const want = recompute();
  const got = ledger.accountBalances();
  expect(got.accounts.map((a) => [a.id, a.balanceFen, a.count])).toEqual([...want.balance].map(([id, fen]) => [id, fen, want.count.get(id)]));
  expect(got.totalFen).toBe([...want.balance.values()].reduce((a, b) => a + b, 0));
  const people = ledger.people();
  expect(people.people.map((p) => [p.name, p.balanceFen])).toEqual(people.people.map((p) => [p.name, want.owes.get(p.id) ?? 0]));
  expect(got.totalFen + people.people.reduce((n, p) => n + p.balanceFen, 0)).toBe(want.worth);
  for (const month of [...MONTHS, '2026-04']) {
    const sums = want.byMonth.get(month) ?? { EXPENSE: 0, INCOME: 0, TRANSFER: 0 };
    expect(ledger.monthSummary(month)).toMatchObject({ expenseFen: sums.EXPENSE, incomeFen: sums.INCOME, transferFen: sums.TRANSFER });
    const status = ledger.budgetStatus(month);
    for (const line of status.lines)
      expect([month, line.category, line.spentFen]).toEqual([month, line.category, want.spent.get(`${month}:${line.categoryId}`) ?? 0]);
    if (status.total) expect([month, status.total.spentFen]).toEqual([month, want.spent.get(`${month}:total`) ?? 0]);
  }
  const quarter = ledger.periodStats({ from: '2026-01-01', to: '2026-03-31', granularity: 'month' });
  const sum = (type: TransactionType) => MONTHS.reduce((n, m) => n + (want.byMonth.get(m)?.[type] ?? 0), 0);
  expect([quarter.expenseFen, quarter.incomeFen]).toEqual([sum('EXPENSE'), sum('INCOME')]);
  expect(quarter.trend.map((p) => [p.key, p.expenseFen, p.incomeFen])).toEqual(
    MONTHS.map((m) => [m, want.byMonth.get(m)?.EXPENSE ?? 0, want.byMonth.get(m)?.INCOME ?? 0]),
  );
}

describe.each([2, 3, 7, 2026])('a random ledger (seed %i)', (seed) => {
  it('reports balances, budget spent sums and statistics exactly, and every alert once', () => {
    const rnd = prng(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const fen = () => 1 + Math.floor(rnd() * 300_00);
    const day = () => `${pick(MONTHS)}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`;
    const categories = ledger.listCategories();
    const names = (type: TransactionType) => categories.filter((c) => c.type === type).map((c) => c.name);
    const expenseIds = categories.filter((c) => c.type === 'EXPENSE').map((c) => c.id);

    for (const name of ['银行卡', '微信', '支付宝', '信用卡']) ledger.addAccount(name, Math.floor(rnd() * 1_000_000) - 500_000);
    for (const month of ['2026-01', '2026-02']) {
      const chosen = expenseIds.filter(() => rnd() < 0.5);
      ledger.setBudgets(month, [
        ...chosen.map((categoryId) => ({ categoryId, amountFen: 50_00 + Math.floor(rnd() * 1000_00) })),
        { categoryId: null, amountFen: 2000_00 + Math.floor(rnd() * 3000_00) },
      ]);
    }
    /** A debt, a refund (linked when an expense has room for it), a 待报销 expense or a reimbursement. */
    const saveFlow = (existing: RawTransaction[]) => {
      const kind = pick(['lend', 'borrow', 'repay', 'collect', 'refund', 'refund', 'reimbursable', 'reimbursable', 'reimbursement'] as const);
      const base = { amount: fen() / 100, date: day(), account: pick([null, '微信', '信用卡']) };
      if (kind === 'reimbursable') return history.saveBatch([item({ ...base, category: pick(names('EXPENSE')), reimbursable: true })]);
      if (kind === 'reimbursement') {
        // Mostly what some of the oldest 待报销 add up to, sometimes a little more or less.
        const owed = ledger.pendingReimbursements().rows.slice(0, 1 + Math.floor(rnd() * 3));
        const fen = owed.reduce((n, x) => n + x.amountFen, 0) + Math.floor(rnd() * 3 - 1) * 500;
        const amount = fen > 0 ? fen / 100 : base.amount;
        return history.saveBatch([item({ ...base, amount, type: 'INCOME', category: null, flow: 'reimbursement' })]);
      }
      if (kind === 'refund') {
        const expenses = existing.filter((x) => x.type === 'EXPENSE' && x.flow === null);
        const target = expenses.length > 0 && rnd() < 0.8 ? pick(expenses) : undefined;
        const room = target ? target.amount_fen - ledger.refundedFen(target.id) : 0;
        if (target && room <= 0) return;
        const amount = target ? (1 + Math.floor(rnd() * room)) / 100 : base.amount;
        return history.saveBatch([item({ ...base, amount, type: 'INCOME', category: pick(names('EXPENSE')), flow: 'refund', refundOf: target?.id })]);
      }
      history.saveBatch([item({ ...base, type: 'TRANSFER', category: null, flow: kind, counterparty: pick(['小李', '我哥', '同事']) })]);
    };
    const open = () =>
      ledger
        .accountBalances()
        .accounts.filter((a) => !a.archived)
        .map((a) => a.name);

    for (let step = 0; step < 450; step++) {
      const r = rnd();
      const existing = rows();
      if (r < 0.25) {
        const type = pick(['EXPENSE', 'EXPENSE', 'INCOME', 'TRANSFER'] as const);
        history.saveBatch(
          Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
            item({ type, amount: fen() / 100, category: pick(names(type)), date: day(), account: pick([null, '微信', '信用卡', '不存在']) }),
          ),
        );
      } else if (r < 0.45) {
        const kind = pick(['EXPENSE', 'INCOME', 'own', 'out'] as const);
        const from = pick(open());
        const others = open().filter((n) => n !== from);
        const before = ledger.accountBalances().totalFen;
        const amountFen = fen();
        if (kind === 'own' && others.length > 0) {
          history.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen, account: from, toAccount: pick(others), date: day() }));
          expect(ledger.accountBalances().totalFen).toBe(before);
        } else if (kind === 'out') {
          history.addTransaction(entry({ type: 'TRANSFER', category: undefined, amountFen, account: from, counterparty: '朋友', date: day() }));
          expect(ledger.accountBalances().totalFen).toBe(before - amountFen);
        } else if (kind !== 'own') {
          history.addTransaction(entry({ type: kind, category: pick(names(kind)), amountFen, account: from, date: day() }));
        }
      } else if (r < 0.6 && existing.length > 0) {
        const target = pick(existing);
        const type = pick(['EXPENSE', 'INCOME', 'TRANSFER', undefined] as const);
        const to = pick(ledger.listAccounts().map((a) => a.name));
        // Edits move rows only into open accounts (the ledger refuses an archived one).
        const picked = pick([undefined, ...ledger.listAccounts()]);
        const account = picked && !picked.archived ? picked.name : undefined;
        const from = account ?? ledger.listAccounts().find((a) => a.id === target.account_id)!.name;
        const transfer = (type ?? target.type) === 'TRANSFER' && target.person_id === null;
        const patch = {
          amountFen: rnd() < 0.5 ? fen() : undefined,
          type,
          category: type ? pick(names(type)) : undefined,
          account,
          date: rnd() < 0.3 ? day() : undefined,
          ...(rnd() < 0.1 ? { reimbursable: rnd() < 0.5 } : {}),
          ...(transfer && to !== from ? (rnd() < 0.5 ? { toAccount: to } : { counterparty: '商户' }) : {}),
        };
        try {
          history.updateTransaction(target.id, patch);
        } catch (err) {
          // Refused only for what the money-flow rules forbid, and then nothing changed.
          expect(err).toBeInstanceOf(LedgerValidationError);
          expect(target.flow !== null || patch.reimbursable !== undefined || ledger.refundedFen(target.id) > 0).toBe(true);
          expect(rows().find((x) => x.id === target.id)).toEqual(target);
        }
      } else if (r < 0.76) {
        saveFlow(existing);
      } else if (r < 0.79) {
        const debtor = ledger.people().people.find((p) => p.balanceFen > 0);
        if (debtor) history.writeOff(debtor.id, 1 + Math.floor(rnd() * debtor.balanceFen));
      } else if (r < 0.84 && existing.length > 0) {
        history.remove(existing.filter(() => rnd() < 0.05).map((x) => x.id));
      } else if (r < 0.92) {
        history.undo();
      } else if (r < 0.97) {
        history.redo();
      } else {
        const account = pick(ledger.listAccounts().filter((a) => !a.isDefault));
        ledger.archiveAccount(account.id, rnd() < 0.5);
      }
      if (step % 50 === 49) verify();
    }
    verify();
    expect(rows().length).toBeGreaterThan(100);
    expect(rows().some((x) => x.to_account_id !== null)).toBe(true);
    expect(rows().some((x) => x.type === 'TRANSFER' && x.counterparty !== '')).toBe(true);
    for (const flow of ['lend', 'refund', 'reimbursement', 'writeoff']) expect(rows().some((x) => x.flow === flow)).toBe(true);
    expect(rows().some((x) => x.refund_of !== null && x.flow === 'refund')).toBe(true);
    expect(rows().some((x) => x.reimbursed_by !== null)).toBe(true);

    // Alerts: each (month, category, threshold) at most once, all for this month, all true when fired.
    const keys = alerts.map((a) => `${a.month}:${a.categoryId}:${a.threshold}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const a of alerts) {
      expect(a.month).toBe('2026-02');
      expect(a.spentFen * 100).toBeGreaterThanOrEqual(a.budgetFen * a.threshold);
    }
    const recorded = ledger.database.prepare("SELECT COUNT(*) AS n FROM budget_alerts WHERE month <> '2026-02'").get() as { n: number };
    expect(recorded.n).toBe(0);
    expect(alerts.length).toBeGreaterThan(0);
  });
});

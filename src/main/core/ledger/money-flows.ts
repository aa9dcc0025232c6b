import type Database from 'better-sqlite3';
import { DEBT_FLOWS, type LedgerFlow, type ParseResult, type TransactionType } from '@shared/domain';
import type { CardReminder, PendingReimbursement, PersonBalance, RefundCandidate, SettlementProposal } from '@shared/ipc/ledger';
import { allocate, type Allocation } from '@shared/settlement';
import { addDays, localDate, toZonedIso, type ZonedNow } from '@shared/time';
import { cleanName, LedgerRuleError, LedgerValidationError } from './errors';

/** The columns a row takes from what it is beyond its type: see migration 6. */
export interface FlowColumns {
  type: TransactionType;
  flow: LedgerFlow | null;
  personId: number | null;
  refundOf: string | null;
  reimbursable: 0 | 1;
  /** The category of the expense a refund returns (it counts in that category). */
  categoryId: number | null;
  /** Debt rows name the person here too, so exports and old readers see who. */
  counterparty: string;
}

export const NO_FLOW: Omit<FlowColumns, 'type'> = { flow: null, personId: null, refundOf: null, reimbursable: 0, categoryId: null, counterparty: '' };

/** What a refund said, for choosing the expense it returns. */
export interface RefundQuery {
  text?: string;
  category?: string | null;
  amountFen?: number;
  limit?: number;
  /** The refund's day (YYYY-MM-DD); default today. */
  on?: string;
}

/** What the refunds that still exist return of the expense `t` (SQL). */
const REFUNDED = `COALESCE((SELECT SUM(r.amount_fen) FROM transactions r WHERE r.refund_of = t.id AND r.flow = 'refund'), 0)`;

/** What the payments that still exist paid of the 待报销 expense `t` (SQL): their parts (migration 12). */
const PAID = `COALESCE((SELECT SUM(rp.amount_fen) FROM reimbursement_parts rp JOIN transactions p ON p.id = rp.payment_id
  WHERE rp.expense_id = t.id), 0)`;

/** How far back a refund looks for the expense it returns. */
const REFUND_WINDOW_DAYS = 180;
/** Expenses ranked for a refund: the most recent this many (one short index read). */
const REFUND_SCAN = 400;

/**
 * People and what they owe, refunds and the expenses they return, 待报销 and its settlement,
 * credit cards and their due days. The running balances live in the tables (triggers of
 * migration 6, rules in ./flow-sql.ts); this part decides links and reads them.
 */
export class MoneyFlows {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {}

  // ---- people ---------------------------------------------------------------------------

  /** The person of that name, created on first mention. */
  ensurePerson(name: string): number {
    const clean = cleanName(name);
    const found = this.db.prepare('SELECT id FROM people WHERE name = ?').get(clean) as { id: number } | undefined;
    if (found) return found.id;
    const info = this.db.prepare('INSERT INTO people (name, created_at) VALUES (?, ?)').run(clean, toZonedIso(this.clock()));
    return Number(info.lastInsertRowid);
  }

  people(): { people: PersonBalance[]; owedToMeFen: number; iOweFen: number } {
    const people = (
      this.db
        .prepare(
          'SELECT id, name, balance_fen AS balanceFen, row_count AS count, archived_at IS NOT NULL AS archived FROM people ORDER BY ABS(balance_fen) DESC, name',
        )
        .all() as (Omit<PersonBalance, 'archived'> & { archived: number })[]
    ).map((p) => ({ ...p, archived: p.archived === 1 }));
    return {
      people,
      owedToMeFen: people.reduce((n, p) => n + Math.max(0, p.balanceFen), 0),
      iOweFen: people.reduce((n, p) => n + Math.max(0, -p.balanceFen), 0),
    };
  }

  person(id: number): PersonBalance {
    const p = this.db
      .prepare('SELECT id, name, balance_fen AS balanceFen, row_count AS count, archived_at IS NOT NULL AS archived FROM people WHERE id = ?')
      .get(id) as (Omit<PersonBalance, 'archived'> & { archived: number }) | undefined;
    if (!p) throw new LedgerRuleError('not_found', '这个人不在借贷名单里');
    return { ...p, archived: p.archived === 1 };
  }

  /** The person a spoken name means: exact, else the one whose name holds it or is held by it (哥 → 我哥). */
  findPerson(spoken: string): PersonBalance | undefined {
    const all = this.people().people;
    const exact = all.find((p) => p.name === spoken);
    if (exact) return exact;
    const near = all.filter((p) => p.name.includes(spoken) || spoken.includes(p.name));
    return near.length === 1 ? near[0] : undefined;
  }

  // ---- rows from what a parse says ----------------------------------------------------

  /**
   * The flow columns of a parsed item (item i of a batch). `refunded` carries what earlier
   * items of the same batch already return of each expense, so two refunds of one expense
   * in one card cannot exceed it together.
   */
  columnsFor(result: ParseResult, i: number, amountFen: number, refunded: Map<string, number>): FlowColumns {
    const flow = result.flow;
    if (flow && DEBT_FLOWS.includes(flow)) {
      const name = result.counterparty?.trim();
      if (!name) throw new LedgerValidationError(i, '借贷要说明是谁（例如「借给小李一千」）');
      return { ...NO_FLOW, type: 'TRANSFER', flow, personId: this.ensurePerson(name), counterparty: cleanName(name) };
    }
    if (flow === 'refund') {
      if (!result.refundOf) return { ...NO_FLOW, type: 'EXPENSE', flow };
      const expense = this.refundable(result.refundOf, i);
      const left = expense.amountFen - expense.refundedFen - (refunded.get(expense.id) ?? 0);
      if (amountFen > left) {
        throw new LedgerValidationError(i, `退款 ${yuan(amountFen)} 元超过了原支出可退的 ${yuan(left)} 元`);
      }
      refunded.set(expense.id, (refunded.get(expense.id) ?? 0) + amountFen);
      return { ...NO_FLOW, type: 'EXPENSE', flow, refundOf: expense.id, categoryId: expense.categoryId, reimbursable: expense.reimbursable };
    }
    if (flow === 'reimbursement') return { ...NO_FLOW, type: 'INCOME', flow };
    // Every plain item of every save comes here: a literal, as a spread costs microseconds (measured).
    const reimbursable = result.reimbursable && result.type === 'EXPENSE' ? 1 : 0;
    return { type: result.type, flow: null, personId: null, refundOf: null, reimbursable, categoryId: null, counterparty: '' };
  }

  // ---- refunds ----------------------------------------------------------------------------

  /** An expense a refund may return, with what is already returned of it. */
  private refundable(id: string, i: number): { id: string; amountFen: number; refundedFen: number; categoryId: number; reimbursable: 0 | 1 } {
    const row = this.db
      .prepare(
        `SELECT t.id, t.amount_fen AS amountFen, t.category_id AS categoryId, t.reimbursable,
           ${REFUNDED} AS refundedFen
         FROM transactions t WHERE t.id = ? AND t.type = 'EXPENSE' AND t.flow IS NULL`,
      )
      .get(id) as { id: string; amountFen: number; refundedFen: number; categoryId: number; reimbursable: 0 | 1 } | undefined;
    if (!row) throw new LedgerValidationError(i, '要退款的那笔支出不存在了');
    return row;
  }

  /** The plain expense a refund may link to, or undefined. */
  refundTarget(id: string): { amountFen: number } | undefined {
    return this.db.prepare(`SELECT amount_fen AS amountFen FROM transactions WHERE id = ? AND type = 'EXPENSE' AND flow IS NULL`).get(id) as
      { amountFen: number } | undefined;
  }

  /** What is already refunded of an expense (refunds that still exist). */
  refundedFen(expenseId: string): number {
    return (
      this.db.prepare(`SELECT COALESCE(SUM(amount_fen), 0) AS n FROM transactions WHERE refund_of = ? AND flow = 'refund'`).get(expenseId) as {
        n: number;
      }
    ).n;
  }

  /**
   * The recent expenses a refund of `amountFen` may return, best first: those sharing words
   * with what was said, then those of the same category, then the most recent. Only expenses
   * with at least that much left to refund are offered.
   */
  refundCandidates(query: RefundQuery): RefundCandidate[] {
    // The refund's own day: an expense after it cannot be what it returns.
    const today = query.on ?? localDate(this.clock());
    const rows = this.db
      .prepare(
        `SELECT t.id, t.amount_fen AS amountFen, t.description, t.occurred_date AS date, c.name AS category, a.name AS account,
           ${REFUNDED} AS refundedFen
         FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
         WHERE t.occurred_date BETWEEN ? AND ? AND +t.type = 'EXPENSE' AND t.flow IS NULL
         ORDER BY t.occurred_date DESC, t.occurred_ms DESC LIMIT ${REFUND_SCAN}`,
      )
      .all(addDays(today, -REFUND_WINDOW_DAYS), today) as (Omit<RefundCandidate, 'score'> & { refundedFen: number })[];
    const words = bigrams(query.text ?? '');
    const scored = rows
      .filter((r) => r.amountFen - r.refundedFen >= (query.amountFen ?? 1))
      .map((r, order) => {
        const own = bigrams(`${r.description}${r.category}`);
        let shared = 0;
        for (const w of words) if (own.has(w)) shared++;
        const score = shared * 10 + (query.category && r.category === query.category ? 5 : 0) - order / REFUND_SCAN;
        return { ...r, score };
      });
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, query.limit ?? 5);
  }

  // ---- reimbursements -------------------------------------------------------------------

  /**
   * The 待报销 expenses still owed to the user, oldest first, each with what it still waits
   * for: its amount net of refunds less the parts paid by payments that still exist (see
   * migration 12). One settled before parts existed (reimbursed_by names a row that exists,
   * no parts) waits for nothing.
   */
  pendingReimbursements(): { rows: PendingReimbursement[]; totalFen: number } {
    const rows = this.db
      .prepare(
        `SELECT t.id, t.amount_fen - ${REFUNDED} - ${PAID} AS amountFen, ${PAID} AS paidFen,
           t.description, t.occurred_date AS date, c.name AS category
         FROM transactions t INDEXED BY transactions_reimbursable JOIN categories c ON c.id = t.category_id
         WHERE t.reimbursable = 1 AND t.flow IS NULL AND t.type = 'EXPENSE'
           AND (EXISTS (SELECT 1 FROM reimbursement_parts rp WHERE rp.expense_id = t.id)
             OR NOT EXISTS (SELECT 1 FROM transactions s WHERE s.id = t.reimbursed_by))
         ORDER BY t.occurred_date, t.occurred_ms`,
      )
      .all() as PendingReimbursement[];
    const owed = rows.filter((r) => r.amountFen > 0);
    return { rows: owed, totalFen: owed.reduce((n, r) => n + r.amountFen, 0) };
  }

  /**
   * What a payment of `amountFen` pays of the 待报销 `ids` (in that order; ids no longer
   * waiting are passed over), or without ids of all of them oldest first: each in full while
   * the money lasts, the last one in part. `ids` are in paying order, the partly paid one
   * included; leftOverFen is paid beyond them all (多出), stillOwedFen what they still lack (还差).
   */
  proposeSettlement(amountFen: number, ids?: readonly string[]): SettlementProposal {
    const plan = this.allocation(amountFen, ids);
    return { ids: plan.parts.map((p) => p.id), settledFen: plan.settledFen, leftOverFen: plan.leftOverFen, stillOwedFen: plan.stillOwedFen };
  }

  private allocation(amountFen: number, ids: readonly string[] | undefined): Allocation {
    const pending = this.pendingReimbursements().rows;
    let given = pending;
    if (ids) {
      const byId = new Map(pending.map((r) => [r.id, r]));
      given = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    }
    return allocate(
      amountFen,
      given.map((r) => ({ id: r.id, owedFen: r.amountFen })),
      ids ? 'all' : 'reached',
    );
  }

  /**
   * Lets the saved reimbursement row `by` pay `ids` with its own amount, as proposeSettlement
   * allocates it (call inside the save's transaction): a part for every expense it pays, and
   * reimbursed_by on each it pays in full, so readers from before parts see it settled. An id
   * no longer 待报销 (deleted or settled since the card proposed it) is passed over: the
   * payment is saved all the same and the rest stays owed.
   */
  settle(by: string, ids: readonly string[]): void {
    const payment = this.db.prepare(`SELECT amount_fen AS amountFen FROM transactions WHERE id = ? AND flow = 'reimbursement'`).get(by) as
      { amountFen: number } | undefined;
    if (!payment) return;
    const part = this.db.prepare('INSERT INTO reimbursement_parts (expense_id, payment_id, amount_fen) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    const paid = this.db.prepare('UPDATE transactions SET reimbursed_by = ? WHERE id = ?');
    for (const p of this.allocation(payment.amountFen, ids).parts) {
      part.run(p.id, by, p.fen);
      if (p.full) paid.run(by, p.id);
    }
  }

  // ---- credit cards ---------------------------------------------------------------------

  /**
   * Cards with a debt whose due day is at most `daysAhead` days away, each once per due date
   * (recorded in card_alerts, this device only: a reminder is about this screen).
   */
  cardReminders(daysAhead = 3): CardReminder[] {
    const today = localDate(this.clock());
    const cards = this.db
      .prepare(
        `SELECT id, name, initial_balance_fen + flow_fen AS balanceFen, statement_day AS statementDay, due_day AS dueDay
         FROM accounts WHERE kind = 'credit' AND due_day IS NOT NULL AND archived_at IS NULL`,
      )
      .all() as { id: number; name: string; balanceFen: number; statementDay: number | null; dueDay: number }[];
    const fired = this.db.prepare('SELECT 1 FROM card_alerts WHERE account_id = ? AND due_date = ?');
    const record = this.db.prepare('INSERT INTO card_alerts (account_id, due_date, fired_at) VALUES (?, ?, ?)');
    const reminders: CardReminder[] = [];
    for (const c of cards) {
      if (c.balanceFen >= 0) continue;
      const due = nextDueDate(today, c.dueDay);
      const days = daysBetween(today, due);
      if (days > daysAhead || fired.get(c.id, due)) continue;
      record.run(c.id, due, toZonedIso(this.clock()));
      reminders.push({ accountId: c.id, account: c.name, dueDate: due, daysLeft: days, owedFen: -c.balanceFen });
    }
    return reminders;
  }
}

/** The first day on or after `today` that is the `day`-th of its month (clamped to the month's last day). */
export function nextDueDate(today: string, day: number): string {
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const inMonth = (year: number, month: number) => {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
  };
  const thisMonth = inMonth(y, m);
  if (thisMonth >= today) return thisMonth;
  return m === 12 ? inMonth(y + 1, 1) : inMonth(y, m + 1);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function bigrams(text: string): Set<string> {
  const clean = text.replace(/[\s\d.,，。、]+/g, '');
  const out = new Set<string>();
  for (let i = 0; i + 1 < clean.length; i++) out.add(clean.slice(i, i + 2));
  return out;
}

function yuan(fen: number): string {
  return (fen / 100).toFixed(2).replace(/\.00$/, '');
}

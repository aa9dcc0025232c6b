import type Database from 'better-sqlite3';
import { isTransactionType, type TransactionType } from '@shared/domain';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import {
  completeRule,
  nextOccurrence,
  occurrences,
  recurrenceLabel,
  recurrenceProblem,
  scheduleProblem,
  spokenSchedule,
  type Recurrence,
  type RecurringDraft,
  type RecurringMode,
  type RecurringRuleInfo,
  type Schedule,
} from '@shared/recurrence';
import { addDays, isCalendarDate, localDate, toZonedIso, type ZonedNow } from '@shared/time';
import { matchCategory } from '../categories/index';
import type { Accounts } from './accounts';
import type { Categories } from './categories';
import { LedgerRuleError, LedgerValidationError } from './errors';
import type { Transactions } from './transactions';

/** The entry a rule makes, checked: amount, type, category and accounts by their ids. */
export interface RuleEntry {
  type: TransactionType;
  amountFen: number;
  categoryId: number;
  accountId: number;
  toAccountId: number | null;
  description: string;
}

/** A new rule: the entry it makes (category and accounts by name) and when. */
export interface RecurringRuleInput {
  type: TransactionType;
  amountFen: number;
  /** Default: the type's 其他. */
  category?: string;
  /** Default: the default account. */
  account?: string;
  /** TRANSFER only: the user's account the money goes to. */
  toAccount?: string | null;
  description?: string;
  rule: Recurrence;
  start: string;
  end?: string | null;
  count?: number | null;
  /** Default 'save'. */
  mode?: RecurringMode;
}

export type RecurringRulePatch = Partial<RecurringRuleInput>;

/** What a catch-up made: the rows it saved and the occurrences of draft-mode rules it offers. */
export interface CatchUpResult {
  saved: string[];
  drafts: RecurringDraft[];
}

/** An occurrence's key: its rule's key, a colon, its day. */
const OCCURRENCE_KEY = /^.+:(\d{4}-\d{2}-\d{2})$/;

/**
 * Where the offered drafts wait for the user: a JSON list in the ledger's device-local
 * key/value table (sync_state, never journaled nor synced). In the ledger file, not beside
 * it, so the offers are written in the SAME transaction that advances their rules: a crash
 * can neither lose an offer (the rule moved on) nor offer one twice; and without a new
 * table, so this needs no migration of its own.
 */
const OFFERS_KEY = 'recurring_offers';

type RuleRow = {
  id: number;
  sync_id: string;
  type: TransactionType;
  amount_fen: number;
  category_id: number;
  account_id: number;
  to_account_id: number | null;
  category: string;
  account: string;
  to_account: string | null;
  description: string;
  every: Recurrence['every'];
  day: number | null;
  month: number | null;
  start_date: string;
  end_date: string | null;
  max_count: number | null;
  mode: RecurringMode;
  paused: 0 | 1;
  next_date: string | null;
  created_count: number;
};

const SELECT_RULE = `
  SELECT r.*, c.name AS category, a.name AS account, ta.name AS to_account
  FROM recurring_rules r
  JOIN categories c ON c.id = r.category_id
  JOIN accounts a ON a.id = r.account_id
  LEFT JOIN accounts ta ON ta.id = r.to_account_id`;

function ruleOf(r: RuleRow): Recurrence {
  return { every: r.every, ...(r.day !== null ? { day: r.day } : {}), ...(r.month !== null ? { month: r.month } : {}) };
}

/**
 * The dates a stored rule falls on, without its count: the ledger counts what it has made
 * (created_count), since an edit restarts the dates from today but not the count.
 */
function datesOf(r: RuleRow): Schedule {
  return { rule: ruleOf(r), start: r.start_date, end: r.end_date };
}

function toInfo(r: RuleRow): RecurringRuleInfo {
  const rule = ruleOf(r);
  return {
    id: r.id,
    key: r.sync_id,
    ...draftTemplate(r),
    rule,
    start: r.start_date,
    end: r.end_date,
    count: r.max_count,
    mode: r.mode,
    paused: r.paused === 1,
    nextDate: r.next_date,
    createdCount: r.created_count,
    label: recurrenceLabel(rule),
  };
}

/** The first day still to come for a rule that has made `made` occurrences, looking from `from` on. */
function firstFrom(schedule: Schedule, maxCount: number | null, made: number, from: string): string | null {
  if (maxCount !== null && made >= maxCount) return null;
  return nextOccurrence(schedule, addDays(from > schedule.start ? from : schedule.start, -1));
}

/**
 * Recurring entries (周期记账): the rules and their catch-up. Each occurrence of a rule is
 * a row whose recurrence_key (the rule's key and the day) is UNIQUE, and a catch-up writes
 * its rows and advances its rules in ONE transaction: every due occurrence, also those
 * missed while the computer was off, exists exactly once — after a crash mid catch-up, a
 * second call, and on two synced devices that both caught up (the row's id derives from the
 * key there). The rows are the ledger's own (accounts' balances, statistics and budgets see
 * them like any other).
 */
export class Recurring {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
    private readonly parts: { categories: Categories; accounts: Accounts; rows: Transactions },
  ) {}

  list(): RecurringRuleInfo[] {
    const rows = this.db.prepare(`${SELECT_RULE} ORDER BY r.paused, r.next_date IS NULL, r.next_date, r.id`).all() as RuleRow[];
    return rows.map(toInfo);
  }

  get(id: number): RecurringRuleInfo {
    return toInfo(this.row(id));
  }

  create(input: RecurringRuleInput): RecurringRuleInfo {
    return this.get(this.insertRule(this.checked(input)));
  }

  /**
   * A rule spoken with its entry (「每个月五号交房租三千」), in the caller's transaction: the
   * rule from the period of the day it was said (spokenSchedule), and this period's
   * occurrence at once when it is due by `now`, made like any catch-up's (its key, exactly
   * once). `entry` is the spoken item as the batch checked it. rowId null: not due yet.
   */
  createSpoken(entry: RuleEntry, rule: Recurrence, said: string, now: ZonedNow, index = 0): { rule: RecurringRuleInfo; rowId: string | null } {
    const problem = recurrenceProblem(rule);
    if (problem) throw new LedgerValidationError(index, problem);
    const schedule = spokenSchedule(rule, said);
    const { type, amountFen, categoryId, accountId, toAccountId, description } = entry;
    const id = this.insertRule({
      type,
      amountFen,
      categoryId,
      accountId,
      toAccountId,
      description,
      rule: schedule.rule,
      start: schedule.start,
      end: null,
      count: null,
      mode: 'save',
    });
    const { saved } = this.catchUp(now, id);
    return { rule: this.get(id), rowId: saved[0] ?? null };
  }

  private insertRule(fields: RuleEntry & { rule: Recurrence; start: string; end: string | null; count: number | null; mode: RecurringMode }): number {
    const schedule = { rule: fields.rule, start: fields.start, end: fields.end };
    const stamp = toZonedIso(this.clock());
    const info = this.db
      .prepare(
        `INSERT INTO recurring_rules (type, amount_fen, category_id, account_id, to_account_id, description, every, day, month,
           start_date, end_date, max_count, mode, next_date, created_at, updated_at)
         VALUES (@type, @amountFen, @categoryId, @accountId, @toAccountId, @description, @every, @day, @month,
           @start, @end, @count, @mode, @next, @stamp, @stamp)`,
      )
      .run({ ...fields, ...columnsOf(fields.rule), next: firstFrom(schedule, fields.count, 0, fields.start), stamp });
    return Number(info.lastInsertRowid);
  }

  /**
   * Changes a rule. A change of when it falls due takes effect from today: occurrences
   * already made stay, and the next one is the new dates' first from today on (a day made
   * already is not made twice: its key is the same). The count counts what was made.
   */
  update(id: number, patch: RecurringRulePatch): RecurringRuleInfo {
    const current = this.get(id);
    const fields = this.checked({
      type: patch.type ?? current.type,
      amountFen: patch.amountFen ?? current.amountFen,
      // A new type needs a category of that type: the patch's, else the type's 其他.
      category: patch.category ?? (patch.type && patch.type !== current.type ? undefined : current.category),
      account: patch.account ?? current.account,
      toAccount: patch.toAccount !== undefined ? patch.toAccount : current.toAccount,
      description: patch.description ?? current.description,
      rule: patch.rule ?? current.rule,
      start: patch.start ?? current.start,
      end: patch.end !== undefined ? patch.end : current.end,
      count: patch.count !== undefined ? patch.count : current.count,
      mode: patch.mode ?? current.mode,
    });
    const rescheduled = patch.rule !== undefined || patch.start !== undefined || patch.end !== undefined || patch.count !== undefined;
    const schedule = { rule: fields.rule, start: fields.start, end: fields.end };
    const today = localDate(this.clock());
    // Today's occurrence made already (the old dates fell today and moved past it) is not
    // made again under the new dates: a draft-mode one dismissed today would come back.
    const madeToday = current.nextDate !== null && current.nextDate > today && occurrences(current, today, today).length > 0;
    const from = madeToday ? addDays(today, 1) : today;
    const next = rescheduled ? firstFrom(schedule, fields.count, current.createdCount, from) : current.nextDate;
    this.db
      .prepare(
        `UPDATE recurring_rules SET type = @type, amount_fen = @amountFen, category_id = @categoryId, account_id = @accountId,
           to_account_id = @toAccountId, description = @description, every = @every, day = @day, month = @month,
           start_date = @start, end_date = @end, max_count = @count, mode = @mode, next_date = @next, updated_at = @stamp
         WHERE id = @id`,
      )
      .run({ ...fields, ...columnsOf(fields.rule), next, stamp: toZonedIso(this.clock()), id });
    return this.get(id);
  }

  /**
   * Pausing stops a rule where it is; resuming goes on from today, without making what
   * fell due while it was paused (that is what the pause was for).
   */
  setPaused(id: number, paused: boolean): RecurringRuleInfo {
    const r = this.row(id);
    if ((r.paused === 1) === paused) return toInfo(r);
    const next =
      !paused && r.next_date !== null
        ? firstFrom(datesOf(r), r.max_count, r.created_count, maxDay(r.next_date, localDate(this.clock())))
        : r.next_date;
    this.db
      .prepare('UPDATE recurring_rules SET paused = ?, next_date = ?, updated_at = ? WHERE id = ?')
      .run(paused ? 1 : 0, next, toZonedIso(this.clock()), id);
    return this.get(id);
  }

  /** The rows a rule made stay: they are the user's books. Its offers still waiting go with it. */
  delete(id: number): void {
    this.db.transaction(() => {
      if (this.db.prepare('DELETE FROM recurring_rules WHERE id = ?').run(id).changes === 0) throw notFound();
      this.dropOffers((d) => d.ruleId === id);
    })();
  }

  /**
   * Makes every occurrence due by today (the local day of `now`) of the rules that are not
   * paused, in ONE transaction with the rules' next_date and created_count. Save-mode rules
   * write rows (dated on their day, at the time of day of `now`); draft-mode rules write
   * nothing and their occurrences come back as drafts, offered this once: the rule moves on
   * all the same, and a draft confirmed later is saved under its occurrence's key.
   */
  catchUp(now: ZonedNow, onlyRule?: number): CatchUpResult {
    const today = localDate(now);
    const stamp = toZonedIso(now);
    const timeOfDay = stamp.slice(10);
    const advance = this.db.prepare('UPDATE recurring_rules SET next_date = ?, created_count = created_count + ? WHERE id = ?');
    return this.db.transaction(() => {
      const due = this.db
        .prepare(
          `${SELECT_RULE} WHERE r.paused = 0 AND r.next_date IS NOT NULL AND r.next_date <= ? AND (? IS NULL OR r.id = ?) ORDER BY r.next_date, r.id`,
        )
        .all(today, onlyRule ?? null, onlyRule ?? null) as RuleRow[];
      const result: CatchUpResult = { saved: [], drafts: [] };
      for (const r of due) {
        const schedule = datesOf(r);
        const left = r.max_count === null ? Number.POSITIVE_INFINITY : r.max_count - r.created_count;
        const days = occurrences(schedule, r.next_date!, today, left);
        for (const day of days) {
          const recurrenceKey = `${r.sync_id}:${day}`;
          if (r.mode === 'draft') {
            result.drafts.push({ ...draftTemplate(r), ruleId: r.id, date: day, recurrenceKey, label: recurrenceLabel(ruleOf(r)) });
            continue;
          }
          const occurredAt = day + timeOfDay;
          const id = this.parts.rows.insertOccurrence({
            amountFen: r.amount_fen,
            type: r.type,
            categoryId: r.category_id,
            accountId: r.account_id,
            toAccountId: r.type === 'TRANSFER' ? r.to_account_id : null,
            description: r.description,
            occurredAt,
            occurredDate: day,
            occurredMs: Date.parse(occurredAt),
            stamp,
            recurrenceKey,
          });
          if (id !== null) result.saved.push(id);
        }
        const next = days.length < left ? nextOccurrence(schedule, today) : null;
        advance.run(next, days.length, r.id);
      }
      if (result.drafts.length > 0) {
        const kept = new Set(this.storedOffers().map((d) => d.recurrenceKey));
        this.storeOffers([...this.storedOffers(), ...result.drafts.filter((d) => !kept.has(d.recurrenceKey))]);
      }
      return result;
    })();
  }

  /**
   * The drafts offered and neither confirmed nor dismissed yet, oldest first: they outlive a
   * restart. One whose occurrence is in the ledger already (confirmed on another device and
   * synced here) is no longer offered.
   */
  offers(): RecurringDraft[] {
    const saved = this.db.prepare('SELECT 1 FROM transactions WHERE recurrence_key = ?').pluck();
    return this.storedOffers()
      .filter((d) => saved.get(d.recurrenceKey) === undefined)
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.ruleId - b.ruleId));
  }

  /** The user says no to an offered draft: it is never offered again (nothing is saved). */
  dismissDraft(recurrenceKey: string): void {
    this.db.transaction(() => this.dropOffers((d) => d.recurrenceKey === recurrenceKey))();
  }

  /**
   * Saves an offered draft (as offered, or as the user edited it) under its occurrence's key.
   * A draft saved already — confirmed twice, or on another device — is not saved again: the
   * row that holds the occurrence is returned.
   */
  confirmDraft(draft: RecurringDraft): string {
    const day = OCCURRENCE_KEY.exec(draft.recurrenceKey)?.[1];
    if (!day || !isCalendarDate(day) || day !== draft.date) throw new LedgerValidationError(0, `周期记账的标识无效（${draft.recurrenceKey}）`);
    const fields = this.template(draft);
    const now = this.clock();
    const stamp = toZonedIso(now);
    const occurredAt = day + stamp.slice(10);
    return this.db.transaction(() => {
      // Confirmed, the offer is done with: it is not offered again, even after an undo.
      this.dropOffers((d) => d.recurrenceKey === draft.recurrenceKey);
      const id = this.parts.rows.insertOccurrence({
        ...fields,
        occurredAt,
        occurredDate: day,
        occurredMs: Date.parse(occurredAt),
        stamp,
        recurrenceKey: draft.recurrenceKey,
      });
      return id ?? (this.db.prepare('SELECT id FROM transactions WHERE recurrence_key = ?').pluck().get(draft.recurrenceKey) as string);
    })();
  }

  // ---- offers ---------------------------------------------------------------------------

  private storedOffers(): RecurringDraft[] {
    const text = this.db.prepare('SELECT value FROM sync_state WHERE key = ?').pluck().get(OFFERS_KEY) as string | undefined;
    if (!text) return [];
    try {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) ? (list as RecurringDraft[]) : [];
    } catch {
      // A damaged list offers nothing rather than stopping every catch-up.
      return [];
    }
  }

  private storeOffers(list: RecurringDraft[]): void {
    if (list.length === 0) this.db.prepare('DELETE FROM sync_state WHERE key = ?').run(OFFERS_KEY);
    else
      this.db
        .prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run(OFFERS_KEY, JSON.stringify(list));
  }

  private dropOffers(drop: (d: RecurringDraft) => boolean): void {
    const list = this.storedOffers();
    const left = list.filter((d) => !drop(d));
    if (left.length !== list.length) this.storeOffers(left);
  }

  // ---- checks ---------------------------------------------------------------------------

  private row(id: number): RuleRow {
    const r = this.db.prepare(`${SELECT_RULE} WHERE r.id = ?`).get(id) as RuleRow | undefined;
    if (!r) throw notFound();
    return r;
  }

  /** A rule's columns from its input, checked: the entry, and the rule said in full. */
  private checked(input: RecurringRuleInput) {
    const problem = scheduleProblem({ rule: input.rule, start: input.start, end: input.end ?? null, count: input.count ?? null });
    if (problem) throw new LedgerValidationError(0, problem);
    const mode = input.mode ?? 'save';
    if (mode !== 'save' && mode !== 'draft') throw new LedgerValidationError(0, `记账方式无效（${String(mode)}）`);
    return {
      ...this.template(input),
      rule: completeRule(input.rule, input.start),
      start: input.start,
      end: input.end ?? null,
      count: input.count ?? null,
      mode,
    };
  }

  /** The entry an occurrence makes, checked like the form's: amount, category, open accounts. */
  private template(input: Pick<RecurringRuleInput, 'type' | 'amountFen' | 'category' | 'account' | 'toAccount' | 'description'>): RuleEntry {
    if (!isTransactionType(input.type)) throw new LedgerValidationError(0, `类型无效（${String(input.type)}）`);
    const { amountFen } = input;
    if (!Number.isInteger(amountFen) || amountFen <= 0 || amountFen > MAX_AMOUNT_YUAN * 100) throw new LedgerValidationError(0, '金额无效');
    const category = matchCategory(input.category, input.type, this.parts.categories.candidates());
    if (!category) throw new LedgerValidationError(0, '没有可用的分类');
    const open = this.parts.accounts.openIds();
    const accountId = input.account ? open.get(input.account) : this.parts.accounts.defaultId();
    if (accountId === undefined) throw new LedgerValidationError(0, `账户「${input.account}」不存在或已归档`);
    let toAccountId: number | null = null;
    if (input.type === 'TRANSFER' && input.toAccount) {
      toAccountId = open.get(input.toAccount) ?? null;
      if (toAccountId === null) throw new LedgerValidationError(0, `账户「${input.toAccount}」不存在或已归档`);
      if (toAccountId === accountId) throw new LedgerValidationError(0, '转出和转入不能是同一个账户');
    }
    return {
      type: input.type,
      amountFen,
      categoryId: category.id,
      accountId,
      toAccountId,
      description: (input.description ?? '').trim().slice(0, 200),
    };
  }
}

function columnsOf(rule: Recurrence): { every: string; day: number | null; month: number | null } {
  return { every: rule.every, day: rule.day ?? null, month: rule.month ?? null };
}

function draftTemplate(r: RuleRow): Omit<RecurringDraft, 'ruleId' | 'date' | 'recurrenceKey' | 'label'> {
  return {
    type: r.type,
    amountFen: r.amount_fen,
    category: r.category,
    account: r.account,
    ...(r.type === 'TRANSFER' ? { toAccount: r.to_account } : {}),
    description: r.description,
  };
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

function notFound(): LedgerRuleError {
  return new LedgerRuleError('not_found', '这条周期记账规则不存在或已被删除');
}

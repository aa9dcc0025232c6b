// What one voice session writes to and reads from the ledger: the save of a resolved card
// (with the budget thresholds it crossed), the undo of the last one, spoken questions about
// spending and budgets, the session's totals for the goodbye, and the category a draft will
// be filed under.
import { DraftBatch } from '@shared/draft-batch';
import { errorMessage } from '@shared/errors';
import type { BudgetAlert, RefundCandidate } from '@shared/ipc/ledger';
import type { LedgerQuery, ParseResult, SessionSummary, TransactionRow, TransactionType, UpdatedFields } from '@shared/domain';
import { fenToYuan, formatFen, yuanToFen } from '@shared/money';
import { monthDayText, toZonedIso, type ZonedNow } from '@shared/time';
import { chooseCategory, withCategoryForType, type CategoryRef } from '../categories/index';
import { LedgerValidationError } from '../ledger/errors';
import type { BudgetQuery, DebtQuery } from '../nlp/index';
import type { LedgerPort } from './ports';
import * as say from './templates';

/** Where drafts land: the user's own categories and the ledger's choice among them. */
export interface Placement {
  customCategories: readonly CategoryRef[];
  place: (name: string, type: TransactionType) => string;
  /** The links a money flow needs (the expense a refund returns, what a reimbursement settles); absent: none. */
  link?: (result: ParseResult) => ParseResult;
}

/**
 * Drafts carry the category the ledger will file them under, so what is read back is what
 * gets saved (the model's 洗浴 is read back as the 娱乐 it will be stored in).
 */
export function placedResult(result: ParseResult, placement: Placement): ParseResult {
  const placed = result.category ? { ...result, category: placedCategory(result.category, result.description, result.type, placement) } : result;
  return placement.link ? placement.link(placed) : placed;
}

/**
 * The links a card shows and a save writes: a refund returns the recent expense that shares
 * the most words with what was said (or else the newest of its category) — none when nothing
 * fits, and it stays a refund of its category; a reimbursement settles the oldest 待报销 that
 * fit. The card says which, so a wrong pick is seen before it is saved.
 */
export function linkedResult(
  result: ParseResult,
  ledger: Pick<Required<LedgerPort>, 'refundCandidates' | 'proposeSettlement'>,
  today: string,
): ParseResult {
  if (result.amount === null) return result;
  const amountFen = yuanToFen(result.amount);
  if (result.flow === 'refund' && result.refundOf && !result.linkNote) {
    // Picked on the card: describe it when it is one of the recent expenses.
    const picked = ledger.refundCandidates({ limit: 50, on: result.date ?? today }).find((c) => c.id === result.refundOf);
    return picked ? { ...result, category: picked.category, linkNote: refundNote(picked) } : result;
  }
  if (result.flow === 'refund' && !result.refundOf) {
    const [best] = ledger.refundCandidates({ text: result.description, category: result.category, amountFen, limit: 1, on: result.date ?? today });
    // A candidate that shares nothing with the sentence (score below a category match) is a guess.
    if (!best || best.score < 5) return result;
    return { ...result, refundOf: best.id, category: best.category, linkNote: refundNote(best) };
  }
  if (result.flow === 'reimbursement' && !result.settles) {
    const plan = ledger.proposeSettlement(amountFen);
    const parts = [plan.ids.length ? `报销${plan.ids.length}笔待报销` : '没有可核销的待报销'];
    if (plan.ids.length && plan.leftOverFen > 0) parts.push(`多出${formatFen(plan.leftOverFen)}元`);
    if (plan.stillOwedFen > 0) parts.push(`还有${formatFen(plan.stillOwedFen)}元未报销`);
    return { ...result, settles: plan.ids, linkNote: parts.join('，') };
  }
  return result;
}

function refundNote(expense: RefundCandidate): string {
  return `退的是${monthDayText(expense.date)}${expense.description || expense.category}${formatFen(expense.amountFen)}元`;
}

/** A correction's fields, with the category re-filed when the type flips. */
export function placedFields(current: ParseResult, fields: UpdatedFields, placement: Placement): UpdatedFields {
  const next = withCategoryForType(current, fields, placement.customCategories);
  if (!next.category) return next;
  return { ...next, category: placedCategory(next.category, next.description ?? current.description, next.type ?? current.type, placement) };
}

export function placedCategory(name: string, description: string, type: TransactionType, placement: Placement): string {
  return chooseCategory(name, description, type, placement.customCategories, placement.place);
}

/** `alerts`: the budget thresholds this save crossed for the first time, as the ledger recorded them. */
export type SaveOutcome = { ok: true; rows: TransactionRow[]; alerts: readonly BudgetAlert[] } | { ok: false; reason: string };

export class SessionBook {
  private lastSave: { rows: TransactionRow[]; results: ParseResult[] } | null = null;
  private readonly totals: SessionSummary = { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0 };

  constructor(
    private readonly ledger: LedgerPort,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  get summary(): SessionSummary {
    return { ...this.totals };
  }

  /**
   * The confirmed items in one transaction: all of them or, with the reason, none. The kept
   * card is cleared in that same transaction, so a saved item never comes back as a draft.
   */
  save(resolved: DraftBatch, now: ZonedNow): SaveOutcome {
    const results = resolved.confirmedItems.map((item) => item.result);
    let rows: TransactionRow[];
    try {
      rows = this.ledger.saveBatch(results, { now, drafts: null });
    } catch (err) {
      this.log('saveBatch failed', err);
      return { ok: false, reason: saveFailureText(err, resolved) };
    }
    this.lastSave = { rows, results };
    this.count(rows, 1);
    return { ok: true, rows, alerts: this.ledger.latestBudgetAlerts?.() ?? [] };
  }

  /** 「撤销」: deletes the rows of this session's last save and returns them as drafts. */
  undo(now: ZonedNow): DraftBatch | null {
    const last = this.lastSave;
    if (!last) return null;
    this.lastSave = null;
    // The ledger page may have edited or deleted some of these rows since: bring back what is
    // there now, and never resurrect a row the user deleted.
    const current = this.ledger.getMany(last.rows.map((row) => row.id));
    const removed = current.length === 0 ? 0 : this.ledger.deleteTransactions(current.map((row) => row.id));
    if (removed === 0) return null;
    // The summary takes back exactly what this save added to it.
    this.count(last.rows, -1);
    const results = current.map((row) => draftOf(row, last.results[last.rows.findIndex((saved) => saved.id === row.id)]));
    return DraftBatch.fromResults(results, toZonedIso(now));
  }

  answer(query: LedgerQuery): string {
    const totals = this.ledger.totals({
      from: query.from,
      to: query.to,
      type: query.type,
      ...(query.category ? { category: query.category } : {}),
    });
    return say.queryAnswer(query, totals.totalFen, totals.count);
  }

  /** 「这个月预算还剩多少」: the month's budgets as the ledger has them (inherited ones included). */
  /** 「小李还欠你500元。」 from the person's running balance. */
  answerDebt(query: DebtQuery): string {
    const person = this.ledger.findPerson?.(query.person);
    if (!person) return say.debtAnswer(query.person, null);
    return say.debtAnswer(person.name, person.balanceFen);
  }

  answerBudget(query: BudgetQuery): string {
    // The category as the user's ledger names it (a renamed 餐饮 is their 吃喝).
    const category = query.category ? this.ledger.placeCategory(query.category, 'EXPENSE') : null;
    return say.budgetAnswer({ ...query, category }, this.ledger.budgetStatus(query.month));
  }

  private count(rows: readonly TransactionRow[], sign: 1 | -1): void {
    this.totals.savedCount += sign * rows.length;
    for (const row of rows) {
      const fen = sign * row.amountFen;
      if (row.type === 'EXPENSE') this.totals.expenseFen += fen;
      else if (row.type === 'INCOME') this.totals.incomeFen += fen;
      else this.totals.transferFen += fen;
    }
  }
}

/** A saved row as a draft again: its current fields, the original's confidence and source. */
function draftOf(row: TransactionRow, original: ParseResult | undefined): ParseResult {
  return {
    amount: fenToYuan(row.amountFen),
    type: row.type,
    category: row.category,
    description: row.description,
    date: row.date,
    account: row.account,
    confidence: original?.confidence ?? 1,
    source: original?.source ?? 'local',
  };
}

/**
 * The ledger numbers a bad item by its place among the confirmed results it was given; the
 * user knows it by its number on the card (cancelled items keep their places there).
 */
function saveFailureText(err: unknown, resolved: DraftBatch): string {
  if (!(err instanceof LedgerValidationError)) return errorMessage(err);
  const item = resolved.confirmedItems[err.itemIndex];
  return item ? `第${resolved.displayNumber(item.index)}笔${err.reason}` : errorMessage(err);
}

// What one voice session writes to and reads from the ledger: the save of a resolved card
// (with the budget thresholds it crossed), the undo of the last one, spoken questions about
// spending and budgets, the session's totals for the goodbye, and the category a draft will
// be filed under.
import { DraftBatch } from '@shared/draft-batch';
import { errorMessage } from '@shared/errors';
import { daysBetween, formatDate, formatMoney } from '@shared/display';
import type { BudgetAlert, RefundCandidate, SettlementProposal } from '@shared/ipc/ledger';
import type { LedgerQuery, ParseResult, SessionSummary, TransactionRow, TransactionType, UpdatedFields } from '@shared/domain';
import { fenToYuan, formatFen, yuanToFen } from '@shared/money';
import type { RecurringRuleInfo } from '@shared/recurrence';
import { monthDayText, toZonedIso, type ZonedNow } from '@shared/time';
import { chooseCategory, subCategoryFor, withCategoryForType, type CategoryRef } from '../categories/index';
import type { KeptPicture } from '../ledger/attachments';
import { LedgerValidationError } from '../ledger/errors';
import type { BudgetQuery, DebtQuery } from '../nlp/index';
import type { LedgerPort } from './ports';
import * as say from './templates';

/** Where drafts land: the user's own categories and the ledger's choice among them. */
export interface Placement {
  customCategories: readonly CategoryRef[];
  /** The shown category a save files `name` under; `words` (the item's) help when `name` is hidden. */
  place: (name: string, type: TransactionType, words?: string) => string;
  /** The links a money flow needs (the expense a refund returns, what a reimbursement settles); absent: none. */
  link?: (result: ParseResult) => ParseResult;
  /** A top-level category's sub-categories (absent: none), for an item whose words name one. */
  children?: (parent: string, type: TransactionType) => readonly string[];
}

/**
 * Drafts carry the category the ledger will file them under, so what is read back is what
 * gets saved (the model's 洗浴 is read back as the 娱乐 it will be stored in).
 */
export function placedResult(result: ParseResult, placement: Placement): ParseResult {
  const placed = result.category
    ? { ...result, category: placedChild(placedCategory(result.category, result.description, result.type, placement), result, placement) }
    : result;
  return placement.link ? placement.link(placed) : placed;
}

/**
 * The links a card shows and a save writes: a refund returns the recent expense that shares
 * the most words with what was said (or else the newest of its category) — none when nothing
 * fits, and it stays a refund of its category; a reimbursement settles the 待报销 oldest first,
 * the last one in part when the payment falls short. The card says which, so a wrong pick is
 * seen before it is saved.
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
    return picked ? { ...result, category: picked.category, ...refundNotes(picked, today) } : result;
  }
  if (result.flow === 'refund' && !result.refundOf) {
    const [best] = ledger.refundCandidates({ text: result.description, category: result.category, amountFen, limit: 1, on: result.date ?? today });
    // A candidate that shares nothing with the sentence (score below a category match) is a guess.
    if (!best || best.score < 5) return result;
    return { ...result, refundOf: best.id, category: best.category, ...refundNotes(best, today) };
  }
  if (result.flow === 'reimbursement' && !result.settles) {
    const plan = ledger.proposeSettlement(amountFen);
    return { ...result, settles: plan.ids, ...settlementNotes(plan) };
  }
  return result;
}

function refundNotes(expense: RefundCandidate, today: string): Pick<ParseResult, 'linkNote' | 'cardNote'> {
  const what = expense.description || expense.category;
  return {
    linkNote: `退的是${spokenDay(expense.date, today)}${what}${formatFen(expense.amountFen)}元`,
    cardNote: `退的是 ${formatDate(expense.date, today)} ${what} ${formatMoney(expense.amountFen)}`,
  };
}

/** 今天 / 昨天 as the card says them, else 2月1日: a purchase of today is not read back by its date. */
function spokenDay(date: string, today: string): string {
  const gap = daysBetween(date, today);
  return gap === 0 ? '今天' : gap === 1 ? '昨天' : monthDayText(date);
}

/**
 * 「报销2笔待报销，还差180元」: what the payment settles and, against those expenses, what it
 * leaves unpaid (还差) or pays beyond them (多出). The 待报销 it does not reach are not its
 * shortfall: they wait for the next payment, as the user expects.
 */
export function settlementNotes(plan: SettlementProposal): Pick<ParseResult, 'linkNote' | 'cardNote'> {
  if (plan.ids.length === 0) return { linkNote: '没有可核销的待报销', cardNote: '没有可核销的待报销' };
  const settled = `报销${plan.ids.length}笔待报销`;
  if (plan.stillOwedFen > 0) {
    return { linkNote: `${settled}，还差${formatFen(plan.stillOwedFen)}元`, cardNote: `${settled}，还差 ${formatMoney(plan.stillOwedFen)}` };
  }
  if (plan.leftOverFen > 0) {
    return { linkNote: `${settled}，多出${formatFen(plan.leftOverFen)}元`, cardNote: `${settled}，多出 ${formatMoney(plan.leftOverFen)}` };
  }
  return { linkNote: settled, cardNote: settled };
}

/**
 * A new item lands in the sub-category its words name (早饭包子 → 餐饮 › 早餐) when the user has
 * made one; a correction that names a category is taken as said, so this is for new items only.
 */
function placedChild(category: string, result: ParseResult, placement: Placement): string {
  const children = placement.children?.(category, result.type) ?? [];
  return (children.length > 0 && subCategoryFor(result.description, children)) || category;
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
export type SaveOutcome =
  { ok: true; rows: TransactionRow[]; alerts: readonly BudgetAlert[]; rules: readonly RecurringRuleInfo[] } | { ok: false; reason: string };

/** What one save wrote: each row with the item it came from, and the rules items said to repeat made. */
interface SaveRecord {
  rows: { row: TransactionRow; result: ParseResult | undefined }[];
  rules: { rule: RecurringRuleInfo; result: ParseResult }[];
}

export class SessionBook {
  private lastSave: SaveRecord | null = null;
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
  save(resolved: DraftBatch, now: ZonedNow, pictures: readonly KeptPicture[] = []): SaveOutcome {
    const results = resolved.confirmedItems.map((item) => item.result);
    let rows: TransactionRow[];
    try {
      // The pictures the drafts were read off are kept with their rows, in the same save.
      rows = this.ledger.saveBatch(results, { now, drafts: null, ...(pictures.length > 0 ? { pictures } : {}) });
    } catch (err) {
      this.log('saveBatch failed', err);
      return { ok: false, reason: saveFailureText(err, resolved) };
    }
    const rules = this.ledger.latestSpokenRules?.() ?? [];
    this.lastSave = saveRecord(results, rows, rules);
    this.count(rows, 1);
    return { ok: true, rows, alerts: this.ledger.latestBudgetAlerts?.() ?? [], rules };
  }

  /** 「撤销」: deletes the rows of this session's last save and returns them as drafts. */
  undo(now: ZonedNow): DraftBatch | null {
    const last = this.lastSave;
    if (!last) return null;
    this.lastSave = null;
    // The ledger page may have edited or deleted some of these rows since: bring back what is
    // there now, and never resurrect a row the user deleted.
    const current = this.ledger.getMany(last.rows.map(({ row }) => row.id));
    if (current.length > 0) this.ledger.deleteTransactions(current.map((row) => row.id));
    // A rule said with the entry goes with it: 撤销 takes back the sentence, not half of it.
    for (const { rule } of last.rules) this.ledger.deleteRecurringRule?.(rule.id);
    // A rule whose entry was not due yet made no row: its item comes back as it was said.
    const ruleOnly = last.rules.filter(({ rule }) => rule.createdCount === 0).map(({ result }) => result);
    if (current.length === 0 && ruleOnly.length === 0) return null;
    // The summary takes back exactly what this save added to it.
    this.count(
      last.rows.map(({ row }) => row),
      -1,
    );
    const originalOf = (row: TransactionRow) => last.rows.find((saved) => saved.row.id === row.id)?.result;
    const results = [...current.map((row) => draftOf(row, originalOf(row))), ...ruleOnly];
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
    // The category as the user's ledger names it (a renamed 餐饮 is their 吃喝). A budget line
    // of that very name is the one asked about, also when its category is hidden: placing the
    // name would move it to where a new entry goes.
    const status = this.ledger.budgetStatus(query.month);
    const said = query.category;
    const category = !said ? null : status.lines.some((l) => l.category === said) ? said : this.ledger.placeCategory(said, 'EXPENSE');
    return say.budgetAnswer({ ...query, category }, status);
  }

  private count(rows: readonly TransactionRow[], sign: 1 | -1): void {
    this.totals.savedCount += sign * rows.length;
    for (const row of rows) {
      // A refund is no spending and a reimbursement no income: counted as saved, not in the sums.
      if (row.flow === 'refund' || row.flow === 'reimbursement') continue;
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
    ...(original?.recurrence ? { recurrence: original.recurrence } : {}),
    ...(row.tags?.length ? { tags: row.tags } : {}),
  };
}

/**
 * Pairs each saved row with its item. An item said to repeat made a rule, and a row only when
 * this period's entry was due (createdCount 1), so rows and items need not line up one to one.
 */
function saveRecord(results: readonly ParseResult[], rows: readonly TransactionRow[], rules: readonly RecurringRuleInfo[]): SaveRecord {
  const record: SaveRecord = { rows: [], rules: [] };
  let nextRow = 0;
  let nextRule = 0;
  for (const result of results) {
    if (result.recurrence) {
      const rule = rules[nextRule++];
      if (rule) record.rules.push({ rule, result });
      if (rule && rule.createdCount === 0) continue;
    }
    const row = rows[nextRow++];
    if (row) record.rows.push({ row, result });
  }
  return record;
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

import { createHash } from 'node:crypto';
import type { DraftBatchDto, ParseResult, TransactionRow, TransactionType } from '@shared/domain';
import type {
  BudgetAlert,
  BudgetStatus,
  HistoryState,
  HistoryStep,
  ImportChoices,
  ImportOutcome,
  ImportPreview,
  PersonBalance,
  RefundCandidate,
  SettlementProposal,
} from '@shared/ipc/ledger';
import type { ZonedNow } from '@shared/time';
import type { LedgerPort, LedgerTotals } from '../voice/ports';
import { parseImport, type ParsedImport } from './csv-import';
import type { ImportContext } from './bills/table';
import { LedgerNotFoundError, LedgerRuleError } from './errors';
import type { ManualEntry } from './entries';
import type { Ledger, RawTransaction, SaveBatchOptions, TransactionPatch } from './ledger';
import type { RefundQuery } from './money-flows';
import { lineCounts, previewOf, recategorized } from './import-preview';
import { writtenRows } from './import-writes';
import { nextTurn } from './pace';
import type { CatchUpResult } from './recurring';
import type { RecurringDraft, RecurringRuleInfo } from '@shared/recurrence';

export type ChangeReason = 'save' | 'edit' | 'delete' | 'import' | 'undo' | 'sync' | 'recurring';

type Entry = { kind: 'save' | 'import' | 'delete'; rows: RawTransaction[] } | { kind: 'edit'; before: RawTransaction[]; after: RawTransaction[] };

export interface LedgerHistoryOptions {
  /** Called after every change, so windows refresh without polling. */
  onChange?: (reason: ChangeReason) => void;
  /**
   * Called after a change (save, manual add, edit, delete, import, undo, redo) that made
   * this month's spending reach a budget threshold for the first time (see
   * Ledger.crossedAlerts): once per category, month and threshold, never again for the same
   * three, whatever undo and redo do. Only the current month of the ledger's clock alerts:
   * edits of past months and imports of old bills stay silent. Without this option nothing
   * is checked or recorded, so no threshold is used up before someone listens.
   */
  onBudgetAlert?: (alerts: BudgetAlert[]) => void;
  /** Oldest entries fall off beyond this many. */
  limit?: number;
}

/**
 * Undo/redo over the ledger. Every write from the windows AND from the voice session goes
 * through here (it is the LedgerPort the orchestrator gets), so Ctrl+Z in the list can undo
 * a spoken save and the voice 「撤销」 is the same operation as the list's undo.
 * Entries keep whole stored rows, so undo puts back exactly what was there: same ids,
 * stamps, category and account references.
 */
export class LedgerHistory implements LedgerPort {
  private readonly undoStack: Entry[] = [];
  private readonly redoStack: Entry[] = [];
  private readonly limit: number;
  private readonly onChange: (reason: ChangeReason) => void;
  private readonly onBudgetAlert: ((alerts: BudgetAlert[]) => void) | null;
  private latestAlerts: readonly BudgetAlert[] = [];
  /** The file the last preview read, so 确认导入 does not read it again (a workbook takes most of a second). */
  private previewed: { digest: string; parsed: ParsedImport } | null = null;

  constructor(
    readonly ledger: Ledger,
    options: LedgerHistoryOptions = {},
  ) {
    this.limit = options.limit ?? 100;
    this.onChange = options.onChange ?? (() => {});
    this.onBudgetAlert = options.onBudgetAlert ?? null;
  }

  saveBatch(results: readonly ParseResult[], options?: SaveBatchOptions): TransactionRow[] {
    // A save that throws or writes nothing crossed no threshold.
    this.latestAlerts = [];
    const { rows, raw } = this.ledger.saveBatchWithRaw(results, options);
    if (rows.length > 0) this.record({ kind: 'save', rows: raw }, 'save');
    return rows;
  }

  /** A write-off of what a person owes, recorded like a save so Ctrl+Z takes it back. */
  writeOff(personId: number, amountFen: number, note?: string): TransactionRow {
    const row = this.ledger.writeOff(personId, amountFen, note);
    this.record({ kind: 'save', rows: this.ledger.rawRows([row.id]) }, 'save');
    return row;
  }

  /** One entry of the 记一笔 form, recorded like a voice save so Ctrl+Z takes it back. */
  addTransaction(entry: ManualEntry): TransactionRow {
    const row = this.ledger.addTransaction(entry);
    this.record({ kind: 'save', rows: this.ledger.rawRows([row.id]) }, 'save');
    return row;
  }

  /**
   * Recurring entries that fell due, made by the app, not typed: no undo entry, so Ctrl+Z
   * never takes back a 房租 the user did not just enter (nor a catch-up of a year's
   * entries in one step); each row is deleted like any other, and that delete is undoable.
   */
  catchUpRecurring(now?: ZonedNow): CatchUpResult {
    const result = this.ledger.catchUpRecurring(now);
    // New offers change what the windows show too (the offers at the top of 周期记账).
    if (result.saved.length > 0 || result.drafts.length > 0) this.onChange('recurring');
    if (result.saved.length > 0) this.checkBudgetDays(this.ledger.rawRows(result.saved).map((r) => r.occurred_date));
    return result;
  }

  /** An offered recurring draft the user declines: nothing to undo, but the windows show one offer less. */
  dismissRecurringDraft(recurrenceKey: string): void {
    this.ledger.dismissRecurringDraft(recurrenceKey);
    this.onChange('recurring');
  }

  /** An offered recurring draft the user confirms: recorded like a save, so Ctrl+Z takes it back. */
  confirmRecurringDraft(draft: RecurringDraft): TransactionRow {
    const row = this.ledger.confirmRecurringDraft(draft);
    this.record({ kind: 'save', rows: this.ledger.rawRows([row.id]) }, 'save');
    return row;
  }

  /**
   * The voice session's 「撤销」 passes exactly the ids of its last save: when that save is
   * the most recent change, this IS an undo (and can be redone). Any other set of ids is an
   * ordinary, undoable delete.
   */
  deleteTransactions(ids: readonly string[]): number {
    const top = this.undoStack.at(-1);
    if (
      top?.kind === 'save' &&
      sameIds(
        top.rows.map((r) => r.id),
        ids,
      )
    ) {
      const count = top.rows.length;
      this.undo();
      // The voice session takes these rows back as drafts; a redo here would save them a
      // second time once the drafts are confirmed.
      this.redoStack.pop();
      return count;
    }
    return this.remove(ids);
  }

  /** Deletes rows from the list (recorded, undoable). */
  remove(ids: readonly string[]): number {
    const rows = this.ledger.rawRows(ids);
    if (rows.length === 0) return 0;
    const deleted = this.ledger.deleteTransactions(rows.map((r) => r.id));
    this.record({ kind: 'delete', rows }, 'delete');
    return deleted;
  }

  updateTransaction(id: string, patch: TransactionPatch): TransactionRow {
    const before = this.ledger.rawRows([id]);
    const row = this.ledger.updateTransaction(id, patch);
    this.record({ kind: 'edit', before, after: this.ledger.rawRows([id]) }, 'edit');
    return row;
  }

  async previewImport(bytes: Uint8Array): Promise<ImportPreview> {
    const parsed = await parseImport(bytes, this.importContext());
    this.previewed = { digest: digestOf(bytes), parsed };
    const { status } = this.ledger.importRows(parsed.rows, { dryRun: true, byIdentity: parsed.format !== 'suikouji' });
    const refunds = this.ledger.importRefunds();
    return previewOf(parsed, status, (id) => refunds.has(id));
  }

  /**
   * All or nothing: a malformed file throws ImportError before anything is written. `choices`
   * are what the user changed in the preview (rows unticked, deleted rows ticked again,
   * categories), by the preview's row indexes.
   */
  async importFile(bytes: Uint8Array, choices: ImportChoices = {}): Promise<ImportOutcome> {
    // The same bytes as the preview's give the same rows: what the user saw is what is written.
    // Which rows are new is still decided now, against the ledger as it is.
    const previewed = this.previewed;
    this.previewed = null;
    const parsed = previewed?.digest === digestOf(bytes) ? previewed.parsed : await parseImport(bytes, this.importContext());
    const categories = this.ledger.categoryCandidates();
    const rows = recategorized(parsed.rows, choices, (name, type) => categories.some((c) => c.name === name && c.type === type));
    const { ids, status } = this.ledger.transaction(() => {
      const written = this.ledger.importRows(rows, {
        byIdentity: parsed.format !== 'suikouji',
        choices,
        links: parsed.links,
      });
      for (const c of choices.recategorize ?? []) {
        const merchant = rows[c.index]!.merchant;
        if (c.remember && merchant) this.ledger.rememberMerchantCategory(merchant, rows[c.index]!.type, c.category);
      }
      return written;
    });
    if (ids.length > 0) this.record({ kind: 'import', rows: await this.rowsPaced(ids) }, 'import');
    const counts = lineCounts(rows, status, writtenRows(status, choices));
    return {
      format: parsed.format,
      imported: ids.length,
      skipped: parsed.skipped.reduce((n, s) => n + s.count, 0) + parsed.netted.count,
      duplicates: counts.duplicates,
      deleted: counts.deleted,
    };
  }

  /** The rows an import wrote, for its undo: read a slice at a time (10 000 rows at once hold the window 200 ms). */
  private async rowsPaced(ids: readonly string[]): Promise<RawTransaction[]> {
    const rows: RawTransaction[] = [];
    for (let at = 0; at < ids.length; at += UNDO_READ_SLICE) {
      if (at > 0) await nextTurn();
      rows.push(...this.ledger.rawRows(ids.slice(at, at + UNDO_READ_SLICE)));
    }
    return rows;
  }

  private importContext(): ImportContext {
    return {
      categories: this.ledger.categoryCandidates(),
      accounts: this.ledger.accounts().map((a) => a.name),
      merchantCategories: this.ledger.merchantCategories(),
      refunds: this.ledger.importRefunds(),
    };
  }

  totals(query: { from: string; to: string; type?: TransactionType; category?: string }): LedgerTotals {
    return this.ledger.totals(query);
  }

  /** The person a spoken name means (reads, for 「小李还欠我多少」). */
  findPerson(spoken: string): PersonBalance | undefined {
    return this.ledger.findPerson(spoken);
  }

  /** Recent expenses a refund may return, best first (reads, for the voice card). */
  refundCandidates(query: RefundQuery): RefundCandidate[] {
    return this.ledger.refundCandidates(query);
  }

  /** What a reimbursement of `amountFen` settles, oldest first (reads, for the voice card). */
  proposeSettlement(amountFen: number): SettlementProposal {
    return this.ledger.proposeSettlement(amountFen);
  }

  getMany(ids: readonly string[]): TransactionRow[] {
    return this.ledger.getMany(ids);
  }

  /** The voice card is no transaction: keeping it is not a change to undo. */
  keepDrafts(batch: DraftBatchDto | null): void {
    this.ledger.keepDrafts(batch);
  }

  keptDrafts(): DraftBatchDto | null {
    return this.ledger.keptDrafts();
  }

  placeCategory(name: string, type: TransactionType, words?: string): string {
    return this.ledger.placeCategory(name, type, words);
  }

  latestSpokenRules(): readonly RecurringRuleInfo[] {
    return this.ledger.latestSpokenRules();
  }

  deleteRecurringRule(id: number): void {
    this.ledger.deleteRecurringRule(id);
    this.onChange('recurring');
  }

  subCategories(parent: string, type: TransactionType): string[] {
    return this.ledger.subCategories(parent, type);
  }

  budgetStatus(month: string): BudgetStatus {
    return this.ledger.budgetStatus(month);
  }

  /**
   * The alerts the latest change reported to onBudgetAlert (empty when it crossed nothing or
   * nobody listens): the voice session reads them right after its saveBatch to name them
   * after 「已保存」, since each threshold is recorded once and cannot be computed again.
   */
  latestBudgetAlerts(): readonly BudgetAlert[] {
    return this.latestAlerts;
  }

  /** `done` names what was undone, so a window never labels the toast from a stale state. */
  undo(): HistoryStep {
    const entry = this.undoStack.pop();
    if (!entry) return { ...this.state(), done: null };
    this.apply(entry, 'undo');
    this.redoStack.push(entry);
    this.onChange('undo');
    this.checkBudgets(entry);
    return { ...this.state(), done: label(entry) };
  }

  redo(): HistoryStep {
    const entry = this.redoStack.pop();
    if (!entry) return { ...this.state(), done: null };
    this.apply(entry, 'redo');
    this.undoStack.push(entry);
    this.onChange(entry.kind);
    this.checkBudgets(entry);
    return { ...this.state(), done: label(entry) };
  }

  state(): HistoryState {
    const undo = this.undoStack.at(-1);
    const redo = this.redoStack.at(-1);
    return { canUndo: !!undo, canRedo: !!redo, undoLabel: undo ? label(undo) : null, redoLabel: redo ? label(redo) : null };
  }

  /** Tells listeners about a change that is not itself undoable (category renames and the like). */
  notify(reason: ChangeReason): void {
    this.onChange(reason);
  }

  private record(entry: Entry, reason: ChangeReason): void {
    this.undoStack.push(entry);
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack.length = 0;
    this.onChange(reason);
    this.checkBudgets(entry);
  }

  /** Reports the thresholds a change made this month's spending reach for the first time. */
  private checkBudgets(entry: Entry): void {
    const rows = entry.kind === 'edit' ? [...entry.before, ...entry.after] : entry.rows;
    this.checkBudgetDays(rows.map((r) => r.occurred_date));
  }

  /** The same for a change touching rows of these days. */
  private checkBudgetDays(days: readonly string[]): void {
    this.latestAlerts = [];
    if (!this.onBudgetAlert) return;
    const month = this.ledger.currentMonth();
    if (!days.some((d) => d.startsWith(month))) return;
    const alerts = this.ledger.crossedAlerts(month);
    this.latestAlerts = alerts;
    if (alerts.length > 0) this.onBudgetAlert(alerts);
  }

  private apply(entry: Entry, direction: 'undo' | 'redo'): void {
    try {
      const ledger = this.ledger;
      const forward = direction === 'redo';
      switch (entry.kind) {
        case 'save':
        case 'import':
          if (forward) ledger.insertRaw(entry.rows);
          else
            ledger.deleteTransactions(
              entry.rows.map((r) => r.id),
              'undone',
            );
          break;
        case 'delete':
          if (forward) ledger.deleteTransactions(entry.rows.map((r) => r.id));
          else ledger.insertRaw(entry.rows);
          break;
        case 'edit': {
          // Only the fields the edit changed go back (or forward): a field another device
          // changed meanwhile keeps that device's value.
          const target = forward ? entry.after : entry.before;
          const other = forward ? entry.before : entry.after;
          const current = new Map(ledger.rawRows(target.map((r) => r.id)).map((r) => [r.id, r]));
          ledger.replaceRaw(target.map((row, i) => changedOver(current.get(row.id), row, other[i]!)));
          break;
        }
      }
    } catch (err) {
      // The rows changed underneath (e.g. a category was deleted): drop the whole history
      // rather than keep entries that can no longer be applied faithfully.
      this.undoStack.length = 0;
      this.redoStack.length = 0;
      throw new LedgerRuleError(
        'history_conflict',
        `无法${direction === 'undo' ? '撤销' : '重做'}：记录已被其他操作改动（${(err as Error).message}）`,
      );
    }
  }
}

/** `current` with the fields in which `target` differs from `other` set to `target`'s. */
function changedOver(current: RawTransaction | undefined, target: RawTransaction, other: RawTransaction): RawTransaction {
  if (!current) throw new LedgerNotFoundError(target.id);
  const merged: Record<string, unknown> = { ...current };
  for (const key of Object.keys(target) as (keyof RawTransaction)[]) {
    // Tags are a list: compared by value, so an edit that left them alone leaves them alone.
    const differs = key === 'tags' ? JSON.stringify(target.tags) !== JSON.stringify(other.tags) : target[key] !== other[key];
    if (differs) merged[key] = target[key];
  }
  return merged as unknown as RawTransaction;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

function label(entry: Entry): string {
  const n = entry.kind === 'edit' ? entry.after.length : entry.rows.length;
  const verb = { save: '记账', import: '导入', delete: '删除', edit: '修改' }[entry.kind];
  return `${verb} ${n} 笔`;
}

const UNDO_READ_SLICE = 500;

function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

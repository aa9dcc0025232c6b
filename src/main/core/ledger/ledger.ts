import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { DraftBatchDto, ParseResult, TransactionRow, TransactionType } from '@shared/domain';
import type { MonthSummary, Page } from '@shared/ipc/index';
import type {
  AccountBalance,
  AccountBalances,
  AccountInfo,
  BudgetAlert,
  BudgetStatus,
  CardReminder,
  CardStatement,
  CategoryInfo,
  DayTotal,
  ImportRowStatus,
  LedgerFilter,
  PendingReimbursement,
  PeriodStats,
  PersonBalance,
  RecentCategory,
  RefundCandidate,
  SettlementProposal,
  MerchantRule,
  TagInfo,
} from '@shared/ipc/ledger';
import { localDate, systemNow, type ZonedNow } from '@shared/time';
import type { LedgerPort, LedgerTotals } from '../voice/ports';
import type { CategoryCandidate } from '../categories/index';
import { resolveForWorker } from '../worker-require';
import { Accounts } from './accounts';
import { Budgets, type BudgetInput } from './budgets';
import { Categories } from './categories';
import { DraftStore } from './draft-store';
import type { ManualEntry } from './entries';
import { type LedgerOpenError, LedgerRuleError, LedgerWriteRefusedError, READ_ONLY_MESSAGE } from './errors';
import { Journal } from '../sync/journal';
import { damagedError, guardWrites, openChecked, QUICK_CHECK_WORKER, restoreSidecars, SYNC_CHECK_MAX_BYTES, type Sidecars } from './open-file';
import { Stats } from './stats';
import { Merchants } from './merchants';
import { ImportRefunds } from './import-refunds';
import { Tags } from './tags';
import { Transactions, type ImportOptions } from './transactions';
import { MoneyFlows } from './money-flows';
import type { NetOptions } from './net';
import type { CardTerms } from './accounts';
import type { ExportCursor, ExportRow, ImportRow, ListQuery, RawTransaction, SavedBatch, TransactionPatch } from './types';
import type { RefundQuery } from './money-flows';
import { Recurring, type CatchUpResult, type RecurringRuleInput, type RecurringRulePatch } from './recurring';
import { Attachments, type KeptPicture, type StoredAttachment } from './attachments';
import { findRecorded, type PaymentSeen, type RecordedRow } from './recorded-like';
import type { RecurringDraft, RecurringRuleInfo } from '@shared/recurrence';

export type { ExportCursor, ExportRow, ImportRow, ListQuery, RawTransaction, SavedBatch, TransactionPatch } from './types';

/** How a batch is saved: its instant, its source, the card that remains, the pictures its drafts were read off. */
export interface SaveBatchOptions {
  now?: ZonedNow;
  source?: TransactionRow['source'];
  drafts?: DraftBatchDto | null;
  /** Kept with the rows of the drafts that carry their id; pictures no draft names are ignored. */
  pictures?: readonly KeptPicture[];
}

export interface LedgerOptions {
  /** A file path, or ':memory:' in tests. */
  path: string;
  /** The wall clock used for created/updated stamps and undated transactions. */
  now?: () => ZonedNow;
  /**
   * Files up to this many bytes (with their WAL) are checked for damage (PRAGMA quick_check)
   * before open returns; larger ones in a worker thread right after. Default 128 MiB.
   */
  syncCheckMaxBytes?: number;
  /**
   * Called once when the background check of a large ledger finds damage. From then on every
   * write is refused (LedgerWriteRefusedError 'corrupt'); reads and export go on.
   */
  onDamage?: (error: LedgerOpenError) => void;
  /** The wall clock (ms) of the sync journal's timestamps; tests move it to play a device whose clock is off. */
  syncNow?: () => number;
  /** The name of this computer, recorded on every row written from now on (see Ledger.recordedBy). */
  recordedBy?: string | null;
}

/**
 * The local SQLite ledger: the only place that writes transactions. It owns the file (open,
 * damage check, read-only refusal, close) and hands the one guarded connection to its parts,
 * which never import it: ./transactions.ts, ./categories.ts, ./accounts.ts, ./budgets.ts,
 * ./stats.ts and ./draft-store.ts. Its methods are the app's one API over them.
 */
export class Ledger implements LedgerPort {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly clock: () => ZonedNow;
  /** Why writes are refused (read-only file, damage found after open), or null. */
  private refusal: LedgerWriteRefusedError | null;
  private readonly checked: Promise<LedgerOpenError | null>;
  private checker: Worker | null = null;
  /** For a read-only open: which of -wal/-shm existed before, so close leaves the folder as found. */
  private readonly sidecarsBefore: Sidecars | null;
  private readonly accountBook: Accounts;
  private readonly budgets: Budgets;
  private readonly categoryBook: Categories;
  private readonly drafts: DraftStore;
  private readonly rows: Transactions;
  private readonly stats: Stats;
  private readonly flows: MoneyFlows;
  private readonly recurring: Recurring;
  private spokenRules: readonly RecurringRuleInfo[] = [];
  private readonly tags: Tags;
  private readonly merchants: Merchants;
  private readonly attachments: Attachments;
  private refundLedger: ImportRefunds | undefined;
  private recorder: string | null;

  /** The change journal every write lands in (see sync/journal.ts); the sync engine reads it. */
  readonly journal: Journal;

  constructor(options: LedgerOptions) {
    this.path = options.path;
    this.clock = options.now ?? (() => systemNow());
    this.recorder = options.recordedBy?.trim() || null;
    const opened = openChecked(options.path, options.syncCheckMaxBytes ?? SYNC_CHECK_MAX_BYTES);
    this.refusal = opened.readOnly ? new LedgerWriteRefusedError('read_only', READ_ONLY_MESSAGE) : null;
    this.sidecarsBefore = opened.readOnly ? opened.sidecarsBefore : null;
    this.db = guardWrites(opened.db, () => this.refusal);
    this.checked = opened.checkLater ? this.checkInBackground(options.onDamage) : Promise.resolve(null);
    this.journal = new Journal(this.db, { install: !opened.readOnly, now: options.syncNow });
    this.accountBook = new Accounts(this.db, this.clock);
    this.budgets = new Budgets(this.db, this.clock);
    this.categoryBook = new Categories(this.db, this.clock);
    this.drafts = new DraftStore(this.db, this.clock);
    this.flows = new MoneyFlows(this.db, this.clock);
    this.tags = new Tags(this.db, this.clock);
    this.merchants = new Merchants(this.db, this.clock);
    this.attachments = new Attachments(this.db, this.clock, options.path === ':memory:' ? null : dirname(options.path));
    this.rows = new Transactions(this.db, this.clock, {
      categories: this.categoryBook,
      accounts: this.accountBook,
      drafts: this.drafts,
      flows: this.flows,
      tags: this.tags,
      merchants: this.merchants,
      recorder: () => this.recorder,
    });
    this.stats = new Stats(this.db);
    this.recurring = new Recurring(this.db, this.clock, { categories: this.categoryBook, accounts: this.accountBook, rows: this.rows });
  }

  close(): void {
    if (this.checker) void this.checker.terminate();
    if (!this.db.open) return;
    this.db.close();
    if (this.sidecarsBefore) restoreSidecars(this.path, this.sidecarsBefore);
  }

  /**
   * True when the ledger cannot be written: the file or its folder is read-only, or damage was
   * found after open. Everything reads as usual; every write throws LedgerWriteRefusedError.
   */
  get readOnly(): boolean {
    return this.refusal !== null;
  }

  /**
   * The outcome of the damage check: null when the file is sound (or the check could not run).
   * Settled at once unless the file was large enough to be checked in the background.
   */
  integrity(): Promise<LedgerOpenError | null> {
    return this.checked;
  }

  /** quick_check off the main thread, on its own read-only connection. */
  private checkInBackground(onDamage: ((error: LedgerOpenError) => void) | undefined): Promise<LedgerOpenError | null> {
    return new Promise((resolve) => {
      const worker = new Worker(QUICK_CHECK_WORKER, { eval: true, workerData: { driver: resolveForWorker('better-sqlite3'), path: this.path } });
      this.checker = worker;
      // A check still running never holds the app open.
      worker.unref();
      const finish = (problems: string | null) => {
        if (this.checker !== worker) return;
        this.checker = null;
        if (problems === null || !this.db.open) return resolve(null);
        const error = damagedError(this.path, problems);
        this.refusal = new LedgerWriteRefusedError('corrupt', error.message);
        onDamage?.(error);
        resolve(error);
      };
      worker.once('message', (result: { problems?: string | null }) => finish(result.problems ?? null));
      worker.once('error', () => finish(null));
      worker.once('exit', () => finish(null));
    });
  }

  /**
   * 记账人: the name of this computer, kept on every row it writes from now on (saves, the
   * form, recurring occurrences, imports, write-offs); rows merged from another computer keep
   * that one's. The app sets it from the sync setup, so a renamed computer records its new
   * name. Null (a ledger opened by a tool or a test) records none.
   */
  get recordedBy(): string | null {
    return this.recorder;
  }

  set recordedBy(name: string | null) {
    this.recorder = name?.trim() || null;
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  // ---- transactions (./transactions.ts) ----------------------------------------------

  /**
   * Validates every item first, then writes all of them in ONE transaction: a bad item
   * rejects the whole batch and nothing is written (spec: 批量保存失败回滚).
   */
  saveBatch(results: readonly ParseResult[], options: SaveBatchOptions = {}): TransactionRow[] {
    return this.saveBatchWithRaw(results, options).rows;
  }

  /** saveBatch, also giving the rows as stored: what undo keeps to put them back (./history.ts). */
  saveBatchWithRaw(results: readonly ParseResult[], options: SaveBatchOptions = {}): SavedBatch {
    const used = new Set(results.map((r) => r.picture).filter((id) => id !== undefined));
    const pictures = (options.pictures ?? []).filter((p) => used.has(p.id));
    if (pictures.length === 0) return this.saveRows(results, options);
    // The files first: the rows that link them are written in the entries' own transaction.
    const written = new Map(this.attachments.writeFiles(pictures).map((p) => [p.id, p]));
    return this.transaction(() => {
      const saved = this.saveRows(results, options);
      const ids = this.savedIds(results, saved);
      results.forEach((result, i) => {
        const id = ids[i];
        const picture = result.picture === undefined ? undefined : written.get(result.picture);
        if (id === undefined || !picture) return;
        this.attachments.link(id, picture);
        // The merchant read off the picture, as a bill's: moving the row teaches merchant memory.
        if (result.merchant) this.merchants.remember(id, result.merchant);
      });
      return { ...saved, rows: this.attachments.decorate(saved.rows) };
    });
  }

  /** Each result's row id (undefined for a rule that made no entry yet), in the order of `results`. */
  private savedIds(results: readonly ParseResult[], saved: SavedBatch): (string | undefined)[] {
    let next = 0;
    let rule = 0;
    return results.map((result) => {
      if (result.recurrence) {
        const r = this.spokenRules[rule++];
        if (!r || r.createdCount === 0) return undefined;
      }
      return saved.rows[next++]?.id;
    });
  }

  private saveRows(results: readonly ParseResult[], options: SaveBatchOptions): SavedBatch {
    const now = options.now ?? this.clock();
    const rules: RecurringRuleInfo[] = [];
    this.spokenRules = [];
    const saved = this.rows.saveBatch(results, {
      now,
      source: options.source,
      drafts: options.drafts,
      // The rule's period is the one it was said in: today's, whatever day the sentence names.
      asRule: (entry, rule, index) => {
        const made = this.recurring.createSpoken(entry, rule, localDate(now), now, index);
        rules.push(made.rule);
        // This entry was said with its tags; the rule's later entries are plain ones.
        if (made.rowId !== null && entry.tags?.length) this.tags.attach(made.rowId, entry.tags);
        return made.rowId;
      },
    });
    this.spokenRules = rules;
    return saved;
  }

  /** The rules the latest saveBatch made of items said to repeat (「每个月五号交房租」). */
  latestSpokenRules(): readonly RecurringRuleInfo[] {
    return this.spokenRules;
  }

  /** Saves one entry of the 记一笔 form (rules in ./entries.ts). */
  addTransaction(entry: ManualEntry): TransactionRow {
    return this.rows.add(entry);
  }

  updateTransaction(id: string, patch: TransactionPatch): TransactionRow {
    return this.rows.update(id, patch);
  }

  deleteTransaction(id: string): void {
    this.rows.delete(id);
  }

  /** Deletes rows; 'undone' when an import is taken back, which does not count as deleting its rows (see importRows). */
  deleteTransactions(ids: readonly string[], how: 'deleted' | 'undone' = 'deleted'): number {
    return this.rows.deleteMany(ids, how);
  }

  getTransaction(id: string): TransactionRow | undefined {
    return this.rows.get(id);
  }

  /** Rows in the order of `ids` (ids that do not exist are skipped). */
  getMany(ids: readonly string[]): TransactionRow[] {
    return this.attachments.decorate(this.rows.getMany(ids));
  }

  /** A page of the filtered rows, newest first; the next page starts at its `next` (see Transactions.list). */
  list(query: ListQuery = {}): Page<TransactionRow> {
    const page = this.rows.list(query);
    this.attachments.decorate(page.rows);
    return page;
  }

  count(query: LedgerFilter = {}): number {
    return this.rows.count(query);
  }

  /** Oldest first, in keyset chunks: `after` is where the previous chunk ended. */
  iterateForExport(query: LedgerFilter, after: ExportCursor | null, limit: number): IterableIterator<ExportRow> {
    return this.rows.iterateForExport(query, after, limit);
  }

  /** Substring search on description and category name, newest first. */
  search(text: string, limit = 50): TransactionRow[] {
    return this.attachments.decorate(this.rows.search(text, limit));
  }

  // ---- pictures kept with entries (./attachments.ts) and 「可能已记过」 (./recorded-like.ts) ----

  /** The picture a row was read off, with its recognised text; null when it has none. */
  attachment(transactionId: string): StoredAttachment | null {
    return this.attachments.get(transactionId);
  }

  /** Where the book keeps its pictures (null for a ledger with no file). */
  get attachmentsDir(): string | null {
    return this.attachments.dir;
  }

  /** The picture file (in attachmentsDir) and recognised text of each of these rows that has one, by row id. */
  attachmentsOf(transactionIds: readonly string[]): Map<string, { file: string; text: string }> {
    return this.attachments.filesOf(transactionIds);
  }

  /** The picture files the ledger refers to (backups copy them). */
  attachmentFiles(): string[] {
    return this.attachments.files();
  }

  /** Drops pictures nobody links to any more (see Attachments.sweep); nothing on a read-only book. */
  sweepAttachments(): { rows: number; files: number } {
    if (this.readOnly) return { rows: 0, files: 0 };
    return this.attachments.sweep();
  }

  /** The row a payment seen on a picture may already be, or null. */
  recordedLike(seen: PaymentSeen): RecordedRow | null {
    return findRecorded(this.db, seen);
  }

  /** Stored rows exactly as in the table, for undo/redo. */
  rawRows(ids: readonly string[]): RawTransaction[] {
    return this.rows.rawRows(ids);
  }

  /** Puts rows back exactly as they were (same ids, stamps and references), all or nothing. */
  insertRaw(rows: readonly RawTransaction[]): void {
    this.rows.insertRaw(rows);
  }

  /** Overwrites every column of existing rows with a stored version of them. */
  replaceRaw(rows: readonly RawTransaction[]): void {
    this.rows.replaceRaw(rows);
  }

  /**
   * Writes imported rows in ONE transaction (see Transactions.importRows): rows already in the
   * ledger are left out, missing categories and accounts are created. With dryRun only each
   * row's status is computed.
   */
  importRows(rows: readonly ImportRow[], options: ImportOptions = {}): { ids: string[]; status: ImportRowStatus[] } {
    return this.rows.importRows(rows, options);
  }

  // ---- the voice card (./draft-store.ts) ----------------------------------------------

  /** Keeps the voice card that is not confirmed yet (null or an all-cancelled card: none). */
  keepDrafts(batch: DraftBatchDto | null): void {
    this.drafts.keep(batch);
  }

  /** The card a session left unconfirmed, or null. */
  keptDrafts(): DraftBatchDto | null {
    return this.drafts.kept();
  }

  // ---- summaries (./stats.ts) ---------------------------------------------------------

  /** Totals by type and category for a calendar month (YYYY-MM), sums in integer fen. */
  monthSummary(month: string, options: NetOptions = {}): MonthSummary {
    return this.stats.monthSummary(month, options);
  }

  /** Without a type: income and expense rows together; transfers only when asked for by type. */
  totals(query: { from: string; to: string; type?: TransactionType; category?: string } & NetOptions): LedgerTotals {
    return this.stats.totals(query);
  }

  /** The days of the filtered set, newest first, with their totals: the list's day headers. */
  days(query: LedgerFilter = {}): DayTotal[] {
    return this.stats.days(query);
  }

  /**
   * Totals, per-category sums (and their roll-up under top-level categories) and a
   * zero-filled trend for an inclusive day range, all in fen; with `tag`, of its rows only.
   */
  periodStats(query: { from: string; to: string; granularity: 'day' | 'month'; tag?: string } & NetOptions): PeriodStats {
    return this.stats.periodStats(query);
  }

  // ---- categories (./categories.ts) ---------------------------------------------------

  listCategories(): CategoryInfo[] {
    return this.categoryBook.list();
  }

  category(id: number): CategoryInfo {
    return this.categoryBook.get(id);
  }

  /** `parentId`: a top-level category of the same type; the new one becomes its sub-category. */
  addCategory(name: string, type: TransactionType, parentId?: number | null): CategoryInfo {
    return this.categoryBook.add(name, type, parentId ?? null);
  }

  /** Moves a category under a top-level one of its type, or (null) to the top level; two levels at most. */
  setCategoryParent(id: number, parentId: number | null): CategoryInfo {
    return this.categoryBook.setParent(id, parentId);
  }

  renameCategory(id: number, name: string): CategoryInfo {
    return this.categoryBook.rename(id, name);
  }

  setCategoryHidden(id: number, hidden: boolean): CategoryInfo {
    return this.categoryBook.setHidden(id, hidden);
  }

  /** `ids` must be every category of `type`, in the new order. */
  reorderCategories(type: TransactionType, ids: readonly number[]): CategoryInfo[] {
    return this.categoryBook.reorder(type, ids);
  }

  /**
   * Only custom categories can go (presets can be hidden); one that holds transactions only
   * with `moveTo`, where its rows move in the same transaction. Returns how many rows moved.
   */
  deleteCategory(id: number, moveTo?: number): number {
    return this.categoryBook.delete(id, moveTo);
  }

  categories(type?: TransactionType): { name: string; type: TransactionType; hidden: boolean; preset: boolean }[] {
    return this.categoryBook.names(type);
  }

  /** The categories of `type` most recently entered, newest first: the first cells of the form's grid. */
  recentCategories(type: TransactionType, limit = 3): RecentCategory[] {
    return this.categoryBook.recent(type, limit);
  }

  /** The category a spoken item named `name` is saved under, never a hidden one (`words`: the item's). */
  placeCategory(name: string, type: TransactionType, words?: string): string {
    return this.categoryBook.place(name, type, words)?.name ?? name;
  }

  /** The visible sub-categories of a top-level category of `type`, in the user's order. */
  subCategories(parent: string, type: TransactionType): string[] {
    const all = this.listCategories();
    const top = all.find((c) => c.name === parent && c.type === type && c.parentId === null);
    return top ? all.filter((c) => c.parentId === top.id && !c.hidden).map((c) => c.name) : [];
  }

  categoryCandidates(): CategoryCandidate[] {
    return this.categoryBook.candidates();
  }

  // ---- tags (./tags.ts) ----------------------------------------------------------------

  /** Every tag with how many rows carry it, most used first. */
  listTags(): TagInfo[] {
    return this.tags.list();
  }

  /** Renaming onto an existing tag's name merges the two. */
  renameTag(id: number, name: string): TagInfo {
    return this.tags.rename(id, name);
  }

  /** Takes the tag off every row (the rows stay); returns how many carried it. */
  deleteTag(id: number): number {
    return this.tags.delete(id);
  }

  // ---- merchant memory of bill imports (./merchants.ts) ----------------------------------

  /** The category the user chose for each merchant, keyed by merchantKey(type, merchant) (./bills/table.ts). */
  merchantCategories(): Map<string, string> {
    return this.merchants.categories();
  }

  /** Makes `category` (of `type`) the merchant's rule, as the import preview's 「以后这个商户都记为此分类」 asks. */
  rememberMerchantCategory(merchant: string, type: TransactionType, category: string): void {
    const id = this.categoryBook.idOf(category, type);
    if (id === undefined) throw new LedgerRuleError('not_found', `分类「${category}」不存在`);
    this.merchants.choose(merchant, type, id);
  }

  /** What a bill's refunds need to know of the ledger (./import-refunds.ts). */
  importRefunds(): ImportRefunds {
    this.refundLedger ??= new ImportRefunds(this.db);
    return this.refundLedger;
  }

  /** Every merchant rule, by merchant, for 设置. */
  merchantRules(): MerchantRule[] {
    return this.merchants.rules();
  }

  /** Forgets a merchant's rule; LedgerRuleError 'not_found' when there is none. */
  deleteMerchantRule(merchant: string, type: TransactionType): void {
    this.merchants.deleteRule(merchant, type);
  }

  // ---- accounts (./accounts.ts) ------------------------------------------------------

  listAccounts(): AccountInfo[] {
    return this.accountBook.list();
  }

  account(id: number): AccountInfo {
    return this.accountBook.get(id);
  }

  /** `card`: a credit card from the start, with these terms. */
  addAccount(name: string, initialBalanceFen = 0, card?: CardTerms): AccountInfo {
    return this.accountBook.add(name, initialBalanceFen, card);
  }

  renameAccount(id: number, name: string): AccountInfo {
    return this.accountBook.rename(id, name);
  }

  setDefaultAccount(id: number): AccountInfo[] {
    return this.accountBook.setDefault(id);
  }

  archiveAccount(id: number, archived: boolean): AccountBalance {
    return this.accountBook.setArchived(id, archived);
  }

  deleteAccount(id: number): void {
    this.accountBook.delete(id);
  }

  accounts(): { name: string; isDefault: boolean }[] {
    return this.accountBook.names();
  }

  accountBalances(): AccountBalances {
    return this.accountBook.balances();
  }

  /** Makes an account a credit card with these terms, or (null) an ordinary account again. */
  setCard(id: number, terms: CardTerms | null): AccountInfo {
    return this.accountBook.setCard(id, terms);
  }

  /** Every credit card's 本期账单, due date and 可用额度 as of today. */
  cardStatements(): CardStatement[] {
    return this.accountBook.cardStatements();
  }

  // ---- money flows (./money-flows.ts) -------------------------------------------------

  /** Everyone money was lent to or borrowed from, with what they owe (negative: what the user owes them). */
  people(): { people: PersonBalance[]; owedToMeFen: number; iOweFen: number } {
    return this.flows.people();
  }

  /** The person a spoken name means (exact, else the one name holding it), or undefined. */
  findPerson(spoken: string): PersonBalance | undefined {
    return this.flows.findPerson(spoken);
  }

  /** Writes off up to what a person owes: an expense that moves no account's money. */
  writeOff(personId: number, amountFen: number, note?: string): TransactionRow {
    return this.rows.writeOff(personId, amountFen, note);
  }

  /** Recent expenses a refund may return, best match first. */
  refundCandidates(query: RefundQuery): RefundCandidate[] {
    return this.flows.refundCandidates(query);
  }

  /** What refunds that still exist return of an expense. */
  refundedFen(expenseId: string): number {
    return this.flows.refundedFen(expenseId);
  }

  /** The 待报销 expenses still owed to the user, oldest first. */
  pendingReimbursements(): { rows: PendingReimbursement[]; totalFen: number } {
    return this.flows.pendingReimbursements();
  }

  /** What a reimbursement of `amountFen` would pay of `ids` (default: all 待报销, oldest first). */
  proposeSettlement(amountFen: number, ids?: readonly string[]): SettlementProposal {
    return this.flows.proposeSettlement(amountFen, ids);
  }

  /** Credit cards due within `daysAhead` days, each reported once per due date. */
  cardReminders(daysAhead?: number): CardReminder[] {
    return this.flows.cardReminders(daysAhead);
  }

  // ---- recurring entries (./recurring.ts) ---------------------------------------------

  /** The rules, active ones first by their next date, each with its label (每月5日). */
  recurringRules(): RecurringRuleInfo[] {
    return this.recurring.list();
  }

  recurringRule(id: number): RecurringRuleInfo {
    return this.recurring.get(id);
  }

  /** A rule whose start is past makes its past occurrences at the next catch-up. */
  addRecurringRule(input: RecurringRuleInput): RecurringRuleInfo {
    return this.recurring.create(input);
  }

  /** A change of when it falls due takes effect from today; what was made stays. */
  updateRecurringRule(id: number, patch: RecurringRulePatch): RecurringRuleInfo {
    return this.recurring.update(id, patch);
  }

  /** Resuming goes on from today: what fell due while paused is not made. */
  setRecurringPaused(id: number, paused: boolean): RecurringRuleInfo {
    return this.recurring.setPaused(id, paused);
  }

  /** The rows the rule made stay. */
  deleteRecurringRule(id: number): void {
    this.recurring.delete(id);
  }

  /**
   * Makes every occurrence due by today (also those missed while the app was not running),
   * each exactly once, in one transaction: save-mode rules' rows, draft-mode rules'
   * occurrences returned as drafts, offered once.
   */
  catchUpRecurring(now: ZonedNow = this.clock()): CatchUpResult {
    return this.recurring.catchUp(now);
  }

  /** Saves an offered draft under its occurrence's key; a draft saved already returns the row that holds it. */
  confirmRecurringDraft(draft: RecurringDraft): TransactionRow {
    return this.rows.get(this.recurring.confirmDraft(draft))!;
  }

  /** The draft-mode occurrences offered and not yet confirmed or dismissed (kept across restarts). */
  recurringOffers(): RecurringDraft[] {
    return this.recurring.offers();
  }

  /** Declines an offered occurrence: it is never offered again. */
  dismissRecurringDraft(recurrenceKey: string): void {
    this.recurring.dismissDraft(recurrenceKey);
  }

  // ---- budgets (./budgets.ts) ---------------------------------------------------------

  /**
   * Replaces a month's budgets. Thresholds this month's spending already reaches under them
   * are recorded as fired without an alert: alerts tell of spending that crosses a budget,
   * and the user setting one below what is spent sees the red bar in the editor already.
   */
  setBudgets(month: string, items: readonly BudgetInput[]): BudgetStatus {
    return this.transaction(() => {
      const status = this.budgets.set(month, items);
      this.budgets.crossedAlerts(this.currentMonth());
      return status;
    });
  }

  budgetStatus(month: string): BudgetStatus {
    return this.budgets.status(month);
  }

  /** Thresholds newly reached in `month`, recorded so each fires once (see Budgets.crossedAlerts). */
  crossedAlerts(month: string): BudgetAlert[] {
    return this.budgets.crossedAlerts(month);
  }

  /** The month (YYYY-MM) of the ledger's clock: the one budget alerts are about. */
  currentMonth(): string {
    return localDate(this.clock()).slice(0, 7);
  }

  /** For the benchmark and import: runs fn inside one transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Low-level access for the benchmark's bulk seeding. */
  get database(): Database.Database {
    return this.db;
  }
}

import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { DEFAULT_CURRENCY, OTHER_CATEGORY } from '@shared/categories';
import { isTransactionType, type DraftBatchDto, type ParseResult, type TransactionRow, type TransactionType } from '@shared/domain';
import type { CategoryTotal, MonthSummary, Page } from '@shared/ipc/index';
import type {
  AccountBalance,
  AccountBalances,
  AccountInfo,
  BudgetAlert,
  BudgetStatus,
  CategoryInfo,
  DayTotal,
  ImportRowDto,
  LedgerFilter,
  PeriodStats,
  RecentCategory,
  TrendPoint,
} from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { addDays, formatOffset, isCalendarDate, localDate, systemNow, toZonedIso, type ZonedNow } from '@shared/time';
import type { LedgerPort, LedgerTotals } from '../voice/ports';
import { matchCategory, type CategoryCandidate } from '../categories/index';
import { resolveForWorker } from '../worker-require';
import { Accounts } from './accounts';
import { Budgets, type BudgetInput } from './budgets';
import { keepable, readDrafts } from './drafts';
import { editedTarget, prepareEntry, type ManualEntry } from './entries';
import {
  cleanName,
  LedgerNotFoundError,
  type LedgerOpenError,
  LedgerRuleError,
  LedgerValidationError,
  LedgerWriteRefusedError,
  READ_ONLY_MESSAGE,
} from './errors';
import { damagedError, guardWrites, openChecked, QUICK_CHECK_WORKER, restoreSidecars, SYNC_CHECK_MAX_BYTES, type Sidecars } from './open-file';

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
}

export interface ListQuery extends LedgerFilter {
  limit?: number;
  offset?: number;
}

/** A stored row exactly as in the table, so undo/redo can put it back bit for bit. */
export interface RawTransaction {
  id: string;
  amount_fen: number;
  currency: string;
  type: TransactionType;
  category_id: number;
  account_id: number;
  description: string;
  occurred_at: string;
  occurred_date: string;
  occurred_ms: number;
  source: string;
  created_at: string;
  updated_at: string;
  to_account_id: number | null;
  counterparty: string;
}

/**
 * [date, occurredAt, type, category, amountFen, account, description, occurredMs, rowid,
 * toAccount, counterparty]; the last two name a TRANSFER's target (null and '' otherwise).
 */
export type ExportRow = [string, string, TransactionType, string, number, string, string, number, number, string | null, string];

/** Where the previous export chunk ended. */
export interface ExportCursor {
  date: string;
  ms: number;
  rowid: number;
}

/** One row of an import file, already validated (time HH:MM:SS in the user's current offset). */
export type ImportRow = Omit<ImportRowDto, 'duplicate'>;

export interface TransactionPatch {
  amountFen?: number;
  type?: TransactionType;
  category?: string;
  account?: string;
  description?: string;
  date?: string;
  /** For a TRANSFER: the account it goes to (clears the counterparty). */
  toAccount?: string;
  /** For a TRANSFER: who outside the user's accounts it goes to (clears the to-account). */
  counterparty?: string;
}

type Row = {
  id: string;
  amount_fen: number;
  currency: string;
  type: TransactionType;
  category: string;
  account: string;
  description: string;
  occurred_at: string;
  occurred_date: string;
  source: TransactionRow['source'];
  created_at: string;
  updated_at: string;
  to_account: string | null;
  counterparty: string;
};

const SELECT_ROW = `
  SELECT t.id, t.amount_fen, t.currency, t.type, c.name AS category, a.name AS account, t.description,
         t.occurred_at, t.occurred_date, t.source, t.created_at, t.updated_at, ta.name AS to_account, t.counterparty
  FROM transactions t
  JOIN categories c ON c.id = t.category_id
  JOIN accounts a ON a.id = t.account_id
  LEFT JOIN accounts ta ON ta.id = t.to_account_id`;

function toRow(r: Row): TransactionRow {
  return {
    id: r.id,
    amountFen: r.amount_fen,
    currency: r.currency,
    type: r.type,
    category: r.category,
    account: r.account,
    description: r.description,
    occurredAt: r.occurred_at,
    date: r.occurred_date,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.type === 'TRANSFER' ? { toAccount: r.to_account, counterparty: r.counterparty } : {}),
  };
}

/**
 * The open account a spoken name means: the one of that name, else the one account whose
 * name holds it (微信 → 「微信钱包」). Several such accounts (「微信A」「微信B」) are
 * ambiguous and none at all is unknown: undefined, and the entry takes the default.
 */
function openAccountFor(spoken: string, open: ReadonlyMap<string, number>): number | undefined {
  const exact = open.get(spoken);
  if (exact !== undefined) return exact;
  const holding = [...open].filter(([name]) => name.includes(spoken));
  return holding.length === 1 ? holding[0]![1] : undefined;
}

/** The local SQLite ledger: the only place that writes transactions. */
export class Ledger implements LedgerPort {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly clock: () => ZonedNow;
  private readonly insertTx: Database.Statement;
  /** Why writes are refused (read-only file, damage found after open), or null. */
  private refusal: LedgerWriteRefusedError | null;
  private readonly checked: Promise<LedgerOpenError | null>;
  private checker: Worker | null = null;
  /** For a read-only open: which of -wal/-shm existed before, so close leaves the folder as found. */
  private readonly sidecarsBefore: Sidecars | null;
  private readonly accountBook: Accounts;
  private readonly budgets: Budgets;

  constructor(options: LedgerOptions) {
    this.path = options.path;
    this.clock = options.now ?? (() => systemNow());
    const opened = openChecked(options.path, options.syncCheckMaxBytes ?? SYNC_CHECK_MAX_BYTES);
    this.refusal = opened.readOnly ? new LedgerWriteRefusedError('read_only', READ_ONLY_MESSAGE) : null;
    this.sidecarsBefore = opened.readOnly ? opened.sidecarsBefore : null;
    this.db = guardWrites(opened.db, () => this.refusal);
    this.checked = opened.checkLater ? this.checkInBackground(options.onDamage) : Promise.resolve(null);
    this.insertTx = this.db.prepare(
      `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
         occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty)
       VALUES (@id, @amountFen, @currency, @type, @categoryId, @accountId, @description,
         @occurredAt, @occurredDate, @occurredMs, @source, @createdAt, @updatedAt, @toAccountId, @counterparty)`,
    );
    this.accountBook = new Accounts(this.db, this.clock);
    this.budgets = new Budgets(this.db, this.clock);
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

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /**
   * Validates every item first, then writes all of them in ONE transaction: a bad item
   * rejects the whole batch and nothing is written (spec: 批量保存失败回滚).
   */
  saveBatch(
    results: readonly ParseResult[],
    options: { now?: ZonedNow; source?: TransactionRow['source']; drafts?: DraftBatchDto | null } = {},
  ): TransactionRow[] {
    const now = options.now ?? this.clock();
    const stamp = toZonedIso(now);
    const categories = this.categoryCandidates();
    // An archived account takes no new entries: a spoken 「招行」 then lands in the default.
    const accounts = this.accountBook.openIds();
    const defaultAccount = this.accountBook.defaultId();
    const accountOf = (spoken: string | null | undefined): number => (spoken ? openAccountFor(spoken, accounts) : undefined) ?? defaultAccount;
    const prepared = results.map((result, i) => {
      const amountFen = validateAmount(result.amount, i);
      if (!isTransactionType(result.type)) throw new LedgerValidationError(i, `类型无效（${String(result.type)}）`);
      if (result.date !== null && result.date !== undefined && !isCalendarDate(result.date)) {
        throw new LedgerValidationError(i, `日期无效（${result.date}）`);
      }
      const category = matchCategory(result.category, result.type, categories);
      if (!category) throw new LedgerValidationError(i, '没有可用的分类');
      const occurred = occurrence(result.date, now);
      return {
        id: randomUUID(),
        amountFen,
        currency: DEFAULT_CURRENCY,
        type: result.type,
        categoryId: category.id,
        accountId: accountOf(result.account),
        description: (result.description ?? '').trim().slice(0, 200),
        occurredAt: occurred.iso,
        occurredDate: occurred.date,
        occurredMs: occurred.ms,
        source: options.source ?? result.source,
        createdAt: stamp,
        updatedAt: stamp,
        toAccountId: null,
        counterparty: '',
      };
    });
    // The card that remains is written in the same transaction: a crash between the two
    // must not bring back, as drafts, items that were saved.
    const write = this.db.transaction(() => {
      for (const p of prepared) this.insertTx.run(p);
      if (options.drafts !== undefined) this.keepDrafts(options.drafts);
    });
    write();
    return this.getMany(prepared.map((p) => p.id));
  }

  /** Keeps the voice card that is not confirmed yet (null or an all-cancelled card: none). */
  keepDrafts(batch: DraftBatchDto | null): void {
    if (!keepable(batch)) {
      this.db.prepare('DELETE FROM drafts').run();
      return;
    }
    this.db
      .prepare(
        'INSERT INTO drafts (id, batch, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET batch = excluded.batch, updated_at = excluded.updated_at',
      )
      .run(JSON.stringify(batch), toZonedIso(this.clock()));
  }

  /** The card a session left unconfirmed, or null. */
  keptDrafts(): DraftBatchDto | null {
    const row = this.db.prepare('SELECT batch FROM drafts WHERE id = 1').get() as { batch: string } | undefined;
    return readDrafts(row?.batch);
  }

  deleteTransactions(ids: readonly string[]): number {
    const del = this.db.prepare('DELETE FROM transactions WHERE id = ?');
    return this.db.transaction(() => ids.reduce((n, id) => n + del.run(id).changes, 0))();
  }

  getTransaction(id: string): TransactionRow | undefined {
    const r = this.db.prepare(`${SELECT_ROW} WHERE t.id = ?`).get(id) as Row | undefined;
    return r && toRow(r);
  }

  /** Rows in the order of `ids` (ids that do not exist are skipped). */
  getMany(ids: readonly string[]): TransactionRow[] {
    const get = this.db.prepare(`${SELECT_ROW} WHERE t.id = ?`);
    return ids.flatMap((id) => {
      const r = get.get(id) as Row | undefined;
      return r ? [toRow(r)] : [];
    });
  }

  /** Newest first within an inclusive day range. */
  list(query: ListQuery = {}): Page<TransactionRow> {
    const { where, params } = this.filter(query);
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const rows = this.db
      .prepare(`${SELECT_ROW} ${where} ORDER BY t.occurred_date DESC, t.occurred_ms DESC, t.rowid DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as Row[];
    return { rows: rows.map(toRow), total: this.count(query) };
  }

  count(query: LedgerFilter = {}): number {
    const { where, params } = this.filter(query);
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM transactions t ${where}`).get(...params) as { n: number }).n;
  }

  /**
   * Oldest first, streamed row by row so a large export never holds every row twice.
   * Rows are ExportRow arrays; occurredMs and rowid make the keyset cursor of the next chunk,
   * so chunk n costs the same as chunk 1 however large the ledger (OFFSET would re-read every
   * row before it).
   */
  iterateForExport(query: LedgerFilter, after: ExportCursor | null, limit: number): IterableIterator<ExportRow> {
    const { where, params } = this.filter(query);
    const keyset = after ? `${where ? `${where} AND` : 'WHERE'} (t.occurred_date, t.occurred_ms, t.rowid) > (?, ?, ?)` : where;
    const stmt = this.db
      .prepare(
        `SELECT t.occurred_date, t.occurred_at, t.type, c.name, t.amount_fen, a.name, t.description, t.occurred_ms, t.rowid,
                ta.name, t.counterparty
         FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
         LEFT JOIN accounts ta ON ta.id = t.to_account_id
         ${keyset} ORDER BY t.occurred_date, t.occurred_ms, t.rowid LIMIT ?`,
      )
      .raw(true);
    const keyParams = after ? [after.date, after.ms, after.rowid] : [];
    return stmt.iterate(...params, ...keyParams, limit) as IterableIterator<ExportRow>;
  }

  /** Substring search on description and category name, newest first. */
  search(text: string, limit = 50): TransactionRow[] {
    const pattern = likePattern(text);
    const rows = this.db
      .prepare(
        `${SELECT_ROW} WHERE t.description LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\'
         ORDER BY t.occurred_date DESC, t.occurred_ms DESC LIMIT ?`,
      )
      .all(pattern, pattern, limit) as Row[];
    return rows.map(toRow);
  }

  /** Totals by type and category for a calendar month (YYYY-MM), sums in integer fen. */
  monthSummary(month: string): MonthSummary {
    const byCategory = this.categoryTotals(`${month}-01`, `${month}-31`);
    const sum = (type: TransactionType) => byCategory.filter((c) => c.type === type).reduce((n, c) => n + c.totalFen, 0);
    return { month, expenseFen: sum('EXPENSE'), incomeFen: sum('INCOME'), transferFen: sum('TRANSFER'), byCategory };
  }

  /**
   * Sum and count per category over an inclusive day range, largest first. One short range
   * read per category on (type, category_id, occurred_date, amount_fen) beats a GROUP BY,
   * which would sort every row of the range.
   */
  private categoryTotals(from: string, to: string): CategoryTotal[] {
    const categories = this.db.prepare('SELECT id, name, type FROM categories ORDER BY sort_order, id').all() as {
      id: number;
      name: string;
      type: TransactionType;
    }[];
    const sum = this.db.prepare(
      `SELECT COALESCE(SUM(amount_fen), 0) AS totalFen, COUNT(*) AS count FROM transactions
       WHERE type = ? AND category_id = ? AND occurred_date BETWEEN ? AND ?`,
    );
    const totals: CategoryTotal[] = [];
    for (const c of categories) {
      const r = sum.get(c.type, c.id, from, to) as { totalFen: number; count: number };
      if (r.count > 0) totals.push({ type: c.type, category: c.name, totalFen: r.totalFen, count: r.count });
    }
    // Stable sort keeps the user's category order among equal sums.
    return totals.sort((a, b) => b.totalFen - a.totalFen);
  }

  /** Without a type: income and expense rows together; transfers only when asked for by type. */
  totals(query: { from: string; to: string; type?: TransactionType; category?: string }): LedgerTotals {
    const filtered = this.filter(query);
    const where = query.type ? filtered.where : `${filtered.where ? `${filtered.where} AND` : 'WHERE'} +t.type <> 'TRANSFER'`;
    const params = filtered.params;
    const r = this.db
      .prepare(`SELECT COALESCE(SUM(t.amount_fen), 0) AS totalFen, COUNT(*) AS count FROM transactions t ${where}`)
      .get(...params) as LedgerTotals;
    return { totalFen: r.totalFen, count: r.count };
  }

  placeCategory(name: string, type: TransactionType): string {
    return matchCategory(name, type, this.categoryCandidates())?.name ?? name;
  }

  updateTransaction(id: string, patch: TransactionPatch): TransactionRow {
    const current = this.getTransaction(id);
    if (!current) throw new LedgerNotFoundError(id);
    const type = patch.type ?? current.type;
    if (!isTransactionType(type)) throw new LedgerValidationError(0, `类型无效（${String(type)}）`);
    const amountFen = patch.amountFen ?? current.amountFen;
    if (!Number.isInteger(amountFen) || amountFen <= 0 || amountFen > MAX_AMOUNT_YUAN * 100) {
      throw new LedgerValidationError(0, '金额无效');
    }
    const categoryName = patch.category ?? (patch.type && patch.type !== current.type ? null : current.category);
    const category = matchCategory(categoryName, type, this.categoryCandidates());
    if (!category) throw new LedgerValidationError(0, '没有可用的分类');
    const accountIds = this.accountBook.ids();
    const accountId = patch.account ? accountIds.get(patch.account) : undefined;
    if (patch.account && accountId === undefined) throw new LedgerValidationError(0, `账户不存在（${patch.account}）`);
    // A row may stay in its archived account; none moves into one.
    if (patch.account && patch.account !== current.account && !this.accountBook.openIds().has(patch.account)) {
      throw new LedgerValidationError(0, `账户「${patch.account}」已归档`);
    }
    const target = editedTarget(type, patch, this.rawRows([id])[0]!, accountId, accountIds);
    let occurredAt = current.occurredAt;
    let occurredDate = current.date;
    if (patch.date && patch.date !== current.date) {
      if (!isCalendarDate(patch.date)) throw new LedgerValidationError(0, `日期无效（${patch.date}）`);
      occurredAt = patch.date + current.occurredAt.slice(10);
      occurredDate = patch.date;
    }
    this.db
      .prepare(
        `UPDATE transactions SET amount_fen = ?, type = ?, category_id = ?, account_id = COALESCE(?, account_id),
           description = ?, occurred_at = ?, occurred_date = ?, occurred_ms = ?, updated_at = ?,
           to_account_id = ?, counterparty = ? WHERE id = ?`,
      )
      .run(
        amountFen,
        type,
        category.id,
        accountId ?? null,
        (patch.description ?? current.description).trim().slice(0, 200),
        occurredAt,
        occurredDate,
        Date.parse(occurredAt),
        toZonedIso(this.clock()),
        target.toAccountId,
        target.counterparty,
        id,
      );
    return this.getTransaction(id)!;
  }

  /** Saves one entry of the 记一笔 form (rules in ./entries.ts). */
  addTransaction(entry: ManualEntry): TransactionRow {
    const now = this.clock();
    const prepared = prepareEntry(entry, { categories: this.categoryCandidates(), accounts: this.accountBook, now });
    const id = randomUUID();
    const stamp = toZonedIso(now);
    this.insertTx.run({ id, ...prepared, currency: DEFAULT_CURRENCY, source: 'manual', createdAt: stamp, updatedAt: stamp });
    return this.getTransaction(id)!;
  }

  /**
   * The categories of `type` most recently entered (by entry order, not by day), newest
   * first, hidden ones left out: the first cells of the form's grid. Reads at most the
   * last 2 000 rows of the type, so a ledger of millions answers as fast as a small one.
   */
  recentCategories(type: TransactionType, limit = 3): RecentCategory[] {
    const names = new Map(
      (this.db.prepare('SELECT id, name FROM categories WHERE type = ? AND hidden = 0').all(type) as RecentCategory[]).map((c) => [c.id, c.name]),
    );
    const recent: RecentCategory[] = [];
    const rows = this.db
      .prepare('SELECT category_id FROM transactions WHERE +type = ? ORDER BY rowid DESC LIMIT 2000')
      .pluck()
      .iterate(type) as IterableIterator<number>;
    for (const categoryId of rows) {
      const name = names.get(categoryId);
      if (name === undefined || recent.some((c) => c.id === categoryId)) continue;
      recent.push({ id: categoryId, name });
      if (recent.length >= limit) break;
    }
    return recent;
  }

  deleteTransaction(id: string): void {
    if (this.deleteTransactions([id]) === 0) throw new LedgerNotFoundError(id);
  }

  categories(type?: TransactionType): { name: string; type: TransactionType; hidden: boolean; preset: boolean }[] {
    const rows = this.db
      .prepare(`SELECT name, type, hidden, preset FROM categories ${type ? 'WHERE type = ?' : ''} ORDER BY type, sort_order, id`)
      .all(...(type ? [type] : [])) as { name: string; type: TransactionType; hidden: number; preset: number }[];
    return rows.map((r) => ({ name: r.name, type: r.type, hidden: r.hidden === 1, preset: r.preset === 1 }));
  }

  accounts(): { name: string; isDefault: boolean }[] {
    const rows = this.db.prepare('SELECT name, is_default FROM accounts ORDER BY sort_order, id').all() as {
      name: string;
      is_default: number;
    }[];
    return rows.map((r) => ({ name: r.name, isDefault: r.is_default === 1 }));
  }

  /** The days of the filtered set, newest first, with their totals: the list's day headers. */
  days(query: LedgerFilter = {}): DayTotal[] {
    const { where, params } = this.filter(query);
    return this.db
      .prepare(
        `SELECT t.occurred_date AS date, COUNT(*) AS count,
           COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
           COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
         FROM transactions t ${where} GROUP BY t.occurred_date ORDER BY t.occurred_date DESC`,
      )
      .all(...params) as DayTotal[];
  }

  /** Totals, per-category sums and a zero-filled trend for an inclusive day range, all in fen. */
  periodStats(query: { from: string; to: string; granularity: 'day' | 'month' }): PeriodStats {
    const { from, to, granularity } = query;
    const byCategory = this.categoryTotals(from, to);
    const keyLength = granularity === 'month' ? 7 : 10;
    // Grouped by day in index order (no sort), then rolled up to months here: ≤ 366 rows.
    const days = this.db
      .prepare(
        `SELECT t.occurred_date AS key,
           COALESCE(SUM(CASE WHEN t.type = 'EXPENSE' THEN t.amount_fen END), 0) AS expenseFen,
           COALESCE(SUM(CASE WHEN t.type = 'INCOME' THEN t.amount_fen END), 0) AS incomeFen
         FROM transactions t WHERE t.occurred_date BETWEEN ? AND ? GROUP BY t.occurred_date`,
      )
      .all(from, to) as TrendPoint[];
    const byKey = new Map<string, TrendPoint>();
    for (const d of days) {
      const key = d.key.slice(0, keyLength);
      const point = byKey.get(key) ?? { key, expenseFen: 0, incomeFen: 0 };
      point.expenseFen += d.expenseFen;
      point.incomeFen += d.incomeFen;
      byKey.set(key, point);
    }
    const trend: TrendPoint[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const key = day.slice(0, keyLength);
      if (trend.at(-1)?.key === key) continue;
      trend.push(byKey.get(key) ?? { key, expenseFen: 0, incomeFen: 0 });
    }
    const sum = (type: TransactionType) => byCategory.filter((c) => c.type === type).reduce((n, c) => n + c.totalFen, 0);
    const expenseFen = sum('EXPENSE');
    const incomeFen = sum('INCOME');
    return {
      from,
      to,
      expenseFen,
      incomeFen,
      transferFen: sum('TRANSFER'),
      balanceFen: incomeFen - expenseFen,
      count: byCategory.reduce((n, c) => n + c.count, 0),
      byCategory,
      trend,
    };
  }

  // ---- raw rows, for undo/redo ------------------------------------------------------

  rawRows(ids: readonly string[]): RawTransaction[] {
    const get = this.db.prepare('SELECT * FROM transactions WHERE id = ?');
    return ids.flatMap((id) => {
      const r = get.get(id) as RawTransaction | undefined;
      return r ? [r] : [];
    });
  }

  /** Puts rows back exactly as they were (same ids, stamps and references), all or nothing. */
  insertRaw(rows: readonly RawTransaction[]): void {
    this.db.transaction(() => {
      for (const r of rows) {
        this.insertTx.run({
          id: r.id,
          amountFen: r.amount_fen,
          currency: r.currency,
          type: r.type,
          categoryId: r.category_id,
          accountId: r.account_id,
          description: r.description,
          occurredAt: r.occurred_at,
          occurredDate: r.occurred_date,
          occurredMs: r.occurred_ms,
          source: r.source,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          toAccountId: r.to_account_id,
          counterparty: r.counterparty,
        });
      }
    })();
  }

  /** Overwrites every column of existing rows with a stored version of them. */
  replaceRaw(rows: readonly RawTransaction[]): void {
    const update = this.db.prepare(
      `UPDATE transactions SET amount_fen = @amount_fen, currency = @currency, type = @type, category_id = @category_id,
         account_id = @account_id, description = @description, occurred_at = @occurred_at, occurred_date = @occurred_date,
         occurred_ms = @occurred_ms, source = @source, created_at = @created_at, updated_at = @updated_at,
         to_account_id = @to_account_id, counterparty = @counterparty WHERE id = @id`,
    );
    this.db.transaction(() => {
      for (const r of rows) {
        if (update.run(r).changes === 0) throw new LedgerNotFoundError(r.id);
      }
    })();
  }

  // ---- import -------------------------------------------------------------------------

  /**
   * Writes imported rows in ONE transaction, skipping rows identical (day, time, type,
   * category, amount, account, description) to one already in the ledger. Missing
   * categories and accounts are created so nothing in the file is lost. With dryRun nothing
   * is written and only the duplicate flags are computed.
   */
  importRows(rows: readonly ImportRow[], options: { dryRun?: boolean; now?: ZonedNow } = {}): { ids: string[]; duplicate: boolean[] } {
    const now = options.now ?? this.clock();
    const offset = formatOffset(now.offsetMinutes);
    const stamp = toZonedIso(now);
    const duplicate = this.importDuplicates(rows);
    if (options.dryRun) return { ids: [], duplicate };
    const ids: string[] = [];
    this.db.transaction(() => {
      const categoryIds = new Map<string, number>();
      for (const c of this.db.prepare('SELECT id, name, type FROM categories').all() as { id: number; name: string; type: string }[]) {
        categoryIds.set(`${c.type}:${c.name}`, c.id);
      }
      const accountIds = this.accountBook.ids();
      rows.forEach((r, i) => {
        if (duplicate[i]) return;
        let categoryId = categoryIds.get(`${r.type}:${r.category}`);
        if (categoryId === undefined) {
          categoryId = this.addCategory(r.category, r.type).id;
          categoryIds.set(`${r.type}:${r.category}`, categoryId);
        }
        let accountId = accountIds.get(r.account);
        if (accountId === undefined) {
          accountId = this.addAccount(r.account).id;
          accountIds.set(r.account, accountId);
        }
        const occurredAt = `${r.date}T${r.time}${offset}`;
        const id = randomUUID();
        this.insertTx.run({
          id,
          amountFen: r.amountFen,
          currency: DEFAULT_CURRENCY,
          type: r.type,
          categoryId,
          accountId,
          description: r.description.slice(0, 200),
          occurredAt,
          occurredDate: r.date,
          occurredMs: Date.parse(occurredAt),
          source: 'import',
          createdAt: stamp,
          updatedAt: stamp,
          toAccountId: null,
          counterparty: '',
        });
        ids.push(id);
      });
    })();
    return { ids, duplicate };
  }

  /**
   * Which file rows are already in the ledger, compared as multisets: a row the ledger holds
   * n times marks only the first n identical rows of the file, so twins (two 奶茶 15 in the
   * same second) import as many copies as the file has beyond the ledger's. Re-importing the
   * same file thus adds nothing, and importing it into a ledger that has one copy adds one.
   */
  private importDuplicates(rows: readonly ImportRow[]): boolean[] {
    const count = this.db.prepare(
      `SELECT COUNT(*) AS n FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
       WHERE t.occurred_date = ? AND substr(t.occurred_at, 12, 8) = ? AND t.type = ? AND c.name = ?
         AND t.amount_fen = ? AND a.name = ? AND t.description = ?`,
    );
    /** Ledger copies of each distinct row not yet matched by an earlier row of the file. */
    const unmatched = new Map<string, number>();
    return rows.map((r) => {
      const fields = [r.date, r.time, r.type, r.category, r.amountFen, r.account, r.description] as const;
      const key = JSON.stringify(fields);
      const left = unmatched.get(key) ?? (count.get(...fields) as { n: number }).n;
      unmatched.set(key, Math.max(0, left - 1));
      return left > 0;
    });
  }

  // ---- categories ---------------------------------------------------------------------

  listCategories(): CategoryInfo[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.name, c.type, c.hidden, c.preset, c.sort_order AS sortOrder,
           (SELECT COUNT(*) FROM transactions t WHERE t.category_id = c.id) AS count
         FROM categories c ORDER BY c.type, c.sort_order, c.id`,
      )
      .all() as (Omit<CategoryInfo, 'hidden' | 'preset'> & { hidden: number; preset: number })[];
    return rows.map((r) => ({ ...r, hidden: r.hidden === 1, preset: r.preset === 1 }));
  }

  category(id: number): CategoryInfo {
    const found = this.listCategories().find((c) => c.id === id);
    if (!found) throw new LedgerRuleError('not_found', '这个分类不存在');
    return found;
  }

  addCategory(name: string, type: TransactionType): CategoryInfo {
    const clean = cleanName(name);
    if (!isTransactionType(type)) throw new LedgerRuleError('invalid_category', '分类类型无效');
    this.assertCategoryNameFree(clean, type);
    const next = this.db.prepare('SELECT COALESCE(MAX(sort_order), -1) + 1 AS n FROM categories WHERE type = ?').get(type) as { n: number };
    const info = this.db
      .prepare('INSERT INTO categories (name, type, preset, hidden, sort_order, created_at) VALUES (?, ?, 0, 0, ?, ?)')
      .run(clean, type, next.n, toZonedIso(this.clock()));
    return this.category(Number(info.lastInsertRowid));
  }

  renameCategory(id: number, name: string): CategoryInfo {
    const current = this.category(id);
    const clean = cleanName(name);
    if (clean !== current.name) this.assertCategoryNameFree(clean, current.type);
    this.db.prepare('UPDATE categories SET name = ? WHERE id = ?').run(clean, id);
    return this.category(id);
  }

  setCategoryHidden(id: number, hidden: boolean): CategoryInfo {
    const current = this.category(id);
    if (hidden && current.name === OTHER_CATEGORY) {
      throw new LedgerRuleError('invalid_category', '「其他」用来接住无法归类的记录，不能隐藏');
    }
    this.db.prepare('UPDATE categories SET hidden = ? WHERE id = ?').run(hidden ? 1 : 0, id);
    return this.category(id);
  }

  /** `ids` must be every category of `type`, in the new order. */
  reorderCategories(type: TransactionType, ids: readonly number[]): CategoryInfo[] {
    const existing = this.listCategories()
      .filter((c) => c.type === type)
      .map((c) => c.id);
    if (ids.length !== existing.length || new Set(ids).size !== ids.length || !ids.every((i) => existing.includes(i))) {
      throw new LedgerRuleError('invalid_category', '排序列表与现有分类不一致，请刷新后重试');
    }
    const update = this.db.prepare('UPDATE categories SET sort_order = ? WHERE id = ?');
    this.db.transaction(() => ids.forEach((id, i) => update.run(i, id)))();
    return this.listCategories().filter((c) => c.type === type);
  }

  /**
   * Only custom categories can go (presets can be hidden). One that holds transactions goes
   * only with `moveTo`, a category of the same type the user picked: the rows move there and
   * the category is deleted in one transaction. Returns how many rows moved.
   */
  deleteCategory(id: number, moveTo?: number): number {
    const current = this.category(id);
    if (current.preset) throw new LedgerRuleError('category_in_use', '预设分类不能删除，可以隐藏');
    if (current.count > 0 && moveTo === undefined) {
      throw new LedgerRuleError('category_in_use', `「${current.name}」下还有${current.count}笔记录，请先选择把它们移到哪个分类`);
    }
    if (moveTo !== undefined) {
      const target = this.category(moveTo);
      if (target.id === current.id) throw new LedgerRuleError('invalid_category', '不能把记录移到要删除的分类本身');
      if (target.type !== current.type) throw new LedgerRuleError('invalid_category', `「${target.name}」与「${current.name}」不是同一类型的分类`);
    }
    return this.db.transaction(() => {
      const moved =
        moveTo === undefined
          ? 0
          : this.db.prepare('UPDATE transactions SET category_id = ?, updated_at = ? WHERE category_id = ?').run(moveTo, toZonedIso(this.clock()), id)
              .changes;
      this.db.prepare('DELETE FROM categories WHERE id = ?').run(id);
      return moved;
    })();
  }

  // ---- accounts (./accounts.ts) ------------------------------------------------------

  listAccounts(): AccountInfo[] {
    return this.accountBook.list();
  }

  account(id: number): AccountInfo {
    return this.accountBook.get(id);
  }

  addAccount(name: string, initialBalanceFen = 0): AccountInfo {
    return this.accountBook.add(name, initialBalanceFen);
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

  accountBalances(): AccountBalances {
    return this.accountBook.balances();
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

  private assertCategoryNameFree(name: string, type: TransactionType): void {
    if (this.db.prepare('SELECT 1 FROM categories WHERE name = ? AND type = ?').get(name, type)) {
      throw new LedgerRuleError('duplicate_name', `已有名为「${name}」的分类`);
    }
  }

  /** For the benchmark and import: runs fn inside one transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Low-level access for the benchmark's bulk seeding. */
  get database(): Database.Database {
    return this.db;
  }

  private filter(query: LedgerFilter) {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (query.from) {
      clauses.push('t.occurred_date >= ?');
      params.push(query.from);
    }
    if (query.to) {
      clauses.push('t.occurred_date <= ?');
      params.push(query.to);
    }
    if (query.type) {
      // Unary + keeps the planner off the (type, …) statistics index: with a type filter it
      // would otherwise walk every row of that type and sort them instead of using the day order.
      clauses.push('+t.type = ?');
      params.push(query.type);
    }
    if (query.category) {
      clauses.push('t.category_id IN (SELECT id FROM categories WHERE name = ?)');
      params.push(query.category);
    }
    if (query.account) {
      clauses.push('t.account_id IN (SELECT id FROM accounts WHERE name = ?)');
      params.push(query.account);
    }
    if (query.minFen !== undefined) {
      clauses.push('t.amount_fen >= ?');
      params.push(query.minFen);
    }
    if (query.maxFen !== undefined) {
      clauses.push('t.amount_fen <= ?');
      params.push(query.maxFen);
    }
    if (query.text) {
      const pattern = likePattern(query.text);
      clauses.push(`(t.description LIKE ? ESCAPE '\\' OR t.category_id IN (SELECT id FROM categories WHERE name LIKE ? ESCAPE '\\'))`);
      params.push(pattern, pattern);
    }
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
  }

  categoryCandidates(): CategoryCandidate[] {
    return this.db.prepare('SELECT id, name, type, sort_order AS sortOrder FROM categories').all() as CategoryCandidate[];
  }
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function validateAmount(amount: number | null | undefined, i: number): number {
  if (amount === null || amount === undefined) throw new LedgerValidationError(i, '缺少金额');
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new LedgerValidationError(i, '金额不是有效数字');
  if (amount <= 0) throw new LedgerValidationError(i, '金额必须大于0');
  if (amount > MAX_AMOUNT_YUAN) throw new LedgerValidationError(i, '金额超过上限（1亿元）');
  const fen = yuanToFen(amount);
  if (fen <= 0) throw new LedgerValidationError(i, '金额必须大于0');
  return fen;
}

/** The parsed day at the current time of day, in the user's offset; today when undated. */
function occurrence(date: string | null | undefined, now: ZonedNow): { iso: string; date: string; ms: number } {
  const nowIso = toZonedIso(now);
  if (!date || date === localDate(now)) return { iso: nowIso, date: localDate(now), ms: now.epochMs };
  const iso = date + nowIso.slice(10);
  return { iso, date, ms: Date.parse(iso) };
}

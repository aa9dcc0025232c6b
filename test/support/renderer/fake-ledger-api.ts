import { buildApi } from '@shared/api-shape';
import { DEFAULT_ACCOUNT, PRESET_CATEGORIES } from '@shared/categories';
import type { BookListing } from '@shared/ipc/books';
import type { TransactionRow, TransactionType } from '@shared/domain';
import type { AppEvent } from '@shared/events';
import type { CommandInput, CommandName, CommandOutputs, IpcError, IpcResult, SuikoujiApi } from '@shared/ipc/index';
import type {
  AccountBalance,
  AccountInfo,
  CategoryInfo,
  DayTotal,
  ExportFormat,
  HistoryState,
  HistoryStep,
  ImportFile,
  LedgerFilter,
  MerchantRule,
  TagInfo,
} from '@shared/ipc/ledger';
import { dayTop } from '@shared/ipc/ledger';
import { API_GLOBAL } from '@shared/ipc/names';
import type { SyncStatus } from '@shared/ipc/sync';
import { Listeners } from '@shared/listeners';
import { yuanToFen } from '@shared/money';
import { recurringHandlers } from './fake-recurring-api';

type Handlers = { [K in CommandName]?: (input: CommandInput<K>) => CommandOutputs[K] };
type ChangeReason = Extract<AppEvent, { channel: 'ledger'; event: { type: 'changed' } }>['event']['reason'];

interface HistoryEntry {
  label: string;
  undo(): void;
  redo(): void;
}

/** This device with sync never set up, as main answers before the first 开始同步. */
export const SYNC_OFF: SyncStatus = {
  state: 'off',
  remote: null,
  deviceId: 'device-self',
  deviceName: '这台电脑',
  lastSyncAt: null,
  pending: 0,
  error: null,
  retryAt: null,
  devices: [],
  progress: null,
  waiting: [],
  clockOffsetMs: null,
};

/** Today in the local time zone, as the pages compute it. */
function localYmd(d = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** An account as the fake keeps it: the ledger's fields, its count and balance computed on read. */
/** Card terms may be left out: an ordinary account. */
export type FakeAccount = Omit<AccountBalance, 'count' | 'balanceFen' | 'kind' | 'statementDay' | 'dueDay' | 'creditLimitFen'> &
  Partial<Pick<AccountBalance, 'kind' | 'statementDay' | 'dueDay' | 'creditLimitFen'>>;

/** 20261123_170501: the stamp main puts in an export's suggested file name. */
function fileStamp(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}_${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

function matches(row: TransactionRow, f: LedgerFilter): boolean {
  if (f.from && row.date < f.from) return false;
  if (f.to && row.date > f.to) return false;
  if (f.type && row.type !== f.type) return false;
  // A parent's filter takes in its sub-categories' rows too, as main's does.
  if (f.category && row.category !== f.category && row.parentCategory !== f.category) return false;
  if (f.tag && !row.tags?.includes(f.tag)) return false;
  if (f.account && row.account !== f.account) return false;
  if (f.minFen !== undefined && row.amountFen < f.minFen) return false;
  if (f.maxFen !== undefined && row.amountFen > f.maxFen) return false;
  const text = f.text?.trim();
  return !text || row.description.includes(text) || row.category.includes(text);
}

/**
 * The ledger commands as main answers them, over plain arrays, for page tests in jsdom.
 * It keeps only what the pages display (categories, accounts, rows, an undo stack); the
 * ledger's own rules (duplicate names, what may be deleted) are not modelled: a test that
 * needs a refusal scripts it with `failNext`, and the real rules are exercised end to end in
 * e2e/. Balances follow main's formula (initial + income + transfers in − expense − transfers
 * out). The shell's save and open dialogs answer from `saveDir` and `openFile`; an export
 * keeps its rows in `exported` instead of writing a file. A command it does not fake
 * rejects, so a page calling it fails the test loudly.
 */
export class FakeLedgerApi {
  categories: CategoryInfo[];
  accounts: FakeAccount[] = [{ id: 1, name: DEFAULT_ACCOUNT, isDefault: true, initialBalanceFen: 0, archived: false, preset: true }];
  rows: TransactionRow[] = [];
  /** The folder the shell's save dialog answers with (the file keeps its suggested name); null: the user closes it. */
  saveDir: string | null = '/home/user/文档';
  /** The file the shell's open dialog answers with; null: the user closes it. */
  openFile: ImportFile | null = null;
  /** Every file exportFile wrote: where, in which format, and the rows it held. */
  exported: { path: string; format: ExportFormat; rows: TransactionRow[] }[] = [];
  /**
   * What syncStatus answers: off until a test configures it (or syncConfigure does). A test
   * that needs another answer (a refusal, a joining remote) scripts it with `handle`.
   */
  sync: SyncStatus = { ...SYNC_OFF };
  /** The folder the sync folder picker answers with; null: the user closes it. */
  syncFolder: string | null = null;
  /** The books: one until a test or createBook adds more. Switching keeps the rows (main's books are tested there). */
  books: BookListing = { current: 'main', books: [{ id: 'main', name: '我的账本', createdAt: '2026-01-01T00:00:00.000Z', archived: false }] };
  /** The merchant memory of bill imports (设置 lists and deletes these), by merchant as main sorts them. */
  merchantRules: MerchantRule[] = [];
  /** Every command the page sent, with its input as it crossed the (cloning) transport. */
  calls: { name: CommandName; input: unknown }[] = [];
  readonly api: SuikoujiApi;

  // A throwing listener fails the test instead of being logged, as the app's hub would.
  #listeners = new Listeners<{ event: (event: AppEvent) => void }>((error) => {
    throw error;
  });
  #failures = new Map<CommandName, IpcError>();
  #overrides = new Map<CommandName, (input: unknown) => unknown>();
  #undo: HistoryEntry[] = [];
  #redo: HistoryEntry[] = [];
  #nextId = 1000;
  /** Tag ids by name, handed out the first time a tag is listed. */
  #tagIds = new Map<string, number>();

  constructor() {
    const order = new Map<string, number>();
    this.categories = PRESET_CATEGORIES.map((p, i) => {
      const sortOrder = order.get(p.type) ?? 0;
      order.set(p.type, sortOrder + 1);
      return { id: i + 1, name: p.name, type: p.type, hidden: p.hidden, preset: true, sortOrder, count: 0, parentId: null };
    });
    this.api = buildApi(
      (name, input) => this.#invoke(name as CommandName, input),
      (listener) => this.#listeners.on('event', listener),
    );
  }

  /** Puts the API where `getApi()` finds it, as the preload does. */
  install(): this {
    (globalThis as unknown as Record<string, unknown>)[API_GLOBAL] = this.api;
    return this;
  }

  uninstall(): void {
    delete (globalThis as unknown as Record<string, unknown>)[API_GLOBAL];
  }

  /** Adds a row directly (a save made elsewhere); no event, no history. */
  addRow(partial: Partial<TransactionRow> & Pick<TransactionRow, 'amountFen' | 'description'>): TransactionRow {
    const date = partial.date ?? localYmd();
    const row: TransactionRow = {
      id: `t${this.#nextId++}`,
      currency: 'CNY',
      type: 'EXPENSE',
      category: '餐饮',
      account: DEFAULT_ACCOUNT,
      occurredAt: `${date}T12:00:00+08:00`,
      date,
      source: 'local',
      createdAt: `${date}T12:00:00+08:00`,
      updatedAt: `${date}T12:00:00+08:00`,
      ...partial,
    };
    this.rows.push(row);
    return row;
  }

  category(name: string, type: TransactionType = 'EXPENSE'): CategoryInfo {
    const found = this.#categories().find((c) => c.name === name && c.type === type);
    if (!found) throw new Error(`FakeLedgerApi: no ${type} category ${name}`);
    return found;
  }

  /** Answers `name` with `handler` from now on (a command this fake does not model, or a scripted answer). */
  handle<K extends CommandName>(name: K, handler: (input: CommandInput<K>) => CommandOutputs[K]): void {
    this.#overrides.set(name, handler as (input: unknown) => unknown);
  }

  /** The next call of `name` answers with this error instead of running. */
  failNext(name: CommandName, error: IpcError): void {
    this.#failures.set(name, error);
  }

  /** The inputs the page sent to `name`, oldest first. */
  inputsOf<K extends CommandName>(name: K): CommandInput<K>[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.input as CommandInput<K>);
  }

  emit(event: AppEvent): void {
    this.#listeners.emit('event', event);
  }

  changed(reason: ChangeReason): void {
    this.emit({ channel: 'ledger', event: { type: 'changed', reason } });
  }

  async #invoke(name: CommandName, input: unknown): Promise<IpcResult<unknown>> {
    // Electron's IPC structured-clones the input: a page that sent a live $state proxy
    // would fail there, so it fails here too.
    const sent: unknown = structuredClone(input);
    this.calls.push({ name, input: sent });
    const failure = this.#failures.get(name);
    if (failure) {
      this.#failures.delete(name);
      return { ok: false, error: failure };
    }
    const handler = this.#overrides.get(name) ?? (this.#handlers[name] as ((input: unknown) => unknown) | undefined);
    if (!handler) throw new Error(`FakeLedgerApi: ${name} is not faked`);
    return { ok: true, value: structuredClone(handler(sent)) };
  }

  #categories(): CategoryInfo[] {
    return this.categories
      .map((c) => ({ ...c, count: this.rows.filter((r) => r.category === c.name && r.type === c.type).length }))
      .sort((a, b) => a.type.localeCompare(b.type) || a.sortOrder - b.sortOrder || a.id - b.id);
  }

  /** As main counts them: a transfer names both of its accounts. */
  #accounts(): AccountInfo[] {
    return this.#balances().map(({ id, name, isDefault, count, archived, kind, statementDay, dueDay, creditLimitFen }) => ({
      id,
      name,
      isDefault,
      count,
      archived,
      kind,
      statementDay,
      dueDay,
      creditLimitFen,
    }));
  }

  #balances(): AccountBalance[] {
    return this.accounts.map((a) => {
      let balanceFen = a.initialBalanceFen;
      let count = 0;
      for (const r of this.rows) {
        if (r.account === a.name) {
          count++;
          balanceFen += r.type === 'INCOME' ? r.amountFen : -r.amountFen;
        } else if (r.type === 'TRANSFER' && r.toAccount === a.name) {
          count++;
          balanceFen += r.amountFen;
        }
      }
      return { kind: 'cash' as const, statementDay: null, dueDay: null, creditLimitFen: null, ...a, count, balanceFen };
    });
  }

  #balance(id: number): AccountBalance {
    this.#accountById(id);
    return this.#balances().find((a) => a.id === id)!;
  }

  #categoryById(id: number): CategoryInfo {
    const found = this.categories.find((c) => c.id === id);
    if (!found) throw new Error(`FakeLedgerApi: no category ${id}`);
    return found;
  }

  #accountById(id: number): FakeAccount {
    const found = this.accounts.find((a) => a.id === id);
    if (!found) throw new Error(`FakeLedgerApi: no account ${id}`);
    return found;
  }

  #matching(filter: LedgerFilter): TransactionRow[] {
    return this.rows
      .filter((r) => matches(r, filter))
      .sort((a, b) => b.date.localeCompare(a.date) || b.occurredAt.localeCompare(a.occurredAt) || this.rows.indexOf(b) - this.rows.indexOf(a));
  }

  #historyState(): HistoryState {
    const undo = this.#undo.at(-1);
    const redo = this.#redo.at(-1);
    return { canUndo: !!undo, canRedo: !!redo, undoLabel: undo?.label ?? null, redoLabel: redo?.label ?? null };
  }

  #step(from: HistoryEntry[], to: HistoryEntry[], run: (e: HistoryEntry) => void): HistoryStep {
    const entry = from.pop();
    if (!entry) return { ...this.#historyState(), done: null };
    run(entry);
    to.push(entry);
    this.changed('undo');
    return { ...this.#historyState(), done: entry.label };
  }

  /** Category and account edits are announced like main's history.notify('edit'). */
  #edited<T>(value: T): T {
    this.changed('edit');
    return value;
  }

  /** Tags as main lists them: every tag on some row, most used first. */
  #tags(): TagInfo[] {
    const counts = new Map<string, number>();
    for (const r of this.rows) for (const t of r.tags ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const name of counts.keys()) if (!this.#tagIds.has(name)) this.#tagIds.set(name, this.#nextId++);
    return [...counts].map(([name, count]) => ({ id: this.#tagIds.get(name)!, name, count })).sort((a, b) => b.count - a.count || a.id - b.id);
  }

  #tagById(id: number): TagInfo {
    const found = this.#tags().find((t) => t.id === id);
    if (!found) throw new Error(`FakeLedgerApi: no tag ${id}`);
    return found;
  }

  /** Rewrites every row's tags (renaming, merging or removing one), dropping empty lists. */
  #retag(edit: (tags: string[]) => string[]): void {
    for (const r of this.rows) {
      if (!r.tags) continue;
      const next = [...new Set(edit(r.tags))];
      if (next.length) r.tags = next;
      else delete r.tags;
    }
  }

  #handlers: Handlers = {
    ...recurringHandlers(this),
    listDays: (filter) => {
      const days = new Map<string, DayTotal>();
      for (const r of this.#matching(filter)) {
        const day = days.get(r.date) ?? { date: r.date, count: 0, expenseFen: 0, incomeFen: 0 };
        day.count++;
        if (r.type === 'EXPENSE') day.expenseFen += r.amountFen;
        if (r.type === 'INCOME') day.incomeFen += r.amountFen;
        days.set(r.date, day);
      }
      return [...days.values()];
    },
    // The fake's cursor is a position in its own order (main's is the row's place): a day's
    // top starts at the day's first row, any other cursor where the page before it ended.
    listTransactions: ({ after, limit = 50, ...filter }) => {
      const all = this.#matching(filter);
      const start = !after ? 0 : after.ms === dayTop(after.date).ms ? all.findIndex((r) => r.date <= after.date) : after.rowid;
      const rows = start < 0 ? [] : all.slice(start, start + limit);
      return { rows, next: rows.length === limit ? { date: rows.at(-1)!.date, ms: 0, rowid: start + limit } : null };
    },
    deleteTransactions: ({ ids }) => {
      const removed = this.rows.filter((r) => ids.includes(r.id));
      const remove = () => (this.rows = this.rows.filter((r) => !removed.includes(r)));
      remove();
      this.#undo.push({ label: `删除 ${removed.length} 笔`, undo: () => this.rows.push(...removed), redo: remove });
      this.#redo = [];
      this.changed('delete');
      return { deleted: removed.length };
    },
    undo: () => this.#step(this.#undo, this.#redo, (e) => e.undo()),
    redo: () => this.#step(this.#redo, this.#undo, (e) => e.redo()),
    historyState: () => this.#historyState(),

    listCategories: () => this.#categories(),
    addCategory: ({ name, type, parentId }) => {
      const sortOrder = Math.max(-1, ...this.categories.filter((c) => c.type === type).map((c) => c.sortOrder)) + 1;
      const added = { id: this.#nextId++, name: name.trim(), type, hidden: false, preset: false, sortOrder, count: 0, parentId: parentId ?? null };
      this.categories.push(added);
      return this.#edited(added);
    },
    renameCategory: ({ id, name }) => {
      const c = this.#categoryById(id);
      for (const r of this.rows) if (r.category === c.name && r.type === c.type) r.category = name.trim();
      c.name = name.trim();
      return this.#edited(this.category(c.name, c.type));
    },
    setCategoryParent: ({ id, parentId }) => {
      const c = this.#categoryById(id);
      c.parentId = parentId;
      const parent = parentId === null ? undefined : this.#categoryById(parentId).name;
      for (const r of this.rows) if (r.category === c.name && r.type === c.type) r.parentCategory = parent;
      return this.#edited(this.category(c.name, c.type));
    },
    listTags: () => this.#tags(),
    merchantRules: () => this.merchantRules.map((r) => ({ ...r })),
    deleteMerchantRule: ({ merchant, type }) => {
      this.merchantRules = this.merchantRules.filter((r) => r.merchant !== merchant || r.type !== type);
      return { deleted: true as const };
    },
    renameTag: ({ id, name }) => {
      const old = this.#tagById(id).name;
      if (!this.#tagIds.has(name)) this.#tagIds.set(name, id);
      this.#retag((tags) => tags.map((t) => (t === old ? name : t)));
      return this.#edited(this.#tags().find((t) => t.name === name)!);
    },
    deleteTag: ({ id }) => {
      const gone = this.#tagById(id);
      this.#retag((tags) => tags.filter((t) => t !== gone.name));
      return this.#edited({ deleted: true as const, rows: gone.count });
    },
    setCategoryHidden: ({ id, hidden }) => {
      const c = this.#categoryById(id);
      c.hidden = hidden;
      return this.#edited(this.category(c.name, c.type));
    },
    reorderCategories: ({ type, ids }) => {
      ids.forEach((id, i) => (this.#categoryById(id).sortOrder = i));
      return this.#edited(this.#categories().filter((c) => c.type === type));
    },
    deleteCategory: ({ id, moveTo }) => {
      const gone = this.#categoryById(id);
      const target = moveTo === undefined ? null : this.#categoryById(moveTo);
      const moving = this.rows.filter((r) => r.category === gone.name && r.type === gone.type);
      if (target) for (const r of moving) r.category = target.name;
      this.categories = this.categories.filter((c) => c.id !== gone.id);
      return this.#edited({ deleted: true as const, moved: target ? moving.length : 0 });
    },

    listAccounts: () => this.#accounts(),
    addAccount: ({ name, initialBalanceYuan = 0 }) => {
      const added = {
        id: this.#nextId++,
        name: name.trim(),
        isDefault: false,
        initialBalanceFen: yuanToFen(initialBalanceYuan),
        archived: false,
        preset: false,
      };
      this.accounts.push(added);
      return this.#edited(this.#accounts().find((a) => a.id === added.id)!);
    },
    renameAccount: ({ id, name }) => {
      const a = this.#accountById(id);
      for (const r of this.rows) if (r.account === a.name) r.account = name.trim();
      a.name = name.trim();
      return this.#edited(this.#accounts().find((x) => x.id === id)!);
    },
    setDefaultAccount: ({ id }) => {
      this.#accountById(id);
      for (const a of this.accounts) a.isDefault = a.id === id;
      return this.#edited(this.#accounts());
    },
    deleteAccount: ({ id }) => {
      this.accounts = this.accounts.filter((a) => a.id !== this.#accountById(id).id);
      return this.#edited({ deleted: true as const });
    },
    accountBalances: () => {
      const accounts = this.#balances();
      return { accounts, totalFen: accounts.reduce((n, a) => n + a.balanceFen, 0) };
    },
    archiveAccount: ({ id, archived }) => {
      this.#accountById(id).archived = archived;
      return this.#edited(this.#balance(id));
    },

    exportFile: ({ format, filter }) => {
      if (this.saveDir === null) return null;
      const path = `${this.saveDir}/随口记_${fileStamp(new Date())}.${format}`;
      const rows = this.#matching(filter ?? {});
      this.exported.push({ path, format, rows });
      return { path, rows: rows.length, pictures: 0, folder: null };
    },
    openImportFile: () => this.openFile,

    // Sync as seen from the renderer: a reachable, empty remote; configuring it finishes a
    // round at once. The engine itself (encryption, merging, back-off) is main's and tested there.
    syncStatus: () => this.sync,
    syncTest: () => ({ reachable: true, existing: false, message: '连接成功，这是一个新的同步位置。', localRows: 0 }),
    syncConfigure: ({ remote, deviceName }) => {
      const shown =
        remote.kind === 'webdav'
          ? { kind: remote.kind, url: remote.url.trim(), user: remote.user.trim() }
          : { kind: remote.kind, path: remote.path.trim() };
      const name = deviceName.trim();
      this.sync = {
        ...this.sync,
        state: 'idle',
        remote: shown,
        deviceName: name,
        lastSyncAt: new Date().toISOString(),
        pending: 0,
        error: null,
        retryAt: null,
        devices: [{ id: this.sync.deviceId, name, lastSeen: new Date().toISOString(), self: true, books: null, rows: null }],
      };
      return this.sync;
    },
    syncNow: () => {
      if (this.sync.state === 'off') return this.sync;
      this.sync = { ...this.sync, state: 'idle', lastSyncAt: new Date().toISOString(), pending: 0, error: null, retryAt: null };
      return this.sync;
    },
    syncStop: () => (this.sync = { ...SYNC_OFF, deviceId: this.sync.deviceId, deviceName: this.sync.deviceName }),
    syncChooseFolder: () => ({ path: this.syncFolder }),

    listBooks: () => this.books,
    createBook: ({ name, switchTo }) => {
      if (this.books.books.some((b) => b.name === name)) throw new Error(`FakeLedgerApi: a book named ${name} exists`);
      const id = `b-${String(this.books.books.length).padStart(16, '0')}`;
      this.books = {
        current: switchTo ? id : this.books.current,
        books: [...this.books.books, { id, name, createdAt: new Date().toISOString(), archived: false }],
      };
      return this.#booksChanged();
    },
    renameBook: ({ id, name }) => {
      this.books = { ...this.books, books: this.books.books.map((b) => (b.id === id ? { ...b, name } : b)) };
      return this.#booksChanged();
    },
    archiveBook: ({ id, archived }) => {
      this.books = { ...this.books, books: this.books.books.map((b) => (b.id === id ? { ...b, archived } : b)) };
      return this.#booksChanged();
    },
    switchBook: ({ id }) => {
      this.books = { ...this.books, current: id };
      return this.#booksChanged();
    },
  };

  #booksChanged(): BookListing {
    this.emit({ channel: 'books', event: { type: 'changed', listing: structuredClone(this.books) } });
    return this.books;
  }
}

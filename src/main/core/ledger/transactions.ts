import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DEFAULT_CURRENCY, OTHER_CATEGORY } from '@shared/categories';
import {
  DEBT_FLOWS,
  isTransactionType,
  type DraftBatchDto,
  type LedgerFlow,
  type ParseResult,
  type Recurrence,
  type TransactionRow,
  type TransactionType,
} from '@shared/domain';
import type { Page } from '@shared/ipc/index';
import type { ImportChoices, ImportRowStatus, LedgerFilter, ListCursor } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { formatOffset, isCalendarDate, localDate, toZonedIso, type ZonedNow } from '@shared/time';
import { matchCategory } from '../categories/index';
import type { Accounts } from './accounts';
import type { Categories } from './categories';
import type { DraftStore } from './draft-store';
import { editedTarget, prepareEntry, type ManualEntry, type PreparedEntry } from './entries';
import { LedgerNotFoundError, LedgerValidationError } from './errors';
import { filterClause, likePattern } from './filter';
import { SaveCategories } from './save-categories';
import { writtenRows } from './import-writes';
import type { Merchants } from './merchants';
import type { MoneyFlows } from './money-flows';
import { cleanTags, TAG_SEPARATOR, type Tags } from './tags';
import type { ExportCursor, ExportRow, ImportRow, ListQuery, RawTransaction, SavedBatch, TransactionPatch } from './types';

/**
 * A row as SELECT_ROW reads it, as an array (rows are read raw: half the cost of objects,
 * measured): its columns with the names it refers to joined in, and its tags joined by
 * TAG_SEPARATOR (null: none). refundOf is the refunded expense when it still exists,
 * refundLink the stored link. toRow makes the app's shape of it.
 */
type RowCells = [
  id: string,
  amountFen: number,
  currency: string,
  type: TransactionType,
  category: string,
  account: string,
  description: string,
  occurredAt: string,
  date: string,
  source: TransactionRow['source'],
  createdAt: string,
  updatedAt: string,
  toAccount: string | null,
  counterparty: string,
  flow: LedgerFlow | null,
  person: string | null,
  refundOf: string | null,
  refundLink: string | null,
  refundDate: string | null,
  refundDescription: string | null,
  refundAmount: number | null,
  reimbursable: number,
  reimbursedBy: string | null,
  parentCategory: string | null,
  recordedBy: string | null,
  tags: string | null,
];

/** With the row's place in the list's order, for the cursor of the next page. */
type Cells = [...RowCells, occurredMs: number, rowid: number];

const ROW_COLUMNS = `
  SELECT t.id, t.amount_fen, t.currency, t.type, c.name, a.name, t.description, t.occurred_at, t.occurred_date, t.source,
         t.created_at, t.updated_at, ta.name, t.counterparty, t.flow, p.name, rf.id, t.refund_of, rf.occurred_date, rf.description,
         rf.amount_fen, t.reimbursable, rb.id, pc.name, t.recorded_by,
         (SELECT group_concat(g.name, '${TAG_SEPARATOR}' ORDER BY tt.rowid) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
          WHERE tt.transaction_id = t.id),
         t.occurred_ms, t.rowid`;

/**
 * The names a row refers to, joined to `transactions t`. CROSS JOIN keeps t the outer loop:
 * the names are looked up for the rows t's own index chose, never t reached through them (with
 * statistics from an older schema the planner once walked every account's rows and sorted them).
 */
const ROW_JOINS = `
  CROSS JOIN categories c ON c.id = t.category_id
  LEFT JOIN categories pc ON pc.id = c.parent_id
  CROSS JOIN accounts a ON a.id = t.account_id
  LEFT JOIN accounts ta ON ta.id = t.to_account_id
  LEFT JOIN people p ON p.id = t.person_id
  LEFT JOIN transactions rf ON rf.id = t.refund_of
  LEFT JOIN transactions rb ON rb.id = t.reimbursed_by`;

const SELECT_ROW = `${ROW_COLUMNS} FROM transactions t ${ROW_JOINS}`;

/** The list's order, newest first (see Transactions.list). */
const LIST_ORDER = 'ORDER BY t.occurred_date DESC, t.occurred_ms DESC, t.rowid DESC';

// Optional fields are assigned, not spread in: a page maps fifty rows, and each spread
// literal costs microseconds on Node 20 (measured), as much as reading the row.
function toRow(cells: RowCells | Cells): TransactionRow {
  const [
    id,
    amountFen,
    currency,
    type,
    category,
    account,
    description,
    occurredAt,
    date,
    source,
    createdAt,
    updatedAt,
    toAccount,
    counterparty,
    flow,
    person,
    refundOf,
    refundLink,
    refundDate,
    refundDescription,
    refundAmount,
    reimbursable,
    reimbursedBy,
    parentCategory,
    recordedBy,
    tags,
  ] = cells;
  const row: TransactionRow = { id, amountFen, currency, type, category, account, description, occurredAt, date, source, createdAt, updatedAt };
  if (type === 'TRANSFER') {
    row.toAccount = toAccount;
    row.counterparty = counterparty;
  }
  if (flow) row.flow = flow;
  if (person !== null) row.person = person;
  if (flow === 'refund') {
    row.refundOf = refundOf;
    if (refundOf !== null) row.refundTarget = { date: refundDate!, description: refundDescription!, amountFen: refundAmount! };
    else if (source === 'import' && refundLink !== null) row.awaitingPurchase = true;
  }
  if (reimbursable === 1) row.reimbursable = true;
  if (reimbursedBy !== null) row.reimbursedBy = reimbursedBy;
  if (parentCategory !== null) row.parentCategory = parentCategory;
  if (tags !== null) row.tags = tags.split(TAG_SEPARATOR);
  if (recordedBy !== null) row.recordedBy = recordedBy;
  return row;
}

/** Where the page after this row starts. */
function cursorOf(cells: Cells): ListCursor {
  return { date: cells[8], ms: cells[26], rowid: cells[27] };
}

/**
 * The open account a spoken name means: the one of that name, else the one account whose
 * name holds it (微信 → 「微信钱包」). Several such accounts (「微信A」「微信B」) are
 * ambiguous and none at all is unknown: undefined, and the entry takes the default.
 */
export function openAccountFor(spoken: string, open: ReadonlyMap<string, number>): number | undefined {
  const exact = open.get(spoken);
  if (exact !== undefined) return exact;
  const holding = [...open].filter(([name]) => name.includes(spoken));
  return holding.length === 1 ? holding[0]![1] : undefined;
}

/**
 * The rows of the transactions table: voice saves, form entries, edits, deletes, imports,
 * undo/redo's raw rows, and the row reads (list, search, export). Only deleting a category
 * with its rows moved writes them elsewhere (./categories.ts). The voice card is written in
 * the same SQLite transaction as the save that leaves it.
 */
export class Transactions {
  private readonly insertStmt: Database.Statement;
  private readonly occurrenceStmt: Database.Statement;
  private readonly idOfRowid: Database.Statement;
  private readonly selectByIds: Database.Statement;
  private readonly rawById: Database.Statement;
  private readonly statements = new Map<string, Database.Statement>();
  /** Runs a function in one transaction: made once, as making one takes longer than an insert (measured). */
  private readonly inTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
    private readonly parts: {
      categories: Categories;
      accounts: Accounts;
      drafts: DraftStore;
      flows: MoneyFlows;
      tags: Tags;
      merchants: Merchants;
      /**
       * The name of the computer every new row is recorded on (记账人), read at each insert so
       * a renamed computer records its new name from then on; null records none.
       */
      recorder: () => string | null;
    },
  ) {
    // Positional: binding its 22 parameters by name made a ten-item save about a tenth slower (measured).
    this.insertStmt = this.db.prepare(
      `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
         occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty,
         flow, person_id, refund_of, reimbursable, reimbursed_by, recurrence_key, recorded_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Without an id, and with only the occurrence's key to collide on: then the occurrence is
    // there already. Positional, as catch-up writes a thousand of these at a time.
    this.occurrenceStmt = this.db.prepare(
      `INSERT INTO transactions (amount_fen, currency, type, category_id, account_id, description, occurred_at, occurred_date,
         occurred_ms, source, created_at, updated_at, to_account_id, counterparty, recurrence_key, recorded_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.idOfRowid = this.db.prepare('SELECT id FROM transactions WHERE rowid = ?').pluck();
    // Ids as one JSON array: one statement for any number of them.
    this.selectByIds = this.db.prepare(`${SELECT_ROW} WHERE t.id IN (SELECT value FROM json_each(?))`).raw(true);
    this.rawById = this.db.prepare('SELECT * FROM transactions WHERE id = ?');
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Inserts one row with its tags (already clean); the money-flow columns default to none and
   * the recorder to this computer (a row put back by undo brings its own, even none).
   */
  private insertTx(row: InsertRow): void {
    this.insertStmt.run(
      row.id,
      row.amountFen,
      row.currency,
      row.type,
      row.categoryId,
      row.accountId,
      row.description,
      row.occurredAt,
      row.occurredDate,
      row.occurredMs,
      row.source,
      row.createdAt,
      row.updatedAt,
      row.toAccountId,
      row.counterparty,
      row.flow ?? null,
      row.personId ?? null,
      row.refundOf ?? null,
      row.reimbursable ?? 0,
      row.reimbursedBy ?? null,
      row.recurrenceKey ?? null,
      row.recordedBy === undefined ? this.parts.recorder() : row.recordedBy,
    );
    if (row.tags && row.tags.length > 0) this.parts.tags.attach(row.id, row.tags);
  }

  /**
   * Inserts an occurrence of a recurring rule under its key (call inside the caller's
   * transaction). Its id is left to the sync declaration, which derives it from the key (see
   * sync/tables.ts). Returns the row's id, or null when that occurrence exists already.
   */
  insertOccurrence(row: Omit<PreparedEntry, 'counterparty'> & { stamp: string; recurrenceKey: string }): string | null {
    const info = this.occurrenceStmt.run(
      row.amountFen,
      DEFAULT_CURRENCY,
      row.type,
      row.categoryId,
      row.accountId,
      row.description,
      row.occurredAt,
      row.occurredDate,
      row.occurredMs,
      'recurring',
      row.stamp,
      row.stamp,
      row.toAccountId,
      '',
      row.recurrenceKey,
      this.parts.recorder(),
    );
    return info.changes === 0 ? null : (this.idOfRowid.get(info.lastInsertRowid) as string);
  }

  /**
   * Validates every item first, then writes all of them in ONE transaction: a bad item
   * rejects the whole batch and nothing is written (spec: 批量保存失败回滚).
   */
  saveBatch(
    results: readonly ParseResult[],
    options: {
      now?: ZonedNow;
      source?: TransactionRow['source'];
      drafts?: DraftBatchDto | null;
      /**
       * An item that repeats (「每个月五号交房租」) becomes a rule instead of a row, in this
       * transaction: what it makes now is the id of its first entry, or null when none is due yet.
       */
      asRule?: (entry: PreparedEntry & { tags?: readonly string[] }, rule: Recurrence, index: number) => string | null;
    } = {},
  ): SavedBatch {
    const now = options.now ?? this.clock();
    const categories = new SaveCategories(this.parts.categories);
    // An archived account takes no new entries: a spoken 「招行」 then lands in the default. The
    // open accounts are read only for an item that names one or is a transfer.
    let open: ReadonlyMap<string, number> | undefined;
    const openAccounts = () => (open ??= this.parts.accounts.openIds());
    const refunded = new Map<string, number>();
    const recordedBy = this.parts.recorder();
    // The save's instant, formatted once for all its items.
    const stamp = toZonedIso(now);
    const today = localDate(now);
    // Validation may create the people a batch names: all of it runs in the write's
    // transaction, so a refused item leaves no stray person behind (and the reads share it).
    const write = () => {
      const fallback = this.parts.accounts.defaultAccount();
      const accountOf = (spoken: string | null | undefined): number => (spoken ? openAccountFor(spoken, openAccounts()) : undefined) ?? fallback.id;
      const prepared = results.map((result, i) =>
        this.prepareParsed(result, i, { now, stamp, today, categories, accountOf, openAccounts, refunded, source: options.source, recordedBy }),
      );
      const ids: string[] = [];
      prepared.forEach((p, i) => {
        const rule = results[i]!.recurrence;
        if (!rule || !options.asRule) {
          this.insertTx(p);
          ids.push(p.id);
          return;
        }
        // A rule makes plain entries: the links of a money flow cannot repeat.
        if (results[i]!.flow) throw new LedgerValidationError(i, '借贷、退款和报销不能设为周期记账');
        const made = options.asRule(p, rule, i);
        if (made !== null) ids.push(made);
      });
      // A reimbursement settles the expenses chosen on its card, or else the oldest that fit.
      results.forEach((result, i) => {
        if (result.flow !== 'reimbursement') return;
        const ids = result.settles ?? this.parts.flows.proposeSettlement(prepared[i]!.amountFen).ids;
        this.parts.flows.settle(prepared[i]!.id, ids);
      });
      // The card that remains is written in the same transaction: a crash between the two
      // must not bring back, as drafts, items that were saved.
      if (options.drafts !== undefined) this.parts.drafts.keep(options.drafts);
      return { ids, prepared, fallback };
    };
    const { ids, prepared, fallback } = this.inTransaction(write) as ReturnType<typeof write>;
    // An item of a money flow holds more than it said (a person's name, the refunded expense,
    // expenses its reimbursement settled), and a rule's entry is written by the rule: those
    // rows are read back. Any other row is what was written, so it is not read again.
    const plain = results.every((r) => !r.flow && !(r.recurrence && options.asRule));
    const accountNames = new Map([[fallback.id, fallback.name], ...[...(open ?? [])].map(([name, id]) => [id, name] as const)]);
    return (plain && asWritten(prepared, categories.names, accountNames)) || { rows: this.getMany(ids), raw: this.rawRows(ids) };
  }

  private prepareParsed(
    result: ParseResult,
    i: number,
    ctx: {
      now: ZonedNow;
      /** `now` as stored, and its day. */
      stamp: string;
      today: string;
      categories: SaveCategories;
      accountOf: (spoken: string | null | undefined) => number;
      openAccounts: () => ReadonlyMap<string, number>;
      refunded: Map<string, number>;
      source: TransactionRow['source'] | undefined;
      recordedBy: string | null;
    },
  ): InsertRow {
    const { now, stamp } = ctx;
    const amountFen = validateAmount(result.amount, i);
    if (!isTransactionType(result.type)) throw new LedgerValidationError(i, `类型无效（${String(result.type)}）`);
    if (result.date !== null && result.date !== undefined && !isCalendarDate(result.date)) {
      throw new LedgerValidationError(i, `日期无效（${result.date}）`);
    }
    const flow = this.parts.flows.columnsFor(result, i, amountFen, ctx.refunded);
    // A refund is money back for spending: it lives in an expense category, the linked
    // expense's when it has one; a reimbursement in an income one. Never a hidden one: the
    // pickers could not offer it again (a card kept from before it was hidden says one).
    const categoryId = flow.categoryId ?? ctx.categories.place(result.category, flow.type, result.description);
    if (categoryId === undefined) throw new LedgerValidationError(i, '没有可用的分类');
    const occurred = occurrence(result.date, now, stamp, ctx.today, result.time);
    const accountId = ctx.accountOf(result.account);
    return {
      id: randomUUID(),
      amountFen,
      currency: DEFAULT_CURRENCY,
      type: flow.type,
      categoryId,
      accountId,
      description: (result.description ?? '').trim().slice(0, 200),
      occurredAt: occurred.iso,
      occurredDate: occurred.date,
      occurredMs: occurred.ms,
      source: ctx.source ?? result.source,
      createdAt: stamp,
      updatedAt: stamp,
      toAccountId: flow.type === 'TRANSFER' && !flow.flow ? this.spokenTarget(result.description, accountId, ctx.openAccounts()) : null,
      counterparty: flow.counterparty,
      flow: flow.flow,
      personId: flow.personId,
      refundOf: flow.refundOf,
      reimbursable: flow.reimbursable,
      recordedBy: ctx.recordedBy,
      tags: tagsOf(result.tags, i),
    };
  }

  /**
   * The user's own account a spoken transfer goes to: the one open account its words name
   * (「转到支付宝」), or for 「还信用卡」 the one credit card. Null: it left to someone else.
   */
  private spokenTarget(description: string | undefined, from: number, open: ReadonlyMap<string, number>): number | null {
    const words = description ?? '';
    const named = [...open].filter(([name, id]) => id !== from && words.includes(name));
    if (named.length === 1) return named[0]![1];
    if (named.length === 0 && words.includes('信用卡')) {
      const cards = this.parts.accounts.openCards().filter((id) => id !== from);
      if (cards.length === 1) return cards[0]!;
    }
    return null;
  }

  /** Saves one entry of the 记一笔 form (rules in ./entries.ts). */
  add(entry: ManualEntry): TransactionRow {
    const now = this.clock();
    const prepared = prepareEntry(entry, { categories: this.parts.categories.candidates(), accounts: this.parts.accounts, now });
    const tags = cleanTags(entry.tags);
    const id = randomUUID();
    const stamp = toZonedIso(now);
    this.db.transaction(() =>
      this.insertTx({ id, ...prepared, currency: DEFAULT_CURRENCY, source: 'manual', createdAt: stamp, updatedAt: stamp, tags }),
    )();
    return this.get(id)!;
  }

  update(id: string, patch: TransactionPatch): TransactionRow {
    const current = this.get(id);
    if (!current) throw new LedgerNotFoundError(id);
    const type = patch.type ?? current.type;
    if (!isTransactionType(type)) throw new LedgerValidationError(0, `类型无效（${String(type)}）`);
    const amountFen = patch.amountFen ?? current.amountFen;
    if (!Number.isInteger(amountFen) || amountFen <= 0 || amountFen > MAX_AMOUNT_YUAN * 100) {
      throw new LedgerValidationError(0, '金额无效');
    }
    const categoryName = patch.category ?? (patch.type && patch.type !== current.type ? null : current.category);
    const category = matchCategory(categoryName, type, this.parts.categories.candidates());
    if (!category) throw new LedgerValidationError(0, '没有可用的分类');
    const accountIds = this.parts.accounts.ids();
    const accountId = patch.account ? accountIds.get(patch.account) : undefined;
    if (patch.account && accountId === undefined) throw new LedgerValidationError(0, `账户不存在（${patch.account}）`);
    // A row may stay in its archived account; none moves into one.
    if (patch.account && patch.account !== current.account && !this.parts.accounts.openIds().has(patch.account)) {
      throw new LedgerValidationError(0, `账户「${patch.account}」已归档`);
    }
    const raw = this.rawRows([id])[0]!;
    const target = editedTarget(type, patch, raw, accountId, accountIds);
    const flow = this.editedFlow(raw, type, amountFen, patch);
    let occurredAt = current.occurredAt;
    let occurredDate = current.date;
    if (patch.date && patch.date !== current.date) {
      if (!isCalendarDate(patch.date)) throw new LedgerValidationError(0, `日期无效（${patch.date}）`);
      occurredAt = patch.date + current.occurredAt.slice(10);
      occurredDate = patch.date;
    }
    const tags = patch.tags === undefined ? undefined : cleanTags(patch.tags);
    const write = this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE transactions SET amount_fen = ?, type = ?, category_id = ?, account_id = COALESCE(?, account_id),
           description = ?, occurred_at = ?, occurred_date = ?, occurred_ms = ?, updated_at = ?,
           to_account_id = ?, counterparty = ?, refund_of = ?, reimbursable = ?, reimbursed_by = ? WHERE id = ?`,
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
          raw.person_id !== null ? raw.counterparty : target.counterparty,
          flow.refundOf,
          flow.reimbursable,
          flow.reimbursedBy,
          id,
        );
      if (tags !== undefined) this.parts.tags.replace(id, tags);
      // The user filing a bill's row under a category of their choice: that merchant's next
      // imports follow (a category re-filed only because the type flipped teaches nothing).
      if (patch.category !== undefined && (category.name !== current.category || type !== current.type)) {
        this.parts.merchants.learn(id, type, category.id);
      }
    });
    write();
    return this.get(id)!;
  }

  /**
   * The money-flow columns after an edit, or a refusal: a flow row keeps its type (a debt is
   * not spending), a refund never exceeds what is left of its expense, an expense never drops
   * below what was refunded of it, and only plain expenses are 待报销.
   */
  private editedFlow(
    raw: RawTransaction,
    type: TransactionType,
    amountFen: number,
    patch: TransactionPatch,
  ): { refundOf: string | null; reimbursable: 0 | 1; reimbursedBy: string | null } {
    if (raw.flow !== null && type !== raw.type) throw new LedgerValidationError(0, '借贷、退款和报销记录不能改类型');
    const refunded = raw.flow === null && raw.type === 'EXPENSE' ? this.parts.flows.refundedFen(raw.id) : 0;
    if (refunded > 0 && type !== 'EXPENSE') throw new LedgerValidationError(0, '这笔支出有退款，不能改类型');
    if (amountFen < refunded) throw new LedgerValidationError(0, `这笔支出已退款 ${(refunded / 100).toFixed(2)} 元，金额不能更小`);
    let refundOf = raw.refund_of;
    if (raw.flow === 'refund') {
      if (patch.refundOf !== undefined) refundOf = patch.refundOf;
      if (refundOf !== null) {
        const expense = this.parts.flows.refundTarget(refundOf);
        if (expense) {
          const others = this.parts.flows.refundedFen(refundOf) - (raw.refund_of === refundOf ? raw.amount_fen : 0);
          if (amountFen > expense.amountFen - others) {
            throw new LedgerValidationError(0, `退款超过了原支出可退的 ${((expense.amountFen - others) / 100).toFixed(2)} 元`);
          }
        } else if (patch.refundOf !== undefined) {
          throw new LedgerValidationError(0, '要退款的那笔支出不存在了');
        }
      }
    }
    const plainExpense = raw.flow === null && type === 'EXPENSE';
    const reimbursable = plainExpense
      ? patch.reimbursable === undefined
        ? raw.reimbursable
        : patch.reimbursable
          ? 1
          : 0
      : raw.flow === 'refund'
        ? raw.reimbursable
        : 0;
    if (patch.reimbursable && !plainExpense) throw new LedgerValidationError(0, '只有支出可以标记待报销');
    return { refundOf, reimbursable, reimbursedBy: reimbursable === 1 ? raw.reimbursed_by : null };
  }

  /**
   * Writes off what a person will never pay back (at most what they owe): an expense of
   * 坏账 or 其他 that moves no account's money and brings their balance down.
   */
  writeOff(personId: number, amountFen: number, note = ''): TransactionRow {
    const person = this.parts.flows.person(personId);
    if (!Number.isInteger(amountFen) || amountFen <= 0) throw new LedgerValidationError(0, '金额必须大于0');
    if (amountFen > person.balanceFen) {
      throw new LedgerValidationError(
        0,
        person.balanceFen > 0 ? `${person.name}只欠 ${(person.balanceFen / 100).toFixed(2)} 元` : `${person.name}没有欠款`,
      );
    }
    // The user's own 坏账 category when there is one; never a near name (坏账 is not 账单).
    const expense = this.parts.categories.candidates().filter((c) => c.type === 'EXPENSE');
    const category = expense.find((c) => c.name === '坏账') ?? expense.find((c) => c.name === OTHER_CATEGORY);
    if (!category) throw new LedgerValidationError(0, '没有可用的分类');
    const now = this.clock();
    const stamp = toZonedIso(now);
    const id = randomUUID();
    this.insertTx({
      id,
      amountFen,
      currency: DEFAULT_CURRENCY,
      type: 'EXPENSE',
      categoryId: category.id,
      accountId: this.parts.accounts.defaultId(),
      description: note.trim().slice(0, 200) || `坏账：${person.name}`,
      occurredAt: stamp,
      occurredDate: localDate(now),
      occurredMs: now.epochMs,
      source: 'manual',
      createdAt: stamp,
      updatedAt: stamp,
      toAccountId: null,
      counterparty: person.name,
      flow: 'writeoff',
      personId,
    });
    return this.get(id)!;
  }

  /**
   * Deletes rows. An imported row deleted by the user is remembered, so importing its bill
   * again leaves it out; an undone import ('undone') is not such a choice.
   */
  deleteMany(ids: readonly string[], how: 'deleted' | 'undone' = 'deleted'): number {
    const del = this.db.prepare('DELETE FROM transactions WHERE id = ?');
    const remember = this.db.prepare(
      "INSERT OR REPLACE INTO import_removals (transaction_id, how) SELECT id, ? FROM transactions WHERE id = ? AND source = 'import'",
    );
    return this.db.transaction(() =>
      ids.reduce((n, id) => {
        remember.run(how, id);
        return n + del.run(id).changes;
      }, 0),
    )();
  }

  delete(id: string): void {
    if (this.deleteMany([id]) === 0) throw new LedgerNotFoundError(id);
  }

  get(id: string): TransactionRow | undefined {
    return this.getMany([id])[0];
  }

  /** Rows in the order of `ids` (ids that do not exist are skipped). */
  getMany(ids: readonly string[]): TransactionRow[] {
    const byId = new Map((this.selectByIds.all(JSON.stringify(ids)) as Cells[]).map((cells) => [cells[0], cells]));
    return ids.flatMap((id) => {
      const cells = byId.get(id);
      return cells ? [toRow(cells)] : [];
    });
  }

  /**
   * A page of the list, newest first: day, then time, then rowid — the order the day index
   * (occurred_date, occurred_ms) keeps rows in, so a page reads its rows and no others, and
   * rows written together (one save shares one instant) keep the order they were written in.
   * Rows with the same instant are never skipped or repeated, and a row written between two
   * pages shifts nothing after the cursor. Rowids are stable while the file is open (only a
   * VACUUM renumbers them, and the app runs none on its open ledger).
   */
  list(query: ListQuery = {}): Page<TransactionRow> {
    const { after, limit = 50, ...filter } = query;
    // A cursor inside the range bounds the page from above in place of the range's end, so the
    // index is entered at the cursor rather than read down from the end. One above the range
    // (a stale day's top) bounds nothing: the page is the first.
    const keyset = after !== undefined && (filter.to === undefined || after.date <= filter.to);
    const { where, params } = filterClause(keyset ? { ...filter, to: undefined } : filter);
    const page = `${keyset ? `${where ? `${where} AND` : 'WHERE'} (t.occurred_date, t.occurred_ms, t.rowid) < (?, ?, ?)` : where} ${LIST_ORDER} LIMIT ?`;
    // A set of categories, an account, a person or a tag is read from its own index, in list
    // order for each of its ids; the page's rowids are picked from the index alone, and only
    // those rows are read and joined (joined first, the whole set was read, then sorted).
    const ofSet = filter.category !== undefined || filter.account !== undefined || filter.person !== undefined || filter.tag !== undefined;
    const sql = ofSet
      ? `${ROW_COLUMNS} FROM (SELECT t.rowid AS r FROM transactions t ${page}) page JOIN transactions t ON t.rowid = page.r ${ROW_JOINS} ${LIST_ORDER}`
      : `${SELECT_ROW} ${page}`;
    const rows = this.statement(sql)
      .raw(true)
      .all(...params, ...(keyset ? [after.date, after.ms, after.rowid] : []), limit) as Cells[];
    const last = rows.length === limit ? rows.at(-1) : undefined;
    return { rows: rows.map(toRow), next: last ? cursorOf(last) : null };
  }

  count(query: LedgerFilter = {}): number {
    const { where, params } = filterClause(query);
    return this.statement(`SELECT COUNT(*) FROM transactions t ${where}`)
      .pluck()
      .get(...params) as number;
  }

  /** The statement of this SQL, prepared on first use: one per shape of filter (which fields it gives), a handful in practice. */
  private statement(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * Oldest first, streamed row by row so a large export never holds every row twice.
   * Rows are ExportRow arrays; occurredMs and rowid make the keyset cursor of the next chunk,
   * so chunk n costs the same as chunk 1 however large the ledger (OFFSET would re-read every
   * row before it).
   */
  iterateForExport(query: LedgerFilter, after: ExportCursor | null, limit: number): IterableIterator<ExportRow> {
    const { where, params } = filterClause(query);
    const keyset = after ? `${where ? `${where} AND` : 'WHERE'} (t.occurred_date, t.occurred_ms, t.rowid) > (?, ?, ?)` : where;
    const stmt = this.db
      .prepare(
        `SELECT t.occurred_date, t.occurred_at, t.type, c.name, t.amount_fen, a.name, t.description, t.occurred_ms, t.rowid,
                ta.name, t.counterparty, t.flow, t.reimbursable, t.id, t.refund_of, t.reimbursed_by,
                (SELECT group_concat(g.name, '${TAG_SEPARATOR}' ORDER BY tt.rowid) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
                 WHERE tt.transaction_id = t.id),
                pc.name
         FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
         LEFT JOIN accounts ta ON ta.id = t.to_account_id LEFT JOIN categories pc ON pc.id = c.parent_id
         ${keyset} ORDER BY t.occurred_date, t.occurred_ms, t.rowid LIMIT ?`,
      )
      .raw(true);
    const keyParams = after ? [after.date, after.ms, after.rowid] : [];
    return stmt.iterate(...params, ...keyParams, limit) as IterableIterator<ExportRow>;
  }

  /** Substring search on description and category name, newest first. */
  search(text: string, limit = 50): TransactionRow[] {
    const pattern = likePattern(text);
    const rows = this.statement(
      `${SELECT_ROW} WHERE t.description LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\'
       ORDER BY t.occurred_date DESC, t.occurred_ms DESC LIMIT ?`,
    )
      .raw(true)
      .all(pattern, pattern, limit) as Cells[];
    return rows.map(toRow);
  }

  // ---- raw rows, for undo/redo ------------------------------------------------------

  rawRows(ids: readonly string[]): RawTransaction[] {
    return ids.flatMap((id) => {
      const r = this.rawById.get(id) as RawTransaction | undefined;
      return r ? [{ ...r, tags: this.parts.tags.of(id) }] : [];
    });
  }

  /** Puts rows back exactly as they were (same ids, stamps and references), all or nothing. */
  insertRaw(rows: readonly RawTransaction[]): void {
    this.db.transaction(() => {
      for (const r of rows) {
        this.insertTx({
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
          flow: r.flow,
          personId: r.person_id,
          refundOf: r.refund_of,
          reimbursable: r.reimbursable,
          reimbursedBy: r.reimbursed_by,
          recurrenceKey: r.recurrence_key,
          recordedBy: r.recorded_by ?? null,
          tags: r.tags,
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
         to_account_id = @to_account_id, counterparty = @counterparty, flow = @flow, person_id = @person_id,
         refund_of = @refund_of, reimbursable = @reimbursable, reimbursed_by = @reimbursed_by WHERE id = @id`,
    );
    this.db.transaction(() => {
      for (const { tags, ...r } of rows) {
        if (update.run(r).changes === 0) throw new LedgerNotFoundError(r.id);
        if (tags !== undefined) this.parts.tags.replace(r.id, tags);
      }
    })();
  }

  // ---- import -------------------------------------------------------------------------

  /**
   * Writes imported rows in ONE transaction; missing categories and accounts are created so
   * nothing in the file is lost. Which rows are new (see importStatus) is decided against the
   * ledger as it is now. With dryRun nothing is written.
   */
  importRows(rows: readonly ImportRow[], options: ImportOptions = {}): { ids: string[]; status: ImportRowStatus[] } {
    const now = options.now ?? this.clock();
    const offset = formatOffset(now.offsetMinutes);
    const stamp = toZonedIso(now);
    const status = this.importStatus(rows, options.byIdentity ?? false);
    if (options.dryRun) return { ids: [], status };
    const writes = writtenRows(status, options.choices);
    const ids: string[] = [];
    this.db.transaction(() => {
      const categoryIds = new Map<string, number>();
      for (const c of this.db.prepare('SELECT id, name, type FROM categories').all() as { id: number; name: string; type: string }[]) {
        categoryIds.set(`${c.type}:${c.name}`, c.id);
      }
      const accountIds = this.parts.accounts.ids();
      const accountId = (name: string): number => {
        let id = accountIds.get(name);
        if (id === undefined) {
          id = this.parts.accounts.add(name).id;
          accountIds.set(name, id);
        }
        return id;
      };
      const rowIds = this.importIds(rows, writes);
      const linked = (fileId: string | undefined) => (fileId ? (rowIds.get(fileId) ?? fileId) : null);
      const categoryId = (name: string, type: TransactionType, parent?: string): number => {
        let id = categoryIds.get(`${type}:${name}`);
        if (id === undefined) {
          // A sub-category of the file comes back under its parent, made first when missing;
          // a name the ledger already has keeps its own place in the tree.
          const parentId = parent && parent !== name ? categoryId(parent, type) : null;
          const usable = parentId !== null && !this.parts.categories.parents().has(parentId) ? parentId : null;
          id = this.parts.categories.add(name, type, usable).id;
          categoryIds.set(`${type}:${name}`, id);
        }
        return id;
      };
      rows.forEach((r, i) => {
        if (!writes(i)) return;
        const occurredAt = `${r.date}T${r.time}${offset}`;
        const id = (r.id && rowIds.get(r.id)) || randomUUID();
        const person = r.flow && r.counterparty && (DEBT_FLOWS.includes(r.flow) || r.flow === 'writeoff');
        this.insertTx({
          id,
          amountFen: r.amountFen,
          currency: DEFAULT_CURRENCY,
          type: r.type,
          categoryId: categoryId(r.category, r.type, r.parentCategory),
          accountId: accountId(r.account),
          description: r.description.slice(0, 200),
          occurredAt,
          occurredDate: r.date,
          occurredMs: Date.parse(occurredAt),
          source: 'import',
          createdAt: stamp,
          updatedAt: stamp,
          toAccountId: r.toAccount ? accountId(r.toAccount) : null,
          counterparty: r.counterparty ?? '',
          flow: r.flow ?? null,
          personId: person ? this.parts.flows.ensurePerson(r.counterparty!) : null,
          refundOf: r.flow === 'refund' ? linked(r.refundOf) : null,
          reimbursable: r.reimbursable ? 1 : 0,
          reimbursedBy: r.reimbursable ? linked(r.reimbursedBy) : null,
          tags: cleanTags(r.tags),
        });
        this.parts.merchants.remember(id, r.merchant);
        ids.push(id);
      });
      // Refunds an earlier bill brought in before their purchase: linked now that it is here.
      const link = this.db.prepare("UPDATE transactions SET refund_of = ?, updated_at = ? WHERE id = ? AND flow = 'refund'");
      const written = new Set(ids);
      for (const l of options.links ?? []) if (written.has(l.purchaseId)) link.run(l.purchaseId, stamp, l.refundId);
    })();
    return { ids, status };
  }

  /**
   * The id each written row gets: the one it comes with (a bill row's identity, our own CSV's
   * exported id), unless this ledger already has a row of that id (then a new one). Links
   * between rows of the file (a refund and its expense, a settled expense and its
   * reimbursement) follow the map, and links to rows outside the file keep the given id: they
   * find the row when this ledger holds it, and read as no link otherwise.
   */
  private importIds(rows: readonly ImportRow[], writes: (i: number) => boolean): Map<string, string> {
    const exists = this.db.prepare('SELECT 1 FROM transactions WHERE id = ?').pluck();
    const map = new Map<string, string>();
    rows.forEach((r, i) => {
      if (!r.id || !writes(i)) return;
      map.set(r.id, exists.get(r.id) === undefined ? r.id : randomUUID());
    });
    return map;
  }

  /**
   * What becomes of each file row. With byIdentity (bills), a row whose id — its identity in
   * the bill — the ledger holds was imported before, whatever the user changed on it since,
   * and one the user deleted after importing it, here or on a computer this one syncs with, is
   * 'deleted'. Any other row is a duplicate
   * when identical (day, time, type, category, amount, account, description) to a row in the
   * ledger, compared as multisets: a row the ledger holds n times marks only the first n
   * identical rows of the file, so twins (two 奶茶 15 in the same second) import as many copies
   * as the file has beyond the ledger's. Re-importing the same file thus adds nothing.
   */
  private importStatus(rows: readonly ImportRow[], byIdentity: boolean): ImportRowStatus[] {
    const status: (ImportRowStatus | null)[] = rows.map(() => null);
    if (byIdentity) {
      // One read for the whole file: a 10 000-row bill is one query, not 30 000. A row deleted
      // on another computer arrives as the sync journal's deletion of its id.
      const found = this.db
        .prepare(
          `SELECT * FROM (
             SELECT j.key AS i, EXISTS (SELECT 1 FROM transactions t WHERE t.id = j.value) AS held,
               (SELECT how FROM import_removals r WHERE r.transaction_id = j.value) AS how,
               EXISTS (SELECT 1 FROM sync_rows s WHERE s.tbl = 'transactions' AND s.row = j.value AND s.deleted = 1) AS elsewhere
             FROM json_each(?) j WHERE j.type = 'text')
           WHERE held OR how IS NOT NULL OR elsewhere`,
        )
        .all(JSON.stringify(rows.map((r) => r.id ?? null))) as { i: number; held: 0 | 1; how: string | null; elsewhere: 0 | 1 }[];
      for (const f of found) {
        if (f.held) status[f.i] = 'duplicate';
        else if (f.how === 'deleted' || (f.how === null && f.elsewhere)) status[f.i] = 'deleted';
      }
    }
    // One read per day of the file, not one per row: a year's bill is 365 reads, not 10 000.
    const ofDay = this.db.prepare(
      `SELECT substr(t.occurred_at, 12, 8) AS time, t.type, c.name AS category, t.amount_fen AS amountFen, a.name AS account, t.description
       FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
       WHERE t.occurred_date = ?`,
    );
    const keyOf = (date: string, r: { time: string; type: string; category: string; amountFen: number; account: string; description: string }) =>
      JSON.stringify([date, r.time, r.type, r.category, r.amountFen, r.account, r.description]);
    /** Ledger copies of each distinct row not yet matched by an earlier row of the file. */
    const unmatched = new Map<string, number>();
    const days = new Set(rows.filter((_, i) => status[i] === null).map((r) => r.date));
    for (const date of days) {
      for (const held of ofDay.all(date) as {
        time: string;
        type: string;
        category: string;
        amountFen: number;
        account: string;
        description: string;
      }[]) {
        const key = keyOf(date, held);
        unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
      }
    }
    return rows.map((r, i) => {
      if (status[i] !== null) return status[i]!;
      const key = keyOf(r.date, r);
      const left = unmatched.get(key) ?? 0;
      if (left > 0) unmatched.set(key, left - 1);
      return left > 0 ? 'duplicate' : 'new';
    });
  }
}

/** How importRows treats the file's rows (see importStatus). */
export interface ImportOptions {
  dryRun?: boolean;
  now?: ZonedNow;
  /** Bill rows: their ids are their identities in the bill. */
  byIdentity?: boolean;
  /** What the user changed in the preview: rows left out, deleted rows written again (see writtenRows). */
  choices?: ImportChoices;
  /** Refunds in the ledger waiting for their purchase, linked to it when this import writes it. */
  links?: readonly { refundId: string; purchaseId: string }[];
}

/** A row as inserted: a checked entry with its id, stamps and source; the money-flow columns are optional (none). */
type InsertRow = PreparedEntry & {
  id: string;
  currency: string;
  source: string;
  createdAt: string;
  updatedAt: string;
  flow?: LedgerFlow | null;
  personId?: number | null;
  refundOf?: string | null;
  reimbursable?: 0 | 1;
  reimbursedBy?: string | null;
  recurrenceKey?: string | null;
  /** Absent: this computer's name (see the recorder part). */
  recordedBy?: string | null;
  /** Clean (see cleanTags): linked in the order given. */
  tags?: readonly string[];
};

/**
 * Rows of no money flow as written, in the shapes a read would give: `categories` (id → name
 * and parent) and `accounts` (id → name) are what the save chose them from. Null should a name
 * not be at hand: the rows are then read.
 */
function asWritten(
  prepared: readonly InsertRow[],
  categories: ReadonlyMap<number, { name: string; parent: string | null }>,
  accounts: ReadonlyMap<number, string>,
): SavedBatch | null {
  const saved: SavedBatch = { rows: [], raw: [] };
  for (const p of prepared) {
    const c = categories.get(p.categoryId);
    const name = accounts.get(p.accountId);
    const to = p.toAccountId === null ? null : accounts.get(p.toAccountId);
    if (!c || name === undefined || to === undefined) return null;
    const tags = p.tags ?? [];
    const raw: RawTransaction = {
      id: p.id,
      amount_fen: p.amountFen,
      currency: p.currency,
      type: p.type,
      category_id: p.categoryId,
      account_id: p.accountId,
      description: p.description,
      occurred_at: p.occurredAt,
      occurred_date: p.occurredDate,
      occurred_ms: p.occurredMs,
      source: p.source,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
      to_account_id: p.toAccountId,
      counterparty: p.counterparty,
      flow: null,
      person_id: null,
      refund_of: null,
      reimbursable: p.reimbursable ?? 0,
      reimbursed_by: null,
      recurrence_key: null,
      recorded_by: p.recordedBy ?? null,
      tags: [...tags],
    };
    saved.raw.push(raw);
    saved.rows.push(
      toRow([
        p.id,
        p.amountFen,
        p.currency,
        p.type,
        c.name,
        name,
        p.description,
        p.occurredAt,
        p.occurredDate,
        p.source as TransactionRow['source'],
        p.createdAt,
        p.updatedAt,
        to,
        p.counterparty,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        raw.reimbursable,
        null,
        c.parent,
        raw.recorded_by ?? null,
        tags.length > 0 ? tags.join(TAG_SEPARATOR) : null,
      ]),
    );
  }
  return saved;
}

/** A parsed item's tags, clean; a refusal names the item. */
function tagsOf(tags: readonly string[] | undefined, i: number): string[] {
  try {
    return cleanTags(tags);
  } catch (err) {
    throw new LedgerValidationError(i, (err as Error).message);
  }
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

/** The parsed day at the current time of day, in the user's offset; today when undated (`nowIso`, `today`: now's). */
function occurrence(
  date: string | null | undefined,
  now: ZonedNow,
  nowIso: string,
  today: string,
  /** HH:MM:SS a picture showed: the entry keeps the time of the payment, not of the save. */
  time?: string,
): { iso: string; date: string; ms: number } {
  if (time && /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(time)) {
    const day = date || today;
    const iso = `${day}T${time}${nowIso.slice(19)}`;
    return { iso, date: day, ms: Date.parse(iso) };
  }
  if (!date || date === today) return { iso: nowIso, date: today, ms: now.epochMs };
  const iso = date + nowIso.slice(10);
  return { iso, date, ms: Date.parse(iso) };
}

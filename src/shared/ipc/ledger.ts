import { z } from 'zod';
import type { LedgerFlow, TransactionRow, TransactionType } from '../domain';
import { MAX_AMOUNT_YUAN } from '../money';
import { calendarDate, fenAmount, fenBound, hasFenPrecision, LAST_PERIOD_DAY, ledgerName, monthString, yuanAmount } from './fields';
import type { LEDGER_COMMANDS } from './ledger.names';

export const txType = z.enum(['EXPENSE', 'INCOME', 'TRANSFER']);
const id = z.number().int().positive();

/** The filters of the 明细 page; every field narrows the set (AND). */
export const ledgerFilter = z
  .object({
    from: calendarDate.optional(),
    to: calendarDate.optional(),
    type: txType.optional(),
    category: z.string().max(50).optional(),
    account: z.string().max(50).optional(),
    minFen: fenBound.optional(),
    maxFen: fenBound.optional(),
    /** Substring of the description or the category name. */
    text: z.string().trim().max(100).optional(),
    /** Rows lending to, borrowing from or written off for this person. */
    person: z.string().max(50).optional(),
    /** Rows carrying this tag. */
    tag: z.string().max(20).optional(),
  })
  .strict();
export type LedgerFilter = z.infer<typeof ledgerFilter>;

/**
 * A place in 明细's newest-first order (day, then time, then the order rows were written in):
 * a page given `after` starts with the first row past it. Pages follow one another by the
 * `next` of the page before; a row written meanwhile never shifts or repeats later pages.
 */
export const listCursor = z
  .object({
    date: calendarDate,
    ms: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    rowid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();
export type ListCursor = z.infer<typeof listCursor>;

/** Where a page starts for it to begin with the newest row of `date`: the top of that day. */
export function dayTop(date: string): ListCursor {
  return { date, ms: Number.MAX_SAFE_INTEGER, rowid: Number.MAX_SAFE_INTEGER };
}

const name50 = z.string().trim().min(1).max(50);

/** A tag as typed or spoken (出差, 装修); a leading # is dropped. */
export const tagName = z
  .string()
  .trim()
  .transform((t) => t.replace(/^[#＃]+/, '').trim())
  .pipe(z.string().min(1, '标签不能为空').max(20, '标签最多20个字'));
/** A row's whole tag set, replacing the old one; duplicates collapse. */
export const tagList = z.array(tagName).max(20, '一笔最多20个标签');

/** The ids of 待报销 expenses a reimbursement pays (row ids are UUIDs). */
const settleIds = z.array(z.string().min(1).max(64)).max(1000, '一次最多勾选1000笔');

/** The flows recorded by hand on 借贷与报销 and in 记一笔; the four debts name a person. */
export const HAND_FLOWS = ['lend', 'borrow', 'repay', 'collect', 'reimbursement'] as const;
export type HandFlow = (typeof HAND_FLOWS)[number];

export const flowEntry = z
  .object({
    flow: z.enum(HAND_FLOWS),
    amountYuan: yuanAmount,
    /** Who: required for the four debts, absent for 报销到账. */
    counterparty: z.string().trim().max(50, '名字最多50个字').optional(),
    account: name50.optional(),
    date: calendarDate,
    note: z.string().max(200, '备注最多200个字').optional(),
    tags: tagList.optional(),
    /** 报销到账: the 待报销 it pays, in paying order (absent: oldest first). */
    settles: settleIds.optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.flow !== 'reimbursement' && !entry.counterparty) {
      ctx.addIssue({ code: 'custom', path: ['counterparty'], message: '请填写是谁，例如：小李' });
    }
    if (entry.flow === 'reimbursement' && entry.counterparty) {
      ctx.addIssue({ code: 'custom', path: ['counterparty'], message: '报销到账不填对方' });
    }
    if (entry.flow !== 'reimbursement' && entry.settles) {
      ctx.addIssue({ code: 'custom', path: ['settles'], message: '只有报销到账可以勾选待报销' });
    }
  });
export type FlowEntry = z.infer<typeof flowEntry>;

export const exportFormat = z.enum(['csv', 'xlsx']);
export type ExportFormat = z.infer<typeof exportFormat>;

/** An account's opening balance in yuan: negative for a card that starts in debt. */
const initialBalanceYuan = z
  .number()
  .min(-MAX_AMOUNT_YUAN, '初始余额超过上限（1亿元）')
  .max(MAX_AMOUNT_YUAN, '初始余额超过上限（1亿元）')
  .refine(hasFenPrecision, '初始余额最多两位小数（精确到分）');

/** A budget in yuan: 0 and negative refused with their own words. */
const budgetYuan = z
  .number()
  .gt(0, '预算金额必须大于0')
  .max(MAX_AMOUNT_YUAN, '预算金额超过上限（1亿元）')
  .refine(hasFenPrecision, '预算金额最多两位小数（精确到分）');

const dayOfMonth = z.number().int().min(1, '账单日和还款日应为每月1–31日').max(31, '账单日和还款日应为每月1–31日');

/** A credit card's 额度 in yuan: 0 or more, whole fen. */
const creditLimitYuan = z
  .number()
  .min(0, '额度不能为负')
  .max(MAX_AMOUNT_YUAN, '额度超过上限（1亿元）')
  .refine(hasFenPrecision, '额度最多两位小数（精确到分）');

/** A credit card's terms: 账单日, 还款日 and 额度 (creditLimitYuan left out keeps the current one). */
const cardTerms = z
  .object({ statementDay: dayOfMonth.nullable(), dueDay: dayOfMonth.nullable(), creditLimitYuan: creditLimitYuan.nullable().optional() })
  .strict();

/** Import files travel as base64; 40 MB of text is far beyond any personal bill export. */
const fileBytes = z.object({ dataBase64: z.string().min(1, '文件为空').max(40_000_000, '文件太大') }).strict();

/** A row of the import preview, by its position in ImportPreview.rows. */
const importRowIndex = z.number().int().min(0).max(1_000_000);
/** What the user changed in the import preview before 确认导入. */
export const importChoices = z
  .object({
    /** Rows the preview would write that the user unticked. */
    exclude: z.array(importRowIndex).max(1_000_000).default([]),
    /** Rows imported and deleted before (已删除过) that the user ticked to bring back. */
    restore: z.array(importRowIndex).max(1_000_000).default([]),
    /** Rows moved to another category of their type; `remember` makes it the merchant's rule too. */
    recategorize: z
      .array(z.object({ index: importRowIndex, category: ledgerName, remember: z.boolean().default(false) }).strict())
      .max(1_000_000)
      .default([]),
  })
  .strict();
export type ImportChoices = z.input<typeof importChoices>;

export const ledgerSchemas = {
  /** A page of 明细, newest first: the first without `after`, each next one after the page before (its `next`). */
  listTransactions: ledgerFilter
    .extend({
      limit: z.number().int().min(1).max(500).default(50),
      after: listCursor.optional(),
    })
    .strict(),
  searchTransactions: z
    .object({
      query: z.string().trim().min(1).max(100),
      limit: z.number().int().min(1).max(500).default(50),
    })
    .strict(),
  monthSummary: z.object({ month: monthString, includeReimbursed: z.boolean().optional() }).strict(),
  listDays: ledgerFilter,
  periodStats: z
    .object({
      from: calendarDate,
      to: calendarDate.refine((to) => to <= LAST_PERIOD_DAY, `统计区间最晚到 ${LAST_PERIOD_DAY}`),
      granularity: z.enum(['day', 'month']),
      /** Count 待报销 expenses as spending (default: net, without them). */
      includeReimbursed: z.boolean().optional(),
      /** Only rows carrying this tag. */
      tag: z.string().max(20).optional(),
    })
    .strict()
    .refine((v) => v.from <= v.to, '开始日期不能晚于结束日期')
    // One point per day (or month) goes back over IPC; a decade of days is already unreadable.
    .refine((v) => Number(v.to.slice(0, 4)) - Number(v.from.slice(0, 4)) <= (v.granularity === 'day' ? 10 : 100), '统计区间太长'),
  updateTransaction: z
    .object({
      id: z.string().min(1).max(64),
      patch: z
        .object({
          amountFen: fenAmount.optional(),
          type: txType.optional(),
          category: z.string().trim().min(1).max(50).optional(),
          account: z.string().trim().min(1).max(50).optional(),
          description: z.string().max(200).optional(),
          date: calendarDate.optional(),
          toAccount: z.string().trim().min(1).max(50).optional(),
          counterparty: z.string().trim().min(1).max(50).optional(),
          reimbursable: z.boolean().optional(),
          /** A refund: the expense it returns, or null to unlink it. */
          refundOf: z.string().min(1).max(64).nullable().optional(),
          tags: tagList.optional(),
        })
        .strict(),
    })
    .strict(),
  deleteTransactions: z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(10_000) }).strict(),
  listCategories: z.object({}).strict(),
  /** `parentId`: a top-level category of the same type; the new one becomes its sub-category. */
  addCategory: z.object({ name: ledgerName, type: txType, parentId: id.optional() }).strict(),
  /** Moves a category under a top-level one of its type (null: to the top level). Two levels at most. */
  setCategoryParent: z.object({ id, parentId: id.nullable() }).strict(),
  renameCategory: z.object({ id, name: ledgerName }).strict(),
  setCategoryHidden: z.object({ id, hidden: z.boolean() }).strict(),
  reorderCategories: z.object({ type: txType, ids: z.array(id).min(1).max(500) }).strict(),
  /** `moveTo`: where its transactions go first (same type); without it a used category is refused with the count. */
  deleteCategory: z.object({ id, moveTo: id.optional() }).strict(),
  listAccounts: z.object({}).strict(),
  /** card: the account is a credit card with these terms from the start. */
  addAccount: z.object({ name: ledgerName, initialBalanceYuan: initialBalanceYuan.default(0), card: cardTerms.optional() }).strict(),
  renameAccount: z.object({ id, name: ledgerName }).strict(),
  setDefaultAccount: z.object({ id }).strict(),
  deleteAccount: z.object({ id }).strict(),
  previewImport: fileBytes,
  commitImport: fileBytes.extend({ choices: importChoices.optional() }).strict(),
  undo: z.object({}).strict(),
  redo: z.object({}).strict(),
  historyState: z.object({}).strict(),
  /** The 记一笔 form. A TRANSFER names toAccount or counterparty; the ledger explains what is missing. */
  addTransaction: z
    .object({
      amountYuan: yuanAmount,
      type: txType,
      category: name50.optional(),
      date: calendarDate,
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/, '时间应为 HH:MM'),
      account: name50.optional(),
      note: z.string().max(200).optional(),
      toAccount: name50.optional(),
      counterparty: name50.optional(),
      tags: tagList.optional(),
      /** 待报销: an expense to be paid back, left out of net spending. */
      reimbursable: z.boolean().optional(),
    })
    .strict(),
  recentCategories: z.object({ type: txType, limit: z.number().int().min(1).max(20).default(3) }).strict(),
  accountBalances: z.object({}).strict(),
  archiveAccount: z.object({ id, archived: z.boolean() }).strict(),
  /** The batch editor: the month's whole budget set; an empty list leaves the month without budgets. */
  setBudgets: z
    .object({
      month: monthString,
      items: z.array(z.object({ categoryId: id.nullable(), amountYuan: budgetYuan }).strict()).max(500),
    })
    .strict(),
  budgetStatus: z.object({ month: monthString }).strict(),
  /** Writes the filtered ledger to a file the user picks in the shell's save dialog. */
  exportFile: z.object({ format: exportFormat, filter: ledgerFilter.default({}) }).strict(),
  /** The shell's open dialog: the chosen bill file's bytes, for previewImport/commitImport. */
  openImportFile: z.object({}).strict(),
  listPeople: z.object({}).strict(),
  /** 坏账: what a person will never pay back, at most what they owe. */
  writeOff: z.object({ personId: id, amountFen: fenAmount, note: z.string().max(200).optional() }).strict(),
  pendingReimbursements: z.object({}).strict(),
  /** `ids`: the 待报销 the payment is to pay, in paying order (absent: all, oldest first). */
  proposeSettlement: z.object({ amountFen: fenAmount, ids: settleIds.optional() }).strict(),
  /** 借出 / 借入 / 还款 / 收回 / 报销到账 by hand: saved as the voice card saves them (see ledger/flow-entry.ts). */
  recordFlow: flowEntry,
  refundCandidates: z
    .object({
      text: z.string().max(100).optional(),
      category: z.string().max(50).nullable().optional(),
      amountFen: fenAmount.optional(),
      limit: z.number().int().min(1).max(50).default(5),
    })
    .strict(),
  /** Terms make the account a credit card; null makes it an ordinary account again. */
  setCard: z
    .object({
      id,
      terms: cardTerms.nullable(),
    })
    .strict(),
  /** Every credit card's 本期账单, due date and 可用额度 as of today. */
  cardStatements: z.object({}).strict(),
  cardReminders: z.object({ daysAhead: z.number().int().min(0).max(28).default(3) }).strict(),
  /** Every tag with how many rows carry it, most used first. */
  listTags: z.object({}).strict(),
  /** Renaming onto an existing tag merges the two. */
  renameTag: z.object({ id, name: tagName }).strict(),
  /** Takes the tag off every row; the rows stay. */
  deleteTag: z.object({ id }).strict(),
  /** The merchant memory of bill imports, by merchant, for 设置. */
  merchantRules: z.object({}).strict(),
  /** Forgets what one merchant's rows of one type were filed under. */
  deleteMerchantRule: z.object({ merchant: z.string().trim().min(1, '商户名不能为空').max(1000, '商户名太长'), type: txType }).strict(),
} satisfies Record<(typeof LEDGER_COMMANDS)[number], z.ZodType>;

/**
 * A page of rows and where the next one starts (null: this was the last). How many rows the
 * filter holds and their totals come once per filter from listDays, never with each page.
 */
export interface Page<T> {
  rows: T[];
  next: ListCursor | null;
}

export interface CategoryTotal {
  type: TransactionType;
  category: string;
  totalFen: number;
  count: number;
  /** A sub-category's parent (餐饮 for 早餐); absent for a top-level category. */
  parent?: string;
}

/**
 * A top-level category with its sub-categories rolled up: totalFen and count are its own rows
 * plus every child's, to the fen. `children` is empty when no child has rows in the period;
 * otherwise it lists each child with rows and, when the parent has rows of its own, the parent
 * itself (category = the parent's name, no `parent`), largest first.
 */
export interface CategoryRollup extends CategoryTotal {
  children: CategoryTotal[];
}

export interface MonthSummary {
  month: string;
  expenseFen: number;
  incomeFen: number;
  transferFen: number;
  byCategory: CategoryTotal[];
}

/** One day of the filtered list: the day header and its totals. */
export interface DayTotal {
  date: string;
  count: number;
  expenseFen: number;
  incomeFen: number;
}

export interface TrendPoint {
  /** YYYY-MM-DD or YYYY-MM. */
  key: string;
  expenseFen: number;
  incomeFen: number;
}

export interface PeriodStats {
  from: string;
  to: string;
  expenseFen: number;
  incomeFen: number;
  transferFen: number;
  /** income − expense. */
  balanceFen: number;
  count: number;
  /** One line per category with rows (its own rows only), children included. */
  byCategory: CategoryTotal[];
  /** One line per top-level category with its children rolled up, largest first. */
  byParent: CategoryRollup[];
  /** Every day (or month) of the period, zeros included, oldest first. */
  trend: TrendPoint[];
}

export interface CategoryInfo {
  id: number;
  name: string;
  type: TransactionType;
  hidden: boolean;
  preset: boolean;
  sortOrder: number;
  /** Transactions filed under it (its own rows, not its children's). */
  count: number;
  /** The top-level category it belongs to; null for a top-level one. */
  parentId: number | null;
}

export interface TagInfo {
  id: number;
  name: string;
  /** Rows carrying it. */
  count: number;
}

/** A merchant memory rule of bill imports: this merchant's rows of this type go to this category. */
export interface MerchantRule {
  merchant: string;
  type: TransactionType;
  category: string;
  updatedAt: string;
}

export interface AccountInfo {
  id: number;
  name: string;
  isDefault: boolean;
  count: number;
  /** Archived accounts keep their rows and count in the total; new entries cannot use them. */
  archived: boolean;
  /** credit: a card whose balance is normally a debt, shown as 欠款. */
  kind: AccountKind;
  /** Credit cards: the days of the month the statement closes and the payment is due. */
  statementDay: number | null;
  dueDay: number | null;
  /** Credit cards: 额度, what the card may owe at most; null when not given. */
  creditLimitFen: number | null;
}

export type AccountKind = 'cash' | 'credit';

/** An account with its money; amounts in fen, negative when the account is overdrawn. */
export interface AccountBalance extends AccountInfo {
  initialBalanceFen: number;
  /** initial + income + transfers in − expense − transfers out. */
  balanceFen: number;
  /** The preset 钱包 (perhaps renamed): never archived or deleted. */
  preset: boolean;
}

export interface AccountBalances {
  accounts: AccountBalance[];
  /** Every account's balance summed, archived ones included (archiving moves no money). */
  totalFen: number;
}

/** Someone money was lent to or borrowed from; balanceFen > 0: they owe the user, < 0: the user owes them. */
export interface PersonBalance {
  id: number;
  name: string;
  balanceFen: number;
  count: number;
  archived: boolean;
}

/** An expense a refund may return, best match first. */
export interface RefundCandidate {
  id: string;
  amountFen: number;
  /** What earlier refunds already returned of it. */
  refundedFen: number;
  description: string;
  date: string;
  category: string;
  account: string;
  score: number;
}

/** A 待报销 expense still owed to the user, net of its refunds. */
export interface PendingReimbursement {
  id: string;
  /** What it still waits for: net of refunds, less what reimbursements paid of it. */
  amountFen: number;
  /** What reimbursements (that still exist) paid of it so far: > 0 when paid in part. */
  paidFen: number;
  description: string;
  date: string;
  category: string;
}

/** What a reimbursement of a given amount pays of the 待报销 it is given (default: all, oldest first). */
export interface SettlementProposal {
  /** The expenses it pays, in paying order: each in full, the last maybe in part. */
  ids: string[];
  settledFen: number;
  /** Paid beyond all the given expenses (多出). */
  leftOverFen: number;
  /** What the given expenses still lack after this payment (还差). */
  stillOwedFen: number;
}

/** A credit card whose payment is due soon. */
export interface CardReminder {
  accountId: number;
  account: string;
  dueDate: string;
  daysLeft: number;
  owedFen: number;
}

/**
 * A credit card as its bank's app shows it, on the ledger's today. The dates follow
 * src/main/core/ledger/card-statement.ts: a statement closes at the end of its 账单日 (the
 * month's last day in a shorter month) and covers the days since the previous one.
 */
export interface CardStatement {
  accountId: number;
  /** What the card owes now (0 when it owes nothing). */
  owedFen: number;
  /** 可用额度: 额度 − owed; negative when over the limit; null without a 额度. */
  availableFen: number | null;
  /** 本期账单; null without a 账单日. */
  bill: CardBill | null;
}

export interface CardBill {
  /** The period billed, both days included. */
  from: string;
  to: string;
  /** false: before the card's first statement date, the period still open (its bill so far). */
  closed: boolean;
  /** Owed at the end of the period: carried + spent − repaid; 0 or less: nothing to pay. */
  billFen: number;
  /** Owed at the previous statement date (negative: paid in excess), carried into this bill. */
  carriedFen: number;
  /** Money out of the card in the period: spending, transfers out. */
  spentFen: number;
  /** Money into the card in the period: repayments, refunds. */
  repaidFen: number;
  /** What is still to pay of the bill after the money paid in since it closed (never below 0). */
  leftFen: number;
  /** 未出账: spending after the statement date, for the next bill (0 while the period is open). */
  unbilledFen: number;
  /** The bill's 还款日, and the days until it (0 today, negative once passed); null without a 还款日. */
  dueDate: string | null;
  daysLeft: number | null;
}

/** ok < 80 %, warn 80–99 %, over ≥ 100 %. */
export type BudgetLevel = 'ok' | 'warn' | 'over';

export interface BudgetLine {
  /** null: the month's total budget. */
  categoryId: number | null;
  category: string | null;
  budgetFen: number;
  /** Expenses of the month (in the category, or all of them for the total); transfers never count. */
  spentFen: number;
  /** spent / budget in whole percent, rounded down (99.9 % is 99, still 'warn'). */
  percent: number;
  level: BudgetLevel;
}

export interface BudgetStatus {
  month: string;
  /** The month the budgets were set for: `month` itself, an earlier one (inherited), or null (none). */
  source: string | null;
  inherited: boolean;
  /** Category budgets in the user's category order. */
  lines: BudgetLine[];
  total: BudgetLine | null;
}

/** A budget threshold crossed for the first time in its month. */
export interface BudgetAlert {
  month: string;
  categoryId: number | null;
  category: string | null;
  threshold: 80 | 100;
  percent: number;
  spentFen: number;
  budgetFen: number;
}

export interface RecentCategory {
  id: number;
  name: string;
}

export type ImportFormat = 'suikouji' | 'alipay' | 'wechat' | 'jd' | 'meituan';

/**
 * Why bill lines are left out of an import. Each kind is shown with its count and sum in the
 * preview: closed or failed trades that moved no money, money between the user's own wallet, bank and savings (提现, 充值, 零钱通, 余额宝, 理财),
 * credit-card and pay-later repayments, transfers between the user's own accounts, and any other
 * line the bill itself marks 不计收支 / 中性交易.
 */
export const SKIP_REASONS = ['closed', 'withdrawal', 'wealth', 'repayment', 'own-transfer', 'neutral'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedLines {
  reason: SkipReason;
  count: number;
  /** The lines' amounts, summed (what they would have counted as). */
  fen: number;
}

/** What becomes of a row of the file: written, already in the ledger, or imported and deleted since. */
export type ImportRowStatus = 'new' | 'duplicate' | 'deleted';

export interface ImportRowDto {
  /** Position in ImportPreview.rows: what ImportChoices names rows by. */
  index: number;
  /** 1-based line of the file the row came from (shown only where a line is refused). */
  line: number;
  date: string;
  time: string;
  type: TransactionType;
  category: string;
  amountFen: number;
  account: string;
  description: string;
  /** 'new' rows are written; a 'duplicate' never; a 'deleted' one only when the user ticks it. */
  status: ImportRowStatus;
  /** A refund whose purchase is in neither this bill nor the ledger: kept as 待关联, counted once the purchase arrives. */
  pendingRefund?: boolean;
  /** Our own CSV only: a TRANSFER's target account, or who a transfer, debt or write-off is with. */
  toAccount?: string;
  counterparty?: string;
  flow?: LedgerFlow;
  reimbursable?: boolean;
  /** Our own CSV only: the row's id in the ledger it was exported from, and the rows it links to. */
  id?: string;
  refundOf?: string;
  reimbursedBy?: string;
  /** Our own CSV only: the row's tags, and the parent its (sub-)category is made under when missing. */
  tags?: string[];
  parentCategory?: string;
  /** A bill's row: the merchant (交易对方 / 商户名称) its category memory is keyed by. */
  merchant?: string;
}

/**
 * The import preview. Every line of the file is counted exactly once:
 * lines = toImport + duplicates + deleted + Σ skipped.count + netted.count.
 */
export interface ImportPreview {
  format: ImportFormat;
  /** The text encoding of a CSV; 'xlsx' for a workbook. */
  encoding: 'utf-8' | 'gbk' | 'xlsx';
  /** Every line of the bill (or row of our own file). */
  lines: number;
  /** Lines that will be written (a line may write more than one row: a fee, a refund it states). */
  toImport: number;
  /** Lines imported before (by the bill's order number, or time, amount and counterparty), whatever was since changed on them. */
  duplicates: number;
  /** Lines imported before and deleted since: left out unless the user ticks them. */
  deleted: number;
  /** Bill lines left out, by reason (empty for our own CSV). */
  skipped: SkippedLines[];
  /** Lines that cancel out: purchases refunded in full or closed, with their refund lines (net zero). */
  netted: { count: number; fen: number };
  /** What the 统计 page will count from the rows to be written: spending net of refunds, and income. */
  expenseFen: number;
  incomeFen: number;
  /** Every row the file holds, in file order. */
  rows: ImportRowDto[];
}

export interface ImportOutcome {
  format: ImportFormat;
  /** Rows written. */
  imported: number;
  /** Bill lines left out by reason, all reasons together (netted lines included). */
  skipped: number;
  /** Lines already in the ledger. */
  duplicates: number;
  /** Lines imported and deleted before, left out. */
  deleted: number;
}

export interface HistoryState {
  canUndo: boolean;
  canRedo: boolean;
  /** What 撤销 would undo, e.g. 「删除 1 笔」. */
  undoLabel: string | null;
  redoLabel: string | null;
}

/** The answer of undo/redo: the new state and what was undone or redone (null: nothing). */
export interface HistoryStep extends HistoryState {
  done: string | null;
}

export interface LedgerOutputs {
  listTransactions: Page<TransactionRow>;
  searchTransactions: TransactionRow[];
  monthSummary: MonthSummary;
  listDays: DayTotal[];
  periodStats: PeriodStats;
  updateTransaction: TransactionRow;
  deleteTransactions: { deleted: number };
  listCategories: CategoryInfo[];
  addCategory: CategoryInfo;
  renameCategory: CategoryInfo;
  setCategoryHidden: CategoryInfo;
  reorderCategories: CategoryInfo[];
  deleteCategory: { deleted: true; moved: number };
  listAccounts: AccountInfo[];
  addAccount: AccountInfo;
  renameAccount: AccountInfo;
  setDefaultAccount: AccountInfo[];
  deleteAccount: { deleted: true };
  previewImport: ImportPreview;
  commitImport: ImportOutcome;
  undo: HistoryStep;
  redo: HistoryStep;
  historyState: HistoryState;
  addTransaction: TransactionRow;
  recentCategories: RecentCategory[];
  accountBalances: AccountBalances;
  archiveAccount: AccountBalance;
  setBudgets: BudgetStatus;
  budgetStatus: BudgetStatus;
  /** null: the user closed the save dialog. */
  exportFile: ExportOutcome | null;
  /** null: the user closed the open dialog. */
  openImportFile: ImportFile | null;
  listPeople: PeopleBalances;
  writeOff: TransactionRow;
  pendingReimbursements: { rows: PendingReimbursement[]; totalFen: number };
  proposeSettlement: SettlementProposal;
  recordFlow: TransactionRow;
  refundCandidates: RefundCandidate[];
  setCard: AccountInfo;
  cardStatements: CardStatement[];
  cardReminders: CardReminder[];
  setCategoryParent: CategoryInfo;
  listTags: TagInfo[];
  renameTag: TagInfo;
  deleteTag: { deleted: true; rows: number };
  merchantRules: MerchantRule[];
  deleteMerchantRule: { deleted: true };
}

/** The 借贷 page: everyone with a debt either way, and the two totals. */
export interface PeopleBalances {
  people: PersonBalance[];
  /** What others owe the user, summed over people with a positive balance. */
  owedToMeFen: number;
  /** What the user owes others. */
  iOweFen: number;
}

export interface ExportOutcome {
  /** Where the file was written. */
  path: string;
  rows: number;
  /** Pictures of the exported rows copied beside the file (截图记账). */
  pictures: number;
  /** The folder they went to, `<file name>_附件`; null when no row had one. */
  folder: string | null;
}

export interface ImportFile {
  /** The file's name (no folder), shown in the import dialog. */
  name: string;
  dataBase64: string;
}

// Domain types shared by the main process, the renderer, the gateway and the tools.
// Pure data: no imports from electron, node or the DOM.

export const TRANSACTION_TYPES = ['EXPENSE', 'INCOME', 'TRANSFER'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export function isTransactionType(value: unknown): value is TransactionType {
  return typeof value === 'string' && (TRANSACTION_TYPES as readonly string[]).includes(value);
}

/**
 * What a transaction does beyond spending or earning, when the sentence says so: money lent to
 * or borrowed from a person (lend, borrow), paid back by the user or to the user (repay,
 * collect), money back for something bought (refund, not income), money that settles expenses
 * the user advanced (reimbursement).
 */
export const MONEY_FLOWS = ['lend', 'borrow', 'repay', 'collect', 'refund', 'reimbursement'] as const;
export type MoneyFlow = (typeof MONEY_FLOWS)[number];

/** The flows a stored row may have: the spoken ones, and writing off what a person will never pay back. */
export const LEDGER_FLOWS = [...MONEY_FLOWS, 'writeoff'] as const;
export type LedgerFlow = (typeof LEDGER_FLOWS)[number];
/** The flows between an account and a person; rows of these are TRANSFERs. */
export const DEBT_FLOWS: readonly LedgerFlow[] = ['lend', 'borrow', 'repay', 'collect'];

/** The optional money-flow fields of a parse, each present only when set (a reading, an LLM answer, a parsed item). */
export function moneyFlowFields(source: {
  flow?: MoneyFlow | null;
  counterparty?: string | null;
  reimbursable?: boolean | null;
}): Pick<ParseResult, 'flow' | 'counterparty' | 'reimbursable'> {
  // Set in place rather than spread: the offline parser calls this once an item.
  const fields: Pick<ParseResult, 'flow' | 'counterparty' | 'reimbursable'> = {};
  if (source.flow) fields.flow = source.flow;
  if (source.counterparty) fields.counterparty = source.counterparty;
  if (source.reimbursable) fields.reimbursable = true;
  return fields;
}

/** Where a parse came from: the offline rules or the LLM (gateway or direct). */
export type ParseSource = 'local' | 'llm';

/**
 * One transaction as understood from speech or text, before it is saved.
 * `amount` is in yuan (the unit people speak); the ledger stores integer fen.
 */
export interface ParseResult {
  amount: number | null;
  type: TransactionType;
  category: string | null;
  description: string;
  /** Calendar day in the user's time zone, YYYY-MM-DD; null means "today" at save time. */
  date: string | null;
  /** Account name; null means the default account (钱包). */
  account: string | null;
  confidence: number;
  source: ParseSource;
  /** Present only when the sentence says so (借给小李, 退款, 报销到账); lend … collect are TRANSFERs. */
  flow?: MoneyFlow;
  /** The person money moves to or from (小李, 我哥), present only when named. */
  counterparty?: string;
  /** An expense that is to be paid back (可以报销, 待报销); present only when true. */
  reimbursable?: boolean;
  /** A refund: the id of the expense it returns, chosen on the card (absent: a refund of its category only). */
  refundOf?: string;
  /** A reimbursement: the ids of the 待报销 expenses it settles, as proposed on the card (absent: oldest first). */
  settles?: string[];
  /** What the read-back says about those links (「退的是2月1日淘宝买鞋500元」「报销2笔待报销，还差180元」). */
  linkNote?: string;
  /** The same in the screen's register, for the card (「退的是 2月1日 淘宝买鞋 ¥500.00」); absent: the card shows linkNote. */
  cardNote?: string;
  /**
   * Set by the session on the card only: the cash (non-credit) account this draft takes below
   * zero, counting the drafts before it on the card, and its balance then. A note, never a block.
   */
  overdraft?: { account: string; balanceFen: number };
  /** A rule the sentence says the entry repeats by (每个月五号), present only when said. */
  recurrence?: Recurrence;
  /** Tags the sentence names (标签出差), present only when said. */
  tags?: string[];
  /** A draft read off a picture: the time of day it shows (HH:MM:SS), kept as the entry's time. */
  time?: string;
  /** A draft read off a picture: the shop or person paid, as the picture writes it (merchant memory keys on it). */
  merchant?: string;
  /** A draft read off a picture: the id of that picture, kept with the entry when it is saved. */
  picture?: string;
  /**
   * Set by the session on the card only: the row of the book this draft may already be
   * (「可能已记过：11月27日 12:03 瑞幸咖啡 ¥23.90」). A note, never a block.
   */
  maybeRecorded?: string;
}

/**
 * A transfer to a named person with no other flow, or already a loan: the card may record it
 * either way (借出 or a plain transfer). The core applies the switch; the card shows it.
 */
export function lendable(result: Pick<ParseResult, 'type' | 'flow' | 'counterparty'>): boolean {
  return result.type === 'TRANSFER' && Boolean(result.counterparty) && (result.flow === undefined || result.flow === 'lend');
}

export const RECURRENCE_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type RecurrenceEvery = (typeof RECURRENCE_PERIODS)[number];

/**
 * How often an entry repeats, as a sentence says it and as a rule stores it (recurrence.ts).
 * `day`: of the month 1–31 or -1 for its last day (月底), for weeks the weekday 1–7
 * (Monday–Sunday), for years the day of `month` (1–12). A key that is not fixed is absent:
 * a rule then takes it from its start date.
 */
export interface Recurrence {
  every: RecurrenceEvery;
  day?: number;
  month?: number;
}

export type DraftStatus = 'pending' | 'confirmed' | 'cancelled';

export interface DraftTransaction {
  /** 0-based, stable for the life of the batch (never renumbered after a cancel). */
  index: number;
  result: ParseResult;
  status: DraftStatus;
}

/** The serialisable form of a DraftBatch, as sent over IPC. */
export interface DraftBatchDto {
  items: DraftTransaction[];
  createdAt: string;
  /** The reading's notes for the card, Chinese (receipt lines that do not add up, lines grouped to fit). */
  notes?: string[];
  /** Present when the drafts were read off a picture: its file name. */
  picture?: { name: string };
}

export const MAX_BATCH_ITEMS = 10;

export type VoiceState = 'idle' | 'listening' | 'recognizing' | 'confirming' | 'ended';
export type VoiceMode = 'auto' | 'pushToTalk' | 'keyboard';

/** Fields a correction may change on one draft. */
export interface UpdatedFields {
  amount?: number;
  type?: TransactionType;
  category?: string;
  description?: string;
  date?: string;
  account?: string;
}

/** A pending draft as sent to the correction API (renumbered 0..k-1). */
export interface BatchItem {
  index: number;
  amount: number | null;
  category: string | null;
  type: TransactionType | null;
  description: string | null;
  date?: string | null;
}

export const CORRECTION_INTENTS = ['correction', 'confirm', 'cancel', 'unclear', 'append'] as const;
export type CorrectionIntent = (typeof CORRECTION_INTENTS)[number];

export interface CorrectionItem {
  /** Index into the batch that was sent; -1 for an appended item. */
  index: number;
  updatedFields: UpdatedFields;
}

/** The answer of `/api/v1/llm/correct-transaction`, or of the local correction rules. */
export interface CorrectionResult {
  intent: CorrectionIntent;
  corrections: CorrectionItem[];
  confidence: number;
  /** A clarifying question from the model, spoken to the user; state stays CONFIRMING. */
  message?: string;
  model?: string;
}

/** Layer-1 intents of the local classifier. */
export type LocalIntent = 'confirm' | 'cancel' | 'exit' | 'continueRecording' | 'confirmItem' | 'cancelItem' | 'correction' | 'newInput' | 'filler';

export interface ClassifyResult {
  intent: LocalIntent;
  /** 0-based display position for confirmItem/cancelItem, else null. */
  index: number | null;
  /** Set when an ordinal was spoken that is beyond the batch (e.g. 第五笔 of 3). */
  outOfRange?: boolean;
}

/** A saved ledger row as shown to the user. Amounts in integer fen. */
export interface TransactionRow {
  id: string;
  amountFen: number;
  currency: string;
  type: TransactionType;
  category: string;
  account: string;
  description: string;
  /** ISO 8601 instant with the user's offset, e.g. 2026-02-17T12:00:00+08:00. */
  occurredAt: string;
  /** Calendar day of occurredAt in its own offset. */
  date: string;
  source: ParseSource | 'manual' | 'import' | 'recurring';
  createdAt: string;
  updatedAt: string;
  /** TRANSFER rows only: the user's account the money went to (null: it left to a counterparty). */
  toAccount?: string | null;
  /** TRANSFER rows only: who outside the user's accounts received it ('' when toAccount is set or unknown). */
  counterparty?: string;
  /** Present only on rows that are more than spending, income or an own transfer. */
  flow?: LedgerFlow;
  /** Debt rows and write-offs: the person. */
  person?: string;
  /** Refunds: the expense returned (null: not linked, or that expense is gone). */
  refundOf?: string | null;
  /** Refunds linked to an expense: what the list says about it (「退的是2月1日淘宝买鞋500元」). */
  refundTarget?: { date: string; description: string; amountFen: number };
  /** Present only when true: an imported refund whose purchase is not in the ledger (待关联), counted nothing until it is. */
  awaitingPurchase?: boolean;
  /** Present only when true: 待报销, left out of net spending. */
  reimbursable?: boolean;
  /** A 待报销 expense that was paid back: the reimbursement's id. */
  reimbursedBy?: string;
  /** A row filed under a sub-category: its parent (餐饮 for 早餐). */
  parentCategory?: string;
  /** Present only when the row has tags, in the order they were given. */
  tags?: string[];
  /** 记账人: the name of the computer that recorded the row; absent for rows from before it was kept. */
  recordedBy?: string;
  /** The picture kept with the row (read off it), present only when it has one; attachmentGet fetches it. */
  attachment?: { id: string; mime: string };
}

export interface SessionSummary {
  savedCount: number;
  expenseFen: number;
  incomeFen: number;
  transferFen: number;
  /**
   * Drafts still pending when the session ended. They are kept (the ledger's drafts table),
   * listed as 未确认, and the next session opens with them; absent or empty when there are none.
   */
  unconfirmed?: ParseResult[];
}

/** `POST /api/v1/asr/token` answer (wire-compatible with the original service). */
export interface AsrToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
  model: string;
  wsUrl: string;
}

/** A question about the ledger recognised in speech (「这个月花了多少」). */
export interface LedgerQuery {
  /** Inclusive calendar days, YYYY-MM-DD. */
  from: string;
  to: string;
  type: TransactionType;
  category: string | null;
  /** How the period was named, for the spoken answer (「这个月」「今天」). */
  periodLabel: string;
}

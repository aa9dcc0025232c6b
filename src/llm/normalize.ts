// Turning a model's JSON into wire DTOs. The outer shape is checked strictly (a wrong shape
// is a failed answer and triggers the fallback model); the fields inside are coerced leniently
// (a numeric string is a number, 支出 is EXPENSE) and whatever cannot be used is dropped.
import { z } from 'zod';
import { DEFAULT_ACCOUNT, DEFAULT_CURRENCY, OTHER_CATEGORY } from '@shared/categories';
import {
  CORRECTION_INTENTS,
  DEBT_FLOWS,
  MAX_BATCH_ITEMS,
  MONEY_FLOWS,
  type CorrectionIntent,
  type MoneyFlow,
  type TransactionType,
} from '@shared/domain';
import { wireTags, type CorrectTransactionResponse, type ParsedTransaction } from '@shared/gateway';
import { isCalendarDate } from '@shared/time';
import { ModelReplyError } from './errors';

const ParseReplySchema = z.union([z.object({ transactions: z.array(z.unknown()) }), z.array(z.unknown())]);

const CorrectionReplySchema = z.object({
  corrections: z.array(z.unknown()).nullish(),
  intent: z.unknown(),
  confidence: z.unknown().optional(),
  message: z.unknown().optional(),
});

export interface NormalizedParse {
  transactions: ParsedTransaction[];
  truncated: boolean;
}

export function normalizeParseReply(reply: unknown, today: string): NormalizedParse {
  const shape = ParseReplySchema.safeParse(reply);
  if (!shape.success) throw new ModelReplyError('parse reply is not {"transactions": [...]}');
  const raw = Array.isArray(shape.data) ? shape.data : shape.data.transactions;
  const items = raw.flatMap((item) => {
    const tx = toTransaction(item, today);
    return tx ? [tx] : [];
  });
  if (raw.length > 0 && items.length === 0) throw new ModelReplyError('no usable transaction in the parse reply');
  return { transactions: items.slice(0, MAX_BATCH_ITEMS), truncated: items.length > MAX_BATCH_ITEMS };
}

function toTransaction(item: unknown, today: string): ParsedTransaction | null {
  if (!isRecord(item)) return null;
  // A sentence without a usable amount still yields a draft; the user fills the amount in.
  const amount = toAmount(item.amount) ?? null;
  const flow = toFlow(item.flow);
  const type = (flow && FLOW_TYPES[flow]) ?? toType(item.type) ?? 'EXPENSE';
  return {
    amount,
    currency: nonEmpty(item.currency)?.toUpperCase() ?? DEFAULT_CURRENCY,
    date: toDate(item.date) ?? today,
    category: nonEmpty(item.category) ?? (type === 'TRANSFER' ? '转账' : OTHER_CATEGORY),
    description: nonEmpty(item.description) ?? '',
    type,
    account: nonEmpty(item.account) ?? DEFAULT_ACCOUNT,
    confidence: toConfidence(item.confidence) ?? 0.8,
    ...flowFields(item, flow, type),
  };
}

/**
 * The type a flow always has, as the local rules give it: money lent, borrowed or paid back
 * between the user and a person moves between them (TRANSFER); money coming back (a refund,
 * a reimbursement) is read as income until the ledger files it.
 */
const FLOW_TYPES: Record<MoneyFlow, TransactionType> = {
  lend: 'TRANSFER',
  borrow: 'TRANSFER',
  repay: 'TRANSFER',
  collect: 'TRANSFER',
  refund: 'INCOME',
  reimbursement: 'INCOME',
};

function toFlow(value: unknown): MoneyFlow | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (MONEY_FLOWS as readonly string[]).includes(text) ? (text as MoneyFlow) : undefined;
}

/** The optional keys of issue 26 and 43, each kept only when usable: what the sentence said the money is. */
function flowFields(item: Record<string, unknown>, flow: MoneyFlow | undefined, type: TransactionType): Partial<ParsedTransaction> {
  const counterparty = flow && DEBT_FLOWS.includes(flow) ? nonEmpty(item.counterparty)?.slice(0, 100) : undefined;
  const tags = wireTags(Array.isArray(item.tags) ? item.tags : undefined);
  return {
    ...(flow ? { flow } : {}),
    ...(counterparty ? { counterparty } : {}),
    // Only an expense is paid back by an employer (待报销).
    ...(item.reimbursable === true && type === 'EXPENSE' ? { reimbursable: true } : {}),
    ...(tags ? { tags } : {}),
  };
}

const FIELD_NAMES = ['amount', 'type', 'category', 'description', 'date', 'account'] as const;

/**
 * Light validation of a correction (Decision 8): the intent must be known (else unclear),
 * indexes must name an item of the batch (or -1, an appended item), fields must be known
 * and amounts numeric. Confidence is passed through; the client applies the 0.7 threshold.
 */
export function normalizeCorrectionReply(reply: unknown, batchIndexes: ReadonlySet<number>): Omit<CorrectTransactionResponse, 'model'> {
  const shape = CorrectionReplySchema.safeParse(reply);
  if (!shape.success) throw new ModelReplyError('correction reply is not {"corrections": [...], "intent": ...}');
  const { data } = shape;
  const intent = toIntent(data.intent);
  const corrections = (data.corrections ?? []).flatMap((entry) => {
    if (!isRecord(entry) || !isRecord(entry.updatedFields)) return [];
    const index = toInteger(entry.index);
    if (index === undefined || (index !== -1 && !batchIndexes.has(index))) return [];
    const fields = toUpdatedFields(entry.updatedFields);
    return Object.keys(fields).length ? [{ index, updatedFields: fields }] : [];
  });
  const message = nonEmpty(data.message);
  return {
    intent,
    corrections: intent === 'unclear' ? [] : corrections,
    confidence: toConfidence(data.confidence) ?? 0,
    ...(message ? { message } : {}),
  };
}

function toUpdatedFields(raw: Record<string, unknown>): CorrectTransactionResponse['corrections'][number]['updatedFields'] {
  const fields: CorrectTransactionResponse['corrections'][number]['updatedFields'] = {};
  for (const name of FIELD_NAMES) {
    if (!(name in raw)) continue;
    const value = raw[name];
    switch (name) {
      case 'amount': {
        const amount = toAmount(value);
        if (typeof amount === 'number') fields.amount = amount;
        break;
      }
      case 'type': {
        const type = toType(value);
        if (type) fields.type = type;
        break;
      }
      case 'date': {
        const date = toDate(value);
        if (date) fields.date = date;
        break;
      }
      default: {
        const str = nonEmpty(value);
        if (str) fields[name] = str;
      }
    }
  }
  return fields;
}

function toIntent(value: unknown): CorrectionIntent {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (CORRECTION_INTENTS as readonly string[]).includes(text) ? (text as CorrectionIntent) : 'unclear';
}

const TYPE_ALIASES: Record<string, TransactionType> = {
  EXPENSE: 'EXPENSE',
  支出: 'EXPENSE',
  INCOME: 'INCOME',
  收入: 'INCOME',
  TRANSFER: 'TRANSFER',
  转账: 'TRANSFER',
};

function toType(value: unknown): TransactionType | undefined {
  return typeof value === 'string' ? TYPE_ALIASES[value.trim().toUpperCase()] : undefined;
}

/** undefined = unusable; null = explicitly no amount. Negative amounts are taken as magnitudes. */
function toAmount(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/[,，¥￥元块\s]/g, '')) : NaN;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  if (!Number.isFinite(n)) return undefined;
  return Math.abs(n);
}

function toInteger(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

function toDate(value: unknown): string | undefined {
  return typeof value === 'string' && isCalendarDate(value.trim()) ? value.trim() : undefined;
}

function toConfidence(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

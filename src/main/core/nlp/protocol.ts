// The JSON-lines protocol of `npm run nlp -- --jsonl` (../shared/golden/README.md): one request
// a line, one answer a line. Kept here so the shell tool and the tests run exactly the app's code.
import { z } from 'zod';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import {
  TRANSACTION_TYPES,
  type ClassifyResult,
  type MoneyFlow,
  type CorrectionResult,
  type LedgerQuery,
  type ParseResult,
  type Recurrence,
} from '@shared/domain';
import { formatYmd, isCalendarDate, MAX_YEAR, MIN_YEAR, systemNow, toZonedNow, type ZonedNow } from '@shared/time';
import { classifyIntent, correctLocal, detectBudgetQuery, detectQuery, parseLocal, type BudgetQuery } from './index';
import { spokenFields } from './parse';

const MAX_TEXT = 10_000;
/** The years the app keeps, as the error lines name them. */
const YEARS = `${formatYmd(MIN_YEAR, 1, 1).slice(0, 4)}–${MAX_YEAR}`;

const zonedNow = z
  .string()
  .max(40)
  .refine((s) => {
    try {
      toZonedNow(s);
      return true;
    } catch {
      return false;
    }
  }, `now must be an ISO 8601 instant with a UTC offset in the years ${YEARS}, e.g. 2026-02-17T12:00:00+08:00`);

const customCategories = z.array(z.object({ name: z.string().min(1).max(100), type: z.enum(TRANSACTION_TYPES) })).max(200);

// The card's items as the app keeps them: amounts within the ledger's range, real days.
const BatchItemSchema = z.object({
  index: z.number().int().min(0).max(999),
  amount: z.number().min(0).max(MAX_AMOUNT_YUAN).nullable().optional().default(null),
  category: z.string().nullable().optional().default(null),
  type: z.enum(TRANSACTION_TYPES).nullable().optional().default(null),
  description: z.string().nullable().optional().default(null),
  date: z.string().refine(isCalendarDate, `date must be a real day YYYY-MM-DD in the years ${YEARS}`).nullable().optional(),
});

export const NlpRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('parse'), text: z.string().max(MAX_TEXT), now: zonedNow.optional(), customCategories: customCategories.optional() }),
  z.object({ op: z.literal('classify'), text: z.string().max(MAX_TEXT), batchSize: z.number().int().min(0).max(1000).default(1) }),
  z.object({
    op: z.literal('correct'),
    text: z.string().max(MAX_TEXT),
    batch: z.array(BatchItemSchema).max(100),
    now: zonedNow.optional(),
    customCategories: customCategories.optional(),
  }),
  z.object({ op: z.literal('query'), text: z.string().max(MAX_TEXT), now: zonedNow.optional(), customCategories: customCategories.optional() }),
]);
export type NlpRequest = z.input<typeof NlpRequestSchema>;

export interface ParseAnswer {
  transactions: {
    amount: number | null;
    type: string;
    category: string | null;
    date: string | null;
    description: string;
    account: string | null;
    /** Present only when the sentence says so (../shared/golden/README.md). */
    flow?: MoneyFlow;
    counterparty?: string;
    reimbursable?: boolean;
    recurrence?: Recurrence;
    tags?: string[];
  }[];
  /** More items were said than the offline parse keeps (MAX_BATCH_ITEMS). */
  truncated: boolean;
}
export type NlpAnswer =
  | ParseAnswer
  | Pick<ClassifyResult, 'intent' | 'index' | 'outOfRange'>
  | Pick<CorrectionResult, 'intent' | 'corrections'>
  /** At most one is set: a question about spending (query) or about the month's budgets (budget). */
  | { query: LedgerQuery | null; budget: BudgetQuery | null }
  | { error: string };

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** Parsed items as a parse answer reads them: the optional fields only when said. */
export function parseAnswer(results: readonly ParseResult[], truncated: boolean): ParseAnswer {
  return {
    transactions: results.map((r) => ({
      amount: r.amount,
      type: r.type,
      category: r.category,
      date: r.date,
      description: r.description,
      account: r.account,
      ...(r.flow ? { flow: r.flow } : {}),
      ...(r.counterparty ? { counterparty: r.counterparty } : {}),
      ...(r.reimbursable ? { reimbursable: true } : {}),
      ...spokenFields(r),
    })),
    truncated,
  };
}

/**
 * Answers one request object; never throws. A bad request gets `{error}`, and so does one
 * the parser cannot finish (it throws) or whose answer would carry a day outside the years
 * the app keeps (明天 said on 9999-12-31): one line's failure is that line's answer.
 */
export function answerRequest(input: unknown, clock: () => ZonedNow = () => systemNow()): NlpAnswer {
  const parsed = NlpRequestSchema.safeParse(input);
  if (!parsed.success) return { error: `invalid request: ${describeIssues(parsed.error)}` };
  let answer: NlpAnswer;
  try {
    answer = answerParsed(parsed.data, clock);
  } catch (e) {
    return { error: `cannot process the request: ${e instanceof Error ? e.message : String(e)}` };
  }
  const outside = datesOf(answer).find((d) => !isCalendarDate(d));
  if (outside !== undefined) return { error: `cannot process the request: the day ${outside} is outside the years ${YEARS}` };
  // JSON would write Infinity or NaN as null, an answer that says something else.
  if (amountsOf(answer).some((a) => !Number.isFinite(a))) return { error: 'cannot process the request: an amount is not a finite number' };
  return answer;
}

function amountsOf(answer: NlpAnswer): number[] {
  const amounts: unknown[] = [];
  if ('transactions' in answer) amounts.push(...answer.transactions.map((t) => t.amount));
  if ('corrections' in answer) amounts.push(...answer.corrections.map((c) => c.updatedFields.amount));
  return amounts.filter((a): a is number => typeof a === 'number');
}

/** Every day an answer names (transactions, corrections, a query's period). */
function datesOf(answer: NlpAnswer): string[] {
  const dates: unknown[] = [];
  if ('transactions' in answer) dates.push(...answer.transactions.map((t) => t.date));
  if ('corrections' in answer) dates.push(...answer.corrections.map((c) => c.updatedFields.date));
  if ('query' in answer && answer.query) dates.push(answer.query.from, answer.query.to);
  return dates.filter((d): d is string => typeof d === 'string');
}

function answerParsed(request: z.output<typeof NlpRequestSchema>, clock: () => ZonedNow): NlpAnswer {
  const now = 'now' in request && request.now ? toZonedNow(request.now) : clock();
  switch (request.op) {
    case 'parse': {
      const out = parseLocal(request.text, { now, customCategories: request.customCategories });
      return parseAnswer(out.results, out.truncated);
    }
    case 'classify':
      return classifyIntent(request.text, request.batchSize);
    case 'correct': {
      const out = correctLocal(request.text, request.batch, { now, customCategories: request.customCategories });
      return { intent: out.intent, corrections: out.corrections };
    }
    case 'query':
      return { query: detectQuery(request.text, now), budget: detectBudgetQuery(request.text, now, request.customCategories) };
  }
}

/** Answers one line of the JSON-lines stream. */
export function answerLine(line: string, clock?: () => ZonedNow): NlpAnswer {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  return answerRequest(input, clock);
}

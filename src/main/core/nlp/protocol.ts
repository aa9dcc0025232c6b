// The JSON-lines protocol of `npm run nlp -- --jsonl` (../shared/golden/README.md): one request
// a line, one answer a line. Kept here so the shell tool and the tests run exactly the app's code.
import { z } from 'zod';
import { TRANSACTION_TYPES, type ClassifyResult, type CorrectionResult, type LedgerQuery } from '@shared/domain';
import { systemNow, toZonedNow, type ZonedNow } from '@shared/time';
import { classifyIntent, correctLocal, detectQuery, parseLocal } from './index';

const MAX_TEXT = 10_000;

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
  }, 'now must be an ISO 8601 instant with a UTC offset, e.g. 2026-02-17T12:00:00+08:00');

const customCategories = z.array(z.object({ name: z.string().min(1).max(100), type: z.enum(TRANSACTION_TYPES) })).max(200);

const BatchItemSchema = z.object({
  index: z.number().int().min(0),
  amount: z.number().nullable().optional().default(null),
  category: z.string().nullable().optional().default(null),
  type: z.enum(TRANSACTION_TYPES).nullable().optional().default(null),
  description: z.string().nullable().optional().default(null),
  date: z.string().nullable().optional(),
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
  z.object({ op: z.literal('query'), text: z.string().max(MAX_TEXT), now: zonedNow.optional() }),
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
  }[];
  /** More items were said than the offline parse keeps (MAX_BATCH_ITEMS). */
  truncated: boolean;
}
export type NlpAnswer =
  | ParseAnswer
  | Pick<ClassifyResult, 'intent' | 'index' | 'outOfRange'>
  | Pick<CorrectionResult, 'intent' | 'corrections'>
  | { query: LedgerQuery | null }
  | { error: string };

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** Answers one request object; never throws (a bad request gets `{error}`). */
export function answerRequest(input: unknown, clock: () => ZonedNow = () => systemNow()): NlpAnswer {
  const parsed = NlpRequestSchema.safeParse(input);
  if (!parsed.success) return { error: `invalid request: ${describeIssues(parsed.error)}` };
  const request = parsed.data;
  const now = 'now' in request && request.now ? toZonedNow(request.now) : clock();
  switch (request.op) {
    case 'parse': {
      const out = parseLocal(request.text, { now, customCategories: request.customCategories });
      return {
        transactions: out.results.map((r) => ({
          amount: r.amount,
          type: r.type,
          category: r.category,
          date: r.date,
          description: r.description,
          account: r.account,
        })),
        truncated: out.truncated,
      };
    }
    case 'classify':
      return classifyIntent(request.text, request.batchSize);
    case 'correct': {
      const out = correctLocal(request.text, request.batch, { now, customCategories: request.customCategories });
      return { intent: out.intent, corrections: out.corrections };
    }
    case 'query':
      return { query: detectQuery(request.text, now) };
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

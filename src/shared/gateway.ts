// The AI gateway's HTTP contract: zod schemas for what crosses the wire and the DTO types
// derived from them. The gateway validates requests with these, the desktop client validates
// answers with them, so both sides agree by construction. Wire-compatible with the original
// Kotlin service (field names and error bodies); additions are optional fields only.
import { z } from 'zod';
import { CORRECTION_INTENTS, MAX_BATCH_ITEMS, MONEY_FLOWS, TRANSACTION_TYPES } from './domain';
import { isCalendarDate, parseZonedIso } from './time';

/** The years a `context.now` may name (its own, local year): dates the prompts can spell. */
export const CONTEXT_NOW_YEARS = { min: 1000, max: 9999 } as const;

/** True for an ISO instant with an offset whose (local) year is 1000–9999. */
export function isContextNow(value: string): boolean {
  if (parseZonedIso(value) === null) return false;
  const year = Number(value.slice(0, 4));
  return year >= CONTEXT_NOW_YEARS.min && year <= CONTEXT_NOW_YEARS.max;
}

export const GATEWAY_PATHS = {
  parse: '/api/v1/llm/parse-transaction',
  correct: '/api/v1/llm/correct-transaction',
  asrToken: '/api/v1/asr/token',
  health: '/health',
} as const;

export const MAX_TEXT_CHARS = 2000;
/** Request bodies above this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 64 * 1024;

const text = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(MAX_TEXT_CHARS, { error: `${field} must be at most ${MAX_TEXT_CHARS} characters` });

const shortList = z.array(z.string().max(100)).max(200);

/**
 * A custom category is a bare name on the original wire; the desktop may say its type too.
 */
export const CustomCategorySchema = z.union([
  z.string().min(1).max(100),
  z.object({ name: z.string().min(1).max(100), type: z.enum(TRANSACTION_TYPES) }),
]);
export type CustomCategory = z.infer<typeof CustomCategorySchema>;

export const ParseContextSchema = z.object({
  recentCategories: shortList.optional(),
  customCategories: z.array(CustomCategorySchema).max(200).optional(),
  accounts: shortList.optional(),
  /**
   * The user's wall clock as an ISO instant with offset (extension): lets a remote gateway
   * resolve 昨天/上周三 in the user's time zone instead of its own.
   */
  now: z
    .string()
    .max(40)
    .refine(isContextNow, {
      error: `context.now must be an ISO 8601 instant with a UTC offset, in the years ${CONTEXT_NOW_YEARS.min}–${CONTEXT_NOW_YEARS.max}`,
    })
    .optional(),
});
export type ParseContext = z.infer<typeof ParseContextSchema>;

// ---- parse-transaction ------------------------------------------------------------

export const ParseTransactionRequestSchema = z.object({
  text: text('text'),
  context: ParseContextSchema.nullish(),
});
export type ParseTransactionRequest = z.infer<typeof ParseTransactionRequestSchema>;

/** Enum values compared case-insensitively (the original service's clients vary). */
const upperEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.enum(values));
const lowerEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(values));
const orNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** What a row's tag may be (the ledger's rule): 1–20 characters, no 「;」, at most 20 a row. */
export const WIRE_TAG = { maxChars: 20, maxTags: 20, separator: ';' } as const;

/** Tags as names a row can carry: trimmed, a leading # dropped, unusable and repeated ones left out; none → absent. */
export function wireTags(values: readonly unknown[] | undefined): string[] | undefined {
  const out: string[] = [];
  for (const value of values ?? []) {
    const name = typeof value === 'string' ? value.trim().replace(/^[#＃]+\s*/, '') : '';
    if (!name || name.length > WIRE_TAG.maxChars || name.includes(WIRE_TAG.separator) || out.includes(name)) continue;
    out.push(name);
  }
  return out.length ? out.slice(0, WIRE_TAG.maxTags) : undefined;
}

// Answers are read leniently (defaults, a bad field dropped rather than the whole answer
// lost), so the desktop also works against the original service, whose Kotlin serializer
// omits fields that hold their default values. Our gateway always sends every field.
export const ParsedTransactionSchema = z.object({
  amount: z.number().nullable().catch(null),
  currency: z
    .string()
    .nullish()
    .transform((v) => orNull(v) ?? 'CNY')
    .catch('CNY'),
  /** YYYY-MM-DD; null = today at save time. */
  date: z
    .string()
    .nullish()
    .transform((v) => (v && isCalendarDate(v.trim()) ? v.trim() : null))
    .catch(null),
  category: z.string().nullish().transform(orNull).catch(null),
  description: z
    .string()
    .nullish()
    .transform((v) => v?.trim() ?? '')
    .catch(''),
  type: upperEnum(TRANSACTION_TYPES).catch('EXPENSE'),
  /** null = the default account. */
  account: z.string().nullish().transform(orNull).catch(null),
  confidence: z
    .number()
    .transform((v) => Math.min(1, Math.max(0, v)))
    .catch(0.8),
  // Issue 26: present only when the sentence says so; a value we do not know is dropped.
  flow: z.enum(MONEY_FLOWS).optional().catch(undefined),
  counterparty: z.string().trim().min(1).max(100).optional().catch(undefined),
  reimbursable: z.boolean().optional().catch(undefined),
  // Issue 43: tags said aloud (标记育儿); read through wireTags, which drops what a row cannot carry.
  tags: z.array(z.unknown()).optional().catch(undefined),
});
export type ParsedTransaction = z.infer<typeof ParsedTransactionSchema>;

export const ParseTransactionResponseSchema = z.object({
  transactions: z.array(ParsedTransactionSchema),
  model: z.string().catch(''),
  /** More than 10 transactions were mentioned; only the first 10 are returned. */
  truncated: z.boolean().optional().catch(undefined),
});
export type ParseTransactionResponse = z.infer<typeof ParseTransactionResponseSchema>;

// ---- correct-transaction ----------------------------------------------------------

export const WireBatchItemSchema = z.object({
  index: z.number().int().min(0).max(1000),
  amount: z.number().nullable().optional(),
  category: z.string().max(100).nullable().optional(),
  type: upperEnum(TRANSACTION_TYPES).nullable().optional(),
  description: z.string().max(MAX_TEXT_CHARS).nullable().optional(),
  date: z.string().refine(isCalendarDate, { error: 'date must be YYYY-MM-DD' }).nullable().optional(),
});
export type WireBatchItem = z.infer<typeof WireBatchItemSchema>;

export const CorrectTransactionRequestSchema = z.object({
  currentBatch: z
    .array(WireBatchItemSchema)
    .min(1, { error: 'currentBatch must hold 1 to 10 items' })
    .max(MAX_BATCH_ITEMS, { error: 'currentBatch must hold 1 to 10 items' })
    .refine((items) => new Set(items.map((i) => i.index)).size === items.length, {
      error: 'currentBatch indexes must be unique',
    }),
  correctionText: text('correctionText'),
  context: ParseContextSchema.nullish(),
});
export type CorrectTransactionRequest = z.infer<typeof CorrectTransactionRequestSchema>;

const dropUndefined = <T extends Record<string, unknown>>(fields: T): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

export const UpdatedFieldsSchema = z
  .object({
    amount: z.number().optional().catch(undefined),
    type: upperEnum(TRANSACTION_TYPES).optional().catch(undefined),
    category: z.string().min(1).optional().catch(undefined),
    description: z.string().optional().catch(undefined),
    date: z
      .string()
      .refine((v) => isCalendarDate(v))
      .optional()
      .catch(undefined),
    account: z.string().min(1).optional().catch(undefined),
  })
  .transform(dropUndefined);

export const WireCorrectionItemSchema = z.object({
  index: z.number().int(),
  updatedFields: UpdatedFieldsSchema,
});

export const CorrectTransactionResponseSchema = z.object({
  /** Entries that are not {index, updatedFields} are dropped, not fatal. */
  corrections: z
    .array(z.unknown())
    .catch([])
    .transform((items) =>
      items.flatMap((item) => {
        const parsed = WireCorrectionItemSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  intent: lowerEnum(CORRECTION_INTENTS).catch('unclear'),
  confidence: z
    .number()
    .transform((v) => Math.min(1, Math.max(0, v)))
    .catch(0),
  model: z.string().catch(''),
  /** A clarifying question from the model; the client speaks it and keeps CONFIRMING. */
  message: z.string().optional().catch(undefined),
});
export type CorrectTransactionResponse = z.infer<typeof CorrectTransactionResponseSchema>;

// ---- ASR token, health, errors ----------------------------------------------------

export const AsrTokenResponseSchema = z.object({
  token: z.string().min(1),
  expiresAt: z.number().int(),
  /** The realtime model; the client appends it to wsUrl as `?model=` (the original's wire). */
  model: z.string(),
  /** The plain realtime endpoint (`wss://host/api-ws/v1/realtime`), without the model. */
  wsUrl: z.string(),
});
export type AsrTokenResponse = z.infer<typeof AsrTokenResponseSchema>;

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  llm: z.boolean(),
  asr: z.boolean(),
  timestamp: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

export const GATEWAY_ERROR_CODES = {
  validation_failed: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  llm_parse_failed: 422,
  rate_limit_exceeded: 429,
  headers_too_large: 431,
  internal_error: 500,
  upstream_error: 502,
  provider_not_configured: 503,
} as const;
export type GatewayErrorCode = keyof typeof GATEWAY_ERROR_CODES;

export const ErrorBodySchema = z.object({
  error: z.string(),
  message: z.string(),
  timestamp: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

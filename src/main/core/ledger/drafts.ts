// The card a voice session left unconfirmed, kept beside the transactions (never in them) so
// an idle timeout, 「没有了」 or a closed window loses no draft, and the next session opens
// with it. The stored JSON is read back through a schema: a file is a trust boundary.
import { z } from 'zod';
import { MAX_BATCH_ITEMS, MONEY_FLOWS, RECURRENCE_PERIODS, TRANSACTION_TYPES, type DraftBatchDto } from '@shared/domain';

const ParseResultSchema = z.object({
  amount: z.number().positive().finite().nullable(),
  type: z.enum(TRANSACTION_TYPES),
  category: z.string().max(100).nullable(),
  description: z.string().max(500),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  account: z.string().max(100).nullable(),
  confidence: z.number().min(0).max(1),
  source: z.enum(['local', 'llm']),
  // Issue 26's optional fields: a card kept before they existed still reads, and one value we do
  // not know costs that value only, not the card.
  flow: z.enum(MONEY_FLOWS).optional().catch(undefined),
  counterparty: z.string().min(1).max(100).optional().catch(undefined),
  reimbursable: z.boolean().optional().catch(undefined),
  refundOf: z.string().min(1).max(64).optional().catch(undefined),
  settles: z.array(z.string().min(1).max(64)).max(1000).optional().catch(undefined),
  linkNote: z.string().max(200).optional().catch(undefined),
  cardNote: z.string().max(200).optional().catch(undefined),
  recurrence: z
    .object({
      every: z.enum(RECURRENCE_PERIODS),
      day: z.number().int().min(-1).max(31).optional(),
      month: z.number().int().min(1).max(12).optional(),
    })
    .optional()
    .catch(undefined),
  tags: z.array(z.string().min(1).max(20)).max(20).optional().catch(undefined),
  // A picture's drafts (issue 39). The picture itself is not kept with the card: after a
  // restart its drafts save without it.
  time: z
    .string()
    .regex(/^\d{2}:\d{2}:\d{2}$/)
    .optional()
    .catch(undefined),
  merchant: z.string().min(1).max(100).optional().catch(undefined),
  picture: z.string().min(1).max(64).optional().catch(undefined),
  maybeRecorded: z.string().max(200).optional().catch(undefined),
});

const DraftBatchSchema = z.object({
  items: z
    .array(z.object({ index: z.number().int().min(0), status: z.enum(['pending', 'confirmed', 'cancelled']), result: ParseResultSchema }))
    .min(1)
    .max(MAX_BATCH_ITEMS),
  createdAt: z.string().max(40),
  notes: z.array(z.string().max(200)).max(20).optional().catch(undefined),
  picture: z
    .object({ name: z.string().max(260) })
    .optional()
    .catch(undefined),
});

/** The stored card, or null when there is none or it cannot be trusted (then it is not shown). */
export function readDrafts(json: string | undefined): DraftBatchDto | null {
  if (json === undefined) return null;
  try {
    const parsed = DraftBatchSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A card worth keeping: one with an item that is not cancelled. */
export function keepable(batch: DraftBatchDto | null): batch is DraftBatchDto {
  return batch !== null && batch.items.some((item) => item.status !== 'cancelled');
}

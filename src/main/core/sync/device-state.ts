import { z } from 'zod';
import { SyncError } from './errors';

/**
 * What a device publishes about itself after each round, sealed like every file: the
 * fingerprint of its books (sync/digest.ts) and its row count, how far it has applied each
 * device's files, and the files it refused. It travels in the header of the change file the
 * round writes, or — in a round that writes none but changed what it would say — in the
 * device's state file `<device>.state.skj`. Other devices show from it whether the books
 * agree, a writer learns from it which of its files a reader could not open, and a device
 * removes its superseded files only once every recent device has read past them.
 */
export const publishedStateSchema = z
  .object({
    digest: z.string().regex(/^[0-9a-f]{16,64}$/),
    rows: z.number().int().nonnegative(),
    /** Device id → the last of its change files applied (snapshots included). */
    applied: z.record(z.string().regex(/^[0-9a-f]{16}$/), z.number().int().nonnegative()),
    /** Files of other devices this one refused (cannot open), as the listing showed them. */
    refused: z
      .array(z.object({ name: z.string().max(80), size: z.number().int().nonnegative(), etag: z.string().max(200).nullable() }).strict())
      .max(100),
  })
  .strict();
export type PublishedState = z.infer<typeof publishedStateSchema>;

const stateFileSchema = z
  .object({
    v: z.literal(1),
    kind: z.literal('state'),
    device: z.string().regex(/^[0-9a-f]{16}$/),
    name: z.string().max(100),
    at: z.string().max(40),
    state: publishedStateSchema,
  })
  .strict();
export type StateFile = z.infer<typeof stateFileSchema>;

export function statePayload(file: StateFile): Buffer {
  return Buffer.from(JSON.stringify(file), 'utf8');
}

/** A state file's plaintext; anything malformed is refused whole. */
export function parseStateFile(plain: Buffer, expected: { device: string; name: string }): StateFile {
  let json: unknown;
  try {
    json = JSON.parse(plain.toString('utf8'));
  } catch {
    json = null;
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success || parsed.data.device !== expected.device) {
    throw new SyncError('refused_file', `远端文件 ${expected.name} 内容无效，已忽略。`);
  }
  return parsed.data;
}

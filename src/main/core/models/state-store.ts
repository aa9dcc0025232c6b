import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { errorMessage } from '@shared/errors';
import { MODEL_SOURCE_IDS } from '@shared/ipc/models';
import { writeDurably } from './ready-marker';

/** Which model local recognition uses, and the folder the user pointed at (kept when not active). */
const stateSchema = z.object({
  version: z.literal(1),
  active: z.union([
    z.null(),
    z.object({ kind: z.literal('catalog'), id: z.string().min(1) }).strict(),
    z.object({ kind: z.literal('folder'), path: z.string().min(1) }).strict(),
  ]),
  folder: z.string().min(1).nullable(),
  /** The download source the user chose in 设置 (absent: the catalog's order). */
  source: z.enum(MODEL_SOURCE_IDS).nullable().default(null),
  /** Models the user agreed to install from a source without a SHA-256 pin (asked once). */
  acceptedUnverified: z.array(z.string()).default([]),
});

export type ModelsState = z.infer<typeof stateSchema>;

export const EMPTY_STATE: ModelsState = { version: 1, active: null, folder: null, source: null, acceptedUnverified: [] };

/** The saved state, or the empty one when the file is missing or damaged (logged). */
export function loadState(path: string, log?: (message: string, err?: unknown) => void): ModelsState {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log?.(`models: cannot read ${path}: ${errorMessage(err)}`, err);
    return EMPTY_STATE;
  }
  try {
    const parsed = stateSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
    log?.(`models: ignoring ${path}: ${parsed.error.message}`);
  } catch (err) {
    log?.(`models: ignoring ${path}: ${errorMessage(err)}`, err);
  }
  return EMPTY_STATE;
}

export function saveState(path: string, state: ModelsState): void {
  mkdirSync(dirname(path), { recursive: true });
  writeDurably(path, JSON.stringify(state, null, 1));
}

import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { FileEntry } from './folder-files';
import { READY_MARKER, TMP_SUFFIX } from './reserved-names';

export { READY_MARKER };

// The marker (READY_MARKER) is written last into an installed model: a folder under its final
// name counts as a ready model only with it, and only while every file it lists still has its
// size. A crash anywhere before leaves a folder without it, which the manager treats as absent.

const markerSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  verifiedAt: z.string(),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative() })).min(1),
});

export function writeReadyMarker(dir: string, id: string, files: readonly FileEntry[], at: Date): void {
  const body = JSON.stringify({ version: 1, id, verifiedAt: at.toISOString(), files }, null, 1);
  writeDurably(join(dir, READY_MARKER), body);
}

/** The verified files of an installed model, or null when it is not (or no longer) complete. */
export function readyFiles(dir: string): FileEntry[] | null {
  let parsed;
  try {
    parsed = markerSchema.safeParse(JSON.parse(readFileSync(join(dir, READY_MARKER), 'utf8')));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  for (const file of parsed.data.files) {
    try {
      if (statSync(join(dir, file.path)).size !== file.bytes) return null;
    } catch {
      return null;
    }
  }
  return parsed.data.files;
}

/** Writes `path` under a temporary name, flushes it, then renames it over the old one. */
export function writeDurably(path: string, body: string): void {
  const tmp = `${path}${TMP_SUFFIX}`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    // The open's mode passes through the umask and spares a file a crash left behind: set it.
    fchmodSync(fd, 0o644);
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

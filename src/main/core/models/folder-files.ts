import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface FileEntry {
  /** Relative to the folder, with `/` separators. */
  path: string;
  bytes: number;
}

/** Every regular file under `dir` (symlinks not followed), sorted by path. */
export function listFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push({ path: relative(dir, full).split(sep).join('/'), bytes: statSync(full).size });
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Bytes the files under `dir` take (0 when it is gone). */
export function folderBytes(dir: string): number {
  try {
    return listFiles(dir).reduce((sum, f) => sum + f.bytes, 0);
  } catch {
    return 0;
  }
}

/** The modes installed files and folders get (an executable file keeps its execute bits). */
export const PLAIN_FILE_MODE = 0o644;
export const PLAIN_EXEC_MODE = 0o755;
export const PLAIN_DIR_MODE = 0o755;

/**
 * Sets `dir` and everything under it to plain modes: folders 0755, files 0755 when any execute
 * bit is set and 0644 otherwise. Files are created with these modes already, but a create's mode
 * passes through the umask (which may leave group/world write, or take read away): this makes
 * the result exact, whatever the umask. Links are left alone, never followed.
 */
export function plainModes(dir: string): void {
  const walk = (at: string) => {
    chmodSync(at, PLAIN_DIR_MODE);
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) chmodSync(full, lstatSync(full).mode & 0o111 ? PLAIN_EXEC_MODE : PLAIN_FILE_MODE);
    }
  };
  walk(dir);
}

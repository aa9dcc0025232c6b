import { readdirSync, statSync } from 'node:fs';
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

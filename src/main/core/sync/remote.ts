/**
 * Where a device's sync files live: the user's own WebDAV server or a folder another tool
 * keeps in step. One flat folder of immutable files; every device writes only files named
 * after itself, so no two devices ever write the same file and no locks are needed.
 */
export interface RemoteEntry {
  name: string;
  size: number;
  /** The server's version tag (an ETag without quotes, or a folder file's mtime); absent when it gives none. */
  etag?: string | null;
}

export interface RemoteListing {
  entries: RemoteEntry[];
  /** The server's clock (its Date header) when it answered, ms; null when unknown. */
  serverTime: number | null;
}

export interface Remote {
  /** Shown in status lines: the URL or the folder. */
  readonly label: string;
  /**
   * True where another tool copies files in (a synced folder): a file may be seen while it
   * is still arriving, so one that does not open is waited for a while before it is an error.
   */
  readonly partialFiles?: boolean;
  /** One request: the files in the sync folder. SyncError 'not_found' style errors when it does not exist. */
  list(): Promise<RemoteListing>;
  /** Creates the sync folder (first setup). */
  ensureFolder(): Promise<void>;
  /** A whole file, refused beyond maxBytes; SyncError 'changed_underneath' when it is gone. */
  read(name: string, maxBytes: number): Promise<Buffer>;
  /** Writes a file so no reader ever sees it half-written (temp name, then a move, or one PUT for a small file). */
  write(name: string, data: Buffer): Promise<void>;
  /** One request: the file as the server has it now (size, tag), or null when it has none. */
  stat(name: string): Promise<RemoteEntry | null>;
  /** Writes a file only if none of that name exists; false when one does. */
  create(name: string, data: Buffer): Promise<boolean>;
  /** Deletes a file; one already gone is fine. */
  remove(name: string): Promise<void>;
}

/** Names the app writes: nothing else in a listing is ever read, and never a path. */
export const KEY_FILE = 'suikouji-sync.json';
export const TEMP_FILE = /^[0-9a-f]{16}\.tmp\.[0-9a-f]{8}$/;
const DATA_FILE = /^([0-9a-f]{16})\.(c|s)\.(\d{10})\.skj$/;
/** A device's state file: what it last published about itself (its books' fingerprint, how far it has read). */
const STATE_FILE = /^([0-9a-f]{16})\.state\.skj$/;

export function stateFileName(device: string): string {
  return `${device}.state.skj`;
}

/** The device a state file belongs to, or null for any other name. */
export function stateFileDevice(name: string): string | null {
  return STATE_FILE.exec(name)?.[1] ?? null;
}

export interface DataFileName {
  name: string;
  device: string;
  kind: 'changes' | 'snapshot';
  seq: number;
  size: number;
}

export function dataFileName(device: string, kind: 'changes' | 'snapshot', seq: number): string {
  return `${device}.${kind === 'changes' ? 'c' : 's'}.${String(seq).padStart(10, '0')}.skj`;
}

export function parseDataFileName(entry: RemoteEntry): DataFileName | null {
  const m = DATA_FILE.exec(entry.name);
  if (!m) return null;
  return { name: entry.name, device: m[1]!, kind: m[2] === 'c' ? 'changes' : 'snapshot', seq: Number(m[3]), size: entry.size };
}

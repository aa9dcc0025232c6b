import { SyncError } from '@core/sync/errors';
import type { Remote, RemoteListing } from '@core/sync/remote';

type Method = 'list' | 'ensureFolder' | 'read' | 'write' | 'create' | 'remove' | 'stat';

/**
 * The store one test's devices share: a Map of file name → bytes, as one flat sync folder.
 * Each device gets its own MemoryRemote over it (its own request counts); what one writes,
 * the others list at once, as on a WebDAV server.
 */
export class MemoryStore {
  readonly files = new Map<string, Buffer>();
  /** Each file's version tag, as a server's ETag: a new one for every write. */
  readonly tags = new Map<string, string>();
  private version = 0;
  /** False until some device creates the folder (first setup); `list` then says not_found. */
  folder: boolean;

  constructor(options: { folder?: boolean } = {}) {
    this.folder = options.folder ?? true;
  }

  remote(label = 'memory'): MemoryRemote {
    return new MemoryRemote(this, label);
  }

  /** Stores a file (a test may also put bytes in by hand this way). */
  put(name: string, data: Buffer): void {
    this.files.set(name, Buffer.from(data));
    this.tags.set(name, `v${++this.version}`);
  }

  delete(name: string): void {
    this.files.delete(name);
    this.tags.delete(name);
  }

  tag(name: string): string | null {
    return this.tags.get(name) ?? (this.files.has(name) ? 'v0' : null);
  }
}

/**
 * An in-memory Remote, exactly the interface of remote.ts: writes are atomic (a reader never
 * sees half a file), a read of a missing file throws SyncError 'changed_underneath', and
 * every request is counted per method so tests can hold rounds to a request budget.
 */
export class MemoryRemote implements Remote {
  readonly requests: Record<Method, number> = { list: 0, ensureFolder: 0, read: 0, write: 0, create: 0, remove: 0, stat: 0 };
  /** The server's clock sent with each listing; null (the default) is a folder remote's "unknown". */
  serverTime: (() => number) | null = null;
  /** True plays a synced folder, where a file may be seen while a sync tool still copies it in. */
  partialFiles = false;

  constructor(
    readonly store: MemoryStore,
    readonly label: string,
  ) {}

  /** Requests made since construction (or the last reset). */
  get total(): number {
    return Object.values(this.requests).reduce((a, b) => a + b, 0);
  }

  resetCounts(): void {
    for (const key of Object.keys(this.requests) as Method[]) this.requests[key] = 0;
  }

  async list(): Promise<RemoteListing> {
    this.count('list');
    if (!this.store.folder) throw new SyncError('not_found', '同步文件夹不存在。');
    const entries = [...this.store.files].map(([name, data]) => ({ name, size: data.length, etag: this.store.tag(name) }));
    return { entries, serverTime: this.serverTime ? this.serverTime() : null };
  }

  async ensureFolder(): Promise<void> {
    this.count('ensureFolder');
    this.store.folder = true;
  }

  async read(name: string, maxBytes: number): Promise<Buffer> {
    this.count('read');
    const data = this.folderFile(name);
    if (data.length > maxBytes) throw new SyncError('refused_file', `同步文件 ${name} 过大（${data.length} 字节），已拒绝。`);
    // A copy: a caller that changes the bytes must not change the "server's" file.
    return Buffer.from(data);
  }

  async write(name: string, data: Buffer): Promise<void> {
    this.count('write');
    this.assertFolder();
    // One Map.set: the file appears whole or not at all.
    this.store.put(name, data);
  }

  async stat(name: string): Promise<{ name: string; size: number; etag: string | null } | null> {
    this.count('stat');
    this.assertFolder();
    const data = this.store.files.get(name);
    return data ? { name, size: data.length, etag: this.store.tag(name) } : null;
  }

  async create(name: string, data: Buffer): Promise<boolean> {
    this.count('create');
    this.assertFolder();
    if (this.store.files.has(name)) return false;
    this.store.put(name, data);
    return true;
  }

  async remove(name: string): Promise<void> {
    this.count('remove');
    this.assertFolder();
    this.store.delete(name);
  }

  private folderFile(name: string): Buffer {
    this.assertFolder();
    const data = this.store.files.get(name);
    if (!data) throw new SyncError('changed_underneath', `同步文件 ${name} 在同步过程中不见了，稍后会自动重试。`);
    return data;
  }

  private assertFolder(): void {
    if (!this.store.folder) throw new SyncError('not_found', '同步文件夹不存在。');
  }

  private count(method: Method): void {
    this.requests[method] += 1;
  }
}

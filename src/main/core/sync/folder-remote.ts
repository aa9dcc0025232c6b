import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { SyncError } from './errors';
import { type Remote, type RemoteListing } from './remote';

/** What changes when a file is rewritten or altered in place: its inode and modification time. */
function tagOf(s: Stats): string {
  return `${s.ino.toString(36)}-${Math.round(s.mtimeMs * 1000).toString(36)}`;
}

/**
 * A folder another tool keeps in step (Syncthing, OneDrive, iCloud Drive, a network share).
 * Files are written beside their final name and renamed into place, so a reader — or the
 * syncing tool — never sees half a file.
 */
export class FolderRemote implements Remote {
  readonly label: string;
  /** A sync tool may be copying a file in right now: seen before it is whole. */
  readonly partialFiles = true;

  constructor(
    private readonly folder: string,
    private readonly device: string,
  ) {
    this.label = folder;
  }

  async list(): Promise<RemoteListing> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (err) {
      throw this.error(err);
    }
    const entries = [];
    for (const name of names) {
      try {
        const s = await stat(join(this.folder, name));
        if (s.isFile()) entries.push({ name, size: s.size, etag: tagOf(s) });
      } catch {
        // gone since the listing: not ours to worry about
      }
    }
    return { entries, serverTime: null };
  }

  async stat(name: string): Promise<{ name: string; size: number; etag: string } | null> {
    try {
      const s = await stat(this.path(name));
      return s.isFile() ? { name, size: s.size, etag: tagOf(s) } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw this.error(err);
    }
  }

  async ensureFolder(): Promise<void> {
    try {
      await mkdir(this.folder, { recursive: true });
    } catch (err) {
      throw this.error(err);
    }
  }

  async read(name: string, maxBytes: number): Promise<Buffer> {
    const tooLarge = (size: number) => new SyncError('refused_file', `同步文件 ${name} 过大（${size} 字节），已拒绝。`);
    let handle;
    try {
      handle = await open(this.path(name), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new SyncError('changed_underneath', `同步文件 ${name} 在同步过程中不见了，稍后会自动重试。`);
      throw this.error(err);
    }
    try {
      // The size of the file opened (not of whatever the name points to a moment later), and the
      // limit kept while reading: a file another tool is still writing cannot grow past it.
      const size = (await handle.stat()).size;
      if (size > maxBytes) throw tooLarge(size);
      const chunks: Buffer[] = [];
      let total = 0;
      const buffer = Buffer.alloc(Math.min(Math.max(size, 1), 1024 * 1024));
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > maxBytes) throw tooLarge(total);
        chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      }
      return Buffer.concat(chunks);
    } catch (err) {
      throw this.error(err);
    } finally {
      await handle.close();
    }
  }

  async write(name: string, data: Buffer): Promise<void> {
    const temp = this.path(`${this.device}.tmp.${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(temp, data, { flush: true });
      await rename(temp, this.path(name));
    } catch (err) {
      await rm(temp, { force: true }).catch(() => {});
      throw this.error(err);
    }
  }

  /** Written under a temporary name, then hard-linked into place: the link fails if the name exists, and no reader ever sees half of it. */
  async create(name: string, data: Buffer): Promise<boolean> {
    const temp = this.path(`${this.device}.tmp.${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(temp, data, { flush: true });
      try {
        await link(temp, this.path(name));
      } catch (err) {
        // FAT drives and some network shares have no hard links: an exclusive create then.
        if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
        await writeFile(this.path(name), data, { flag: 'wx', flush: true });
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw this.error(err);
    } finally {
      await rm(temp, { force: true }).catch(() => {});
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await rm(this.path(name), { force: true });
    } catch (err) {
      throw this.error(err);
    }
  }

  /** Names come only from the app's own patterns (checked by the caller): never a path. */
  private path(name: string): string {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) throw new SyncError('refused_file', `无效的文件名：${name.slice(0, 80)}`);
    return join(this.folder, name);
  }

  private error(err: unknown): SyncError {
    if (err instanceof SyncError) return err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new SyncError('not_found', `同步文件夹不存在：${this.folder}。请检查路径（外接硬盘或网络共享是否已连接）。`);
    if (code === 'EACCES' || code === 'EPERM') return new SyncError('login_refused', `没有权限读写同步文件夹：${this.folder}。`);
    if (code === 'ENOSPC') return new SyncError('server_error', `同步文件夹所在的磁盘已满：${this.folder}。`);
    return new SyncError('unreachable', `无法读写同步文件夹 ${this.folder}（${code ?? (err as Error).message}）。`);
  }
}

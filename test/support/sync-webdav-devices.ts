// Devices for the WebDAV sync suites (sync-webdav, sync-faults, sync-kill): a ledger file each, written
// through tools/ledger.ts and synced through the app's own SyncEngine, in-process or as the
// `tools/sync.ts` / `tools/ledger.ts` child processes a user's script runs.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect } from 'vitest';
import { openLedger, type Ledger } from '@core/ledger/index';
import { SyncEngine, type RoundResult, type SyncEngineOptions } from '@core/sync/engine';
import { SyncError } from '@core/sync/errors';
import { FolderRemote } from '@core/sync/folder-remote';
import type { Remote } from '@core/sync/remote';
import type { KdfParams } from '@core/sync/seal';
import { WebDavRemote } from '@core/sync/webdav-remote';
import { runLedgerCommand } from '../../tools/ledger';

export const ROOT = resolve(import.meta.dirname, '../..');
export const PASSPHRASE = '家里的账本 correct horse';
/** scrypt at its floor: a remote set up by a test costs every later round (and child) ~1 ms to unlock. */
export const CHEAP_KDF: Omit<KdfParams, 'salt'> = { name: 'scrypt', N: 2 ** 10, r: 8, p: 1 };

export type MakeRemote = (device: string) => Remote;

export function davRemote(url: string, user: string, password: string, timeoutMs = 5000, options: { directPutMaxBytes?: number } = {}): MakeRemote {
  return (device) => new WebDavRemote({ url, user, password, device, timeoutMs, ...options });
}

export function folderRemote(folder: string): MakeRemote {
  return (device) => new FolderRemote(folder, device);
}

/** One household computer: a ledger file and the name it syncs under. */
export class Device {
  constructor(
    readonly path: string,
    readonly name: string,
  ) {}

  /** tools/ledger.ts in-process; fails the test on a non-zero exit. */
  ledger(...argv: string[]): string[] {
    const out: string[] = [];
    const err: string[] = [];
    const code = runLedgerCommand(['--db', this.path, ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code, `ledger ${argv.join(' ')}: ${err.join('\n')}`).toBe(0);
    return out;
  }

  add(fields: Record<string, unknown>): string {
    return (JSON.parse(this.ledger('add', JSON.stringify(fields))[0]!) as { id: string }).id;
  }

  /** `ledger list`, sorted: the books as text, to compare across devices byte for byte. */
  list(): string[] {
    return this.ledger('list').sort();
  }

  ids(): string[] {
    return this.list()
      .map((l) => (JSON.parse(l) as { id: string }).id)
      .sort();
  }

  /** Opens the ledger with an engine on it, as the app holds them; close() when done. */
  open(makeRemote: MakeRemote, options: Partial<SyncEngineOptions> = {}): { ledger: Ledger; engine: SyncEngine; close(): void } {
    const ledger = openLedger({ path: this.path });
    if (!ledger.journal.capture) ledger.journal.setCapture(true);
    const engine = new SyncEngine({
      db: ledger.database,
      journal: ledger.journal,
      dbPath: ledger.path,
      remote: makeRemote(ledger.journal.deviceId),
      passphrase: PASSPHRASE,
      deviceName: this.name,
      kdf: CHEAP_KDF,
      ...options,
    });
    return { ledger, engine, close: () => ledger.close() };
  }

  /** One round with a fresh engine (a fresh app start); the ledger is closed again whatever happens. */
  async sync(makeRemote: MakeRemote, options: Partial<SyncEngineOptions> = {}): Promise<RoundResult> {
    const { engine, close } = this.open(makeRemote, options);
    try {
      return await engine.round();
    } finally {
      close();
    }
  }

  /** A round that must fail: the SyncError, checked to carry a Chinese message; the books unchanged. */
  async syncFails(makeRemote: MakeRemote, options: Partial<SyncEngineOptions> = {}): Promise<SyncError> {
    const before = this.list();
    let error: unknown;
    try {
      await this.sync(makeRemote, options);
    } catch (e) {
      error = e;
    }
    expect(error, 'the round should have failed').toBeInstanceOf(SyncError);
    expect((error as SyncError).message).toMatch(/[\u4e00-\u9fff]/);
    expect(this.list(), 'a failed round leaves the books as they were').toEqual(before);
    return error as SyncError;
  }
}

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const childEnv = (passphrase: string, password: string) => ({
  ...process.env,
  SUIKOUJI_SYNC_PASSPHRASE: passphrase,
  SUIKOUJI_SYNC_PASSWORD: password,
});

/** `tools/sync.ts` as a child process, as `npm run sync` runs it. */
export function syncCli(
  db: string,
  remote: string,
  options: { user?: string; password?: string; passphrase?: string; deviceName?: string } = {},
): Promise<ChildRun> {
  const args = ['--import', 'tsx', 'tools/sync.ts', '--db', db, '--remote', remote, '--device-name', options.deviceName ?? 'cli'];
  if (options.user) args.push('--user', options.user);
  return runChild(args, childEnv(options.passphrase ?? PASSPHRASE, options.password ?? ''));
}

/** `tools/ledger.ts` as a child process. */
export function ledgerCli(db: string, ...argv: string[]): Promise<ChildRun> {
  return runChild(['--import', 'tsx', 'tools/ledger.ts', '--db', db, ...argv], process.env);
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** Synchronous variant for the few places that need one. */
export function ledgerCliSync(db: string, ...argv: string[]): ChildRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/ledger.ts', '--db', db, ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (relative paths, sorted) with its size: to show nothing new appeared. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** Files that appeared under `dir` since `before`, apart from a ledger's own (-wal, -shm, -journal). */
export function newFiles(dir: string, before: string[]): string[] {
  const known = new Set(before);
  return filesUnder(dir).filter((f) => !known.has(f) && !/\.db(-wal|-shm|-journal)?$/.test(f));
}

export function size(path: string): number {
  return statSync(path).size;
}

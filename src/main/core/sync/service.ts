import { errorMessage } from '@shared/errors';
import { defaultDeviceName } from './device-name';
import { systemClock, type Clock, type TimerHandle } from '@shared/clock';
import type { SyncError as SyncErrorDto, SyncRemoteInfo, SyncSetup, SyncStatus, SyncTestResult } from '@shared/ipc/sync';
import type { Ledger } from '../ledger/ledger';
import type { SecretBox } from '../settings/secret-box';
import { SyncConfigStore, type SyncConfig } from './config';
import { SyncEngine, type RoundResult, type SyncEngineOptions } from './engine';
import { SyncError } from './errors';
import { FolderRemote } from './folder-remote';
import type { Remote } from './remote';
import { testWording } from './test-wording';
import { WebDavRemote } from './webdav-remote';

export interface SyncServiceOptions {
  ledger: Ledger;
  dataDir: string;
  secretBox: SecretBox;
  /** The status changed: the windows show it. */
  onStatus: (status: SyncStatus) => void;
  /** Other devices' changes arrived: open pages refresh. */
  onRemoteChange: () => void;
  clock?: Clock;
  log?: (message: string, err?: unknown) => void;
  /** Tests swap the transport (an in-memory or fault-injecting remote). */
  createRemote?: (remote: SyncRemoteInfo, password: string, device: string) => Remote;
  /** Tests pass a cheaper scrypt for new remotes. */
  engine?: Pick<SyncEngineOptions, 'kdf' | 'compactAfter'>;
  /** A round after this long without one. */
  intervalMs?: number;
  /** A round this long after the last local change (changes in a burst share one). */
  debounceMs?: number;
}

const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 30 * 60_000;

/**
 * Sync as the app runs it: rounds by themselves at start, a couple of seconds after a
 * change and on an interval; an unreachable server backs off quietly (30 s, doubling to 30
 * minutes, or what the server's Retry-After asks) and says so in the status line. Entry never
 * waits for any of it: writes land in the ledger and its journal at once.
 */
export class SyncService {
  private readonly store: SyncConfigStore;
  private readonly clock: Clock;
  private readonly log: (message: string, err?: unknown) => void;
  private config: SyncConfig | null;
  private engine: SyncEngine | null = null;
  /**
   * The engine of the last successful 测试连接 and what it was given: 开始同步 with the same
   * inputs reuses it, so the key it derived (scrypt, half a second) is not derived again.
   */
  private tested: { config: string; engine: SyncEngine } | null = null;
  private running: Promise<void> | null = null;
  private timer: TimerHandle | null = null;
  private error: SyncErrorDto | null = null;
  private retryAt: number | null = null;
  private backoffMs = 0;
  private progress: { done: number; total: number } | null = null;
  private disposed = false;

  constructor(private readonly options: SyncServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? (() => {});
    this.store = new SyncConfigStore(options.dataDir, options.secretBox, this.log);
    this.config = this.store.load();
  }

  /** At app start: a round soon after, when this device syncs. */
  start(): void {
    if (this.config) this.schedule(1000);
  }

  status(): SyncStatus {
    const journal = this.options.ledger.journal;
    const config = this.config;
    return {
      state: !config ? 'off' : this.running ? 'syncing' : this.error ? 'error' : 'idle',
      remote: config?.remote ?? null,
      deviceId: journal.deviceId,
      deviceName: config?.deviceName ?? defaultDeviceName(),
      lastSyncAt: config ? journal.state('last_sync') : null,
      pending: config ? this.engineFor(config).pending() : 0,
      error: this.error,
      retryAt: this.retryAt === null ? null : new Date(this.retryAt).toISOString(),
      devices: config ? this.engineFor(config).devices() : [],
      progress: this.progress,
      ...(config ? this.engineFor(config).lastRound() : { waiting: [], clockOffsetMs: null }),
    };
  }

  /** A local write happened: push it a couple of seconds later (a burst shares one round). */
  localChange(): void {
    if (!this.config || this.disposed) return;
    // While backing off, the retry time stands: hammering a failing server helps nobody.
    // The status still goes out: the windows show the pending count growing.
    if (!(this.error && this.retryAt !== null)) this.schedule(this.options.debounceMs ?? 2000);
    this.emit();
  }

  /** 测试连接: reaches the remote and checks login and passphrase; saves nothing. */
  async test(setup: SyncSetup): Promise<SyncTestResult> {
    const localRows = this.options.ledger.count();
    this.tested = null;
    let config: SyncConfig;
    try {
      config = this.resolve(setup);
    } catch (err) {
      return { reachable: false, existing: false, message: errorMessage(err), localRows };
    }
    try {
      const engine = this.newEngine(config);
      const { existing } = await engine.probe();
      this.tested = { config: JSON.stringify(config), engine };
      const message = existing
        ? `连接成功：这里已有同步的账本，同步密码正确。${localRows > 0 ? `本机已有的 ${localRows} 笔记录会合并进去，不会丢失。` : ''}`
        : '连接成功：这是一个新的同步位置，开始同步后会用同步密码加密上传本机的账本。';
      return { reachable: true, existing, message, localRows };
    } catch (err) {
      // A wrong passphrase: the books are there, but this setup cannot be saved.
      const existing = err instanceof SyncError && err.code === 'wrong_passphrase';
      return { reachable: false, existing, message: testWording(errorMessage(err)), localRows };
    }
  }

  /** Saves the setup (secrets through the keychain) once the remote accepts it, then syncs. */
  async configure(setup: SyncSetup): Promise<SyncStatus> {
    const config = this.resolve(setup);
    // The engine that checked the passphrase keeps its key: the first round derives none again.
    const tested = this.tested?.config === JSON.stringify(config) ? this.tested.engine : null;
    this.tested = null;
    const engine = tested ?? this.newEngine(config);
    await engine.probe();
    this.store.save(config);
    await this.running?.catch(() => {});
    this.config = config;
    this.engine = engine;
    this.error = null;
    this.retryAt = null;
    this.backoffMs = 0;
    this.options.ledger.journal.setCapture(true);
    await this.runRound();
    return this.status();
  }

  /** 立即同步. */
  async syncNow(): Promise<SyncStatus> {
    if (!this.config) throw new SyncError('not_configured', '还没有设置同步。');
    await this.running?.catch(() => {});
    await this.runRound();
    return this.status();
  }

  /** 停止同步 on this device: the books stay; the remote and its secrets are forgotten here. */
  async stop(): Promise<SyncStatus> {
    await this.running?.catch(() => {});
    this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.store.clear();
    this.tested = null;
    const journal = this.options.ledger.journal;
    this.options.ledger.transaction(() => {
      journal.setCapture(false);
      journal.setState('pushed_remote', null);
      journal.setState('key_file', null);
    });
    this.config = null;
    this.engine = null;
    this.error = null;
    this.retryAt = null;
    this.progress = null;
    this.emit();
    return this.status();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.clock.clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  // ---- rounds -------------------------------------------------------------------------

  private schedule(ms: number): void {
    if (this.disposed) return;
    this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.runRound();
    }, ms);
  }

  private runRound(): Promise<void> {
    if (this.running) return this.running;
    const config = this.config;
    if (!config || this.disposed) return Promise.resolve();
    this.clock.clearTimeout(this.timer);
    this.timer = null;
    const round = (async () => {
      try {
        const result = await this.engineFor(config).round();
        this.error = null;
        this.retryAt = null;
        this.backoffMs = 0;
        if (result.pulled > 0) this.options.onRemoteChange();
      } catch (err) {
        // One device's file refused: the others' files were applied all the same.
        if (err instanceof SyncError && ((err.result as RoundResult | undefined)?.pulled ?? 0) > 0) this.options.onRemoteChange();
        this.fail(err);
      } finally {
        this.progress = null;
      }
    })();
    this.running = round.finally(() => {
      this.running = null;
      if (this.config && !this.disposed) {
        // Changes made during the round, an error to retry, or the next interval.
        const pending = this.options.ledger.journal.pendingCount() > 0;
        this.schedule(
          this.retryAt !== null
            ? this.retryAt - this.clock.now()
            : pending
              ? (this.options.debounceMs ?? 2000)
              : (this.options.intervalMs ?? 5 * 60_000),
        );
      }
      this.emit();
    });
    // After `running` is set, so the status says 'syncing' (the round's body ran up to its first await already).
    this.emit();
    return this.running;
  }

  private fail(err: unknown): void {
    const sync = err instanceof SyncError ? err : null;
    if (!sync) this.log('sync round failed', err);
    this.error = sync
      ? { code: sync.code, message: sync.message }
      : { code: 'internal_error', message: `同步失败：${errorMessage(err).slice(0, 200)}。稍后会自动重试。` };
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs ? this.backoffMs * 2 : FIRST_BACKOFF_MS);
    const wait = Math.max(this.backoffMs, Math.min(MAX_BACKOFF_MS, sync?.retryAfterMs ?? 0));
    this.retryAt = this.clock.now() + wait;
  }

  private emit(): void {
    try {
      this.options.onStatus(this.status());
    } catch (err) {
      this.log('sync status listener failed', err);
    }
  }

  // ---- engines ------------------------------------------------------------------------

  private engineFor(config: SyncConfig): SyncEngine {
    this.engine ??= this.newEngine(config);
    return this.engine;
  }

  private newEngine(config: SyncConfig): SyncEngine {
    const ledger = this.options.ledger;
    const device = ledger.journal.deviceId;
    const remote = this.options.createRemote
      ? this.options.createRemote(config.remote, config.password, device)
      : config.remote.kind === 'webdav'
        ? new WebDavRemote({ url: config.remote.url, user: config.remote.user, password: config.password, device })
        : new FolderRemote(config.remote.path, device);
    return new SyncEngine({
      db: ledger.database,
      journal: ledger.journal,
      dbPath: ledger.path === ':memory:' ? null : ledger.path,
      remote,
      passphrase: config.passphrase,
      deviceName: config.deviceName,
      now: () => this.clock.now(),
      onProgress: (progress) => {
        this.progress = progress;
        this.emit();
      },
      ...this.options.engine,
    });
  }

  /** The setup with blank secrets taken from what is stored for the same remote. */
  private resolve(setup: SyncSetup): SyncConfig {
    const current = this.config;
    const sameRemote = current && JSON.stringify(remoteInfo(setup)) === JSON.stringify(current.remote);
    const password = setup.remote.kind === 'webdav' ? setup.remote.password || (sameRemote ? current.password : '') : '';
    const passphrase = setup.passphrase || current?.passphrase || '';
    if (passphrase.length < 8) throw new SyncError('not_configured', '请填写同步密码（至少8位）。');
    return { remote: remoteInfo(setup), deviceName: setup.deviceName.trim(), password, passphrase };
  }
}

function remoteInfo(setup: SyncSetup): SyncRemoteInfo {
  return setup.remote.kind === 'webdav'
    ? { kind: 'webdav', url: setup.remote.url.trim(), user: setup.remote.user.trim() }
    : { kind: 'folder', path: setup.remote.path.trim() };
}

// SyncService as the app runs it, Pipecat-style: local changes and remote faults in, the
// sequence of status events out, time moved by a FakeClock (no sleeps). The ledger is in
// memory; the remote is the in-memory test remote (request counts per method), wrapped so a
// test can make every request fail.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { SyncSetup, SyncStatus } from '@shared/ipc/sync';
import { LedgerHistory, openLedger, type Ledger } from '../ledger/index';
import { unavailableSecretBox, type SecretBox } from '../settings/index';
import { SyncError } from './errors';
import type { Remote } from './remote';
import { SyncService } from './service';
import { entry, NOW } from '../../../../test/support/ledger-fixtures';
import { MemoryStore, type MemoryRemote } from '../../../../test/support/memory-remote';
import { books, PASSPHRASE, TEST_KDF } from '../../../../test/support/sync-devices';

/** A reversible stand-in for safeStorage (as in app-handlers.test.ts). */
const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from([...plain].reverse().join('')).toString('base64'),
  decrypt: (cipher) => [...Buffer.from(cipher, 'base64').toString()].reverse().join(''),
};

const DEBOUNCE = 2000;
const INTERVAL = 5 * 60_000;
const SEC = 1000;
const MIN = 60_000;

const dirs: string[] = [];
const devices: Device[] = [];
afterEach(async () => {
  for (const d of devices.splice(0)) {
    await d.service.dispose();
    if (d.ledger.database.open) d.ledger.close();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Device {
  dir: string;
  clock: FakeClock;
  ledger: Ledger;
  history: LedgerHistory;
  service: SyncService;
  /** The MemoryRemote of the latest engine (each engine gets its own; counts add up over `remotes`). */
  remotes: MemoryRemote[];
  /** Every status the service emitted, in order. */
  statuses: SyncStatus[];
  /** Listings asked for, failed ones included: one per round. */
  lists: number;
  /** Set to make every request of this device fail. */
  fault: { next: (() => Error) | null };
  passwords: string[];
  remoteChanges: number;
  logs: string[];
  /** Requests of one method over all of this device's engines. */
  requests(method?: keyof MemoryRemote['requests']): number;
  /** Waits for the round in flight (started by a timer or a command) to finish. */
  settle(): Promise<void>;
  /** A 记一笔 entry through the history, as the windows write (it tells the service). */
  add(note?: string): void;
}

function device(store: MemoryStore, options: { clock?: FakeClock; secretBox?: SecretBox; dir?: string; ledger?: Ledger } = {}): Device {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'skj-sync-service-'));
  if (!options.dir) dirs.push(dir);
  const clock = options.clock ?? new FakeClock();
  const ledger = options.ledger ?? openLedger({ path: ':memory:', now: () => NOW, syncNow: () => clock.now() });
  const fault: Device['fault'] = { next: null };
  const remotes: MemoryRemote[] = [];
  const d = { statuses: [], logs: [], passwords: [], remoteChanges: 0, lists: 0 } as unknown as Device;
  const guarded = <T>(task: () => Promise<T>): Promise<T> => (fault.next ? Promise.reject(fault.next()) : task());
  const service = new SyncService({
    ledger,
    dataDir: dir,
    secretBox: options.secretBox ?? box,
    clock,
    engine: { kdf: TEST_KDF },
    intervalMs: INTERVAL,
    debounceMs: DEBOUNCE,
    onStatus: (status) => d.statuses.push(status),
    onRemoteChange: () => (d.remoteChanges += 1),
    log: (message, err) => d.logs.push(`${message} ${String(err)}`),
    createRemote: (_info, password) => {
      d.passwords.push(password);
      const inner = store.remote();
      remotes.push(inner);
      const remote: Remote = {
        label: inner.label,
        list: () => {
          d.lists += 1;
          return guarded(() => inner.list());
        },
        ensureFolder: () => guarded(() => inner.ensureFolder()),
        read: (name, max) => guarded(() => inner.read(name, max)),
        write: (name, data) => guarded(() => inner.write(name, data)),
        create: (name, data) => guarded(() => inner.create(name, data)),
        remove: (name) => guarded(() => inner.remove(name)),
        stat: (name) => guarded(() => inner.stat(name)),
      };
      return remote;
    },
  });
  const history = new LedgerHistory(ledger, { onChange: (reason) => reason !== 'sync' && service.localChange() });
  let notes = 0;
  Object.assign(d, {
    dir,
    clock,
    ledger,
    history,
    service,
    remotes,
    fault,
    requests: (method?: keyof MemoryRemote['requests']) => remotes.reduce((n, r) => n + (method ? r.requests[method] : r.total), 0),
    settle: async () => {
      for (let round = running(service); round; round = running(service)) await round;
    },
    add: (note = `第${++notes}笔`) => history.addTransaction(entry({ note })),
  } satisfies Partial<Device>);
  devices.push(d);
  return d;
}

/** The round in flight: a timer starts rounds, so the test waits on the service's own promise. */
const running = (service: SyncService) => (service as unknown as { running: Promise<void> | null }).running;

const folderSetup = (over: Partial<SyncSetup> = {}): SyncSetup => ({
  remote: { kind: 'folder', path: '/sync/suikouji' },
  passphrase: PASSPHRASE,
  deviceName: '书房电脑',
  ...over,
});
const webdavSetup = (password: string, over: Partial<SyncSetup> = {}): SyncSetup => ({
  remote: { kind: 'webdav', url: 'https://dav.example.com/suikouji/', user: 'me', password },
  passphrase: PASSPHRASE,
  deviceName: '书房电脑',
  ...over,
});

const iso = (ms: number) => new Date(ms).toISOString();
const states = (list: SyncStatus[]) => list.map((s) => [s.state, s.pending]);
const notes = (ledger: Ledger) =>
  ledger
    .list()
    .rows.map((r) => r.description)
    .sort();
const unreachable = () => new SyncError('unreachable', '无法连接同步服务器，请检查网络。');

describe('SyncService status sequence', () => {
  it('off → syncing → idle on configure; a change is pushed one debounce later; a burst shares one round; the interval round', async () => {
    const store = new MemoryStore({ folder: false });
    const a = device(store);
    expect(a.service.status()).toMatchObject({ state: 'off', remote: null, lastSyncAt: null, pending: 0, devices: [], error: null, retryAt: null });
    // Before sync is set up nothing queues: the first round sends the whole books instead.
    a.add('早餐');
    expect(a.service.status().pending).toBe(0);
    expect(a.statuses).toEqual([]);

    const configured = await a.service.configure(folderSetup());
    expect(states(a.statuses)).toEqual([
      ['syncing', 0],
      ['idle', 0],
    ]);
    expect(configured).toEqual(a.statuses.at(-1));
    expect(configured).toMatchObject({
      state: 'idle',
      remote: { kind: 'folder', path: '/sync/suikouji' },
      deviceName: '书房电脑',
      lastSyncAt: iso(a.clock.now()),
      pending: 0,
      error: null,
      retryAt: null,
      progress: null,
      waiting: [],
      // A folder gives no server time.
      clockOffsetMs: null,
    });
    expect(configured.devices).toEqual([
      { id: a.ledger.journal.deviceId, name: '书房电脑', lastSeen: iso(a.clock.now()), self: true, books: null, rows: 1 },
    ]);
    expect(existsSync(join(a.dir, 'sync.json'))).toBe(true);

    // One change: pending 1 at once, the round one debounce later and not a moment before.
    a.statuses.length = 0;
    const lists = a.requests('list');
    a.add('午饭');
    expect(states(a.statuses)).toEqual([['idle', 1]]);
    await a.clock.advance(DEBOUNCE - 1);
    await a.settle();
    expect(a.requests('list')).toBe(lists);
    await a.clock.advance(1);
    await a.settle();
    expect(a.requests('list')).toBe(lists + 1);
    expect(states(a.statuses)).toEqual([
      ['idle', 1],
      ['syncing', 1],
      ['idle', 0],
    ]);
    expect(a.statuses.at(-1)!.lastSyncAt).toBe(iso(a.clock.now()));

    // A burst: each change moves the round; all of them go in ONE round, ONE file.
    a.statuses.length = 0;
    const writes = a.requests('write');
    for (const note of ['咖啡', '地铁', '晚饭']) {
      a.add(note);
      await a.clock.advance(DEBOUNCE / 2);
    }
    await a.settle();
    expect(a.requests('list')).toBe(lists + 1);
    await a.clock.advance(DEBOUNCE / 2);
    await a.settle();
    expect(a.requests('list')).toBe(lists + 2);
    expect(a.requests('write')).toBe(writes + 1);
    expect(states(a.statuses)).toEqual([
      ['idle', 1],
      ['idle', 2],
      ['idle', 3],
      ['syncing', 3],
      ['idle', 0],
    ]);

    // Nothing happens: one round per interval, and an idle round is the listing alone.
    a.statuses.length = 0;
    const before = a.requests();
    await a.clock.advance(INTERVAL - 1);
    await a.settle();
    expect(a.requests()).toBe(before);
    await a.clock.advance(1);
    await a.settle();
    expect(a.requests()).toBe(before + 1);
    await a.clock.advance(INTERVAL);
    await a.settle();
    expect(a.requests()).toBe(before + 2);
    expect(states(a.statuses)).toEqual([
      ['syncing', 0],
      ['idle', 0],
      ['syncing', 0],
      ['idle', 0],
    ]);

    // What the rounds pushed is what another device gets.
    const b = device(store, { clock: a.clock });
    await b.service.configure(folderSetup({ deviceName: '笔记本' }));
    expect(notes(b.ledger)).toEqual(['午饭', '咖啡', '地铁', '早餐', '晚饭'].sort());
    expect(b.remoteChanges).toBe(1);
    expect(
      b.service
        .status()
        .devices.map((x) => [x.name, x.self])
        .sort(),
    ).toEqual([
      ['书房电脑', false],
      ['笔记本', true],
    ]);
  });

  it('starts with a round a second after app start when this device syncs, and reports download progress when joining', async () => {
    const store = new MemoryStore();
    const a = device(store);
    await a.service.configure(folderSetup());
    a.add('早餐');
    await a.service.syncNow();
    a.add('午饭');
    await a.service.syncNow();

    const b = device(store);
    await b.service.configure(folderSetup({ deviceName: '笔记本' }));
    const progress = b.statuses.filter((s) => s.progress).map((s) => [s.state, s.progress!.done, s.progress!.total]);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every(([state]) => state === 'syncing')).toBe(true);
    expect(progress.at(-1)![1]).toBe(progress.at(-1)![2]);
    expect(b.statuses.at(-1)).toMatchObject({ state: 'idle', progress: null });

    // The app restarts: a new service over the same data folder and ledger.
    await b.service.dispose();
    const again = device(store, { clock: b.clock, dir: b.dir, ledger: b.ledger });
    expect(again.service.status()).toMatchObject({ state: 'idle', deviceName: '笔记本', remote: { kind: 'folder' } });
    again.service.start();
    await again.clock.advance(999);
    await again.settle();
    expect(again.requests()).toBe(0);
    await again.clock.advance(1);
    await again.settle();
    expect(again.requests('list')).toBe(1);
    expect(again.statuses.map((s) => s.state)).toEqual(['syncing', 'idle']);

    // A device that does not sync never starts a round.
    const off = device(store);
    off.service.start();
    await off.clock.advance(INTERVAL * 2);
    expect(off.requests()).toBe(0);
    expect(off.clock.pending).toBe(0);
  });
});

describe('SyncService errors and backoff', () => {
  it('backs off 30 s doubling to 30 min (or as Retry-After asks), never blocks entry, and recovers with everything pushed', async () => {
    const store = new MemoryStore();
    const a = device(store);
    await a.service.configure(folderSetup());
    a.statuses.length = 0;

    a.fault.next = unreachable;
    a.add('离线1');
    await a.clock.advance(DEBOUNCE);
    await a.settle();
    const t = a.clock.now();
    expect(a.statuses.at(-1)).toMatchObject({
      state: 'error',
      pending: 1,
      error: { code: 'unreachable', message: '无法连接同步服务器，请检查网络。' },
      retryAt: iso(t + 30 * SEC),
    });

    // Entry goes on while the server fails; a change does not bring the retry forward.
    const lists = a.lists;
    a.add('离线2');
    expect(a.ledger.count()).toBe(2);
    expect(a.statuses.at(-1)).toMatchObject({ state: 'error', pending: 2, retryAt: iso(t + 30 * SEC) });
    await a.clock.advance(30 * SEC - 1);
    await a.settle();
    expect(a.lists).toBe(lists);
    expect(a.service.status().retryAt).toBe(iso(t + 30 * SEC));

    /** Moves to the retry time; the round there fails (with the fault set) and sets the next one. */
    const retry = async (): Promise<number> => {
      const at = Date.parse(a.service.status().retryAt!);
      const before = a.lists;
      await a.clock.advance(at - a.clock.now() - 1);
      await a.settle();
      expect(a.lists).toBe(before);
      await a.clock.advance(1);
      await a.settle();
      expect(a.lists).toBe(before + 1);
      return Date.parse(a.service.status().retryAt!) - a.clock.now();
    };

    // The server asks for 5 minutes: that wins over the 60 s the backoff says.
    a.fault.next = () => Object.assign(new SyncError('server_error', '同步服务器暂时不可用（503），稍后会自动重试。'), { retryAfterMs: 5 * MIN });
    expect(await retry()).toBe(5 * MIN);
    expect(a.service.status()).toMatchObject({ state: 'error', error: { code: 'server_error', message: expect.stringContaining('稍后会自动重试') } });
    a.fault.next = unreachable;
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) waits.push(await retry());
    // 30 s, (Retry-After), then 120 s … doubling, capped at 30 minutes.
    expect(waits).toEqual([120 * SEC, 240 * SEC, 480 * SEC, 960 * SEC, 30 * MIN, 30 * MIN, 30 * MIN]);
    // A Retry-After beyond 30 minutes is capped there too.
    a.fault.next = () => Object.assign(new SyncError('server_error', '请求太频繁，稍后会自动重试。'), { retryAfterMs: 3 * 60 * MIN });
    expect(await retry()).toBe(30 * MIN);

    for (let i = 3; i <= 5; i++) a.add(`离线${i}`);
    expect(a.service.status()).toMatchObject({ state: 'error', pending: 5 });
    expect(a.statuses.filter((s) => s.state === 'error').every((s) => s.error?.message && /[\u4e00-\u9fff]/.test(s.error.message))).toBe(true);

    // The server is back: the retry clears the error and pushes everything.
    a.fault.next = null;
    a.statuses.length = 0;
    await a.clock.advance(Date.parse(a.service.status().retryAt!) - a.clock.now());
    await a.settle();
    expect(a.service.status()).toMatchObject({ state: 'idle', error: null, retryAt: null, pending: 0, lastSyncAt: iso(a.clock.now()) });
    expect(a.statuses.map((s) => s.state)).toEqual(['syncing', 'idle']);
    const b = device(store, { clock: a.clock });
    await b.service.configure(folderSetup({ deviceName: '笔记本' }));
    expect(notes(b.ledger)).toEqual(['离线1', '离线2', '离线3', '离线4', '离线5']);
    // Back to the normal rhythm: a change rounds one debounce later again.
    const lists2 = a.lists;
    a.add('恢复后');
    await a.clock.advance(DEBOUNCE);
    await a.settle();
    expect(a.lists).toBe(lists2 + 1);
    expect(a.service.status().pending).toBe(0);
  });

  it('an unexpected failure becomes internal_error in Chinese, is logged, and backs off like the rest', async () => {
    const a = device(new MemoryStore());
    await a.service.configure(folderSetup());
    a.fault.next = () => new TypeError('socket hang up');
    const status = await a.service.syncNow();
    expect(status).toMatchObject({
      state: 'error',
      error: { code: 'internal_error', message: '同步失败：socket hang up。稍后会自动重试。' },
      retryAt: iso(a.clock.now() + 30 * SEC),
    });
    expect(a.logs.some((l) => l.startsWith('sync round failed'))).toBe(true);
    // 立即同步 during backoff tries at once (the user asked) and, failing, backs off further.
    expect(await a.service.syncNow()).toMatchObject({ state: 'error', retryAt: iso(a.clock.now() + 60 * SEC) });
    a.fault.next = null;
    expect(await a.service.syncNow()).toMatchObject({ state: 'idle', error: null, retryAt: null });
  });
});

describe('SyncService and a damaged file on the server', () => {
  it('applies the other devices’ files and tells the windows, shows the error and what it waits for; the writer writes it again and all is well', async () => {
    const store = new MemoryStore({ folder: false });
    const [a, b, c] = [device(store), device(store), device(store)];
    await a.service.configure(folderSetup({ deviceName: '书房电脑' }));
    await b.service.configure(folderSetup({ deviceName: '客厅电脑' }));
    await c.service.configure(folderSetup({ deviceName: '卧室电脑' }));
    a.add('A 的');
    b.add('B 的');
    await a.service.syncNow();
    await b.service.syncNow();
    // A's newest file is damaged at rest.
    const own = `${a.ledger.journal.deviceId}.c.`;
    const name = [...store.files.keys()]
      .filter((f) => f.startsWith(own))
      .sort()
      .at(-1)!;
    const bytes = Buffer.from(store.files.get(name)!);
    bytes[bytes.length >> 1]! ^= 1;
    store.put(name, bytes);
    c.remoteChanges = 0;
    const status = await c.service.syncNow();
    expect(notes(c.ledger)).toEqual(['B 的']);
    expect(c.remoteChanges).toBe(1);
    expect(status).toMatchObject({ state: 'error', error: { code: 'refused_file' } });
    expect(status.waiting).toEqual([expect.objectContaining({ deviceName: '书房电脑', reason: 'damaged' })]);
    // A's next round sees its file changed on the server and writes it again.
    await a.service.syncNow();
    const healed = await c.service.syncNow();
    expect(healed).toMatchObject({ state: 'idle', error: null, waiting: [] });
    expect(notes(c.ledger)).toEqual(['A 的', 'B 的']);
  });
});

describe('SyncService test(), configure() and stop()', () => {
  it('test(): a new remote, an existing one with the right or a wrong passphrase, an unreachable one; nothing saved', async () => {
    const store = new MemoryStore({ folder: false });
    const b = device(store);
    expect(await b.service.test(folderSetup())).toEqual({
      reachable: true,
      existing: false,
      message: '连接成功：这是一个新的同步位置，开始同步后会用同步密码加密上传本机的账本。',
      localRows: 0,
    });
    expect(store.files.size).toBe(0);
    expect(store.folder).toBe(false);

    const a = device(store);
    await a.service.configure(folderSetup());
    expect(await b.service.test(folderSetup())).toMatchObject({
      reachable: true,
      existing: true,
      localRows: 0,
      message: '连接成功：这里已有同步的账本，同步密码正确。',
    });
    b.add('本机1');
    b.add('本机2');
    expect(await b.service.test(folderSetup())).toEqual({
      reachable: true,
      existing: true,
      message: '连接成功：这里已有同步的账本，同步密码正确。本机已有的 2 笔记录会合并进去，不会丢失。',
      localRows: 2,
    });
    const wrong = await b.service.test(folderSetup({ passphrase: 'not the passphrase' }));
    expect(wrong).toMatchObject({ reachable: false, existing: true, localRows: 2 });
    expect(wrong.message).toMatch(/^同步密码不对：/);

    b.fault.next = unreachable;
    expect(await b.service.test(folderSetup())).toEqual({
      reachable: false,
      existing: false,
      message: '无法连接同步服务器，请检查网络。',
      localRows: 2,
    });
    b.fault.next = null;

    expect(existsSync(join(b.dir, 'sync.json'))).toBe(false);
    expect(b.service.status().state).toBe('off');
    expect(b.statuses).toEqual([]);
    expect(b.ledger.journal.capture).toBe(false);
  });

  it('开始同步 right after 测试连接 with the same inputs reuses the tested engine (its key is not derived again); other inputs get a new one', async () => {
    const store = new MemoryStore();
    const a = device(store);
    await a.service.configure(folderSetup());
    const b = device(store);
    expect(await b.service.test(folderSetup())).toMatchObject({ reachable: true, existing: true });
    expect(b.remotes).toHaveLength(1);
    await b.service.configure(folderSetup());
    expect(b.remotes).toHaveLength(1);
    expect(b.service.status()).toMatchObject({ state: 'idle', error: null });

    const c = device(store);
    await c.service.test(folderSetup());
    await c.service.configure(folderSetup({ deviceName: '另一个名字' }));
    expect(c.remotes).toHaveLength(2);
    // A test is used once: a later configure builds its own engine.
    await c.service.stop();
    await c.service.configure(folderSetup());
    expect(c.remotes).toHaveLength(3);
  });

  it('configure() with a wrong passphrase against an existing remote rejects and saves nothing', async () => {
    const store = new MemoryStore();
    const a = device(store);
    await a.service.configure(folderSetup());
    const files = [...store.files.keys()].sort();
    const b = device(store);
    b.add('本机');
    await expect(b.service.configure(folderSetup({ passphrase: 'not the passphrase' }))).rejects.toMatchObject({
      code: 'wrong_passphrase',
      message: expect.stringMatching(/^同步密码不对/),
    });
    expect(existsSync(join(b.dir, 'sync.json'))).toBe(false);
    expect(b.service.status()).toMatchObject({ state: 'off', pending: 0 });
    expect(b.ledger.journal.capture).toBe(false);
    expect([...store.files.keys()].sort()).toEqual(files);
    expect(b.requests('write') + b.requests('create') + b.requests('remove')).toBe(0);
    expect(b.clock.pending).toBe(0);
  });

  it('configure() again with the password and passphrase left blank keeps the stored ones (also after a restart)', async () => {
    const store = new MemoryStore();
    const a = device(store);
    await a.service.configure(webdavSetup('dav-password-1'));
    expect(a.passwords.at(-1)).toBe('dav-password-1');

    const renamed = await a.service.configure(webdavSetup('', { passphrase: '', deviceName: '新名字' }));
    expect(renamed).toMatchObject({ state: 'idle', error: null, deviceName: '新名字' });
    expect(a.passwords.slice(-2)).toEqual(['dav-password-1', 'dav-password-1']);

    // A restart reads both back from sync.json.
    await a.service.dispose();
    const again = device(store, { clock: a.clock, dir: a.dir, ledger: a.ledger });
    expect(again.service.status()).toMatchObject({
      state: 'idle',
      deviceName: '新名字',
      remote: { kind: 'webdav', url: 'https://dav.example.com/suikouji/', user: 'me' },
    });
    again.add('重启后');
    expect((await again.service.syncNow()).state).toBe('idle');
    expect(again.passwords).toEqual(['dav-password-1']);
    expect(await again.service.configure(webdavSetup('', { passphrase: '' }))).toMatchObject({ state: 'idle' });

    // Another server: its password is not carried over (the passphrase is: it protects the books).
    await again.service.configure(
      webdavSetup('', { passphrase: '', remote: { kind: 'webdav', url: 'https://other.example.com/', user: 'me', password: '' } }),
    );
    expect(again.passwords.at(-1)).toBe('');
  });

  it('stop(): sync.json gone, status off, outbox empty, books kept; setting up again converges', async () => {
    const store = new MemoryStore();
    const a = device(store);
    const b = device(store, { clock: a.clock });
    await a.service.configure(folderSetup());
    await b.service.configure(folderSetup({ deviceName: '笔记本' }));
    a.add('早餐');
    a.add('午饭');
    const before = books(a.ledger);

    a.statuses.length = 0;
    const stopped = await a.service.stop();
    expect(stopped).toMatchObject({ state: 'off', remote: null, pending: 0, lastSyncAt: null, devices: [], error: null });
    expect(a.statuses.map((s) => s.state)).toEqual(['off']);
    expect(existsSync(join(a.dir, 'sync.json'))).toBe(false);
    expect(a.ledger.journal.pendingCount()).toBe(0);
    expect(books(a.ledger)).toEqual(before);

    // Stopped: changes queue nothing, nothing runs.
    a.add('离线');
    const requests = a.requests();
    await a.clock.advance(INTERVAL * 2);
    await b.settle();
    expect(a.requests()).toBe(requests);
    expect(a.statuses.map((s) => s.state)).toEqual(['off']);
    expect(a.ledger.journal.pendingCount()).toBe(0);
    expect(a.service.status().state).toBe('off');
    await expect(a.service.syncNow()).rejects.toMatchObject({ code: 'not_configured' });
    b.add('笔记本记的');
    await b.service.syncNow();

    // Set up again with the same remote: this device's whole books go up, the other's come down.
    await a.service.configure(folderSetup());
    await b.service.syncNow();
    expect(notes(a.ledger)).toEqual(['午饭', '早餐', '离线', '笔记本记的'].sort());
    expect(books(b.ledger)).toEqual(books(a.ledger));
  });
});

describe('SyncService secrets', () => {
  it('refuses to configure without a keychain, saving nothing', async () => {
    const store = new MemoryStore();
    const a = device(store, { secretBox: unavailableSecretBox });
    await expect(a.service.configure(webdavSetup('dav-password-1'))).rejects.toMatchObject({
      code: 'not_configured',
      message: '这台电脑没有可用的系统钥匙串，无法安全地保存同步密码，因此不能开启同步。',
    });
    expect(existsSync(join(a.dir, 'sync.json'))).toBe(false);
    expect(a.service.status().state).toBe('off');
    expect(store.files.size).toBe(0);
  });

  it('a sync.json whose secrets cannot be read here any more means sync is off (and says so in the log)', async () => {
    const a = device(new MemoryStore());
    await a.service.configure(webdavSetup('dav-password-1'));
    await a.service.dispose();
    const other: SecretBox = { ...box, decrypt: () => unavailableSecretBox.decrypt('') };
    const again = device(new MemoryStore(), { dir: a.dir, secretBox: other });
    expect(again.service.status().state).toBe('off');
    expect(again.logs.some((l) => l.includes('sync.json unreadable'))).toBe(true);
    expect(again.logs.join('\n')).not.toContain('dav-password-1');
  });
});

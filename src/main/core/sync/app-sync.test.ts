// Sync through the composition root, as the app wires it: two app cores (each its own data
// folder and ledger file) over one in-memory remote, each on its own FakeClock; everything
// through `dispatch`, everything the windows would see collected from `onEvent`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { AppEvent } from '@shared/events';
import type { SyncSetup, SyncStatus } from '@shared/ipc/sync';
import type { TransactionRow } from '@shared/domain';
import { createAppCore, type AppCore } from '../app-core';
import { unavailableSecretBox, type SecretBox } from '../settings/index';
import type { Remote } from './remote';
import type { SyncService } from './service';
import { MemoryStore } from '../../../../test/support/memory-remote';
import { TEST_KDF } from '../../../../test/support/sync-devices';

const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from([...plain].reverse().join('')).toString('base64'),
  decrypt: (cipher) => [...Buffer.from(cipher, 'base64').toString()].reverse().join(''),
};

const DAV_PASSWORD = 'dav-pa55word-XYZ';
const PASSPHRASE = 'sync-phrase-9876';
const DEBOUNCE = 2000;
const INTERVAL = 5 * 60_000;

interface Side {
  core: AppCore;
  clock: FakeClock;
  dir: string;
  events: AppEvent[];
  logs: string[];
  /** Set to make this core's remote fail every request. */
  fault: { next: (() => Error) | null };
  value<T>(name: string, input?: unknown): Promise<T>;
  /** Moves this core's clock and waits for any round that started to finish. */
  advance(ms: number): Promise<void>;
}

const sides: Side[] = [];
afterEach(async () => {
  for (const side of sides.splice(0)) {
    await side.core.dispose();
    rmSync(side.dir, { recursive: true, force: true });
  }
});

/** The round in flight (timers start rounds): the service's own promise. */
const running = (sync: SyncService) => (sync as unknown as { running: Promise<void> | null }).running;

function side(store: MemoryStore, options: { secretBox?: SecretBox } = {}): Side {
  const dir = mkdtempSync(join(tmpdir(), 'skj-app-sync-'));
  const clock = new FakeClock();
  const events: AppEvent[] = [];
  const logs: string[] = [];
  const fault: Side['fault'] = { next: null };
  const core = createAppCore({
    dataDir: dir,
    version: 't',
    secretBox: options.secretBox ?? box,
    backups: false,
    log: (message, err) => logs.push(`${message} ${err instanceof Error ? `${err.message}\n${err.stack}` : String(err)}`),
    sync: {
      clock,
      engine: { kdf: TEST_KDF },
      intervalMs: INTERVAL,
      debounceMs: DEBOUNCE,
      createRemote: () => {
        const inner = store.remote();
        const guarded =
          <A extends unknown[], T>(f: (...args: A) => Promise<T>) =>
          (...args: A): Promise<T> =>
            fault.next ? Promise.reject(fault.next()) : f.apply(inner, args);
        const remote: Remote = {
          label: inner.label,
          list: guarded(inner.list),
          ensureFolder: guarded(inner.ensureFolder),
          read: guarded(inner.read),
          write: guarded(inner.write),
          create: guarded(inner.create),
          remove: guarded(inner.remove),
          stat: guarded(inner.stat),
        };
        return remote;
      },
    },
  });
  core.onEvent((event) => events.push(event));
  const s: Side = {
    core,
    clock,
    dir,
    events,
    logs,
    fault,
    async value<T>(name: string, input: unknown = {}): Promise<T> {
      const result = await core.dispatch(name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
      return result.value as T;
    },
    async advance(ms) {
      await clock.advance(ms);
      for (let round = running(core.sync); round; round = running(core.sync)) await round;
    },
  };
  sides.push(s);
  return s;
}

const setup = (deviceName: string, over: Partial<SyncSetup> = {}): SyncSetup => ({
  remote: { kind: 'webdav', url: 'https://dav.example.com/suikouji/', user: 'me', password: DAV_PASSWORD },
  passphrase: PASSPHRASE,
  deviceName,
  ...over,
});

const syncStatuses = (events: AppEvent[]): SyncStatus[] =>
  events.flatMap((e) => (e.channel === 'sync' && e.event.type === 'status' ? [e.event.status] : []));
const syncChanges = (events: AppEvent[]) => events.filter((e) => e.channel === 'ledger' && e.event.type === 'changed' && e.event.reason === 'sync');
const rows = (s: Side) =>
  s.core.ledger
    .list()
    .rows.map((r) => [r.description, r.amountFen, r.category])
    .sort();

describe('sync through two app cores', () => {
  it('a row added in A reaches B after their rounds; B tells its windows; undo in A keeps the field B changed', async () => {
    const store = new MemoryStore({ folder: false });
    const a = side(store);
    const b = side(store);
    expect(await a.value<SyncStatus>('syncConfigure', setup('书房电脑'))).toMatchObject({ state: 'idle', pending: 0 });
    expect(await b.value<SyncStatus>('syncConfigure', setup('笔记本'))).toMatchObject({ state: 'idle', pending: 0 });
    b.events.length = 0;

    const added = await a.value<TransactionRow>('addTransaction', {
      amountYuan: 25,
      type: 'EXPENSE',
      category: '餐饮',
      date: '2026-02-10',
      time: '12:00',
      note: '午饭',
    });
    expect(a.core.sync.status().pending).toBe(1);
    expect(syncStatuses(a.events).at(-1)).toMatchObject({ state: 'idle', pending: 1 });
    await a.advance(DEBOUNCE - 1);
    expect(a.core.sync.status().pending).toBe(1);
    await a.advance(1);
    expect(a.core.sync.status()).toMatchObject({ state: 'idle', pending: 0 });

    // B's next interval round brings it in, and B's windows hear of it.
    expect(rows(b)).toEqual([]);
    await b.advance(INTERVAL);
    expect(rows(b)).toEqual([['午饭', 2500, '餐饮']]);
    expect(b.core.ledger.list().rows[0]!.id).toBe(added.id);
    expect(syncChanges(b.events)).toEqual([{ channel: 'ledger', event: { type: 'changed', reason: 'sync' } }]);
    // The round, with its download progress (one file of A's).
    expect(syncStatuses(b.events).map((s) => [s.state, s.progress])).toEqual([
      ['syncing', null],
      ['syncing', { done: 0, total: 1 }],
      ['syncing', { done: 1, total: 1 }],
      ['idle', null],
    ]);
    expect(
      syncStatuses(b.events)
        .at(-1)!
        .devices.map((d) => [d.name, d.self])
        .sort(),
    ).toEqual([
      ['书房电脑', false],
      ['笔记本', true],
    ]);
    // Other devices' rows are not B's own changes: nothing queued, no extra round.
    expect(b.core.sync.status().pending).toBe(0);
    expect(syncChanges(a.events)).toEqual([]);

    // A edits the amount; B (not yet having that) edits the note of the same row.
    await a.value('updateTransaction', { id: added.id, patch: { amountFen: 3000 } });
    await a.advance(DEBOUNCE);
    await b.value('updateTransaction', { id: added.id, patch: { description: '和同事吃午饭' } });
    await b.advance(DEBOUNCE);
    expect(rows(b)).toEqual([['和同事吃午饭', 3000, '餐饮']]);
    a.events.length = 0;
    await a.advance(INTERVAL);
    expect(rows(a)).toEqual([['和同事吃午饭', 3000, '餐饮']]);
    expect(syncChanges(a.events)).toHaveLength(1);

    // Undo in A takes back its own edit (the amount) and only that.
    expect(await a.core.dispatch('undo', {})).toMatchObject({ ok: true });
    expect(rows(a)).toEqual([['和同事吃午饭', 2500, '餐饮']]);
    await a.advance(DEBOUNCE);
    await b.advance(INTERVAL);
    expect(rows(b)).toEqual([['和同事吃午饭', 2500, '餐饮']]);
    expect(rows(a)).toEqual(rows(b));
    expect(a.core.sync.status()).toMatchObject({ state: 'idle', pending: 0 });
    expect(b.core.sync.status()).toMatchObject({ state: 'idle', pending: 0 });
  });

  it('keeps the WebDAV password and the passphrase out of the data folder, the log and the status', async () => {
    const store = new MemoryStore();
    const a = side(store);
    await a.value('settingsSave', { settings: { vad: { silenceMs: 1200 } } });
    expect(await a.value<SyncStatus>('syncTest', setup('书房电脑'))).toMatchObject({ reachable: true });
    await a.value('syncConfigure', setup('书房电脑'));
    await a.value('addTransaction', { amountYuan: 8, type: 'EXPENSE', category: '交通', date: '2026-02-10', time: '08:00', note: '地铁' });
    await a.advance(DEBOUNCE);
    // A failing round: something lands in the log.
    a.fault.next = () => new Error('connect ECONNRESET');
    await a.value('addTransaction', { amountYuan: 9, type: 'EXPENSE', category: '交通', date: '2026-02-10', time: '09:00', note: '公交' });
    await a.advance(DEBOUNCE);
    expect(a.core.sync.status()).toMatchObject({ state: 'error', error: { code: 'internal_error' } });
    expect(a.logs.length).toBeGreaterThan(0);
    a.fault.next = null;
    await a.value(
      'syncConfigure',
      setup('书房电脑', { passphrase: '', remote: { kind: 'webdav', url: 'https://dav.example.com/suikouji/', user: 'me', password: '' } }),
    );
    expect(a.core.sync.status()).toMatchObject({ state: 'idle', pending: 0 });

    const status = await a.value<SyncStatus>('syncStatus');
    const outputs = JSON.stringify([status, a.events, a.logs]);
    const files = walk(a.dir);
    expect(files.map((f) => f.slice(a.dir.length + 1))).toEqual(expect.arrayContaining(['sync.json', 'settings.json', 'ledger.db', 'ledger.db-wal']));
    for (const secret of [DAV_PASSWORD, PASSPHRASE]) {
      expect(outputs).not.toContain(secret);
      for (const file of files) {
        const bytes = readFileSync(file);
        expect(bytes.includes(Buffer.from(secret, 'utf8')), `${file} holds ${secret}`).toBe(false);
        expect(bytes.includes(Buffer.from(secret, 'utf16le')), `${file} holds ${secret} (utf16)`).toBe(false);
      }
    }
    // The secrets are there, encrypted: a restart syncs without asking again.
    await a.core.dispose();
    sides.splice(sides.indexOf(a), 1);
    const sync = JSON.parse(readFileSync(join(a.dir, 'sync.json'), 'utf8'));
    expect(sync).toMatchObject({
      remote: { kind: 'webdav', user: 'me' },
      secrets: { password: box.encrypt(DAV_PASSWORD), passphrase: box.encrypt(PASSPHRASE) },
    });
    rmSync(a.dir, { recursive: true, force: true });
  });

  it('refuses to set up sync without a keychain, with a Chinese sentence, saving nothing', async () => {
    const a = side(new MemoryStore(), { secretBox: unavailableSecretBox });
    expect(await a.core.dispatch('syncConfigure', setup('书房电脑'))).toEqual({
      ok: false,
      error: { code: 'not_configured', message: '这台电脑没有可用的系统钥匙串，无法安全地保存同步密码，因此不能开启同步。' },
    });
    expect(walk(a.dir).map((f) => f.slice(a.dir.length + 1))).not.toContain('sync.json');
    expect(a.core.sync.status().state).toBe('off');
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

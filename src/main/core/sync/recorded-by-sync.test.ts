// 记账人 across devices. First two ledgers over one memory remote: a row keeps the name of
// the device that recorded it wherever it is merged, and an edit elsewhere does not take it
// over. Then two app cores on real ledger files, wired as the app runs: the name each computer
// records is the one its sync setup gives it (the OS user's before sync is set up), and a
// computer renamed in 设置 → 同步 records its new name from then on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { TransactionRow } from '@shared/domain';
import type { SyncSetup } from '@shared/ipc/sync';
import { createAppCore, type AppCore } from '../app-core';
import type { SecretBox } from '../settings/index';
import { defaultDeviceName } from './device-name';
import type { SyncService } from './service';
import { MemoryStore } from '../../../../test/support/memory-remote';
import { books, makeDevices, quiesce, TestClock, TEST_KDF, type Device } from '../../../../test/support/sync-devices';
import { item } from '../../../../test/support/ledger-fixtures';

let devices: Device[] = [];
const cores: { core: AppCore; dir: string }[] = [];
afterEach(async () => {
  for (const d of devices) d.close();
  devices = [];
  for (const { core, dir } of cores.splice(0)) {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

const recorders = (d: Device) =>
  d.ledger
    .list({ limit: 100 })
    .rows.map((r) => [r.description, r.recordedBy ?? null])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])));

describe('记账人 on two synced ledgers', () => {
  it('each row keeps the device that recorded it, on both sides, through edits made on the other', async () => {
    const clock = new TestClock();
    ({ devices } = makeDevices(2, { clock }));
    const [a, b] = devices as [Device, Device];
    a.ledger.recordedBy = '小王的电脑';
    b.ledger.recordedBy = '小李的电脑';
    const [lunch] = a.history.saveBatch([item({ description: '午饭' })]);
    clock.tick(1000);
    b.history.saveBatch([item({ description: '买菜', amount: 42 })]);
    b.history.addTransaction({ amountFen: 800, type: 'EXPENSE', category: '交通', date: '2026-02-10', time: '08:00', note: '地铁' });
    await quiesce(devices);
    const expected = [
      ['买菜', '小李的电脑'],
      ['午饭', '小王的电脑'],
      ['地铁', '小李的电脑'],
    ];
    expect(recorders(a)).toEqual(expected);
    expect(recorders(b)).toEqual(expected);

    // B corrects A's row: it is still A's entry.
    clock.tick(60_000);
    b.history.updateTransaction(lunch!.id, { amountFen: 7500 });
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.getTransaction(lunch!.id), d.name).toMatchObject({ amountFen: 7500, recordedBy: '小王的电脑' });
    expect(books(b.ledger, ['2026-02'])).toEqual(books(a.ledger, ['2026-02']));
  });
});

// ---- through the app core, on ledger files ----------------------------------------------

const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from(plain).toString('base64'),
  decrypt: (cipher) => Buffer.from(cipher, 'base64').toString(),
};
const INTERVAL = 5 * 60_000;
const DEBOUNCE = 2000;

/** The round in flight (timers start rounds): the service's own promise. */
const running = (sync: SyncService) => (sync as unknown as { running: Promise<void> | null }).running;

function appCore(store: MemoryStore) {
  const dir = mkdtempSync(join(tmpdir(), 'skj-recorded-by-'));
  const clock = new FakeClock();
  const core = createAppCore({
    dataDir: dir,
    version: 't',
    secretBox: box,
    backups: false,
    log: () => {},
    sync: { clock, engine: { kdf: TEST_KDF }, intervalMs: INTERVAL, debounceMs: DEBOUNCE, createRemote: () => store.remote() },
  });
  cores.push({ core, dir });
  const call = async <T>(name: string, input: unknown = {}): Promise<T> => {
    const result = await core.dispatch(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as T;
  };
  const add = (note: string) =>
    call<TransactionRow>('addTransaction', { amountYuan: 10, type: 'EXPENSE', category: '餐饮', date: '2026-02-10', time: '12:00', note });
  const advance = async (ms: number) => {
    await clock.advance(ms);
    for (let round = running(core.sync); round; round = running(core.sync)) await round;
  };
  return { core, call, add, advance };
}

const setup = (deviceName: string): SyncSetup => ({
  remote: { kind: 'webdav', url: 'https://dav.example.com/suikouji/', user: 'me', password: 'dav-password' },
  passphrase: 'sync-phrase-9876',
  deviceName,
});

describe('记账人 as the app records it', () => {
  it('the OS user’s computer before sync, the synced name after, the new name after a rename; merged rows keep theirs', async () => {
    const store = new MemoryStore({ folder: false });
    const a = appCore(store);
    const b = appCore(store);
    const early = await a.add('同步前');
    expect(early.recordedBy).toBe(defaultDeviceName());

    await a.call('syncConfigure', setup('书房电脑'));
    await b.call('syncConfigure', setup('小李的笔记本'));
    const fromA = await a.add('书房记的');
    const fromB = await b.add('笔记本记的');
    expect([fromA.recordedBy, fromB.recordedBy]).toEqual(['书房电脑', '小李的笔记本']);

    // Renamed in 设置 → 同步 (the same remote, a new name): new rows say so, old ones stay.
    await a.call('syncConfigure', { ...setup('客厅电脑'), passphrase: '' });
    const renamed = await a.add('改名后');
    expect(renamed.recordedBy).toBe('客厅电脑');

    await a.advance(DEBOUNCE);
    await b.advance(DEBOUNCE);
    await a.advance(INTERVAL);
    await b.advance(INTERVAL);
    const seen = (core: AppCore) =>
      core.ledger
        .list({ limit: 100 })
        .rows.map((r) => [r.description, r.recordedBy ?? null])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    const expected = [
      ['书房记的', '书房电脑'],
      ['同步前', defaultDeviceName()],
      ['改名后', '客厅电脑'],
      ['笔记本记的', '小李的笔记本'],
    ].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(seen(b.core)).toEqual(expected);
    expect(seen(a.core)).toEqual(expected);
  });
});

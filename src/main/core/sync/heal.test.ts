import { describe, expect, it } from 'vitest';
import { SyncError } from './errors';
import { KEY_FILE, parseDataFileName } from './remote';
import { books, makeDevice, makeDevices, quiesce, TestClock, type Device } from '../../../../test/support/sync-devices';
import type { MemoryStore } from '../../../../test/support/memory-remote';

/**
 * What a household sees of sync beyond "the rows arrive", over the in-memory remote: joining
 * computers send no copy of the books back, every computer shows whether the others hold the
 * same books, a replaced key file is its own error, a file a sync tool is still copying is
 * waited for, superseded files go once every recent device has read past them, and the
 * clock's offset is shown.
 */

const day = 24 * 3600_000;

function addRows(d: Device, count: number, note = '午饭'): string[] {
  const ids: string[] = [];
  d.ledger.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      ids.push(
        d.ledger.addTransaction({ amountFen: 100 + i, type: 'EXPENSE', category: '餐饮', date: '2026-02-10', time: '12:00', note: `${note}${i}` }).id,
      );
    }
  });
  return ids;
}

const dataFiles = (store: MemoryStore) =>
  [...store.files.keys()].map((name) => parseDataFileName({ name, size: store.files.get(name)!.length })).filter((f) => f !== null);
const bytesOn = (store: MemoryStore) => [...store.files.values()].reduce((n, b) => n + b.length, 0);
const of = (d: Device) => d.ledger.journal.deviceId;

describe('joining without sending the books back', () => {
  it('three new computers join a book: no copies on the server, and a one-row round afterwards costs two requests more than an idle one', async () => {
    const { store, devices } = makeDevices(4, { compactAfter: 50 });
    const [a, ...joiners] = devices as [Device, ...Device[]];
    addRows(a, 2000);
    await a.engine.round();
    const snapshot = dataFiles(store).find((f) => f.kind === 'snapshot')!;
    // One joiner had made a category of its own before it joined: that must still reach everyone.
    // (Made before it turned sync on: nothing of it is journaled yet.)
    joiners[2]!.ledger.journal.setCapture(false);
    joiners[2]!.ledger.addCategory('猫粮', 'EXPENSE');
    joiners[2]!.ledger.journal.setCapture(true);
    for (const d of joiners) await d.engine.round();
    expect(dataFiles(store).filter((f) => f.kind === 'snapshot')).toEqual([snapshot]);
    expect(bytesOn(store)).toBeLessThanOrEqual(1.5 * snapshot.size);
    for (const d of joiners) expect(d.ledger.count()).toBe(2000);

    // A reads what the joiners published once; then an idle round is the listing alone…
    await a.engine.round();
    a.remote.resetCounts();
    await a.engine.round();
    const idle = a.remote.total;
    expect(idle).toBe(1);
    // …and a one-row round adds the file and the check that the server kept it.
    a.remote.resetCounts();
    addRows(a, 1, '晚饭');
    await a.engine.round();
    expect(a.remote.total - idle).toBeLessThanOrEqual(2);
    expect(a.remote.requests).toMatchObject({ list: 1, write: 1, stat: 1, read: 0 });

    await quiesce(devices);
    const expected = books(a.ledger);
    for (const d of joiners) expect(books(d.ledger)).toEqual(expected);
    expect(a.ledger.listCategories().some((c) => c.name === '猫粮')).toBe(true);
  });
});

describe('the books fingerprint', () => {
  it('every computer lists the others as 账目一致 once they hold the same books, 与本机不同 while they do not', async () => {
    const { devices } = makeDevices(3);
    const [a, b, c] = devices as [Device, Device, Device];
    addRows(a, 3);
    addRows(b, 2, '打车');
    await quiesce(devices);
    for (const d of devices) {
      const others = d.engine.devices().filter((x) => !x.self);
      expect(others.map((x) => x.books)).toEqual(['same', 'same']);
      expect(others.every((x) => x.rows === 5)).toBe(true);
    }
    // A records one more and syncs: C, not yet having it, differs from A; A sees B and C as different.
    addRows(a, 1, '宵夜');
    await a.engine.round();
    await b.engine.round();
    const byName = (d: Device) => Object.fromEntries(d.engine.devices().map((x) => [x.name, x.books]));
    expect(byName(b)).toMatchObject({ A: 'same', C: 'different' });
    await c.engine.round();
    await a.engine.round();
    expect(byName(a)).toMatchObject({ A: null, B: 'same', C: 'same' });
  });
});

describe('a key file that is not the one this device synced with', () => {
  async function synced(): Promise<{ store: MemoryStore; a: Device; b: Device }> {
    const { store, devices } = makeDevices(2);
    const [a, b] = devices as [Device, Device];
    addRows(a, 1);
    await quiesce(devices);
    return { store, a, b };
  }

  it('one salt character altered → key_changed (never "wrong passphrase"), nothing applied, nothing written', async () => {
    const { store, b } = await synced();
    const keyFile = JSON.parse(store.files.get(KEY_FILE)!.toString()) as { kdf: { salt: string } };
    keyFile.kdf.salt = (keyFile.kdf.salt[0] === 'A' ? 'B' : 'A') + keyFile.kdf.salt.slice(1);
    store.put(KEY_FILE, Buffer.from(JSON.stringify(keyFile)));
    const files = [...store.files.keys()].sort();
    const error = await b.engine.round().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).code).toBe('key_changed');
    expect((error as SyncError).message).toMatch(/密钥文件.*被替换或改动/);
    expect([...store.files.keys()].sort()).toEqual(files);
  });

  it('another sync location’s key file, even one the same passphrase opens → key_changed for a device that shared the old one', async () => {
    const { store, a } = await synced();
    const other = makeDevices(1).store;
    const lone = makeDevice(other, 'X');
    await lone.engine.round();
    store.put(KEY_FILE, other.files.get(KEY_FILE)!);
    expect(await a.engine.round().catch((e: unknown) => (e as SyncError).code)).toBe('key_changed');
  });

  it('a device that was alone on its key follows a new one its passphrase opens (two new computers set up one synced folder at once)', async () => {
    const store = makeDevices(0).store;
    const x = makeDevice(store, 'X');
    addRows(x, 2);
    await x.engine.round();
    const xFiles = new Map([...store.files].filter(([f]) => f.startsWith(of(x))));
    // The other computer's key file won the race in the sync tool; its books came along.
    const elsewhere = makeDevices(1).store;
    const y = makeDevice(elsewhere, 'Y');
    addRows(y, 1, '打车');
    await y.engine.round();
    store.delete(KEY_FILE);
    for (const [name, bytes] of elsewhere.files) store.put(name, bytes);
    await x.engine.round();
    // X took its files sealed under the old key away and sent its books under the new one.
    for (const [f, bytes] of xFiles) expect(store.files.get(f)?.equals(bytes) ?? false).toBe(false);
    const y2 = makeDevice(store, 'Y2');
    await quiesce([x, y2]);
    expect(y2.ledger.count()).toBe(3);
  });

  it('the same key file with the wrong passphrase is still 同步密码不对', async () => {
    const { store } = await synced();
    const stranger = makeDevice(store, 'S');
    (stranger.engine as unknown as { options: { passphrase: string } }).options.passphrase = 'not the household passphrase';
    expect(await stranger.engine.round().catch((e: unknown) => (e as SyncError).code)).toBe('wrong_passphrase');
  });
});

describe('a synced folder whose tool is still copying a file in', () => {
  it('is waited for (等待同步工具传完, no error) for 3 rounds and 10 minutes, then refused; applied once whole', async () => {
    const clock = new TestClock();
    const { store, devices } = makeDevices(2, { clock });
    const [a, b] = devices as [Device, Device];
    b.remote.partialFiles = true;
    await quiesce(devices);
    addRows(a, 1);
    await a.engine.round();
    const name = dataFiles(store)
      .filter((f) => f.device === of(a))
      .at(-1)!.name;
    const whole = store.files.get(name)!;
    store.files.set(name, whole.subarray(0, Math.floor(whole.length / 2)));
    const since = new Date(clock.ms).toISOString();
    for (let round = 0; round < 3; round += 1) {
      const result = await b.engine.round();
      expect(result.waiting).toEqual([{ device: of(a), deviceName: 'A', seq: Number(name.split('.')[2]), since, reason: 'copying' }]);
      clock.tick(60_000);
    }
    // Still copying after 3 rounds, but not 10 minutes yet: still waiting.
    expect((await b.engine.round()).waiting).toHaveLength(1);
    clock.tick(10 * 60_000);
    expect(await b.engine.round().catch((e: unknown) => (e as SyncError).code)).toBe('refused_file');
    store.files.set(name, whole);
    expect(await b.engine.round()).toMatchObject({ pulled: 1, waiting: [] });
  });
});

describe('removing superseded files', () => {
  it('once every device seen in the last 90 days has read past them; a device away longer rejoins from the snapshot with its own changes', async () => {
    const clock = new TestClock();
    const { store, devices } = makeDevices(3, { clock, compactAfter: 1 });
    const [a, b, c] = devices as [Device, Device, Device];
    await quiesce(devices);
    const ownChanges = () => dataFiles(store).filter((f) => f.device === of(a) && f.kind === 'changes');
    // C goes away; A compacts as it writes; B keeps reading.
    for (let i = 0; i < 6; i += 1) {
      addRows(a, 1, `第${i}笔`);
      await a.engine.round();
      await b.engine.round();
    }
    const snapshots = () => dataFiles(store).filter((f) => f.device === of(a) && f.kind === 'snapshot');
    expect(snapshots().length).toBeGreaterThanOrEqual(1);
    // C has not read past A's change files: they stay for it.
    const cApplied = (c.ledger.database.prepare('SELECT applied FROM sync_peers WHERE device = ?').pluck().get(of(a)) as number) ?? 0;
    expect(ownChanges().filter((f) => f.seq > cApplied).length).toBeGreaterThan(0);
    expect(ownChanges().some((f) => f.seq <= snapshots().at(-1)!.seq)).toBe(true);

    // 91 days on, C counts no more: what the newest snapshot covers goes, older snapshots too.
    clock.tick(91 * day);
    addRows(c, 1, '离线时记的');
    addRows(a, 1, '三个月后');
    await a.engine.round();
    await b.engine.round();
    await a.engine.round();
    const latest = snapshots().at(-1)!;
    expect(snapshots()).toEqual([latest]);
    expect(ownChanges().every((f) => f.seq > latest.seq)).toBe(true);

    // C comes back: it takes A's snapshot, keeps and sends what it recorded meanwhile.
    await quiesce(devices);
    const expected = books(a.ledger);
    expect(books(b.ledger)).toEqual(expected);
    expect(books(c.ledger)).toEqual(expected);
    expect(a.ledger.list().rows.some((r) => r.description === '离线时记的0')).toBe(true);
  });
});

describe('the clock', () => {
  it('shows how far off this computer is, and refuses to send beyond 5 minutes, saying which way', async () => {
    const clock = new TestClock();
    const { devices } = makeDevices(1, { clock });
    const [a] = devices as [Device];
    a.remote.serverTime = () => clock.ms - 3 * 60_000;
    addRows(a, 1);
    expect((await a.engine.round()).clockOffsetMs).toBe(3 * 60_000);
    expect(a.engine.lastRound().clockOffsetMs).toBe(3 * 60_000);
    a.remote.serverTime = () => clock.ms + 8 * 60_000;
    addRows(a, 1, '晚饭');
    const error = (await a.engine.round().catch((e: unknown) => e)) as SyncError;
    expect(error.code).toBe('clock_skew');
    expect(error.message).toContain('本机时钟比服务器慢约 8 分钟');
    expect(a.engine.lastRound().clockOffsetMs).toBe(-8 * 60_000);
  });
});

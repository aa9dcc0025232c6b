import { afterEach, describe, expect, it } from 'vitest';
import { entry, item } from '../../../../test/support/ledger-fixtures';
import { MemoryStore } from '../../../../test/support/memory-remote';
import { books, makeDevice, makeDevices, quiesce, TestClock, type Device } from '../../../../test/support/sync-devices';
import { SyncError } from './errors';

// The merge rules the sync issue names, one example each, on devices that share one memory
// remote and a wall clock the test moves.

let open: Device[] = [];
afterEach(() => {
  for (const d of open) d.close();
  open = [];
});

function setup(count: number): { clock: TestClock; store: MemoryStore; devices: Device[] } {
  const clock = new TestClock();
  const { store, devices } = makeDevices(count, { clock });
  open.push(...devices);
  return { clock, store, devices };
}

async function sync(...devices: Device[]): Promise<void> {
  for (const d of devices) await d.engine.round();
}

function row(d: Device, id: string) {
  return d.ledger.getTransaction(id);
}

function expectSameBooks(devices: readonly Device[]): void {
  const want = books(devices[0]!.ledger, ['2026-02']);
  for (const d of devices.slice(1)) expect(books(d.ledger, ['2026-02']), `${d.name} vs ${devices[0]!.name}`).toEqual(want);
}

describe('per-field last writer wins', () => {
  it('keeps concurrent edits of different fields of one row', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const [saved] = a.history.saveBatch([item()]);
    await sync(a, b);
    clock.tick(1000);
    a.history.updateTransaction(saved!.id, { amountFen: 4200 });
    b.history.updateTransaction(saved!.id, { description: '和同事吃饭' });
    clock.tick(1000);
    await quiesce(devices);
    for (const d of devices) expect(row(d, saved!.id)).toMatchObject({ amountFen: 4200, description: '和同事吃饭' });
    expectSameBooks(devices);
  });

  it('gives the same field to the later edit, whichever device syncs first', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const [saved] = a.history.saveBatch([item()]);
    await sync(a, b);
    clock.tick(1000);
    b.history.updateTransaction(saved!.id, { amountFen: 1111 });
    clock.tick(1000);
    a.history.updateTransaction(saved!.id, { amountFen: 2222 });
    // B, whose edit is older, pushes last: its file must not win.
    await sync(a, b);
    await quiesce(devices);
    for (const d of devices) expect(row(d, saved!.id)?.amountFen).toBe(2222);
    expectSameBooks(devices);
  });

  it('breaks a tie of timestamps by device id, alike on every device', async () => {
    const { clock, devices } = setup(3);
    const [a, b, c] = devices as [Device, Device, Device];
    const [saved] = a.history.saveBatch([item()]);
    await quiesce(devices);
    clock.tick(1000);
    // The same millisecond on all three, each clock's counter back at 0: only the device id differs.
    a.history.updateTransaction(saved!.id, { amountFen: 1001 });
    b.history.updateTransaction(saved!.id, { amountFen: 1002 });
    c.history.updateTransaction(saved!.id, { amountFen: 1003 });
    const stamps = devices.map(
      (d) => d.ledger.database.prepare("SELECT json_extract(cols, '$.amount_fen') FROM sync_rows WHERE row = ?").pluck().get(saved!.id) as string,
    );
    expect(new Set(stamps.map((s) => s.slice(0, 29))).size).toBe(1);
    const winner = [...devices].sort((x, y) => (x.ledger.journal.deviceId < y.ledger.journal.deviceId ? 1 : -1))[0]!;
    const expected = { A: 1001, B: 1002, C: 1003 }[winner.name as 'A' | 'B' | 'C'];
    clock.tick(1000);
    await quiesce([c, b, a]);
    for (const d of devices) expect(row(d, saved!.id)?.amountFen).toBe(expected);
    expectSameBooks(devices);
  });
});

describe('deletes', () => {
  it('a delete wins over a concurrent (even later) edit', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const [saved] = a.history.saveBatch([item()]);
    await sync(a, b);
    clock.tick(1000);
    a.history.remove([saved!.id]);
    clock.tick(1000);
    b.history.updateTransaction(saved!.id, { amountFen: 999, description: '改了' });
    await quiesce([b, a]);
    for (const d of devices) expect(row(d, saved!.id)).toBeUndefined();
    expectSameBooks(devices);
  });

  it('undo of a delete brings the row back everywhere, as it was', async () => {
    const { clock, devices } = setup(3);
    const [a, b] = devices as [Device, Device, Device];
    const [saved] = a.history.saveBatch([item({ description: '早餐', amount: 12.5 })]);
    await quiesce(devices);
    clock.tick(1000);
    a.history.remove([saved!.id]);
    await quiesce(devices);
    expect(row(b, saved!.id)).toBeUndefined();
    clock.tick(1000);
    a.history.undo();
    await quiesce(devices);
    for (const d of devices) expect(row(d, saved!.id)).toMatchObject({ amountFen: 1250, description: '早餐', category: '餐饮', account: '钱包' });
    expectSameBooks(devices);
  });
});

describe('categories and accounts', () => {
  it('a category renamed on one device while another files rows under it ends with every row under the new name', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    a.ledger.addCategory('健身', 'EXPENSE');
    a.history.addTransaction(entry({ category: '健身' }));
    await quiesce(devices);
    clock.tick(1000);
    const gym = a.ledger.listCategories().find((c) => c.name === '健身')!;
    a.ledger.renameCategory(gym.id, '运动');
    b.history.addTransaction(entry({ category: '健身', amountFen: 3000 }));
    b.history.addTransaction(entry({ category: '健身', amountFen: 4000 }));
    clock.tick(1000);
    await quiesce(devices);
    for (const d of devices) {
      const rows = d.ledger.list({}).rows;
      expect(rows.map((r) => r.category)).toEqual(['运动', '运动', '运动']);
      expect(
        d.ledger
          .categories('EXPENSE')
          .filter((c) => c.name === '健身' || c.name === '运动')
          .map((c) => c.name),
      ).toEqual(['运动']);
    }
    expectSameBooks(devices);
  });

  it('two fresh installs share the preset categories and 钱包 instead of doubling them', async () => {
    const { devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    a.history.saveBatch([item()]);
    b.history.saveBatch([item({ amount: 30 })]);
    await quiesce(devices);
    for (const d of devices) {
      const names = d.ledger.categories().map((c) => `${c.type}:${c.name}`);
      expect(names.filter((n) => n === 'EXPENSE:餐饮')).toHaveLength(1);
      expect(new Set(names).size).toBe(names.length);
      expect(d.ledger.categories().length).toBe(a.ledger.categories().length);
      expect(d.ledger.accounts()).toEqual([{ name: '钱包', isDefault: true }]);
      expect(d.ledger.list({}).rows.map((r) => [r.category, r.account])).toEqual([
        ['餐饮', '钱包'],
        ['餐饮', '钱包'],
      ]);
    }
    expectSameBooks(devices);
  });

  it('the same custom category created on two devices ends as one', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    a.ledger.addCategory('健身', 'EXPENSE');
    a.history.addTransaction(entry({ category: '健身' }));
    clock.tick(500);
    b.ledger.addCategory('健身', 'EXPENSE');
    b.history.addTransaction(entry({ category: '健身', amountFen: 2000 }));
    await quiesce(devices);
    for (const d of devices) {
      expect(d.ledger.categories('EXPENSE').filter((c) => c.name.startsWith('健身'))).toHaveLength(1);
      expect(d.ledger.list({}).rows.map((r) => r.category)).toEqual(['健身', '健身']);
    }
    expectSameBooks(devices);
  });

  it('rows added under a category another device deleted end under 其他 everywhere', async () => {
    const { clock, devices } = setup(3);
    const [a, b] = devices as [Device, Device, Device];
    const gym = a.ledger.addCategory('健身', 'EXPENSE');
    a.history.addTransaction(entry({ category: '健身', amountFen: 1000 }));
    await quiesce(devices);
    clock.tick(1000);
    const shopping = a.ledger.listCategories().find((c) => c.name === '购物' && c.type === 'EXPENSE')!;
    a.ledger.deleteCategory(gym.id, shopping.id);
    const [late] = b.history.saveBatch([item({ category: '健身', amount: 88 })]);
    clock.tick(1000);
    await quiesce([b, a, devices[2]!]);
    for (const d of devices) {
      expect(d.ledger.categories('EXPENSE').some((c) => c.name === '健身')).toBe(false);
      expect(row(d, late!.id)?.category).toBe('其他');
      expect(d.ledger.list({}).rows.find((r) => r.amountFen === 1000)?.category).toBe('购物');
    }
    expectSameBooks(devices);
  });

  it('two devices that each set a default account end with the later choice everywhere', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const cmb = a.ledger.addAccount('招行');
    await quiesce(devices);
    clock.tick(1000);
    a.ledger.setDefaultAccount(cmb.id);
    clock.tick(1000);
    const wechat = b.ledger.addAccount('微信');
    b.ledger.setDefaultAccount(wechat.id);
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.accounts().filter((x) => x.isDefault)).toEqual([{ name: '微信', isDefault: true }]);
    expectSameBooks(devices);
  });

  it('a default set on an account another device creates at the same time is not lost to the later copy', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const alipay = b.ledger.addAccount('支付宝');
    b.ledger.setDefaultAccount(alipay.id);
    clock.tick(1000);
    // The later insert of the same row (same key) carries is_default 0 and wins cell by cell.
    a.ledger.addAccount('支付宝');
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.accounts().filter((x) => x.isDefault)).toHaveLength(1);
    expectSameBooks(devices);
  });

  it('an account archived on one device while another makes it the default leaves one open default', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const cmb = a.ledger.addAccount('招行');
    await quiesce(devices);
    clock.tick(1000);
    a.ledger.archiveAccount(cmb.id, true);
    b.ledger.setDefaultAccount(b.ledger.listAccounts().find((x) => x.name === '招行')!.id);
    await quiesce(devices);
    for (const d of devices)
      expect(
        d.ledger
          .listAccounts()
          .filter((x) => x.isDefault)
          .map((x) => [x.name, x.archived]),
      ).toEqual([['钱包', false]]);
    expectSameBooks(devices);
  });

  it('a name collision repaired on arrival travels to the other devices', async () => {
    const { clock, devices } = setup(2);
    const [b, c] = devices as [Device, Device];
    const card = b.ledger.addAccount('信用卡');
    b.ledger.renameAccount(card.id, '微信');
    c.ledger.addAccount('微信');
    await c.engine.round();
    // B takes C's 「微信」 while its own account has that name: one of the two is renamed here.
    await b.engine.round();
    clock.tick(1000);
    // C never sees the collision: its own, later 「信用卡」 outvotes B's rename.
    c.ledger.addAccount('信用卡');
    await quiesce([c, b]);
    expect(
      b.ledger
        .accounts()
        .map((x) => x.name)
        .sort(),
    ).toEqual(
      c.ledger
        .accounts()
        .map((x) => x.name)
        .sort(),
    );
    expectSameBooks(devices);
  });

  it('an account deleted on one device while another makes it the default and files rows in it', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    b.ledger.addAccount('招行');
    await quiesce([b, a]);
    clock.tick(1000);
    const cmb = a.ledger.listAccounts().find((x) => x.name === '招行')!;
    a.ledger.setDefaultAccount(cmb.id);
    a.history.addTransaction(entry({ account: '招行', amountFen: 5000 }));
    b.ledger.deleteAccount(b.ledger.listAccounts().find((x) => x.name === '招行')!.id);
    // Used to fail A's every round: the rows moved to the default account, the very one leaving.
    await quiesce([b, a]);
    for (const d of devices) {
      expect(d.ledger.accounts()).toEqual([{ name: '钱包', isDefault: true }]);
      expect(d.ledger.list({}).rows.map((r) => [r.account, r.amountFen])).toEqual([['钱包', 5000]]);
    }
    expectSameBooks(devices);
  });
});

describe('clocks', () => {
  it('refuses the file of a device whose clock runs 10 minutes ahead, applying nothing of it', async () => {
    const clock = new TestClock();
    const store = new MemoryStore();
    const a = makeDevice(store, 'A', { clock });
    const fast = makeDevice(store, 'F', { clock, skewMs: 10 * 60_000 });
    open.push(a, fast);
    a.history.saveBatch([item()]);
    await a.engine.round();
    const [future] = fast.history.saveBatch([item({ description: '未来', amount: 7 })]);
    await fast.engine.round();
    const error = await a.engine.round().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).code).toBe('clock_skew');
    expect(row(a, future!.id)).toBeUndefined();
    expect(a.ledger.list({}).rows).toHaveLength(1);
    // Its stamps did not move this clock into the future either: A's next edit stays in the present.
    a.history.saveBatch([item({ amount: 1 })]);
    const latest = a.ledger.database.prepare('SELECT MAX(ts) FROM sync_outbox').pluck().get() as string;
    expect(Date.parse(latest.slice(0, 24))).toBeLessThan(clock.ms + 60_000);
  });
});

describe('money flows', () => {
  it('makes one person of 小李 named on two devices, with both debts in the balance; a refund links across devices', async () => {
    const { clock, devices } = setup(2);
    const [a, b] = devices as [Device, Device];
    const [shoes] = a.history.saveBatch([item({ amount: 500, category: '购物' })]);
    a.history.saveBatch([item({ amount: 1000, type: 'TRANSFER', flow: 'lend', counterparty: '小李' })]);
    b.history.saveBatch([item({ amount: 200, type: 'TRANSFER', flow: 'lend', counterparty: '小李' })]);
    await quiesce(devices);
    clock.tick(1000);
    b.history.saveBatch([item({ amount: 300, type: 'INCOME', flow: 'refund', refundOf: shoes!.id })]);
    await quiesce(devices);
    for (const d of devices) {
      expect(d.ledger.people().people.map((p) => [p.name, p.balanceFen, p.count])).toEqual([['小李', 1200_00, 2]]);
      expect(d.ledger.monthSummary('2026-02').expenseFen).toBe(200_00);
    }
    expectSameBooks(devices);
  });
});

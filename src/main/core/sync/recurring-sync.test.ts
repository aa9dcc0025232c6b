import { afterEach, describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { books, makeDevices, quiesce, TestClock, type Device } from '../../../../test/support/sync-devices';
import { rentRule } from '../../../../test/support/ledger-fixtures';

// Recurring entries on two synced devices: a rule made on one reaches the other, and an
// occurrence both of them catch up before they sync ends as ONE row (its id derives from the
// occurrence's key, the same on both), never two rents for one month.

let open: Device[] = [];
afterEach(() => {
  for (const d of open) d.close();
  open = [];
});

const at = (day: string) => toZonedNow(`${day}T09:00:00+08:00`);

const recurring = (d: Device) =>
  d.ledger.database
    .prepare('SELECT id, occurred_date AS day, recurrence_key AS key FROM transactions WHERE recurrence_key IS NOT NULL ORDER BY occurred_date')
    .all() as { id: string; day: string; key: string }[];

describe('recurring entries on two devices', () => {
  it('both catching up the same occurrences offline end with each occurrence once, everywhere', async () => {
    const clock = new TestClock();
    const { devices } = makeDevices(2, { clock });
    open.push(...devices);
    const [a, b] = devices as [Device, Device];
    const rule = a.ledger.addRecurringRule(rentRule());
    a.ledger.addRecurringRule({ type: 'EXPENSE', amountFen: 15_00, category: '餐饮', rule: { every: 'day' }, start: '2026-03-01' });
    await quiesce(devices);
    expect(b.ledger.recurringRules().map((r) => [r.key, r.label, r.nextDate])).toEqual(
      a.ledger.recurringRules().map((r) => [r.key, r.label, r.nextDate]),
    );

    // Neither hears from the other while both start up on 3月10日 and catch up.
    clock.tick(60_000);
    expect(a.history.catchUpRecurring(at('2026-03-10')).saved).toHaveLength(3 + 10);
    clock.tick(60_000);
    expect(b.history.catchUpRecurring(at('2026-03-10')).saved).toHaveLength(3 + 10);
    await quiesce(devices);

    for (const d of devices) {
      const rows = recurring(d);
      expect(rows, d.name).toHaveLength(13);
      expect(new Set(rows.map((r) => r.key)).size, d.name).toBe(13);
      expect(rows.filter((r) => r.key.startsWith(rule.key)).map((r) => r.day)).toEqual(['2026-01-05', '2026-02-05', '2026-03-05']);
      expect(d.ledger.accountBalances().totalFen, d.name).toBe(-(3 * 3000_00 + 10 * 15_00));
    }
    expect(books(b.ledger, ['2026-03'])).toEqual(books(a.ledger, ['2026-03']));
    expect(b.ledger.recurringRules()).toEqual(a.ledger.recurringRules());

    // The next day one device catches up and syncs first: the other has nothing left to make.
    clock.tick(60_000);
    expect(b.history.catchUpRecurring(at('2026-03-11')).saved).toHaveLength(1);
    await quiesce(devices);
    expect(a.history.catchUpRecurring(at('2026-03-11')).saved).toEqual([]);
    expect(recurring(a)).toEqual(recurring(b));
    expect(recurring(a)).toHaveLength(14);
  });

  it('an occurrence deleted on one device is not made again by the other’s catch-up once it has synced', async () => {
    const clock = new TestClock();
    const { devices } = makeDevices(2, { clock });
    open.push(...devices);
    const [a, b] = devices as [Device, Device];
    a.ledger.addRecurringRule({
      type: 'EXPENSE',
      amountFen: 50_00,
      category: '账单',
      description: '话费',
      rule: { every: 'month', day: 1 },
      start: '2026-03-01',
    });
    a.history.catchUpRecurring(at('2026-03-02'));
    await quiesce(devices);
    clock.tick(60_000);
    b.history.remove(recurring(b).map((r) => r.id));
    await quiesce(devices);
    clock.tick(60_000);
    expect(a.history.catchUpRecurring(at('2026-03-03')).saved).toEqual([]);
    await quiesce(devices);
    for (const d of devices) expect(recurring(d), d.name).toEqual([]);
  });

  it('a rule made under a category another device deleted meanwhile moves to 其他, like a row, instead of going', async () => {
    const clock = new TestClock();
    const { devices } = makeDevices(2, { clock });
    open.push(...devices);
    const [a, b] = devices as [Device, Device];
    a.ledger.addCategory('猫粮', 'EXPENSE');
    await quiesce(devices);
    clock.tick(60_000);
    a.ledger.addRecurringRule({ type: 'EXPENSE', amountFen: 120_00, category: '猫粮', rule: { every: 'month', day: 1 }, start: '2026-04-01' });
    b.ledger.deleteCategory(b.ledger.listCategories().find((c) => c.name === '猫粮')!.id);
    clock.tick(60_000);
    await quiesce(devices);
    for (const d of devices)
      expect(
        d.ledger.recurringRules().map((r) => [r.category, r.amountFen]),
        d.name,
      ).toEqual([['其他', 120_00]]);
  });
});

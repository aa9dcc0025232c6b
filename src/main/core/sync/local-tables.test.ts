import { describe, expect, it, vi } from 'vitest';
import { Merger } from './merge';
import { makeDevices } from '../../../../test/support/sync-devices';
import { billRow, entry } from '../../../../test/support/ledger-fixtures';

// The merchant memory of bill imports is this device's own (ledger migration 9): it never
// travels, and adopting a snapshot, which replaces the categories its rules point at, empties it.
describe('tables local to a device', () => {
  it('stay out of the journal, and adopting a snapshot empties them', async () => {
    const { devices } = makeDevices(2);
    const [a, b] = devices as [(typeof devices)[0], (typeof devices)[0]];
    a.ledger.addCategory('健身', 'EXPENSE');
    a.ledger.addTransaction(entry({ category: '健身' }));
    const { ids } = a.ledger.importRows([billRow({ account: '钱包', merchant: '美团' })]);
    a.ledger.updateTransaction(ids[0]!, { category: '餐饮' });
    expect(a.ledger.merchantRules()).toHaveLength(1);
    const journalled = a.ledger.database
      .prepare("SELECT COUNT(*) FROM sync_rows WHERE tbl IN ('imported_merchants', 'merchant_categories')")
      .pluck()
      .get();
    expect(journalled).toBe(0);
    await a.engine.round();

    // B, new, has a rule of its own (written beside the journal, as a fresh device's could be).
    b.ledger.database
      .prepare(
        "INSERT INTO merchant_categories VALUES ('滴滴出行', 'EXPENSE', (SELECT id FROM categories WHERE name = '交通' AND type = 'EXPENSE'), 'x')",
      )
      .run();
    const adopt = vi.spyOn(Merger.prototype as unknown as { adopt: () => number }, 'adopt');
    await b.engine.round();
    expect(adopt).toHaveBeenCalledTimes(1);
    adopt.mockRestore();
    expect(b.ledger.count()).toBe(2);
    expect(b.ledger.merchantRules()).toEqual([]);
    // A's memory stayed A's.
    expect(a.ledger.merchantRules()).toMatchObject([{ merchant: '美团', category: '餐饮' }]);
  });
});

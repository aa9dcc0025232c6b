import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../ledger/index';
import { SyncEngine } from './engine';
import { FolderRemote } from './folder-remote';
import { books, PASSPHRASE, TEST_KDF } from '../../../../test/support/sync-devices';

/**
 * Restoring a backup puts an older copy of the ledger file in place. On a device that
 * syncs, the next round merges back everything synced since the copy — this device's own
 * later changes too (its files are still on the remote) — so devices never diverge.
 */
describe('restoring a backup on a device that syncs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-sync-restore-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (name: string) => {
    const ledger = openLedger({ path: join(dir, `${name}.db`) });
    if (!ledger.journal.capture) ledger.journal.setCapture(true);
    const engine = new SyncEngine({
      db: ledger.database,
      journal: ledger.journal,
      dbPath: ledger.path,
      remote: new FolderRemote(join(dir, 'remote'), ledger.journal.deviceId),
      passphrase: PASSPHRASE,
      deviceName: name,
      kdf: TEST_KDF,
      compactAfter: 2,
    });
    return { ledger, engine };
  };
  const entry = (ledger: Ledger, note: string, amountFen = 1234) =>
    ledger.addTransaction({ amountFen, type: 'EXPENSE', category: '餐饮', date: '2026-02-10', time: '12:00', note }).id;

  it('brings back what was synced after the copy, this device’s own changes included, and converges', async () => {
    let a = open('a');
    const b = open('b');
    entry(a.ledger, '备份前');
    await a.engine.round();
    await b.engine.round();
    a.ledger.close();
    copyFileSync(join(dir, 'a.db'), join(dir, 'backup.db'));
    a = open('a');
    // After the copy: edits on both devices, several rounds (A's own files get compacted too).
    const mine = entry(a.ledger, 'A 备份后记的');
    await a.engine.round();
    const theirs = entry(b.ledger, 'B 备份后记的');
    await b.engine.round();
    for (let i = 0; i < 4; i += 1) {
      entry(a.ledger, `A 又一笔 ${i}`, 100 + i);
      await a.engine.round();
    }
    a.ledger.updateTransaction(mine, { description: 'A 改过' });
    await a.engine.round();
    await b.engine.round();
    const expected = books(b.ledger, ['2026-02']);

    // The restore: the older file replaces the ledger (as LedgerBackups does at the next start).
    a.ledger.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `a.db${suffix}`), { force: true });
    copyFileSync(join(dir, 'backup.db'), join(dir, 'a.db'));
    a = open('a');
    expect(a.ledger.getTransaction(mine)).toBeUndefined();
    await a.engine.round();
    await b.engine.round();
    await a.engine.round();
    expect(a.ledger.getTransaction(mine)?.description).toBe('A 改过');
    expect(a.ledger.getTransaction(theirs)).toBeDefined();
    expect(books(a.ledger, ['2026-02'])).toEqual(expected);
    expect(books(b.ledger, ['2026-02'])).toEqual(expected);
    // And it goes on syncing without overwriting its own earlier files.
    const after = entry(a.ledger, '恢复后记的');
    await a.engine.round();
    await b.engine.round();
    expect(b.ledger.getTransaction(after)).toBeDefined();
    expect(books(a.ledger, ['2026-02'])).toEqual(books(b.ledger, ['2026-02']));
    a.ledger.close();
    b.ledger.close();
  });
});

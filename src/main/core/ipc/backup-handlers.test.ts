import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WindowAction } from '@shared/ipc/app';
import type { BackupInfo, BackupListing } from '@shared/ipc/backups';
import { createAppCore, type AppCore } from '../app-core';
import { createDispatch, createHandlers } from './handlers';
import { item } from '../../../../test/support/ledger-fixtures';

let dir: string;
let core: AppCore;
let clock: Date;
const windowActions: WindowAction[] = [];

const start = () =>
  createAppCore({
    dataDir: dir,
    version: 't',
    log: () => {},
    windowAction: (a) => windowActions.push(a),
    backups: { now: () => clock },
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-backuph-'));
  windowActions.length = 0;
  clock = new Date(2026, 2, 5, 9, 0, 0);
  core = start();
});
afterEach(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function value<T>(name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

describe('backup commands through the real dispatch', () => {
  it('backs up at start, lists, backs up now, stages a restore applied at the next start', async () => {
    await core.backups.start();
    const first = await value<BackupListing>('backupList');
    expect(first).toMatchObject({ dir: join(dir, 'backups'), restorePending: false });
    expect(first.backups.map((b) => b.name)).toEqual(['ledger-20260305-090000.db']);

    core.history.saveBatch([item({ description: '早餐' })]);
    clock = new Date(2026, 2, 5, 10, 0, 0);
    const now = await value<BackupInfo>('backupNow');
    expect(now).toMatchObject({ name: 'ledger-20260305-100000.db', rows: 1, kind: 'daily', takenAt: '2026-03-05 10:00:00' });
    core.history.saveBatch([item({ description: '午餐' })]);

    const staged = await value<{ restored: BackupInfo; restartRequired: true }>('backupRestore', { name: now.name });
    expect(staged).toMatchObject({ restored: { name: now.name }, restartRequired: true });
    expect((await value<BackupListing>('backupList')).restorePending).toBe(true);
    expect(core.ledger.count()).toBe(2);
    expect(await core.dispatch('windowAction', { action: 'relaunch' })).toEqual({ ok: true, value: null });
    expect(windowActions).toEqual([{ action: 'relaunch' }]);

    await core.dispose();
    clock = new Date(2026, 2, 5, 11, 0, 0);
    core = start();
    expect(core.ledger.list().rows.map((t) => t.description)).toEqual(['早餐']);
    expect(existsSync(join(dir, 'ledger.db.restore'))).toBe(false);
    const after = await value<BackupListing>('backupList');
    expect(after.restorePending).toBe(false);
    expect(after.backups.map((b) => [b.name, b.rows])).toEqual([
      ['ledger-20260305-110000-before-restore.db', 2],
      ['ledger-20260305-100000.db', 1],
    ]);
  });

  it('refuses names that are not backups, before and inside the handler', async () => {
    for (const name of ['../ledger.db', '/etc/passwd', 'ledger-20260305-090000.db/../../x', 'ledger.db', '']) {
      expect(await core.dispatch('backupRestore', { name })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    }
    expect(await core.dispatch('backupRestore', {})).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.dispatch('backupRestore', { name: 'ledger-20990101-000000.db' })).toMatchObject({
      ok: false,
      error: { code: 'backup_not_found', message: expect.stringContaining('找不到这个备份') },
    });
    expect(await core.dispatch('backupList', { extra: 1 })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(existsSync(join(dir, 'ledger.db.restore'))).toBe(false);
  });

  it('says so when a core has no backups', async () => {
    const dispatch = createDispatch(
      createHandlers({ ledger: core.ledger, appInfo: () => ({ version: 't', dataDir: dir, databasePath: '', readOnly: false }) }),
    );
    expect(await dispatch('backupNow', {})).toMatchObject({ ok: false, error: { code: 'backups_unavailable' } });
  });
});

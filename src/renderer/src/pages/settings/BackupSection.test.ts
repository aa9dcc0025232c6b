import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackupInfo, BackupListing, IpcResult, SyncStatus } from '@shared/ipc/index';
import type { WindowAction } from '@shared/ipc/app';
import { SYNC_OFF } from '../../../../../test/support/renderer/fake-ledger-api';
import BackupSection from './BackupSection.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

const older: BackupInfo = { name: 'ledger-20260304-090000.db', takenAt: '2026-03-04 09:00:00', size: 40960, rows: 12, kind: 'daily' };
const newer: BackupInfo = { name: 'ledger-20260305-090000.db', takenAt: '2026-03-05 09:00:00', size: 45056, rows: 14, kind: 'daily' };

/** The backup commands as main answers them: staging only records the name. */
class FakeBackupApi {
  listing: BackupListing = { backups: [newer, older], dir: '/home/u/.config/随口记/backups', restorePending: false };
  restores: string[] = [];
  actions: WindowAction[] = [];
  backupList = async (): Promise<IpcResult<BackupListing>> => ({ ok: true, value: structuredClone(this.listing) });
  backupNow = async (): Promise<IpcResult<BackupInfo>> => {
    const made: BackupInfo = { ...newer, name: 'ledger-20260305-120000.db', takenAt: '2026-03-05 12:00:00' };
    this.listing.backups.unshift(made);
    return { ok: true, value: made };
  };
  backupRestore = async (input: { name: string }): Promise<IpcResult<{ restored: BackupInfo; restartRequired: true }>> => {
    this.restores.push(input.name);
    const restored = this.listing.backups.find((b) => b.name === input.name)!;
    this.listing.restorePending = true;
    return { ok: true, value: { restored, restartRequired: true } };
  };
  windowAction = async (input: WindowAction): Promise<IpcResult<null>> => {
    this.actions.push(input);
    return { ok: true, value: null };
  };
}

// Only the clock is fixed (the ticks above still run): 「今天」 is 2026-03-05 here.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 2, 5, 15, 0));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function open(api = new FakeBackupApi()) {
  render(BackupSection, { props: { api } });
  await tick();
  await tick();
  return api;
}

/** The same commands on a computer that syncs. */
class SyncingBackupApi extends FakeBackupApi {
  syncStatus = async (): Promise<IpcResult<SyncStatus>> => ({
    ok: true,
    value: { ...SYNC_OFF, state: 'idle', remote: { kind: 'folder', path: '/sync' } },
  });
}

describe('backup section', () => {
  it('explains, before a restore is confirmed on a computer that syncs, that synced changes come back', async () => {
    await open(new SyncingBackupApi());
    await fireEvent.click(screen.getByRole('radio', { name: /昨天 09:00/ }));
    await fireEvent.click(screen.getByRole('button', { name: '从备份恢复…' }));
    await tick();
    const confirm = screen.getByRole('group', { name: '确认恢复' });
    expect(confirm.textContent).toContain('这台电脑开着同步');
    expect(confirm.textContent).toContain('重新合并回来');
  });

  it('says nothing of sync where the computer does not sync', async () => {
    await open();
    await fireEvent.click(screen.getByRole('radio', { name: /昨天 09:00/ }));
    await fireEvent.click(screen.getByRole('button', { name: '从备份恢复…' }));
    await tick();
    expect(screen.getByRole('group', { name: '确认恢复' }).textContent).not.toContain('同步');
  });

  it('lists backups with time, rows and size, and backs up now', async () => {
    const api = await open();
    expect(screen.getByRole('radio', { name: '今天 09:00 · 14 笔 · 44 KB' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '昨天 09:00 · 12 笔 · 40 KB' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: '立即备份' }));
    await tick();
    await tick();
    expect(screen.getByRole('status').textContent).toBe('已备份（今天 12:00 · 14 笔 · 44 KB）。');
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    expect(api.restores).toEqual([]);
  });

  it('restores only after the confirm step, then offers the restart', async () => {
    const api = await open();
    const start = screen.getByRole('button', { name: '从备份恢复…' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    await fireEvent.click(screen.getByRole('radio', { name: /昨天 09:00/ }));
    await fireEvent.click(start);
    const confirm = screen.getByRole('group', { name: '确认恢复' });
    expect(confirm.textContent).toContain('将用 昨天 09:00 的备份（12 笔）替换当前账本');
    expect(confirm.textContent).toContain('当前账本会先另存为一份「恢复前」备份');
    // Nothing is asked of main until the user confirms; 取消 goes back.
    expect(api.restores).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(screen.queryByRole('group', { name: '确认恢复' })).toBeNull();
    expect(api.restores).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: '从备份恢复…' }));
    await fireEvent.click(screen.getByRole('button', { name: '确认恢复' }));
    await tick();
    await tick();
    expect(api.restores).toEqual(['ledger-20260304-090000.db']);
    const pending = screen.getByRole('status', { name: '恢复状态' });
    expect(pending.textContent).toContain('已准备好从 昨天 09:00 的备份恢复');
    expect(pending.textContent).toContain('重启随口记后生效');
    await fireEvent.click(screen.getByRole('button', { name: '立即重启' }));
    await tick();
    expect(api.actions).toEqual([{ action: 'relaunch' }]);
  });

  it('writes older backups by their day, and the year once it is another year', async () => {
    const api = new FakeBackupApi();
    const march: BackupInfo = { ...older, name: 'ledger-20260301-090000.db', takenAt: '2026-03-01 21:05:00', rows: null };
    const lastYear: BackupInfo = { ...older, name: 'ledger-20251228-090000.db', takenAt: '2025-12-28 08:30:00' };
    api.listing.backups = [march, lastYear];
    await open(api);
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent?.trim())).toEqual([
      '3月1日 21:05 · 40 KB',
      '2025年12月28日 08:30 · 12 笔 · 40 KB',
    ]);
  });

  it('shows a pending restore after the page is reopened', async () => {
    const api = new FakeBackupApi();
    api.listing.restorePending = true;
    await open(api);
    expect(screen.getByRole('status', { name: '恢复状态' }).textContent).toContain('重启随口记后生效');
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });
});

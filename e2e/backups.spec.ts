import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { ParseResult } from '@shared/domain';
import type { Bridge } from './bridge/server';
import { bootApp, expect, openAppPage, overflowingElements, screenshots, test, type BootedApp, ledgerRows } from './fixtures';

// 「从备份恢复」 end to end: a backup made from 设置, a restore confirmed there, and the
// restart the app asks for — simulated by disposing the core and building it again on the
// same data folder, as the shell's relaunch does.

const item = (description: string): ParseResult => ({
  amount: 15,
  type: 'EXPENSE',
  category: '餐饮',
  description,
  date: null,
  account: null,
  confidence: 0.9,
  source: 'llm',
});

type Running = BootedApp;

async function shutdown(running: Running): Promise<void> {
  await running.bridge.close();
  await running.core.dispose();
}

test('a backup made in 设置 is restored after the confirm step and the restart', async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skj-e2e-backup-'));
  const context = await browser.newContext({ viewport: { width: 900, height: 600 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const open = (bridge: Bridge, hash: string): Promise<Page> => openAppPage(context, bridge, hash);
  let running = await bootApp(dataDir);
  try {
    // The start-up backup of the (empty) new ledger is made in the background meanwhile.
    running.core.history.saveBatch([item('早餐豆浆')]);

    const page = await open(running.bridge, '#/settings');
    const section = page.getByRole('region', { name: '备份与恢复' });
    await expect(section.getByTitle(join(dataDir, 'backups'))).toContainText('backups 文件夹');
    await section.getByRole('button', { name: '立即备份' }).click();
    // The time as every screen writes one: 今天 13:36, never 2026-11-28 13:36:05.
    await expect(section.getByRole('status')).toHaveText(/^已备份（今天 \d{2}:\d{2} · 1 笔 · \d+ KB）。$/);
    const made = section.getByRole('radio', { name: /^今天 \d{2}:\d{2} · 1 笔 ·/ });
    await expect(made).toBeVisible();

    // Written after the backup: the restore takes it away, the pre-restore copy keeps it.
    running.core.history.saveBatch([item('午餐牛肉面')]);

    await made.check();
    await section.getByRole('button', { name: '从备份恢复…' }).click();
    const confirm = section.getByRole('group', { name: '确认恢复' });
    await expect(confirm).toContainText(/将用 今天 \d{2}:\d{2} 的备份（1 笔）替换当前账本/);
    await expect(confirm).toContainText('当前账本会先另存为一份「恢复前」备份');
    // The settings page scrolls vertically: only the width must fit.
    expect(await overflowingElements(page, 'section[aria-label="备份与恢复"]', 'x')).toEqual([]);
    await confirm.scrollIntoViewIfNeeded();
    await screenshots(page, 'settings-restore-confirm');
    // Nothing is written before the confirmation.
    expect(existsSync(join(dataDir, 'ledger.db.restore'))).toBe(false);
    expect(running.core.ledger.count()).toBe(2);

    await confirm.getByRole('button', { name: '确认恢复' }).click();
    const pending = section.getByRole('status', { name: '恢复状态' });
    await expect(pending).toContainText('重启随口记后生效');
    expect(existsSync(join(dataDir, 'ledger.db.restore'))).toBe(true);
    // The open ledger is untouched until the restart.
    expect(running.core.ledger.count()).toBe(2);
    await pending.getByRole('button', { name: '立即重启' }).click();
    await expect.poll(() => running.windowActions).toEqual([{ action: 'relaunch' }]);
    await page.close();

    // The relaunch: the shell quits (the core is disposed) and starts again on the same folder.
    await shutdown(running);
    running = await bootApp(dataDir);
    expect(running.core.ledger.list().rows.map((t) => t.description)).toEqual(['早餐豆浆']);
    expect(existsSync(join(dataDir, 'ledger.db.restore'))).toBe(false);
    const before = readdirSync(join(dataDir, 'backups')).filter((n) => n.endsWith('-before-restore.db'));
    expect(before).toHaveLength(1);

    const ledgerPage = await open(running.bridge, '#/ledger');
    const rows = ledgerRows(ledgerPage);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('早餐豆浆');

    const settings = await open(running.bridge, '#/settings');
    const list = settings.getByRole('region', { name: '备份与恢复' });
    await expect(list.getByRole('radio', { name: /· 2 笔 ·/ })).toBeVisible();
    await expect(list.getByText('恢复前的账本')).toBeVisible();
  } finally {
    await context.close();
    await shutdown(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

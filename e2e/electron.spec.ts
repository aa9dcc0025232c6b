import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';

/**
 * The Electron binary's path, or null where none was downloaded (CI here). Read from
 * path.txt rather than require('electron'), which would start a download.
 */
function electronBinary(): string | null {
  const pkg = join('node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();

test.describe(`Electron shell${binary === null ? ' (skipped when no Electron binary is on this machine)' : ''}`, () => {
  test.skip(binary === null, 'no Electron binary on this machine');

  let app: ElectronApplication;
  let dataDir: string;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'skj-electron-'));
    app = await electron.launch({ args: ['.'], executablePath: binary!, env: { ...process.env, SUIKOUJI_DATA_DIR: dataDir } });
  });

  test.afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens one hardened window showing the app', async () => {
    const window = await app.firstWindow();
    await expect(window.getByRole('navigation', { name: '主导航' })).toContainText('随口记');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    // No Node in the page: contextIsolation + sandbox leave only the preload's API object.
    const globals = await window.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      api: typeof (window as unknown as { suikouji?: unknown }).suikouji,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', api: 'object' });
  });

  test('typing a sentence gives a card; confirm saves through the real IPC', async () => {
    const window = await app.firstWindow();
    const box = window.getByRole('textbox', { name: '文字输入' });
    await box.fill('午饭35');
    await box.press('Enter');
    const card = window.getByRole('region', { name: '确认卡片' });
    await expect(card).toContainText('¥35');
    await card.getByRole('button', { name: '确认', exact: true }).click();
    await expect(card).toHaveCount(0);
    await expect(window.getByRole('list', { name: '对话记录' })).toContainText('已保存 1 笔');
  });

  test('closing the main window keeps the app running in the tray', async () => {
    const window = await app.firstWindow();
    await expect(window.getByRole('navigation', { name: '主导航' })).toBeVisible();
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.isVisible()))).toEqual([false]);
  });

  test('settings save a key that only shows as a mask', async () => {
    const window = await app.firstWindow();
    await window.getByRole('link', { name: '设置' }).click();
    // The service and its key live under 高级, saved by their own button.
    await window.locator('summary', { hasText: '高级' }).click();
    await window.getByRole('radio', { name: '直连 DashScope' }).check();
    await window.getByLabel('DashScope API Key').fill('sk-electron-test-9876');
    await window.getByRole('button', { name: '保存联网设置' }).click();
    const saved = window.getByText('联网设置已保存。').or(window.getByRole('alert'));
    await expect(saved).toBeVisible();
    // Where the OS keyring works the key is kept, and the file never holds it in clear.
    const file = join(dataDir, 'settings.json');
    if (existsSync(file)) expect(readFileSync(file, 'utf8')).not.toContain('sk-electron-test-9876');
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

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

test.describe('Electron shell', () => {
  test.skip(binary === null, 'skipped: no electron binary on this machine');

  test('opens one hardened window showing the app', async () => {
    const app = await electron.launch({ args: ['.'], executablePath: binary! });
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
    await app.close();
  });
});

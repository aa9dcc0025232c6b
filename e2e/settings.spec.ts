import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test } from './fixtures';

test('settings save a gateway key and show only its mask afterwards', async ({ app }) => {
  const page = await app.open('#/settings');
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible();
  await expect(page.getByRole('radio', { name: '仅离线' })).toBeChecked();
  await expect(page.getByText(app.dataDir)).toBeVisible();
  expect(await hanziRenderAsGlyphs(page)).toBe(true);
  // The page scrolls (the speech model list made it taller than the window): nothing may stick out sideways.
  expect(await overflowingElements(page, 'fieldset', 'x')).toEqual([]);
  await expect(page.getByRole('radio', { name: '本地识别（离线）' })).toBeChecked();
  await screenshots(page, 'settings');

  await page.getByRole('radio', { name: '通过网关' }).check();
  await page.getByLabel('网关地址').fill('http://127.0.0.1:9/');
  await page.getByLabel('网关 API Key').fill('gw-e2e-secret-wxyz');
  await page.getByLabel(/说完后静音/).fill('1.5');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('设置已保存。')).toBeVisible();
  await expect(page.getByLabel('网关 API Key')).toHaveValue('');
  await expect(page.getByLabel('网关 API Key')).toHaveAttribute('placeholder', /已保存 ••••wxyz/);

  // Nothing the renderer can read, and nothing on disk, carries the key.
  const view = await page.evaluate(() => (window as unknown as { suikouji: { settingsGet(i: object): Promise<unknown> } }).suikouji.settingsGet({}));
  expect(JSON.stringify(view)).not.toContain('gw-e2e-secret');
  expect(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).not.toContain('gw-e2e-secret');
  expect(app.core.settings.secret('gatewayApiKey')).toBe('gw-e2e-secret-wxyz');
  expect(app.core.settings.get().vad.silenceMs).toBe(1500);

  // A fresh window shows the saved state.
  const again = await app.open('#/settings');
  await expect(again.getByRole('radio', { name: '通过网关' })).toBeChecked();
  await expect(again.getByLabel('网关 API Key')).toHaveAttribute('placeholder', /••••wxyz/);

  // The test button reports the unreachable gateway in a sentence.
  await again.getByRole('group', { name: '连接方式' }).getByRole('button', { name: '测试连接' }).click();
  await expect(again.getByRole('status', { name: '连接测试结果' })).toContainText('无法连接网关');
});

test('an invalid hotkey is refused with a Chinese message and nothing is lost', async ({ app }) => {
  const page = await app.open('#/settings');
  await page.getByLabel('按住说话快捷键').fill('Space');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('alert')).toContainText('快捷键应为「修饰键+按键」');
  await expect(page.getByLabel('按住说话快捷键')).toHaveValue('Space');
  expect(app.core.settings.get().hotkey.pushToTalk).toBe('Ctrl+Alt+Space');
});

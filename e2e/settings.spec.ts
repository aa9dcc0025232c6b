import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test } from './fixtures';

/** Words a household should not meet outside 高级. */
const DEVELOPER_WORDS = ['网关', 'DashScope', 'FunASR', '下载源', '万参数', 'int8', '未校验', 'API Key'];

test('设置 speaks plainly: 语音 first, the service and its key under 高级, each section saving its own', async ({ app }) => {
  const page = await app.open('#/settings');
  await expect(page.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
  const voice = page.getByRole('form', { name: '语音' });
  await expect(voice.getByRole('radio', { name: /^离线/ })).toBeChecked();
  await expect(page.getByRole('region', { name: '同步' })).toBeVisible();
  await expect(page.getByRole('region', { name: '备份与恢复' })).toBeVisible();
  await expect(page.getByRole('region', { name: '账本', exact: true })).toBeVisible();
  // 高级 is folded: what shows is the everyday page, in a household's words.
  const advanced = page.locator('details', { has: page.locator('summary', { hasText: '高级' }) });
  await expect(advanced).not.toHaveAttribute('open');
  const visible = await page.getByRole('region', { name: '设置' }).innerText();
  for (const word of DEVELOPER_WORDS) expect(visible, word).not.toContain(word);
  await expect(page.getByRole('button', { name: '保存', exact: true })).toHaveCount(0);
  expect(await hanziRenderAsGlyphs(page)).toBe(true);
  // The page scrolls (the speech model list made it taller than the window): nothing may stick out sideways.
  expect(await overflowingElements(page, '.card', 'x')).toEqual([]);
  await screenshots(page, 'settings');

  // 联网更准 with no service yet: 语音 says so, and its link opens 高级.
  await voice.getByRole('radio', { name: /^联网更准/ }).check();
  await voice.getByRole('button', { name: '在「高级」里填写' }).click();
  await expect(advanced).toHaveAttribute('open');
  await expect(page.getByText(app.dataDir)).toBeVisible();
  const service = page.getByRole('form', { name: '联网服务' });
  await service.getByLabel('网关地址').fill('http://127.0.0.1:9/');
  await service.getByLabel('网关 API Key').fill('gw-e2e-secret-wxyz');
  expect(await overflowingElements(page, '.card', 'x')).toEqual([]);
  await service.scrollIntoViewIfNeeded();
  await screenshots(page, 'settings-advanced');
  await service.getByRole('button', { name: '保存联网设置' }).click();
  await expect(service.getByRole('status')).toHaveText('联网设置已保存。');
  await expect(service.getByLabel('网关 API Key')).toHaveValue('');
  await expect(service.getByLabel('网关 API Key')).toHaveAttribute('placeholder', /已保存 ••••wxyz/);
  // 高级 saved the service only: the app is still offline until 语音 says otherwise.
  expect(app.core.settings.get().connection).toMatchObject({ mode: 'offline', gatewayUrl: 'http://127.0.0.1:9/' });

  await voice.getByLabel(/说完停顿/).fill('1.5');
  await expect(voice.getByText('说完停顿 1.5 秒算一句')).toBeVisible();
  await voice.getByRole('button', { name: '保存语音设置' }).click();
  await expect(voice.getByRole('status')).toHaveText('语音设置已保存。');
  expect(app.core.settings.get().connection.mode).toBe('gateway');
  expect(app.core.settings.get().vad.silenceMs).toBe(1500);

  // Nothing the renderer can read, and nothing on disk, carries the key.
  const view = await page.evaluate(() => (window as unknown as { suikouji: { settingsGet(i: object): Promise<unknown> } }).suikouji.settingsGet({}));
  expect(JSON.stringify(view)).not.toContain('gw-e2e-secret');
  expect(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).not.toContain('gw-e2e-secret');
  expect(app.core.settings.secret('gatewayApiKey')).toBe('gw-e2e-secret-wxyz');

  // A fresh window shows the saved state.
  const again = await app.open('#/settings');
  await expect(again.getByRole('form', { name: '语音' }).getByRole('radio', { name: /^联网更准/ })).toBeChecked();
  await again.locator('summary', { hasText: '高级' }).click();
  const againService = again.getByRole('form', { name: '联网服务' });
  await expect(againService.getByRole('radio', { name: '通过网关' })).toBeChecked();
  await expect(againService.getByLabel('网关 API Key')).toHaveAttribute('placeholder', /••••wxyz/);
  await expect(againService.getByLabel('网关地址')).toHaveValue('http://127.0.0.1:9/');

  // The test button reports the unreachable gateway in a sentence.
  await againService.getByRole('button', { name: '测试连接' }).click();
  await expect(againService.getByRole('status', { name: '连接测试结果' })).toContainText('无法连接网关');
});

test('an invalid hotkey is refused with a Chinese message and nothing is lost', async ({ app }) => {
  const page = await app.open('#/settings');
  const voice = page.getByRole('form', { name: '语音' });
  await voice.getByLabel('按住说话快捷键').fill('Space');
  await voice.getByRole('button', { name: '保存语音设置' }).click();
  await expect(voice.getByRole('alert')).toContainText('快捷键应为「修饰键+按键」');
  await expect(voice.getByLabel('按住说话快捷键')).toHaveValue('Space');
  expect(app.core.settings.get().hotkey.pushToTalk).toBe('Ctrl+Alt+Space');
});

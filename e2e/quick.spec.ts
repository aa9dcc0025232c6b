import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test } from './fixtures';

test('quick entry: type, Enter, the card, confirm saves and closes the window', async ({ app }) => {
  const page = await app.open('#/quick');
  // The size of the frameless quick-entry window (QUICK_ENTRY_SIZE in the shell).
  await page.setViewportSize({ width: 560, height: 420 });
  await expect(page.getByRole('heading', { name: '快速记账' })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
  const box = page.getByRole('textbox', { name: '快速记账输入' });
  await expect(box).toBeFocused();
  expect(await hanziRenderAsGlyphs(page)).toBe(true);
  await screenshots(page, 'quick-empty');

  await box.fill('午饭35');
  await box.press('Enter');
  const card = page.getByRole('region', { name: '确认卡片' });
  await expect(card).toContainText('¥35.00');
  expect(await overflowingElements(page, '[aria-label="确认卡片"], [aria-label="快速记账"]')).toEqual([]);
  await screenshots(page, 'quick-card');
  await card.getByRole('button', { name: '确认', exact: true }).click();

  await expect.poll(() => app.windowActions).toEqual([{ action: 'closeQuickEntry' }]);
  const rows = app.ledger.list({ limit: 10 }).rows;
  expect(rows.map((r) => r.amountFen)).toEqual([3500]);
});

test('quick entry: Esc closes without saving', async ({ app }) => {
  const page = await app.open('#/quick');
  const box = page.getByRole('textbox', { name: '快速记账输入' });
  await box.fill('打车20');
  await box.press('Enter');
  await expect(page.getByRole('region', { name: '确认卡片' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect.poll(() => app.windowActions).toEqual([{ action: 'closeQuickEntry' }]);
  expect(app.ledger.count()).toBe(0);
});

test('the recording indicator page shows the live transcript and nothing else', async ({ app }) => {
  const page = await app.open('#/indicator');
  const pill = page.getByRole('status', { name: '录音指示' });
  await expect(pill).toContainText('录音中');
  await expect(page.getByRole('navigation')).toHaveCount(0);
  app.core.emit({ channel: 'voice', event: { type: 'partialText', text: '吃饭花了六十' } });
  await expect(pill).toHaveText('吃饭花了六十');
  expect(await hanziRenderAsGlyphs(page)).toBe(true);
});

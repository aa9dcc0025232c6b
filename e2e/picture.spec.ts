import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { renderPictures, type RenderedPicture } from '../test/support/ocr-pictures';
import { item } from '../test/support/ledger-fixtures';
import { expect, go, ledgerRows, screenshots, test } from './fixtures';

// 截图记账 end to end: the tests' own rendered screenshots (test/ocr/cases.json) read by the
// core's real on-device recognizer (its worker thread), the pages in headless Chromium. A
// screenshot is pasted from the real clipboard with Ctrl+V, another opened with 打开图片…, a
// third dropped; the card, the keyboard correction, the save and the picture kept with the
// entry in 明细 are the user's. The PNGs are test-results/screenshots/picture-*.

// The recognizer's worker loads its models on the first picture (a few seconds on two cores).
test.describe.configure({ timeout: 120_000 });

const card = (page: Page) => page.getByRole('region', { name: '确认卡片' });
const textBox = (page: Page) => page.getByRole('textbox', { name: '文字输入' });

async function picture(id: string, render = 'light.plain'): Promise<RenderedPicture> {
  const found = (await renderPictures([id])).find((p) => p.id === `${id}.${render}`);
  if (!found) throw new Error(`no render ${id}.${render}`);
  return found;
}

/** Puts the picture on the browser's clipboard as a screenshot tool does: image data, no file name, no text. */
async function copyToClipboard(page: Page, file: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': new Blob([bytes], { type: 'image/png' }) })]);
  }, readFileSync(file).toString('base64'));
}

/** A file dropped on the window (Playwright cannot drag from the OS: the page gets the same drop event). */
async function dropFile(page: Page, file: string, name: string, type: string): Promise<void> {
  await page.evaluate(
    ({ base64, name, type }) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
      for (const kind of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: data }));
      }
    },
    { base64: readFileSync(file).toString('base64'), name, type },
  );
}

test('a pasted WeChat Pay screenshot: its draft on the card, corrected by keyboard, confirmed, and the picture in 明细', async ({ app }) => {
  const shot = await picture('wechat-success-coffee');
  const page = app.page;
  await go(page, 'session');
  await copyToClipboard(page, shot.file);
  const box = textBox(page);
  await box.focus();
  await page.keyboard.press('Control+V');
  await expect(page.getByRole('status').filter({ hasText: '正在识别图片…' })).toBeVisible();
  // The window keeps answering while the worker reads: the text field takes typing meanwhile.
  await box.pressSequentially('午饭');
  await expect(box).toHaveValue('午饭');
  await box.fill('');

  await expect(card(page)).toContainText('来自图片 粘贴的图片.png', { timeout: 60_000 });
  await expect(card(page)).toContainText('¥23.90');
  await expect(card(page)).toContainText('瑞幸咖啡');
  await expect(card(page)).toContainText('餐饮');
  await expect(page.getByRole('status').filter({ hasText: '正在识别图片…' })).toHaveCount(0);
  await screenshots(page, 'picture-pasted-card');

  // Corrected by keyboard alone, as a spoken draft is: 修改, the amount, Enter; then 「确认」 typed.
  await card(page).getByRole('button', { name: '修改' }).focus();
  await page.keyboard.press('Enter');
  const amount = card(page).getByLabel('金额（元）');
  await expect(amount).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('25');
  await page.keyboard.press('Enter');
  await expect(card(page)).toContainText('¥25.00');
  await box.fill('确认');
  await box.press('Enter');
  await expect(card(page)).toHaveCount(0);
  await expect.poll(() => app.ledger.count()).toBe(1);
  const [saved] = app.ledger.list({ limit: 5 }).rows;
  expect([saved!.amountFen, saved!.description, saved!.category]).toEqual([2500, '瑞幸咖啡', '餐饮']);
  expect(saved!.attachment?.mime).toBe('image/png');

  await go(page, 'ledger');
  const row = ledgerRows(page).filter({ hasText: '瑞幸咖啡' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: '查看图片 瑞幸咖啡' }).click();
  const dialog = page.getByRole('dialog', { name: '记录的图片' });
  const img = dialog.getByRole('img', { name: '记录的图片' });
  await expect(img).toBeVisible();
  // The very picture pasted, shown from its bytes (the page's CSP allows blob: images).
  expect(await img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth > 0, el.src.startsWith('blob:')])).toEqual([true, true, true]);
  await expect(dialog.getByRole('region', { name: '识别出的文字' })).toContainText('瑞幸咖啡');
  await expect(dialog.getByRole('region', { name: '识别出的文字' })).toContainText('23.90');
  await screenshots(page, 'picture-ledger-attachment');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('a screenshot of a payment already in the book is marked 可能已记过; a short-paid receipt says by how much', async ({ app }) => {
  // Typed earlier today: the same shop and amount as the screenshot.
  app.ledger.saveBatch([item({ amount: 23.9, description: '瑞幸咖啡', date: null })]);
  const page = app.page;
  await go(page, 'session');
  const shot = await picture('wechat-success-coffee', 'dark.plain');
  await dropFile(page, shot.file, '微信支付.png', 'image/png');
  const draft = card(page);
  await expect(draft).toContainText('来自图片 微信支付.png', { timeout: 60_000 });
  await expect(draft.getByText('可能已记过', { exact: true })).toBeVisible();
  await expect(draft.getByRole('note')).toContainText(/^可能已记过：.*瑞幸咖啡.*¥23\.90/);
  await screenshots(page, 'picture-maybe-recorded');
  await draft.getByRole('button', { name: '取消' }).click();
  await expect(card(page)).toHaveCount(0);

  // 打开图片…: main's open dialog (answered by the test); the receipt's lines do not add up to what was paid.
  const receipt = await picture('receipt-short-paid');
  app.dialogs.openFile = receipt.file;
  await page.getByRole('button', { name: '打开图片…' }).click();
  await expect(card(page).getByRole('listitem', { name: /^第\d+笔$/ })).toHaveCount(6, { timeout: 60_000 });
  await expect(card(page).getByRole('list', { name: '识别说明' })).toHaveText('小票明细合计 ¥52.30，实付 ¥50.00，相差 ¥2.30');
  await screenshots(page, 'picture-receipt-notes');
  expect(app.ledger.count()).toBe(1);
});

test('a file that is no picture is refused in one line, and text still pastes into the text field', async ({ app }) => {
  const page = app.page;
  await go(page, 'session');
  const notes = join(app.dataDir, 'notes.txt');
  writeFileSync(notes, '午饭35');
  await dropFile(page, notes, 'notes.txt', 'text/plain');
  await expect(page.getByRole('alert')).toHaveText('「notes.txt」不是图片：请用 PNG、JPEG 或 WebP 格式的截图或照片。');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate(() => navigator.clipboard.writeText('打车20'));
  await textBox(page).focus();
  await page.keyboard.press('Control+V');
  await expect(textBox(page)).toHaveValue('打车20');
  await expect(page.getByRole('status').filter({ hasText: '正在识别图片…' })).toHaveCount(0);
});

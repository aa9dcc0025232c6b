import { mkdirSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { COMMAND_NAMES, API_GLOBAL } from '@shared/ipc/names';
import { buildApi } from '@shared/api-shape';
import { localDate, systemNow } from '@shared/time';
import { expect, go, hanziRenderAsGlyphs, screenshots, test } from './fixtures';

test('the renderer loads through the bridge and renders Chinese as glyphs', async ({ app }) => {
  const { page } = app;
  await expect(page.getByRole('navigation', { name: '主导航' })).toContainText('随口记');
  await page.goto(app.bridge.url + '#/ledger');
  await expect(page.getByText('本月还没有记录')).toBeVisible();
  expect(await hanziRenderAsGlyphs(page)).toBe(true);
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/smoke-empty.png' });
});

test('a real command lists rows saved in the real SQLite ledger', async ({ app }) => {
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
  app.ledger.saveBatch([
    { amount: 35, type: 'EXPENSE', category: '餐饮', description: '午饭', date: today, account: null, confidence: 1, source: 'local' },
    { amount: 9000, type: 'INCOME', category: '工资', description: '工资', date: today, account: null, confidence: 1, source: 'local' },
  ]);
  const page = await app.open('#/ledger');
  await expect(page.getByText('午饭')).toBeVisible();
  await expect(page.getByText('\u2212¥35.00')).toBeVisible();
  await expect(page.getByText('+¥9,000.00')).toBeVisible();
});

test('the shim has exactly the preload API shape', async ({ app }) => {
  const keys = await app.page.evaluate((name) => Object.keys((window as never)[name]).sort(), API_GLOBAL);
  const preloadShape = Object.keys(
    buildApi(
      async () => ({ ok: true, value: null }),
      () => () => {},
    ),
  ).sort();
  expect(keys).toEqual(preloadShape);
  expect(keys).toEqual([...COMMAND_NAMES, 'onEvent'].sort());
});

test('the bridge rejects malformed input at the boundary', async ({ app }) => {
  const result = await app.page.evaluate(
    (name) => (window as never as Record<string, { listTransactions(i: unknown): Promise<unknown> }>)[name]!.listTransactions({ limit: -1 }),
    API_GLOBAL,
  );
  expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
});

/** Pixels of the canvas within 2 of `rgb` on each channel: a gridline's colour, drawn crisp. */
async function pixelsOf(canvas: Locator, rgb: [number, number, number]): Promise<number> {
  return canvas.evaluate((el, [r, g, b]) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r) <= 2 && Math.abs(data[i + 1]! - g) <= 2 && Math.abs(data[i + 2]! - b) <= 2 && data[i + 3]! > 250) n++;
    }
    return n;
  }, rgb);
}

test('首页 and 统计 write money and days one way; the charts follow the page into dark mode', async ({ app }) => {
  const today = localDate(systemNow());
  const row = (amount: number, category: string, description: string, type: 'EXPENSE' | 'INCOME' = 'EXPENSE') =>
    ({ amount, type, category, description, date: today, account: null, confidence: 1, source: 'local' }) as const;
  app.ledger.saveBatch([
    row(1_400_000, '工资', '年终奖', 'INCOME'),
    row(35.5, '餐饮', '午饭'),
    row(1200, '购物', '冰箱'),
    row(88, '交通', '加油'),
    row(300, '娱乐', '演唱会'),
    row(66.6, '医疗', '药'),
  ]);
  const page = await app.open('#/home');
  const latest = page.getByRole('region', { name: '最近记录' });
  await expect(latest.locator('li', { hasText: '午饭' }).locator('.amount')).toHaveText('\u2212¥35.50');
  await expect(latest.locator('li', { hasText: '午饭' }).locator('.when')).toHaveText('今天');
  await expect(page.getByRole('region', { name: '本月概览' }).locator('dt:text-is("收入") + dd')).toHaveText('¥1,400,000.00');
  await screenshots(page, 'home-money');

  await go(page, 'stats');
  await expect(page.getByTestId('total-income')).toHaveAttribute('aria-label', '收入 ¥1,400,000.00');
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥1,690.10');
  const trend = page.getByTestId('trend').locator('canvas');
  // app.css's --border: the gridlines of the light theme, then of the dark one once the scheme changes.
  const LIGHT_GRID: [number, number, number] = [0xe5, 0xe7, 0xeb];
  const DARK_GRID: [number, number, number] = [0x33, 0x36, 0x3c];
  await expect.poll(() => pixelsOf(trend, LIGHT_GRID)).toBeGreaterThan(100);
  expect(await pixelsOf(page.getByTestId('donut').locator('canvas'), [0x29, 0x33, 0x5c])).toBeGreaterThan(100);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => pixelsOf(trend, LIGHT_GRID)).toBe(0);
  expect(await pixelsOf(trend, DARK_GRID)).toBeGreaterThan(100);
  // The income bar in the dark theme's green (--income), not the light one's.
  expect(await pixelsOf(trend, [0x4a, 0xde, 0x80])).toBeGreaterThan(100);
  expect(await pixelsOf(trend, [0x15, 0x80, 0x3d])).toBe(0);
  // The third slice: the light theme's navy would vanish on the dark card; a periwinkle there.
  const donut = page.getByTestId('donut').locator('canvas');
  expect(await pixelsOf(donut, [0x8f, 0xa3, 0xe8])).toBeGreaterThan(100);
  expect(await pixelsOf(donut, [0x29, 0x33, 0x5c])).toBe(0);
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshots(page, 'stats-money');
});

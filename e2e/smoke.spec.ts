import { mkdirSync } from 'node:fs';
import { COMMAND_NAMES, API_GLOBAL } from '@shared/ipc/names';
import { buildApi } from '@shared/api-shape';
import { expect, hanziRenderAsGlyphs, test } from './fixtures';

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
  await expect(page.getByText('-35')).toBeVisible();
  await expect(page.getByText('+9000')).toBeVisible();
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

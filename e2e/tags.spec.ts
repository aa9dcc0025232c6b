import type { Page } from '@playwright/test';
import { expect, go, overflowingElements, screenshots, test, type AppHarness, ledgerRows } from './fixtures';

// Tags and sub-categories against the real ledger through the bridge: a sub-category made on
// 分类与账户, rows saved with tags through 记一笔, then 明细 filtered by a tag, 统计 drilled from
// a parent into its sub-categories, and the tags renamed and deleted. What each page sends and
// shows is unit-tested against a fake; here the ledger's answers are the real ones.

const entryForm = (page: Page) => page.getByRole('dialog', { name: '记一笔' });

/** Saves one expense through 记一笔 as a user would: amount, category, tags typed with Enter, note, Enter. */
async function record(page: Page, entry: { amount: string; category: string; tags: string[]; note: string }): Promise<void> {
  await page.keyboard.press('Control+n');
  const form = entryForm(page);
  await expect(form).toBeVisible();
  await form.getByRole('textbox', { name: '金额' }).fill(entry.amount);
  await form.getByRole('radiogroup', { name: '分类' }).getByRole('radio', { name: entry.category, exact: true }).click();
  const box = form.getByRole('textbox', { name: '添加标签' });
  for (const tag of entry.tags) {
    await box.fill(tag);
    await box.press('Enter');
  }
  await form.getByRole('textbox', { name: '备注' }).fill(entry.note);
  await form.getByRole('textbox', { name: '备注' }).press('Enter');
  await expect(form).toHaveCount(0);
}

/** 餐饮 › 早餐 made on 分类与账户; 包子 (早餐, 出差), 酒店 (住房, 出差 报销) and 午饭 (餐饮 itself) saved with 记一笔. */
async function seed(app: AppHarness): Promise<Page> {
  const { page } = app;
  await go(page, 'categories');
  const panel = page.getByRole('region', { name: '分类', exact: true });
  await panel.getByRole('button', { name: '添加子分类 餐饮', exact: true }).click();
  await panel.getByLabel('子分类名称：餐饮').fill('早餐');
  await panel.getByLabel('子分类名称：餐饮').press('Enter');
  const breakfast = panel.getByRole('listitem', { name: '早餐', exact: true });
  await expect(breakfast).toBeVisible();
  const names = await panel.getByRole('listitem').evaluateAll((items) => items.map((li) => li.getAttribute('aria-label')));
  expect(names.slice(0, 3)).toEqual(['餐饮', '早餐', '交通']);
  const expense = app.ledger.listCategories().filter((c) => c.type === 'EXPENSE');
  expect(expense.find((c) => c.name === '早餐')?.parentId).toBe(expense.find((c) => c.name === '餐饮')?.id);

  await go(page, 'home');
  await record(page, { amount: '8', category: '餐饮 › 早餐', tags: ['出差'], note: '包子' });
  await record(page, { amount: '300', category: '住房', tags: ['出差', '#报销'], note: '酒店' });
  await record(page, { amount: '35', category: '餐饮', tags: [], note: '午饭' });
  // The last save's 已记一笔 toast would otherwise sit over the screenshots.
  await page.getByRole('button', { name: '关闭提示' }).click();
  const rows = app.ledger.list({ limit: 50 }).rows;
  expect(rows.map((r) => [r.description, r.category, r.parentCategory, r.tags]).sort()).toEqual(
    [
      ['包子', '早餐', '餐饮', ['出差']],
      ['酒店', '住房', undefined, ['出差', '报销']],
      ['午饭', '餐饮', undefined, undefined],
    ].sort(),
  );
  return page;
}

test('明细 filtered by a tag: rows carry their tags and 「餐饮 › 早餐」; the tags renamed and deleted on 分类与账户', async ({ app }) => {
  const page = await seed(app);
  await go(page, 'ledger');
  const list = page.getByRole('grid', { name: '明细列表' });
  const bun = list.locator('[role="row"][aria-selected]').filter({ hasText: '包子' });
  await expect(bun.locator('.category')).toHaveText('餐饮 › 早餐');
  await expect(bun.getByLabel('标签：出差')).toBeVisible();
  await expect(list.locator('[role="row"][aria-selected]')).toHaveCount(3);

  await page.getByRole('combobox', { name: '标签', exact: true }).selectOption('出差');
  await expect(list.locator('[role="row"][aria-selected]')).toHaveCount(2);
  await expect(page.locator('p.summary')).toHaveAttribute('aria-label', '共 2 笔，支出 ¥308.00，收入 ¥0.00');
  await expect(list.locator('[role="row"][aria-selected]').filter({ hasText: '午饭' })).toHaveCount(0);
  expect(await overflowingElements(page, '[aria-label="明细"] .filters', 'x')).toEqual([]);
  await screenshots(page, 'tag-filter');

  // Choosing the parent takes in its sub-category's rows.
  await page.getByRole('combobox', { name: '标签', exact: true }).selectOption('');
  await page.getByRole('combobox', { name: '分类', exact: true }).selectOption('餐饮');
  await expect(page.locator('p.summary')).toHaveAttribute('aria-label', '共 2 笔，支出 ¥43.00，收入 ¥0.00');

  await go(page, 'categories');
  const tags = page.getByRole('region', { name: '标签', exact: true });
  await expect(tags.getByRole('listitem', { name: '出差', exact: true })).toContainText('2 笔');
  await tags.getByRole('button', { name: '重命名标签 出差', exact: true }).click();
  await tags.getByLabel('新名称：出差').fill('差旅');
  await tags.getByLabel('新名称：出差').press('Enter');
  await expect(tags.getByRole('listitem', { name: '差旅', exact: true })).toContainText('2 笔');
  await tags.getByRole('button', { name: '删除标签 报销', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: '删除标签「报销」？' });
  await expect(confirm).toContainText('1 笔记录将去掉这个标签');
  await confirm.getByRole('button', { name: '删除', exact: true }).click();
  await expect(tags.getByRole('listitem', { name: '报销', exact: true })).toHaveCount(0);
  const rows = app.ledger.list({ limit: 50 }).rows;
  expect(rows.find((r) => r.description === '酒店')?.tags).toEqual(['差旅']);
});

test('统计: a parent with sub-category rows drills down to them and back; a tag narrows the figures', async ({ app }) => {
  const page = await seed(app);
  await go(page, 'stats');
  const legend = page.getByRole('list', { name: '支出分类' });
  await expect(legend.getByRole('button', { name: /^住房 ¥300\.00 / })).toBeVisible();
  await legend.getByRole('button', { name: /^餐饮 ¥43\.00 .*查看子分类$/ }).click();

  const children = page.getByRole('list', { name: '餐饮的子分类' });
  await expect(children.getByRole('button')).toHaveCount(2);
  await expect(children.getByRole('button', { name: /^未细分 ¥35\.00 / })).toBeVisible();
  await expect(children.getByRole('button', { name: /^早餐 ¥8\.00 .*查看明细$/ })).toBeVisible();
  const trail = page.getByRole('navigation', { name: '分类层级' });
  await expect(trail).toHaveText(/全部分类\s*›\s*餐饮/);
  await screenshots(page, 'category-drilldown');

  await trail.getByRole('button', { name: '全部分类' }).click();
  await expect(legend.getByRole('button', { name: /^餐饮 ¥43\.00 / })).toBeVisible();

  await page.getByRole('combobox', { name: '标签', exact: true }).selectOption('出差');
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥308.00');
  await legend.getByRole('button', { name: /^餐饮 ¥8\.00 .*查看子分类$/ }).click();
  await children.getByRole('button', { name: /^早餐 ¥8\.00 / }).click();
  // A leaf opens its rows in 明细, the tag still applied.
  await expect(page.getByRole('region', { name: '明细' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '标签', exact: true })).toHaveValue('出差');
  await expect(ledgerRows(page)).toHaveCount(1);
});

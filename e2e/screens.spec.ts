import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { item } from '../test/support/ledger-fixtures';
import { expect, go, screenshots, test, ledgerRows } from './fixtures';
import { seedHousehold } from './household';

// States no other test reached, each looked at in light and dark (issue 38, Why 8): a bank
// statement and a file of no known format refused on 明细, the tags panel with tags, the
// sub-category dialogs of 分类与账户, an archived book and its restore, a new ledger's empty
// pages and a busy household month on 统计. Each test says what the screen must show before
// the screenshot is taken; the PNGs are test-results/screenshots/screens-*.

const importButton = (page: Page) => page.getByRole('button', { name: '导入账单' });

test.describe('import errors', () => {
  test('a bank statement is refused in Chinese, nothing is written, and the export help opens', async ({ app }) => {
    app.ledger.saveBatch([item({ amount: 35, description: '午饭', date: null })]);
    const statement = join(app.dataDir, '招商银行交易流水.csv');
    writeFileSync(
      statement,
      '\ufeff记账日期,货币,交易金额,联机余额,交易摘要,对手信息\n2026-11-02,人民币,-35.00,12000.00,快捷支付,美团\n2026-11-03,人民币,15000.00,27000.00,代发工资,某某公司\n',
    );
    const page = await app.open('#/ledger');
    await expect(ledgerRows(page)).toHaveCount(1);
    app.dialogs.openFile = statement;
    await importButton(page).click();

    const alert = page.getByRole('region', { name: '明细' }).getByRole('alert');
    await expect(alert).toHaveText(
      /这是银行流水，暂不支持。请导入支付宝、微信支付、京东或美团导出的账单，或随口记导出的 CSV\/Excel。文件未导入任何记录。$/,
    );
    await expect(page.getByRole('dialog', { name: '导入预览' })).toHaveCount(0);
    await expect(page.getByRole('group').filter({ hasText: '怎么导出账单' })).toBeVisible();
    expect(app.ledger.count()).toBe(1);
    await screenshots(page, 'screens-import-refused-bank');
  });

  test('a file of no known format (a PDF) and an empty file are refused, each saying why', async ({ app }) => {
    const pdf = join(app.dataDir, '账单.pdf');
    writeFileSync(pdf, Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'));
    const page = await app.open('#/ledger');
    app.dialogs.openFile = pdf;
    await importButton(page).click();
    const alert = page.getByRole('region', { name: '明细' }).getByRole('alert');
    await expect(alert).toHaveText(/^无法识别的文件格式：应为支付宝、微信支付、京东或美团导出的账单.*文件未导入任何记录。$/);
    await expect(page.getByRole('dialog', { name: '导入预览' })).toHaveCount(0);
    expect(app.ledger.count()).toBe(0);
    await screenshots(page, 'screens-import-unknown-format');

    const empty = join(app.dataDir, '空文件.csv');
    writeFileSync(empty, '');
    app.dialogs.openFile = empty;
    await importButton(page).click();
    await expect(alert).toHaveText('文件为空');
    expect(app.ledger.count()).toBe(0);
  });
});

test('分类与账户 → 标签 with a household’s tags: each with its count, rename and delete offered', async ({ app }) => {
  seedHousehold(app.ledger);
  const page = await app.open('#/categories');
  const tags = page.getByRole('region', { name: '标签', exact: true });
  const list = tags.getByRole('list', { name: '全部标签' });
  const counts = Object.fromEntries(app.ledger.listTags().map((t) => [t.name, t.count]));
  expect(Object.keys(counts).sort()).toEqual(['出差', '孩子', '家'].sort());
  for (const [name, count] of Object.entries(counts)) {
    await expect(list.getByRole('listitem', { name, exact: true })).toContainText(`${count} 笔`);
    await expect(tags.getByRole('button', { name: `删除标签 ${name}`, exact: true })).toBeEnabled();
  }
  await tags.scrollIntoViewIfNeeded();
  await screenshots(page, 'screens-tags-panel');
});

test('sub-categories: added under 餐饮, moved by the dialog, and deleted with their rows moved to the parent', async ({ app }) => {
  const page = await app.open('#/categories');
  const panel = page.getByRole('region', { name: '分类', exact: true });
  await panel.getByRole('button', { name: '添加子分类 餐饮', exact: true }).click();
  const name = panel.getByLabel('子分类名称：餐饮');
  await expect(name).toBeFocused();
  await name.fill('早餐');
  await screenshots(page, 'screens-subcategory-add');
  await name.press('Enter');
  await expect(panel.getByRole('listitem', { name: '早餐', exact: true })).toBeVisible();
  const expense = () => app.ledger.listCategories().filter((c) => c.type === 'EXPENSE');
  const food = expense().find((c) => c.name === '餐饮')!;
  expect(expense().find((c) => c.name === '早餐')?.parentId).toBe(food.id);

  // 移动: the dialog offers the top level and the other parents, starting at 餐饮.
  await panel.getByRole('button', { name: '移动 早餐', exact: true }).click();
  const move = page.getByRole('dialog', { name: '移动分类「早餐」' });
  const target = move.getByRole('combobox');
  await expect(target).toHaveValue(String(food.id));
  await expect(target.locator('option').first()).toHaveText('一级分类（不属于任何分类）');
  await screenshots(page, 'screens-subcategory-move');
  await move.getByRole('button', { name: '取消' }).click();
  await expect(move).toHaveCount(0);

  // Deleting a used sub-category asks where its rows go; they go to its parent.
  app.ledger.saveBatch([
    item({ category: '早餐', amount: 8, description: '包子', date: null }),
    item({ category: '早餐', amount: 12, description: '煎饼', date: null }),
  ]);
  await page.reload();
  await expect(panel.getByRole('listitem', { name: '早餐', exact: true })).toContainText('2 笔');
  await panel.getByRole('button', { name: '删除 早餐', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '删除分类「早餐」' });
  await expect(dialog).toContainText('「早餐」下有 2 笔记录，删除前请选择移到哪个分类');
  await dialog.getByRole('combobox', { name: '移到' }).selectOption({ label: '餐饮' });
  await expect(dialog.getByRole('button', { name: '移动并删除' })).toBeEnabled();
  await screenshots(page, 'screens-subcategory-move-delete');
  await dialog.getByRole('button', { name: '移动并删除' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('listitem', { name: '早餐', exact: true })).toHaveCount(0);
  expect(['包子', '煎饼'].map((d) => app.ledger.search(d)[0]?.category)).toEqual(['餐饮', '餐饮']);
});

test('账本: an archived book leaves the switcher and comes back when restored', async ({ app }) => {
  const page = await app.open('#/settings');
  const books = page.getByRole('region', { name: '账本', exact: true });
  await books.getByRole('textbox', { name: '新账本名称' }).fill('装修');
  await books.getByRole('button', { name: '新建账本' }).click();
  const switcher = page.getByRole('combobox', { name: '当前账本' });
  await expect(switcher.locator('option:checked')).toHaveText('装修');
  await switcher.selectOption({ label: '我的账本' });
  await expect(page).toHaveTitle('随口记 — 我的账本');

  const list = books.getByRole('list', { name: '账本列表' });
  await list.getByRole('button', { name: '归档 装修' }).click();
  await expect(list.getByRole('listitem', { name: '装修' })).toContainText('已归档');
  await expect(list.getByRole('button', { name: '恢复 装修' })).toBeVisible();
  await expect(switcher.locator('option')).toHaveText(['我的账本']);
  expect(app.core.books.listing().books.find((b) => b.name === '装修')?.archived).toBe(true);
  await screenshots(page, 'screens-books-archived');

  await list.getByRole('button', { name: '恢复 装修' }).click();
  await expect(list.getByRole('listitem', { name: '装修' })).not.toContainText('已归档');
  await expect(switcher.locator('option')).toHaveText(['我的账本', '装修']);
  expect(app.core.books.listing().books.find((b) => b.name === '装修')?.archived).toBe(false);
  await screenshots(page, 'screens-books-restored');
});

test('a new ledger: 首页, 明细 and 统计 say there is nothing yet, with zeros and no chart', async ({ app }) => {
  expect(app.ledger.count()).toBe(0);
  const page = await app.open('#/home');
  const overview = page.getByRole('region', { name: '本月概览' });
  await expect(overview.getByRole('definition')).toHaveText(['¥0.00', '¥0.00', '¥0.00']);
  await expect(page.getByRole('region', { name: '最近记录' })).toContainText('还没有记录');
  await screenshots(page, 'screens-empty-home');

  await page.goto(page.url().replace(/#.*$/, '#/ledger'));
  await expect(page.getByRole('region', { name: '明细' })).toContainText('本月还没有记录');
  await expect(ledgerRows(page)).toHaveCount(0);
  await screenshots(page, 'screens-empty-ledger');

  await page.goto(page.url().replace(/#.*$/, '#/stats'));
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥0.00');
  await expect(page.getByRole('region', { name: '统计' })).toContainText('这段时间没有支出');
  await expect(page.getByTestId('donut')).toHaveCount(0);
  await screenshots(page, 'screens-empty-stats');
});

test('统计 in a busy household month: totals as the ledger counts them, categories largest first', async ({ app }) => {
  const { month, rows } = seedHousehold(app.ledger);
  expect(rows).toBeGreaterThan(20);
  const page = await app.open('#/stats');
  const { expenseFen, incomeFen } = app.ledger.monthSummary(month);
  const legend = page.getByRole('list', { name: '支出分类' });
  await expect(legend.getByRole('button').first()).toBeVisible();
  const shown = async (id: string) => (await page.getByTestId(id).getAttribute('aria-label'))!.replace(/[^\d.]/g, '');
  expect(Math.round(Number(await shown('total-expense')) * 100)).toBe(expenseFen);
  expect(Math.round(Number(await shown('total-income')) * 100)).toBe(incomeFen);
  // Largest first: each legend entry's amount is no more than the one before it (the folded 其他 last).
  const amounts = (await legend.getByRole('button').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label') ?? ''))).map((label) =>
    Number(/¥([\d,.]+)/.exec(label)![1]!.replace(/,/g, '')),
  );
  const named = amounts.slice(0, -1);
  expect(named).toEqual([...named].sort((a, b) => b - a));
  await expect(legend.getByRole('button').first()).toHaveAttribute('aria-label', /^住房 ¥3,000\.00 /);
  await screenshots(page, 'screens-stats-busy-month');

  // The same month on 明细: tag pills and the row tools stand out on every row, not only the selected one.
  await go(page, 'ledger');
  const list = page.getByRole('grid', { name: '明细列表' });
  const dinner = list.locator('[role="row"][aria-selected]').filter({ hasText: '家庭聚餐' });
  await expect(dinner.getByLabel('标签：家')).toBeVisible();
  await expect(dinner.getByRole('button', { name: '编辑 家庭聚餐' })).toBeEnabled();
  await dinner.scrollIntoViewIfNeeded();
  await dinner.click();
  await expect(dinner).toHaveAttribute('aria-selected', 'true');
  await screenshots(page, 'screens-ledger-busy-month');
});

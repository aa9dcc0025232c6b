import type { Locator } from '@playwright/test';
import { item } from '../test/support/ledger-fixtures';
import { expect, test } from './fixtures';

// The 分类与账户 page against the real handler table and SQLite ledger through the bridge:
// each change is read back from the ledger itself, and the ledger's refusals reach the page
// word for word. (How the page renders and what it sends is unit-tested against a fake.)

const PRESET_EXPENSE = ['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他', '宠物', '旅行'];

/** The names the list shows, in its order. */
const shown = (list: Locator) => list.getByRole('listitem').evaluateAll((items) => items.map((li) => li.getAttribute('aria-label')));

test.describe('categories and accounts', () => {
  test('adds, reorders, renames and hides categories in the real ledger', async ({ app }) => {
    const expenseNames = () => app.ledger.categories('EXPENSE').map((c) => c.name);
    const page = await app.open('#/categories');
    const panel = page.getByRole('region', { name: '分类', exact: true });
    await expect(panel.getByRole('listitem', { name: '餐饮', exact: true })).toBeVisible();
    expect(await shown(panel)).toEqual(PRESET_EXPENSE);
    expect(expenseNames()).toEqual(PRESET_EXPENSE);

    await page.getByLabel('新分类名称').fill('咖啡');
    await page.getByRole('button', { name: '添加分类' }).click();
    await expect(panel.getByRole('listitem', { name: '咖啡', exact: true })).toBeVisible();
    await expect(page.getByLabel('新分类名称')).toHaveValue('');
    expect(expenseNames()).toEqual([...PRESET_EXPENSE, '咖啡']);

    await page.getByRole('button', { name: '上移 咖啡' }).click();
    await expect(page.getByRole('button', { name: '下移 咖啡' })).toBeEnabled();
    await expect.poll(() => expenseNames().slice(-2)).toEqual(['咖啡', '旅行']);
    expect(await shown(panel)).toEqual(expenseNames());

    await page.getByRole('button', { name: '重命名 咖啡' }).click();
    await page.getByLabel('新名称：咖啡').fill('咖啡茶饮');
    await page.getByLabel('新名称：咖啡').press('Enter');
    await expect(panel.getByRole('listitem', { name: '咖啡茶饮' })).toBeVisible();
    expect(expenseNames().slice(-2)).toEqual(['咖啡茶饮', '旅行']);

    await page.getByRole('button', { name: '隐藏 餐饮' }).click();
    await expect(page.getByRole('button', { name: '显示 餐饮' })).toBeVisible();
    await expect(panel.getByRole('listitem', { name: '餐饮', exact: true })).toContainText('已隐藏');
    expect(app.ledger.categories('EXPENSE').find((c) => c.name === '餐饮')!.hidden).toBe(true);
  });

  test('offers delete for custom categories only, deletes an unused one at once, and shows the ledger’s refusal', async ({ app }) => {
    app.ledger.addCategory('咖啡', 'EXPENSE');
    app.ledger.addCategory('奶茶', 'EXPENSE');
    app.ledger.saveBatch([item({ category: '交通', amount: 5, date: null }), item({ category: '奶茶', amount: 5, date: null })]);
    const page = await app.open('#/categories');
    const panel = page.getByRole('region', { name: '分类', exact: true });
    await expect(panel.getByRole('listitem', { name: '奶茶' })).toContainText('1 笔');
    await expect(panel.getByRole('listitem', { name: '交通' })).toContainText('1 笔');
    // Presets can only be hidden; a used custom category asks where its rows go (e2e/accounts.spec.ts).
    await expect(page.getByRole('button', { name: '删除 餐饮' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '删除 交通' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '删除 奶茶' })).toBeVisible();

    await page.getByRole('button', { name: '删除 咖啡' }).click();
    await expect(panel.getByRole('listitem', { name: '咖啡', exact: true })).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(app.ledger.categories('EXPENSE').map((c) => c.name)).not.toContain('咖啡');

    await page.getByLabel('新分类名称').fill('餐饮');
    await page.getByRole('button', { name: '添加分类' }).click();
    await expect(page.getByRole('alert')).toContainText('已有名为「餐饮」的分类');
    expect(app.ledger.categories('EXPENSE').filter((c) => c.name === '餐饮')).toHaveLength(1);
  });

  test('manages accounts with 钱包 as the default', async ({ app }) => {
    const page = await app.open('#/categories');
    const accounts = page.getByRole('region', { name: '账户', exact: true });
    await expect(accounts.getByRole('listitem', { name: '钱包' })).toContainText('默认');
    await expect(page.getByRole('button', { name: '设为默认 钱包' })).toHaveCount(0);

    await page.getByLabel('新账户名称').fill('招商银行');
    await page.getByRole('button', { name: '添加账户' }).click();
    await page.getByRole('button', { name: '设为默认 招商银行' }).click();
    await expect(page.getByRole('button', { name: '设为默认 钱包' })).toBeVisible();
    await expect(accounts.getByRole('listitem', { name: '招商银行' })).toContainText('默认');
    expect(app.ledger.listAccounts().find((a) => a.isDefault)!.name).toBe('招商银行');

    await page.getByRole('button', { name: '重命名 招商银行' }).click();
    await page.getByLabel('新名称：招商银行').fill('招行');
    await page.getByLabel('新名称：招商银行').press('Enter');
    await expect(accounts.getByRole('listitem', { name: '招行' })).toBeVisible();
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包', '招行']);
  });
});

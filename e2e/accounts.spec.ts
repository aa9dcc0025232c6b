import type { Page } from '@playwright/test';
import { item } from '../test/support/ledger-fixtures';
import { expect, overflowingElements, screenshots, test, type AppHarness } from './fixtures';

// Accounts with balances and deleting a used category, on the 分类与账户 page against the
// real handler table and SQLite ledger: every change is read back from the ledger, and its
// refusals reach the page word for word. (Rendering details are unit-tested against a fake.)

/** Today's calendar day where the app runs (the fixture pins Asia/Shanghai). */
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

const accountsPanel = (page: Page) => page.getByRole('region', { name: '账户', exact: true });
const accountRow = (page: Page, name: string) => accountsPanel(page).getByRole('listitem', { name, exact: true });
const balanceOf = (page: Page, name: string) => accountRow(page, name).getByLabel(/^余额 /);
const total = (page: Page) => accountsPanel(page).getByLabel(/^全部账户合计 /);

function balances(app: AppHarness): Record<string, number> {
  return Object.fromEntries(app.ledger.accountBalances().accounts.map((a) => [a.name, a.balanceFen]));
}

test.describe('accounts and balances', () => {
  test('create with an initial balance, rename, a refused delete, archive with history kept, 钱包 stays open', async ({ app }) => {
    app.ledger.saveBatch([item({ amount: 35, description: '午饭', date: null })]);
    const page = await app.open('#/categories');
    await expect(balanceOf(page, '钱包')).toHaveText('-¥35');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 -¥35');

    // A bad initial balance is refused inline and nothing reaches the ledger.
    await page.getByLabel('新账户名称').fill('招商银行卡');
    await page.getByLabel('初始余额').fill('5000.123');
    await page.getByLabel('初始余额').press('Enter');
    await expect(accountsPanel(page).getByRole('alert')).toContainText('最多两位小数');
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包']);

    await page.getByLabel('初始余额').fill('5000');
    await expect(accountsPanel(page).getByRole('alert')).toHaveCount(0);
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(balanceOf(page, '招商银行卡')).toHaveText('¥5000');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥4965');
    expect(balances(app)).toEqual({ 钱包: -3500, 招商银行卡: 500_000 });
    await expect(page.getByLabel('新账户名称')).toHaveValue('');
    await expect(page.getByLabel('初始余额')).toHaveValue('');

    // A credit card that starts in debt.
    await page.getByLabel('新账户名称').fill('信用卡');
    await page.getByLabel('初始余额').fill('-1200.50');
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(balanceOf(page, '信用卡')).toHaveText('-¥1200.50');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3764.50');

    await page.getByRole('button', { name: '重命名 招商银行卡' }).click();
    await page.getByLabel('新名称：招商银行卡').fill('招行卡');
    await page.getByLabel('新名称：招商银行卡').press('Enter');
    await expect(accountRow(page, '招行卡')).toBeVisible();
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包', '招行卡', '信用卡']);

    // A transfer into it and an expense from it: the balances follow, the total only drops by the expense.
    expect(
      await app.core.dispatch('addTransaction', {
        amountYuan: 200,
        type: 'TRANSFER',
        date: today(),
        time: '09:00',
        account: '钱包',
        toAccount: '招行卡',
      }),
    ).toMatchObject({ ok: true });
    expect(
      await app.core.dispatch('addTransaction', {
        amountYuan: 88,
        type: 'EXPENSE',
        category: '购物',
        date: today(),
        time: '10:00',
        account: '招行卡',
        note: '招行买书',
      }),
    ).toMatchObject({ ok: true });
    await expect(balanceOf(page, '招行卡')).toHaveText('¥5112');
    await expect(balanceOf(page, '钱包')).toHaveText('-¥235');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3676.50');
    await expect(accountRow(page, '招行卡')).toContainText('2 笔');

    await page.getByRole('button', { name: '删除 招行卡' }).click();
    await expect(accountRow(page, '招行卡').getByRole('alert')).toHaveText('该账户有 2 笔记录，不能删除，可以归档');
    expect(app.ledger.listAccounts().map((a) => a.name)).toContain('招行卡');

    await page.getByRole('button', { name: '归档 招行卡' }).click();
    const archived = page.getByRole('list', { name: '已归档账户' });
    await expect(archived.getByRole('listitem', { name: '招行卡' })).toContainText('¥5112');
    await expect(page.getByRole('list', { name: '使用中的账户' }).getByRole('listitem', { name: '招行卡' })).toHaveCount(0);
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3676.50');
    expect(app.ledger.accountBalances().accounts.find((a) => a.name === '招行卡')).toMatchObject({ archived: true, balanceFen: 511_200 });

    // 钱包 is the preset (and here the default): no archive or delete offered, and the ledger refuses it anyway.
    await expect(page.getByRole('button', { name: '归档 钱包' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '删除 钱包' })).toHaveCount(0);
    await expect(accountsPanel(page)).toContainText('默认账户不能归档或删除');
    const wallet = app.ledger.listAccounts().find((a) => a.name === '钱包')!;
    expect(await app.core.dispatch('archiveAccount', { id: wallet.id, archived: true })).toMatchObject({
      ok: false,
      error: { message: '「钱包」是预设账户，不能归档' },
    });

    expect(await overflowingElements(page, '.panel li, .panel .add', 'x')).toEqual([]);
    await page.getByLabel('初始余额').scrollIntoViewIfNeeded();
    await screenshots(page, 'accounts');

    // The archived account's rows are still in 明细.
    const ledger = await app.open('#/ledger');
    const list = ledger.getByRole('listbox', { name: '明细列表' });
    await expect(list.getByText('招行买书')).toBeVisible();
    await expect(ledger.locator('p.summary')).toHaveAttribute('aria-label', /^共 3 笔/);
  });

  test('an empty account is deleted after confirmation', async ({ app }) => {
    app.ledger.addAccount('旧卡');
    const page = await app.open('#/categories');
    await page.getByRole('button', { name: '删除 旧卡' }).click();
    const confirm = accountRow(page, '旧卡').getByRole('group', { name: '确认删除 旧卡' });
    await expect(confirm).toContainText('删除账户「旧卡」？');
    await confirm.getByRole('button', { name: '取消' }).click();
    await expect(confirm).toHaveCount(0);
    expect(app.ledger.listAccounts().map((a) => a.name)).toContain('旧卡');

    await page.getByRole('button', { name: '删除 旧卡' }).click();
    await accountRow(page, '旧卡').getByRole('button', { name: '确认删除' }).click();
    await expect(accountRow(page, '旧卡')).toHaveCount(0);
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包']);
  });
});

test.describe('deleting a used category', () => {
  test('moves its rows to the category the user picks, then deletes it', async ({ app }) => {
    app.ledger.addCategory('咖啡', 'EXPENSE');
    app.ledger.saveBatch([
      item({ category: '咖啡', amount: 28, description: '拿铁', date: null }),
      item({ category: '咖啡', amount: 22, description: '美式', date: null }),
    ]);
    const page = await app.open('#/categories');
    const panel = page.getByRole('region', { name: '分类', exact: true });
    await expect(panel.getByRole('listitem', { name: '咖啡' })).toContainText('2 笔');

    await page.getByRole('button', { name: '删除 咖啡' }).click();
    const dialog = page.getByRole('dialog', { name: '删除分类「咖啡」' });
    await expect(dialog).toContainText('「咖啡」下有 2 笔记录，删除前请选择移到哪个分类');
    const select = dialog.getByRole('combobox', { name: '移到' });
    await expect(select).toBeFocused();
    await expect(select.locator('option:not([disabled])')).toHaveText(
      app.ledger
        .categories('EXPENSE')
        .filter((c) => c.name !== '咖啡')
        .map((c) => (c.hidden ? `${c.name}（已隐藏）` : c.name)),
    );
    await expect(dialog.getByRole('button', { name: '移动并删除' })).toBeDisabled();
    await screenshots(page, 'category-move');

    // Esc: nothing happens.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(app.ledger.search('拿铁')[0]!.category).toBe('咖啡');

    await page.getByRole('button', { name: '删除 咖啡' }).click();
    await select.selectOption({ label: '餐饮' });
    await dialog.getByRole('button', { name: '移动并删除' }).click();
    await expect(page.getByRole('region', { name: '分类与账户' }).getByRole('status')).toHaveText('已删除「咖啡」，2 笔记录移到了「餐饮」');
    await expect(panel.getByRole('listitem', { name: '咖啡' })).toHaveCount(0);
    await expect(panel.getByRole('listitem', { name: '餐饮', exact: true })).toContainText('2 笔');
    expect(app.ledger.categories('EXPENSE').map((c) => c.name)).not.toContain('咖啡');
    expect(['拿铁', '美式'].map((d) => app.ledger.search(d)[0]!.category)).toEqual(['餐饮', '餐饮']);
  });
});

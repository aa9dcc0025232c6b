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
    await expect(balanceOf(page, '钱包')).toHaveText('−¥35.00');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 −¥35.00');
    // A wallet that spent more than it held says so on its row.
    await expect(accountRow(page, '钱包')).toContainText('余额为负');

    // A bad initial balance is refused inline and nothing reaches the ledger.
    await page.getByLabel('新账户名称').fill('招商银行卡');
    await page.getByLabel('初始余额').fill('5000.123');
    await page.getByLabel('初始余额').press('Enter');
    await expect(accountsPanel(page).getByRole('alert')).toContainText('最多两位小数');
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包']);

    await page.getByLabel('初始余额').fill('5000');
    await expect(accountsPanel(page).getByRole('alert')).toHaveCount(0);
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(balanceOf(page, '招商银行卡')).toHaveText('¥5,000.00');
    await expect(accountRow(page, '招商银行卡')).not.toContainText('余额为负');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥4,965.00');
    expect(balances(app)).toEqual({ 钱包: -3500, 招商银行卡: 500_000 });
    await expect(page.getByLabel('新账户名称')).toHaveValue('');
    await expect(page.getByLabel('初始余额')).toHaveValue('');

    // A credit card that starts in debt.
    await page.getByLabel('新账户名称').fill('信用卡');
    await page.getByLabel('初始余额').fill('-1200.50');
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(balanceOf(page, '信用卡')).toHaveText('−¥1,200.50');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3,764.50');

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
    await expect(balanceOf(page, '招行卡')).toHaveText('¥5,112.00');
    await expect(balanceOf(page, '钱包')).toHaveText('−¥235.00');
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3,676.50');
    await expect(accountRow(page, '招行卡')).toContainText('2 笔');

    // An account with entries cannot be deleted: only 归档 is offered (the ledger refuses anyway).
    await expect(page.getByRole('button', { name: '删除 招行卡' })).toHaveCount(0);
    const used = app.ledger.listAccounts().find((a) => a.name === '招行卡')!;
    expect(await app.core.dispatch('deleteAccount', { id: used.id })).toMatchObject({
      ok: false,
      error: { message: '该账户有 2 笔记录，不能删除，可以归档' },
    });

    await page.getByRole('button', { name: '归档 招行卡' }).click();
    const archived = page.getByRole('list', { name: '已归档账户' });
    await expect(archived.getByRole('listitem', { name: '招行卡' })).toContainText('¥5,112.00');
    await expect(archived.getByRole('button', { name: '恢复 招行卡' })).toBeVisible();
    await expect(page.getByRole('list', { name: '使用中的账户' }).getByRole('listitem', { name: '招行卡' })).toHaveCount(0);
    await expect(total(page)).toHaveAttribute('aria-label', '全部账户合计 ¥3,676.50');
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
    const list = ledger.getByRole('grid', { name: '明细列表' });
    await expect(list.getByText('招行买书')).toBeVisible();
    await expect(ledger.locator('p.summary')).toHaveAttribute('aria-label', /^共 3 笔/);
  });

  test('an empty account is deleted after confirmation', async ({ app }) => {
    app.ledger.addAccount('旧卡');
    const page = await app.open('#/categories');
    // Empty: 删除 is offered, and 归档 (for accounts with entries) is not.
    await expect(page.getByRole('button', { name: '归档 旧卡' })).toHaveCount(0);
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

/** YYYY-MM-DD of a day `months` after today's month, on `day` (≤ 28 here, so no month is short of it). */
function inMonth(base: string, months: number, day: number): string {
  const d = new Date(Date.UTC(Number(base.slice(0, 4)), Number(base.slice(5, 7)) - 1 + months, day));
  return d.toISOString().slice(0, 10);
}

const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

test.describe('credit cards', () => {
  test('账单日, 还款日 and 额度 from the add form; 本期账单, 还有 N 天还款 and 可用额度 in the card view; archive and restore', async ({ app }) => {
    const page = await app.open('#/categories');
    const panel = accountsPanel(page);
    await page.getByLabel('新账户名称').fill('招行信用卡');
    await page.getByLabel('账户类型').selectOption({ label: '信用卡' });
    const form = panel.getByRole('form', { name: '添加账户' });

    // Bad terms are refused inline in Chinese, and no account is made.
    await form.getByLabel('账单日（每月）').fill('32');
    await form.getByLabel('还款日（每月）').fill('20');
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(panel.getByRole('alert')).toHaveText('账单日和还款日应为每月1–31日');
    await form.getByLabel('账单日（每月）').fill('1');
    await form.getByLabel('额度（元）').fill('-5');
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(panel.getByRole('alert')).toHaveText('额度不能为负');
    await form.getByLabel('额度（元）').fill('20000.123');
    await page.getByRole('button', { name: '添加账户' }).click();
    await expect(panel.getByRole('alert')).toHaveText('额度最多两位小数（精确到分）');
    expect(app.ledger.listAccounts().map((a) => a.name)).toEqual(['钱包']);
    // The boundary refuses what the page would not send.
    expect(await app.core.dispatch('addAccount', { name: '招行信用卡', card: { statementDay: 1, dueDay: 20, creditLimitYuan: -1 } })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('额度不能为负') },
    });

    await form.getByLabel('额度（元）').fill('20000');
    await page.getByRole('button', { name: '添加账户' }).click();
    const card = accountRow(page, '招行信用卡');
    await expect(card).toContainText('信用卡');
    expect(app.ledger.listAccounts().find((a) => a.name === '招行信用卡')).toMatchObject({
      kind: 'credit',
      statementDay: 1,
      dueDay: 20,
      creditLimitFen: 20_000_00,
    });

    // Spending on the card and a repayment from 钱包, today.
    const spend = (amountYuan: number, note: string, time: string) =>
      app.core.dispatch('addTransaction', { amountYuan, type: 'EXPENSE', category: '购物', date: today(), time, account: '招行信用卡', note });
    expect(await spend(1288.5, '买冰箱', '09:00')).toMatchObject({ ok: true });
    expect(await spend(300, '超市', '10:00')).toMatchObject({ ok: true });
    expect(
      await app.core.dispatch('addTransaction', {
        amountYuan: 500,
        type: 'TRANSFER',
        date: today(),
        time: '11:00',
        account: '钱包',
        toAccount: '招行信用卡',
      }),
    ).toMatchObject({ ok: true });

    // The card was made today: no statement has closed, so the bill is the open period's so far,
    // due on the 20th after the next 1st (today, when today is the 1st).
    const statementDate = today().endsWith('-01') ? today() : inMonth(today(), 1, 1);
    const dueDate = inMonth(statementDate, 0, 20);
    const daysLeft = daysFrom(today(), dueDate);
    await expect(balanceOf(page, '招行信用卡')).toHaveText('欠款 ¥1,088.50');
    await expect(card).toContainText(`还有 ${daysLeft} 天还款`);
    await expect(card).toContainText('可用 ¥18,911.50');
    await expect(accountRow(page, '钱包')).toContainText('余额为负');

    // 删除 only where the ledger allows it: the card has entries, an empty account has none.
    expect(await app.core.dispatch('addAccount', { name: '旧卡' })).toMatchObject({ ok: true });
    await expect(accountRow(page, '旧卡').getByRole('button', { name: '删除 旧卡' })).toBeVisible();
    await expect(card.getByRole('button', { name: '删除 招行信用卡' })).toHaveCount(0);
    await expect(card.getByRole('button', { name: '归档 招行信用卡' })).toBeVisible();

    // The rows' columns line up under their heading: every balance ends where 余额 does.
    const rights = await panel
      .locator('li .balance, .columns-head .right')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().right)));
    expect(rights).toHaveLength(4);
    expect(new Set(rights).size).toBe(1);
    expect(await overflowingElements(page, '.panel li, .panel .add', 'x')).toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await screenshots(page, 'accounts-cards');

    await card.getByRole('button', { name: '查看账单 招行信用卡' }).click();
    const view = card.getByRole('region', { name: '账单 招行信用卡' });
    await expect(view.getByLabel('本期账单 ¥1,088.50')).toBeVisible();
    await expect(view).toContainText('本期账单（未出账）');
    await expect(view).toContainText('消费 ¥1,588.50 · 还款与退款 ¥500.00');
    await expect(view).toContainText(`还有 ${daysLeft} 天还款`);
    await expect(view.getByLabel('可用额度 ¥18,911.50')).toBeVisible();
    await expect(view).toContainText('额度 ¥20,000.00 · 已用 ¥1,088.50');
    expect(await overflowingElements(page, '.card-view', 'x')).toEqual([]);
    await view.scrollIntoViewIfNeeded();
    await screenshots(page, 'card-view');

    // A raised 额度 in 卡片设置; the days stay.
    await card.getByRole('button', { name: '信用卡设置 招行信用卡' }).click();
    const terms = card.getByRole('form', { name: '信用卡设置 招行信用卡' });
    await expect(terms.getByLabel('额度（元）')).toHaveValue('20000');
    await terms.getByLabel('额度（元）').fill('30000');
    await terms.getByRole('button', { name: '保存' }).click();
    await expect(view.getByLabel('可用额度 ¥28,911.50')).toBeVisible();
    expect(app.ledger.listAccounts().find((a) => a.name === '招行信用卡')).toMatchObject({ statementDay: 1, dueDay: 20, creditLimitFen: 30_000_00 });

    // A purchase dated on the latest statement date (the 1st) gives the card a closed bill: 本期账单 is
    // that period's spending, the money paid since counts against it, today's spending waits as 未出账.
    const latest = today().endsWith('-01') ? inMonth(today(), -1, 1) : inMonth(today(), 0, 1);
    expect(
      await app.core.dispatch('addTransaction', {
        amountYuan: 2000,
        type: 'EXPENSE',
        category: '交通',
        date: latest,
        time: '08:00',
        account: '招行信用卡',
        note: '机票',
      }),
    ).toMatchObject({ ok: true });
    const closedDue = daysFrom(today(), inMonth(latest, 0, 20));
    const said = closedDue > 0 ? `还有 ${closedDue} 天还款` : closedDue === 0 ? '今天还款' : `已逾期 ${-closedDue} 天`;
    await expect(view.getByLabel('本期账单 ¥2,000.00')).toBeVisible();
    await expect(view).not.toContainText('（未出账）');
    await expect(view.getByLabel('未出账 ¥1,588.50')).toBeVisible();
    await expect(view).toContainText('还需还 ¥1,500.00');
    await expect(view).toContainText(said);
    await expect(card).toContainText(said);
    await expect(view.getByLabel('可用额度 ¥26,911.50')).toBeVisible();
    await view.scrollIntoViewIfNeeded();
    await screenshots(page, 'card-view-billed');

    // Archived, with its history; 恢复 brings it back.
    await card.getByRole('button', { name: '归档 招行信用卡' }).click();
    const archived = panel.getByRole('list', { name: '已归档账户' });
    await expect(archived.getByRole('listitem', { name: '招行信用卡' })).toContainText('欠款 ¥3,088.50');
    await archived.getByRole('button', { name: '恢复 招行信用卡' }).click();
    await expect(panel.getByRole('list', { name: '已归档账户' })).toHaveCount(0);
    expect(app.ledger.listAccounts().find((a) => a.name === '招行信用卡')?.archived).toBe(false);
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

import type { Page } from '@playwright/test';
import { CALC_ERRORS } from '@shared/calc';
import { expect, overflowingElements, screenshots, test, type AppHarness } from './fixtures';

// 记一笔 and 首页 against the real ledger through the bridge: the form by keyboard only, its
// inline errors, undo, a transfer between two accounts, 待报销 and the money flows to someone
// (借出, 报销到账), and the overview after each.

const form = (page: Page) => page.getByRole('dialog', { name: '记一笔' });
const amount = (page: Page) => form(page).getByRole('textbox', { name: '金额' });
const overview = (page: Page) => page.getByRole('region', { name: '本月概览' });
const latest = (page: Page) => page.getByRole('region', { name: '最近记录' });

/** The <dd> after the overview's <dt>. */
function figure(page: Page, term: '收入' | '支出' | '结余') {
  return overview(page).locator(`dt:text-is("${term}") + dd`);
}

function rows(app: AppHarness) {
  return app.ledger.list({ limit: 50 }).rows;
}

function balanceOf(app: AppHarness, name: string): number | undefined {
  return app.ledger.accountBalances().accounts.find((a) => a.name === name)?.balanceFen;
}

async function expectFits(page: Page): Promise<void> {
  expect(await overflowingElements(page, '[aria-label="首页"], [role="dialog"]', 'x')).toEqual([]);
}

test('keyboard only: Ctrl+N, 12+8.5, a category by arrow keys, Enter → saved, on 首页, undone by Ctrl+Z', async ({ app }) => {
  const { page } = app;
  await expect(figure(page, '支出')).toHaveText('¥0.00');

  await page.keyboard.press('Control+n');
  await expect(form(page)).toBeVisible();
  await expect(amount(page)).toBeFocused();
  await page.keyboard.type('12+8.5');
  await expect(form(page)).toContainText('= ¥20.50');

  // Tab leads from the amount into the category grid; → picks the next category.
  await page.keyboard.press('Tab');
  const grid = form(page).getByRole('radiogroup', { name: '分类' });
  const first = await grid.getByRole('radio', { checked: true }).textContent();
  await expect(grid.getByRole('radio', { checked: true })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const picked = grid.getByRole('radio', { checked: true });
  await expect(picked).toBeFocused();
  const category = (await picked.textContent())!.trim();
  expect(category).not.toBe(first?.trim());
  await screenshots(page, 'entry-form');
  await expectFits(page);

  await page.keyboard.press('Enter');
  await expect(form(page)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '已记一笔' })).toBeVisible();
  expect(rows(app).map((r) => [r.type, r.category, r.amountFen, r.account])).toEqual([['EXPENSE', category, 2050, '钱包']]);

  await expect(figure(page, '支出')).toHaveText('¥20.50');
  await expect(figure(page, '收入')).toHaveText('¥0.00');
  await expect(figure(page, '结余')).toHaveText('−¥20.50');
  await expect(latest(page).getByRole('listitem')).toHaveCount(1);
  await expect(latest(page).getByRole('listitem')).toContainText(category);
  await expect(latest(page).getByRole('listitem')).toContainText('−¥20.50');
  await screenshots(page, 'home');
  await expectFits(page);

  await page.keyboard.press('Control+z');
  await expect.poll(() => rows(app).length).toBe(0);
  await expect(figure(page, '支出')).toHaveText('¥0.00');
  await expect(latest(page).getByRole('listitem')).toHaveCount(0);
  // Redo brings it back, from the home page too.
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => rows(app).length).toBe(1);
  await expect(figure(page, '支出')).toHaveText('¥20.50');
});

test('bad amounts show their inline error and save nothing; Esc closes', async ({ app }) => {
  const { page } = app;
  await page.getByRole('button', { name: '＋ 记一笔' }).click();
  const cases: [string, string][] = [
    ['', CALC_ERRORS.empty],
    ['0', CALC_ERRORS.zero],
    ['-5', CALC_ERRORS.negative],
    ['1e9', CALC_ERRORS.badChar],
    ['1000000000', CALC_ERRORS.tooLarge],
    ['12++3', CALC_ERRORS.operator],
    ['abc', CALC_ERRORS.badChar],
  ];
  for (const [text, error] of cases) {
    await amount(page).fill(text);
    await amount(page).press('Enter');
    await expect(amount(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(amount(page)).toHaveAccessibleDescription(error);
    await expect(amount(page)).toBeFocused();
  }
  expect(rows(app)).toEqual([]);

  await amount(page).fill('35');
  await expect(amount(page)).not.toHaveAttribute('aria-invalid', 'true');
  await expect(amount(page)).toHaveAccessibleDescription('= ¥35.00');
  await page.keyboard.press('Escape');
  await expect(form(page)).toHaveCount(0);
  expect(rows(app)).toEqual([]);
});

test('a transfer 钱包 → 微信 moves money between balances, not into 收入/支出 or 统计', async ({ app }) => {
  const added = await app.core.dispatch('addAccount', { name: '微信', initialBalanceYuan: 50 });
  expect(added.ok).toBe(true);
  const { page } = app;
  await page.keyboard.press('Control+n');
  await form(page).getByRole('radio', { name: '转账' }).check();
  await amount(page).fill('100');
  await form(page).getByRole('combobox', { name: '转出账户' }).selectOption('钱包');

  // The same account on both sides: the ledger refuses, the form keeps what was typed.
  await form(page).getByRole('combobox', { name: '转入账户' }).selectOption('钱包');
  await amount(page).press('Enter');
  await expect(form(page).getByRole('alert')).toBeVisible();
  await expect(amount(page)).toHaveValue('100');
  expect(rows(app)).toEqual([]);

  await form(page).getByRole('combobox', { name: '转入账户' }).selectOption('微信');
  await form(page).getByRole('textbox', { name: '备注' }).fill('充值');
  await screenshots(page, 'entry-transfer');
  await expectFits(page);
  await form(page).getByRole('button', { name: '保存' }).click();
  await expect(form(page)).toHaveCount(0);

  expect(rows(app).map((r) => [r.type, r.amountFen, r.account, r.toAccount])).toEqual([['TRANSFER', 10000, '钱包', '微信']]);
  expect(balanceOf(app, '钱包')).toBe(-10000);
  expect(balanceOf(app, '微信')).toBe(15000);
  await expect(latest(page).getByRole('listitem')).toContainText('钱包 → 微信');
  await expect(figure(page, '收入')).toHaveText('¥0.00');
  await expect(figure(page, '支出')).toHaveText('¥0.00');
  await expect(figure(page, '结余')).toHaveText('¥0.00');

  const stats = await app.open('#/stats');
  await expect(stats.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥0.00');
  await expect(stats.getByTestId('total-income')).toHaveAttribute('aria-label', '收入 ¥0.00');
});

test('a transfer to someone outside the accounts names the counterparty', async ({ app }) => {
  const { page } = app;
  await page.getByRole('button', { name: '＋ 记一笔' }).click();
  await form(page).getByRole('radio', { name: '转账' }).check();
  await amount(page).fill('200');
  await form(page).getByRole('button', { name: '别人' }).click();
  await form(page).getByRole('combobox', { name: '对方' }).fill('张三');
  await form(page).getByRole('textbox', { name: '备注' }).fill('还给张三');
  await form(page).getByRole('textbox', { name: '备注' }).press('Enter');
  await expect(form(page)).toHaveCount(0);
  expect(rows(app).map((r) => [r.type, r.amountFen, r.counterparty, r.description])).toEqual([['TRANSFER', 20000, '张三', '还给张三']]);
  expect(balanceOf(app, '钱包')).toBe(-20000);
  await expect(figure(page, '支出')).toHaveText('¥0.00');
});

test('记一笔: spending marked 待报销, then 转账 → 别人 offers the five and records 借出 and 报销到账 with their links', async ({ app }) => {
  const { page } = app;
  await page.keyboard.press('Control+n');
  await amount(page).fill('80');
  await form(page)
    .getByRole('checkbox', { name: /待报销/ })
    .check();
  await form(page).getByRole('textbox', { name: '备注' }).fill('出差打车');
  await screenshots(page, 'entry-reimbursable');
  await form(page).getByRole('button', { name: '保存' }).click();
  await expect(form(page)).toHaveCount(0);
  expect(rows(app).map((r) => [r.type, r.amountFen, r.reimbursable])).toEqual([['EXPENSE', 80_00, true]]);
  // 待报销 is left out of net spending.
  await expect(figure(page, '支出')).toHaveText('¥0.00');

  await page.keyboard.press('Control+n');
  await form(page).getByRole('radio', { name: '转账' }).check();
  await amount(page).fill('1000');
  await form(page).getByRole('button', { name: '别人' }).click();
  const kinds = form(page).getByRole('group', { name: '这笔是' });
  await expect(kinds.getByRole('button')).toHaveText(['普通转账', '借出', '借入', '还款', '收回', '报销到账']);
  await kinds.getByRole('button', { name: '借出' }).click();
  await expect(form(page).getByRole('combobox', { name: '付款账户' })).toHaveValue('钱包');
  await expect(form(page).getByLabel('时间')).toHaveCount(0);
  await form(page).getByRole('combobox', { name: '对方' }).fill('小李');
  await screenshots(page, 'entry-flow-lend');
  await expectFits(page);
  await form(page).getByRole('button', { name: '保存' }).click();
  await expect(form(page)).toHaveCount(0);
  expect(rows(app)[0]).toMatchObject({ type: 'TRANSFER', flow: 'lend', person: '小李', amountFen: 1000_00, source: 'manual' });
  expect(app.ledger.findPerson('小李')?.balanceFen).toBe(1000_00);

  await page.keyboard.press('Control+n');
  await form(page).getByRole('radio', { name: '转账' }).check();
  await amount(page).fill('100');
  await form(page).getByRole('button', { name: '别人' }).click();
  await form(page).getByRole('group', { name: '这笔是' }).getByRole('button', { name: '报销到账' }).click();
  await expect(form(page).getByRole('combobox', { name: '对方' })).toHaveCount(0);
  await expect(form(page).getByRole('checkbox', { name: /出差打车/ })).toBeChecked();
  await expect(form(page).getByTestId('settle-outcome')).toHaveText('多出 ¥20.00');
  await screenshots(page, 'entry-flow-reimbursement');
  await expectFits(page);
  await form(page).getByRole('button', { name: '保存' }).click();
  await expect(form(page)).toHaveCount(0);
  expect(rows(app)[0]).toMatchObject({ type: 'INCOME', flow: 'reimbursement', amountFen: 100_00 });
  expect(app.ledger.pendingReimbursements().totalFen).toBe(0);
  // A reimbursement is not income.
  await expect(figure(page, '收入')).toHaveText('¥0.00');
});

test("'#/new' opens the form over the page the window showed and puts the hash back", async ({ app }) => {
  const { page } = app;
  await page.evaluate(() => (location.hash = '#/ledger'));
  await expect(page.getByRole('heading', { name: '明细' })).toBeVisible();
  await page.evaluate(() => (location.hash = '#/new'));
  await expect(form(page)).toBeVisible();
  await expect(page).toHaveURL(/#\/ledger$/);
  await expect(page.getByRole('heading', { name: '明细' })).toBeVisible();

  const fresh = await app.open('#/new');
  await expect(form(fresh)).toBeVisible();
  await expect(fresh).toHaveURL(/#\/home$/);
  await expect(overview(fresh)).toBeVisible();
});

test('首页 budget summary follows the ledger: green, amber at 80 %, red at 100 %', async ({ app }) => {
  const { page } = app;
  const budgets = page.getByRole('region', { name: '预算' });
  await expect(budgets).toContainText('本月还没有设置预算');
  await expect(budgets.getByRole('link', { name: '管理预算' })).toHaveAttribute('href', '#/budgets');

  // The page's month and day: the browser runs in Asia/Shanghai.
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
  const categories = await app.core.dispatch('listCategories', {});
  if (!categories.ok) throw new Error(categories.error.message);
  const food = (categories.value as { id: number; name: string; type: string }[]).find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
  const set = await app.core.dispatch('setBudgets', {
    month: today.slice(0, 7),
    items: [
      { categoryId: null, amountYuan: 1000 },
      { categoryId: food.id, amountYuan: 100 },
    ],
  });
  expect(set.ok).toBe(true);
  const spend = async (yuan: number) => {
    const added = await app.core.dispatch('addTransaction', { amountYuan: yuan, type: 'EXPENSE', category: '餐饮', date: today, time: '12:00' });
    expect(added.ok).toBe(true);
  };

  await spend(50);
  const foodGroup = budgets.getByRole('group', { name: '餐饮预算', exact: true });
  const foodBar = foodGroup.getByRole('progressbar');
  await expect(foodBar).toHaveAttribute('aria-valuetext', '已用 50%');
  await expect(foodGroup).toHaveAttribute('data-level', 'ok');
  await expect(budgets.getByRole('group', { name: '总预算', exact: true }).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '已用 5%');
  await spend(32);
  await expect(foodBar).toHaveAttribute('aria-valuetext', '已用 82%');
  await expect(foodGroup).toHaveAttribute('data-level', 'warn');
  await spend(20);
  await expect(foodBar).toHaveAttribute('aria-valuetext', '已用 102%');
  await expect(foodGroup).toHaveAttribute('data-level', 'over');
  await expect(figure(page, '支出')).toHaveText('¥102.00');
  await screenshots(page, 'home-budgets');
  await expectFits(page);
});

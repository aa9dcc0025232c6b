import type { Locator, Page } from '@playwright/test';
import { expect, go, overflowingElements, sayAndConfirm, screenshots, test } from './fixtures';

// The 预算 page and the budget alerts against the real ledger through the bridge: the batch
// editor by keyboard, expenses saved through the 记账 page's text entry crossing 80 % and
// 100 % (one banner line and one native notification each), the 首页 overview after each.

/** This month in the page's calendar (the fixture pins Asia/Shanghai). */
function shanghaiMonth(delta = 0): { ym: string; label: string } {
  const [y, m] = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' }).split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + delta, 1));
  return { ym: first.toISOString().slice(0, 7), label: `${first.getUTCFullYear()}年${first.getUTCMonth() + 1}月` };
}

const banner = (page: Page) => page.getByRole('status', { name: '预算提醒' });
const bannerLines = (page: Page) => banner(page).locator('.text');
const bar = (page: Page, name: string) =>
  page.getByRole('region', { name: '预算', exact: true }).getByRole('group', { name: `${name}预算`, exact: true });
const editor = (page: Page) => page.getByRole('form', { name: '编辑预算' });

async function expectBudget(page: Page, level: 'ok' | 'warn' | 'over', percent: number): Promise<void> {
  await go(page, 'budgets');
  await expect(bar(page, '餐饮')).toHaveAttribute('data-level', level);
  await expect(bar(page, '餐饮').locator('.percent')).toHaveText(new RegExp(`^${percent}%`));
  await expect(bar(page, '餐饮').getByRole('progressbar')).toHaveAttribute('aria-valuetext', `已用 ${percent}%`);
}

/**
 * The 首页 after a save: this month's 支出, and the 预算 card's 餐饮 bar with its percent (read
 * through the bar's ARIA value, whatever role and wording the card gives it).
 */
async function expectOverview(page: Page, expense: string, percent: number): Promise<void> {
  await go(page, 'home');
  const overview = page.getByRole('region', { name: '本月概览' });
  await expect(overview.locator('dt:text-is("支出") + dd')).toHaveText(expense);
  const card = page.getByRole('region', { name: '预算', exact: true });
  await expect(card).toContainText('餐饮');
  await expect(card).toContainText(`${percent}%`);
  await expect(card.locator('[aria-valuenow]')).toHaveAttribute('aria-valuenow', String(Math.min(percent, 100)));
}

async function expectFits(page: Page, region: Locator): Promise<void> {
  await expect(region).toBeVisible();
  expect(await overflowingElements(page, '[aria-label="预算"], [aria-label="预算"] li', 'x')).toEqual([]);
}

test('budgets: keyboard batch editor refuses 0 and negatives, alerts at 80 % and 100 % once each, next month inherits', async ({ app }) => {
  const { page } = app;
  const month = shanghaiMonth();
  await go(page, 'budgets');
  const budgets = page.getByRole('region', { name: '预算', exact: true });
  await expect(budgets.getByText(`${month.label}还没有预算。`)).toBeVisible();
  await expect(budgets.getByRole('group', { name: '月份' })).toContainText(month.label);

  // Keyboard only: the editor opens on 总预算, Tab reaches 餐饮, Enter saves.
  await budgets.getByRole('button', { name: '编辑预算' }).focus();
  await page.keyboard.press('Enter');
  await expect(editor(page).getByLabel('总预算（可选）')).toBeFocused();
  await page.keyboard.press('Tab');
  const food = editor(page).getByLabel('餐饮', { exact: true });
  await expect(food).toBeFocused();

  for (const [typed, error] of [
    ['0', '预算金额必须大于0'],
    ['-5', '预算金额不能为负数'],
  ] as const) {
    await food.fill(typed);
    await page.keyboard.press('Enter');
    await expect(food).toHaveAttribute('aria-invalid', 'true');
    await expect(editor(page).getByText(error)).toBeVisible();
    expect(app.ledger.budgetStatus(month.ym).source).toBeNull();
  }
  await screenshots(page, 'budgets-editor-refused');

  await food.fill('600+400');
  await page.keyboard.press('Enter');
  await expect(editor(page)).toHaveCount(0);
  await expect(budgets.getByRole('button', { name: '编辑预算' })).toBeFocused();
  expect(app.ledger.budgetStatus(month.ym).lines.map((l) => [l.category, l.budgetFen])).toEqual([['餐饮', 100_000]]);
  await expect(bar(page, '餐饮')).toContainText('已用 ¥0.00 / 预算 ¥1,000.00');
  await expect(bar(page, '餐饮')).toContainText('剩余 ¥1,000.00');
  await expect(bar(page, '餐饮')).toHaveAttribute('data-level', 'ok');

  // 820 of 1000: the 80 % threshold, once — banner and native notification.
  await sayAndConfirm(app, '午饭花了820');
  await expect(bannerLines(page)).toHaveText(['预算提醒：餐饮本月已用 82%']);
  await expect.poll(() => app.notifications.length).toBe(1);
  expect(app.notifications[0]).toEqual({ title: '预算提醒', body: '餐饮本月已用 82%，已用 820 元，预算 1000 元' });
  await expect(banner(page).getByRole('link', { name: '查看预算' })).toHaveAttribute('href', '#/budgets');
  await expectBudget(page, 'warn', 82);
  await expect(bar(page, '餐饮')).toContainText('剩余 ¥180.00');
  await expectFits(page, budgets);
  await screenshots(page, 'budgets-alert-80');
  await expectOverview(page, '¥820.00', 82);

  // 870: still between 80 and 99 %, nothing new.
  await sayAndConfirm(app, '早饭花了50');
  await expectBudget(page, 'warn', 87);
  await expect(bannerLines(page)).toHaveText(['预算提醒：餐饮本月已用 82%']);
  expect(app.notifications).toHaveLength(1);
  await expectOverview(page, '¥870.00', 87);

  // 1070: the 100 % threshold, once.
  await sayAndConfirm(app, '晚饭花了200');
  await expect(bannerLines(page)).toHaveText(['预算提醒：餐饮本月已用 82%', '预算提醒：餐饮本月已用 107%']);
  await expect.poll(() => app.notifications.length).toBe(2);
  expect(app.notifications[1]?.body).toBe('餐饮本月已用 107%，已用 1070 元，预算 1000 元');
  await expect(banner(page).locator('[data-threshold="100"]')).toHaveCount(1);
  await expectBudget(page, 'over', 107);
  await expect(bar(page, '餐饮')).toContainText('超出 ¥70.00');
  await screenshots(page, 'budgets-over');
  await expectOverview(page, '¥1,070.00', 107);

  // A closed line stays closed.
  await banner(page).getByRole('button', { name: '关闭提醒：餐饮本月已用 82%' }).click();
  await expect(bannerLines(page)).toHaveText(['预算提醒：餐饮本月已用 107%']);

  // Next month has no budgets of its own: it takes this month's.
  await go(page, 'budgets');
  await budgets.getByRole('button', { name: '下个月' }).click();
  await expect(budgets.getByRole('group', { name: '月份' })).toContainText(shanghaiMonth(1).label);
  await expect(budgets.getByText(`沿用 ${month.label}的预算`)).toBeVisible();
  await expect(bar(page, '餐饮')).toHaveAttribute('data-level', 'ok');
  await expect(bar(page, '餐饮')).toContainText('已用 ¥0.00 / 预算 ¥1,000.00');
  await screenshots(page, 'budgets-next-month-inherited');
});

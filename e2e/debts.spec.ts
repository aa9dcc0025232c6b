import type { Page } from '@playwright/test';
import { expect, go, overflowingElements, sayAndConfirm, screenshots, test, type AppHarness, ledgerRows } from './fixtures';

// The 借贷与报销 page against the real ledger through the bridge: the five flows recorded by
// hand, each person's ledger with its running balance, a write-off behind its question and
// undone, 报销到账 paying the ticked 待报销 in part; a credit card and a linked refund.

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** Opens one of the page's five buttons, fills the form and saves; waits for the row. */
async function record(app: AppHarness, flow: string, fill: { who?: string; amount: string; note?: string }, shot?: string) {
  const { page } = app;
  const before = app.ledger.count();
  await page.getByRole('group', { name: '手动记一笔' }).getByRole('button', { name: flow, exact: true }).click();
  const form = dialog(page, flow);
  await expect(form).toBeVisible();
  if (fill.who !== undefined) await form.getByRole('combobox', { name: '对方' }).fill(fill.who);
  await form.getByRole('textbox', { name: '金额' }).fill(fill.amount);
  if (fill.note) await form.getByRole('textbox', { name: '备注' }).fill(fill.note);
  if (shot) {
    await expect(form).toContainText('= ¥');
    await screenshots(page, shot);
    expect(await overflowingElements(page, '[role="dialog"]', 'xy')).toEqual([]);
  }
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form).toHaveCount(0);
  await expect.poll(() => app.ledger.count()).toBe(before + 1);
}

test('借贷 by hand: 借出 / 收回 / 借入 / 还款 from the page, a person’s ledger with its running balance and 已还清, a write-off behind a question, undone', async ({
  app,
}) => {
  const { page } = app;
  await go(page, 'debts');
  await expect(page.getByRole('region', { name: '借贷', exact: true })).toContainText('还没有借贷');

  await record(app, '借出', { who: '小李', amount: '1000', note: '周转' }, 'debts-form-lend');
  await expect(page.getByRole('status').filter({ hasText: '已记：借给小李 ¥1,000.00' })).toBeVisible();
  // 收回 offers the people who owe the user, and says what they owe once named.
  await page.getByRole('group', { name: '手动记一笔' }).getByRole('button', { name: '收回', exact: true }).click();
  const collect = dialog(page, '收回');
  await expect(collect.locator('datalist option')).toHaveCount(1);
  await collect.getByRole('combobox', { name: '对方' }).fill('小李');
  await expect(collect).toContainText('小李现在欠你 ¥1,000.00');
  await collect.getByRole('textbox', { name: '金额' }).fill('300');
  await expect(collect.getByRole('combobox', { name: '收款账户' })).toHaveValue('钱包');
  await screenshots(page, 'debts-form-collect');
  await collect.getByRole('button', { name: '保存' }).click();
  await expect(collect).toHaveCount(0);
  await record(app, '借入', { who: '我哥', amount: '3000' }, 'debts-form-borrow');
  await record(app, '还款', { who: '我哥', amount: '3000' }, 'debts-form-repay');

  // A debt names someone: the form says so and saves nothing.
  await page.getByRole('group', { name: '手动记一笔' }).getByRole('button', { name: '借出', exact: true }).click();
  await dialog(page, '借出').getByRole('textbox', { name: '金额' }).fill('50');
  await dialog(page, '借出').getByRole('button', { name: '保存' }).click();
  await expect(dialog(page, '借出').getByRole('alert')).toHaveText('请填写是谁，例如：小李');
  await page.keyboard.press('Escape');
  await expect(dialog(page, '借出')).toHaveCount(0);

  expect(app.ledger.list({ limit: 10 }).rows.map((r) => [r.flow, r.person, r.amountFen, r.source, r.date])).toEqual([
    ['repay', '我哥', 3000_00, 'manual', today()],
    ['borrow', '我哥', 3000_00, 'manual', today()],
    ['collect', '小李', 300_00, 'manual', today()],
    ['lend', '小李', 1000_00, 'manual', today()],
  ]);
  const debts = page.getByRole('region', { name: '借贷', exact: true });
  await expect(debts.getByTestId('owed-to-me')).toHaveText('¥700.00');
  await expect(debts.getByTestId('i-owe')).toHaveText('¥0.00');
  await expect(debts.getByRole('button', { name: '小李，欠我 ¥700.00' })).toBeVisible();
  await screenshots(page, 'debts-people');

  await debts.getByRole('button', { name: '我哥，已还清' }).click();
  await expect(debts.getByTestId('settled')).toHaveText('已还清');
  await expect(debts.getByRole('button', { name: /记为坏账/ })).toHaveCount(0);
  const brother = debts.getByRole('table', { name: '我哥的往来' });
  await expect(brother.getByRole('row')).toHaveText([/日期往来金额余额/, /还给我哥\+¥3,000\.00已还清/, /向我哥借−¥3,000\.00我欠 ¥3,000\.00/]);

  await debts.getByRole('button', { name: '小李，欠我 ¥700.00' }).click();
  const li = debts.getByRole('table', { name: '小李的往来' });
  await expect(li.getByRole('row')).toHaveText([
    /日期往来金额余额/,
    /今天从小李收回−¥300\.00欠我 ¥700\.00/,
    /今天借给小李 · 周转\+¥1,000\.00欠我 ¥1,000\.00/,
  ]);
  // 收回 comes first; the write-off is the last thing offered.
  const actions = debts.locator('.detail button');
  await expect(actions.first()).toHaveText('收回');
  await expect(actions.last()).toHaveText('收不回来了？记为坏账…');
  await screenshots(page, 'debts-person-ledger');
  expect(await overflowingElements(page, '[aria-label="借贷"] li, [aria-label="借贷"] table', 'x')).toEqual([]);

  await actions.last().click();
  const ask = page.getByRole('alertdialog', { name: '记为坏账' });
  await expect(ask).toContainText('把小李欠你的 ¥700.00 记为坏账：计入今天的支出（分类「其他」），不动任何账户的余额；小李的欠款清零。可以撤销。');
  await expect(ask.getByRole('button', { name: '取消' })).toBeFocused();
  await ask.getByLabel('记为坏账的金额（元）').fill('200');
  await expect(ask).toContainText('小李还欠你 ¥500.00');
  await ask.getByLabel('记为坏账的金额（元）').fill('700');
  await screenshots(page, 'debts-writeoff-confirm');
  await ask.getByRole('button', { name: '取消' }).click();
  await expect(ask).toHaveCount(0);
  expect(app.ledger.findPerson('小李')?.balanceFen).toBe(700_00);

  await actions.last().click();
  await ask.getByRole('button', { name: '记为坏账' }).click();
  await expect(ask).toHaveCount(0);
  const toast = page.getByRole('status').filter({ hasText: '已把小李的 ¥700.00 记为坏账' });
  await expect(toast).toBeVisible();
  await expect(debts.getByTestId('settled')).toHaveText('已还清');
  await expect(li.getByRole('row').nth(1)).toHaveText(/记为坏账−¥700\.00已还清/);
  expect(app.ledger.findPerson('小李')?.balanceFen).toBe(0);
  expect(app.ledger.monthSummary(today().slice(0, 7)).expenseFen).toBe(700_00);
  await screenshots(page, 'debts-writeoff-done');

  await toast.getByRole('button', { name: '撤销' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已撤销：记账 1 笔' })).toBeVisible();
  await expect(debts.getByTestId('owed-to-me')).toHaveText('¥700.00');
  expect(app.ledger.findPerson('小李')?.balanceFen).toBe(700_00);
  expect(app.ledger.monthSummary(today().slice(0, 7)).expenseFen).toBe(0);
});

test('报销到账 by hand: the oldest 待报销 ticked as far as the money reaches, the last paid in part (还差), ticks changed (多出), 待报销 settled', async ({
  app,
}) => {
  const { page } = app;
  const spend = async (amountYuan: number, date: string, note: string) => {
    const added = await app.core.dispatch('addTransaction', {
      amountYuan,
      type: 'EXPENSE',
      category: '交通',
      date,
      time: '09:00',
      note,
      reimbursable: true,
    });
    expect(added.ok).toBe(true);
  };
  await spend(80, daysAgo(3), '出差打车');
  await spend(600, daysAgo(2), '出差酒店');
  await spend(50, daysAgo(1), '出差餐补');
  await go(page, 'debts');
  const pending = page.getByRole('region', { name: '待报销' });
  await expect(pending.getByTestId('pending-total')).toHaveText('¥730.00');
  await screenshots(page, 'debts-pending');

  await page.getByRole('group', { name: '手动记一笔' }).getByRole('button', { name: '报销到账', exact: true }).click();
  const form = dialog(page, '报销到账');
  const outcome = form.getByTestId('settle-outcome');
  await expect(outcome).toHaveText('输入金额后，会从最早的一笔开始勾选。');
  await form.getByRole('textbox', { name: '金额' }).fill('500');
  const tick = (what: string) => form.getByRole('checkbox', { name: new RegExp(what) });
  await expect(tick('出差打车')).toBeChecked();
  await expect(tick('出差酒店')).toBeChecked();
  await expect(tick('出差餐补')).not.toBeChecked();
  await expect(outcome).toHaveText('还差 ¥180.00');
  await expect(form).toContainText('本次付 ¥420.00，余下 ¥180.00');
  await screenshots(page, 'debts-settle-form');

  // The user's own ticks: the amount no longer moves them, the outcome follows them.
  await tick('出差餐补').check();
  await expect(outcome).toHaveText('还差 ¥230.00');
  await tick('出差酒店').uncheck();
  await expect(outcome).toHaveText('多出 ¥370.00');
  await form.getByRole('textbox', { name: '金额' }).fill('130');
  await expect(outcome).toHaveText('正好结清勾选的 2 笔');
  await form.getByRole('textbox', { name: '金额' }).fill('500');
  await tick('出差酒店').check();
  await tick('出差餐补').uncheck();
  await expect(outcome).toHaveText('还差 ¥180.00');
  await screenshots(page, 'debts-settle-ticks');
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '已记：报销到账 ¥500.00' })).toBeVisible();

  await expect(pending.getByTestId('pending-total')).toHaveText('¥230.00');
  await expect(pending.getByRole('listitem')).toHaveText([/出差酒店\s*已报销 ¥420\.00，还差\s*¥180\.00/, /出差餐补\s*交通\s*¥50\.00/]);
  await screenshots(page, 'debts-settled');
  expect(await overflowingElements(page, '[aria-label="待报销"] li', 'x')).toEqual([]);
  const month = today().slice(0, 7);
  // A reimbursement is never income; 待报销 stays out of net spending.
  expect(app.ledger.monthSummary(month)).toMatchObject({ incomeFen: 0, expenseFen: 0 });

  // 200 more, only the hotel ticked: it is paid off and 20 is left over.
  await pending.getByRole('button', { name: '报销到账' }).click();
  await form.getByRole('textbox', { name: '金额' }).fill('200');
  await expect(outcome).toHaveText('还差 ¥30.00');
  await tick('出差餐补').uncheck();
  await expect(outcome).toHaveText('多出 ¥20.00');
  await form.getByRole('button', { name: '保存' }).click();
  await expect(pending.getByTestId('pending-total')).toHaveText('¥50.00');
  await expect(pending.getByRole('listitem')).toHaveText([/出差餐补\s*交通\s*¥50\.00/]);
  await screenshots(page, 'debts-settled-rest');

  // Undo of the payment brings what it paid back to waiting.
  await page.getByRole('status').getByRole('button', { name: '撤销' }).click();
  await expect(pending.getByTestId('pending-total')).toHaveText('¥230.00');
});

test('a credit card: terms set on 分类与账户, its debt shown as 欠款, a repayment said aloud is a transfer', async ({ app }) => {
  const { page } = app;
  app.ledger.addAccount('招行信用卡', -3000_00);
  await go(page, 'categories');
  const accounts = page.getByRole('region', { name: '账户', exact: true });
  await accounts.getByRole('button', { name: '信用卡设置 招行信用卡' }).click();
  const terms = accounts.getByRole('form', { name: '信用卡设置 招行信用卡' });
  await terms.getByLabel('还款日（每月）').fill('32');
  await terms.getByRole('button', { name: '设为信用卡' }).click();
  await expect(accounts.getByRole('alert')).toHaveText('账单日和还款日应为每月1–31日');
  await terms.getByLabel('账单日（每月）').fill('5');
  await terms.getByLabel('还款日（每月）').fill('23');
  await terms.getByRole('button', { name: '设为信用卡' }).click();
  const card = accounts.getByRole('listitem', { name: '招行信用卡' });
  await expect(card).toContainText('信用卡');
  await expect(card).toContainText('23日还款');
  await expect(card.getByLabel('余额 欠款 ¥3,000.00')).toBeVisible();
  expect(app.ledger.listAccounts().find((a) => a.name === '招行信用卡')).toMatchObject({ kind: 'credit', statementDay: 5, dueDay: 23 });

  await sayAndConfirm(app, '还信用卡两千');
  await go(page, 'categories');
  await expect(card.getByLabel('余额 欠款 ¥1,000.00')).toBeVisible();
  await accounts.scrollIntoViewIfNeeded();
  await screenshots(page, 'credit-card');
});

test('a refund linked to its expense in 明细, relinked in the editor; 统计 nets it, and counts 待报销 only when asked', async ({ app }) => {
  const { page } = app;
  await sayAndConfirm(app, '淘宝买鞋五百');
  await sayAndConfirm(app, '买衣服四百');
  await sayAndConfirm(app, '出差打车八十可以报销');
  await sayAndConfirm(app, '淘宝买鞋那笔退了三百');

  await go(page, 'ledger');
  const refundRow = ledgerRows(page).filter({ hasText: /退款 · .*淘宝买鞋 ¥500\.00/ });
  await expect(refundRow).toHaveCount(1);
  await expect(ledgerRows(page).filter({ hasText: '待报销' })).toHaveCount(1);
  await screenshots(page, 'refund-linked');

  await refundRow.getByRole('button', { name: /^编辑/ }).click();
  const editor = page.getByRole('form', { name: '编辑记录' });
  const picker = editor.getByLabel('退的是哪一笔');
  await expect(picker.locator('option', { hasText: '买衣服' })).toHaveCount(1);
  await picker.selectOption({ label: (await picker.locator('option', { hasText: '买衣服' }).textContent())!.trim() });
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(ledgerRows(page).filter({ hasText: /退款 · .*买衣服 ¥400\.00/ })).toHaveCount(1);
  const coat = app.ledger.list({}).rows.find((r) => r.description.includes('衣服'))!;
  expect(app.ledger.list({}).rows.find((r) => r.flow === 'refund')).toMatchObject({ refundOf: coat.id, category: coat.category });

  await go(page, 'stats');
  // 500 + 400 - 300 refunded; the 80 to be reimbursed only with 含待报销.
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥600.00');
  await page.getByRole('checkbox', { name: '含待报销' }).check();
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥680.00');
  await go(page, 'home');
  await expect(page.getByRole('checkbox', { name: '含待报销' })).toBeChecked();
  await page.getByRole('checkbox', { name: '含待报销' }).uncheck();
  await go(page, 'stats');
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥600.00');
});

import { expect, go, overflowingElements, sayAndConfirm, screenshots, test } from './fixtures';

// The 借贷与报销 page against the real ledger through the bridge: a loan, a repayment and a
// 待报销 expense said through the 记账 page's text entry, then the people's balances, one
// person's history, a write-off of what will never come back, and the 待报销 total.

test('借贷与报销: balances per person with their history, a write-off, and what is still to be reimbursed', async ({ app }) => {
  const { page } = app;
  await sayAndConfirm(app, '借给小李一千');
  await sayAndConfirm(app, '小李还了我三百');
  await sayAndConfirm(app, '跟我哥借了三千');
  await sayAndConfirm(app, '出差打车八十可以报销');

  await go(page, 'debts');
  const debts = page.getByRole('region', { name: '借贷', exact: true });
  await expect(debts.getByTestId('owed-to-me')).toHaveText('¥700');
  await expect(debts.getByTestId('i-owe')).toHaveText('¥3000');
  await expect(debts.getByRole('button', { name: '我哥，我欠 ¥3000' })).toBeVisible();
  await expect(page.getByRole('region', { name: '待报销' }).getByTestId('pending-total')).toHaveText('¥80');

  await debts.getByRole('button', { name: '小李，欠我 ¥700' }).click();
  const history = debts.getByRole('list', { name: '小李的往来' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history).toContainText('借给小李');
  await expect(history).toContainText('小李还款');
  await screenshots(page, 'debts');

  const form = debts.getByRole('form', { name: '核销小李的坏账' });
  await form.getByLabel('收不回的金额（元）').fill('900');
  await form.getByRole('button', { name: '记为坏账' }).click();
  await expect(debts.getByRole('alert')).toHaveText('小李只欠 700.00 元');
  await form.getByLabel('收不回的金额（元）').fill('200');
  await form.getByRole('button', { name: '记为坏账' }).click();
  await expect(debts.getByTestId('owed-to-me')).toHaveText('¥500');
  await expect(history.getByRole('listitem')).toHaveCount(3);
  expect(app.ledger.people().people.find((p) => p.name === '小李')?.balanceFen).toBe(500_00);
  expect(await overflowingElements(page, '[aria-label="借贷"] li, [aria-label="待报销"] li', 'x')).toEqual([]);
  await screenshots(page, 'debts-writeoff');
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
  await expect(card.getByLabel('余额 欠款 ¥3000')).toBeVisible();
  expect(app.ledger.listAccounts().find((a) => a.name === '招行信用卡')).toMatchObject({ kind: 'credit', statementDay: 5, dueDay: 23 });

  await sayAndConfirm(app, '还信用卡两千');
  await go(page, 'categories');
  await expect(card.getByLabel('余额 欠款 ¥1000')).toBeVisible();
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
  const refundRow = page
    .getByRole('listbox', { name: '明细列表' })
    .getByRole('option')
    .filter({ hasText: /退款 · \d+月\d+日淘宝买鞋 ¥500/ });
  await expect(refundRow).toHaveCount(1);
  await expect(page.getByRole('listbox', { name: '明细列表' }).getByRole('option').filter({ hasText: '待报销' })).toHaveCount(1);
  await screenshots(page, 'refund-linked');

  await refundRow.getByRole('button', { name: /^编辑/ }).click();
  const editor = page.getByRole('form', { name: '编辑记录' });
  const picker = editor.getByLabel('退的是哪一笔');
  await expect(picker.locator('option', { hasText: '买衣服' })).toHaveCount(1);
  await picker.selectOption({ label: (await picker.locator('option', { hasText: '买衣服' }).textContent())!.trim() });
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(
    page
      .getByRole('listbox', { name: '明细列表' })
      .getByRole('option')
      .filter({ hasText: /退款 · \d+月\d+日买衣服 ¥400/ }),
  ).toHaveCount(1);
  const coat = app.ledger.list({}).rows.find((r) => r.description.includes('衣服'))!;
  expect(app.ledger.list({}).rows.find((r) => r.flow === 'refund')).toMatchObject({ refundOf: coat.id, category: coat.category });

  await go(page, 'stats');
  // 500 + 400 - 300 refunded; the 80 to be reimbursed only with 含待报销.
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥600');
  await page.getByRole('checkbox', { name: '含待报销' }).check();
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥680');
  await go(page, 'home');
  await expect(page.getByRole('checkbox', { name: '含待报销' })).toBeChecked();
  await page.getByRole('checkbox', { name: '含待报销' }).uncheck();
  await go(page, 'stats');
  await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', '支出 ¥600');
});

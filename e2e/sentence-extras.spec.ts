import { expect, go, screenshots, test, ledgerRows } from './fixtures';

// What a sentence says beyond the entry, through the real app core: a recurring rule shown on
// the card and saved as a rule with this month's entry.

test("周期记账 by voice: the card shows the rule, confirming saves the rule and this month's entry", async ({ app }) => {
  const { page } = app;
  await go(page, 'session');
  const box = page.getByRole('textbox', { name: '文字输入' });
  // The 1st has come in every month, so this month's entry is due whatever today is.
  await box.fill('每个月一号交房租三千');
  await box.press('Enter');
  const card = page.getByRole('region', { name: '确认卡片' });
  await expect(card.getByText('周期')).toBeVisible();
  await expect(card).toContainText('每月1日');
  await expect(card).toContainText('住房');
  await screenshots(page, 'voice-rule-card');

  await box.fill('确认');
  await box.press('Enter');
  await expect.poll(() => app.ledger.recurringRules().length).toBe(1);
  // One line for the save in the card's words, then what the reply adds: the rule it made.
  const log = page.getByRole('list', { name: '对话记录' });
  await expect(log.locator('li[data-kind="saved"]')).toHaveText(/^已保存\s*1 笔：支出 ¥3,000\.00 · 交房租\s*$/);
  await expect(log.locator('li[data-kind="app"]').last()).toHaveText(/^随口记\s*已设为周期记账：每月1日交房租/);
  await expect(log.locator('li[data-kind="app"]', { hasText: '已保存' })).toHaveCount(0);
  const [rule] = app.ledger.recurringRules();
  expect(rule).toMatchObject({ label: '每月1日', amountFen: 3000_00, createdCount: 1 });
  const rows = app.ledger.list({}).rows;
  expect(rows.map((r) => [r.date.slice(8), r.amountFen, r.source])).toEqual([['01', 3000_00, 'recurring']]);

  await go(page, 'ledger');
  const list = ledgerRows(page);
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText('交房租');
});

test('a tag and a sub-category said with an entry: 明细 shows 「餐饮 › 早餐」 and the tag', async ({ app }) => {
  const { page } = app;
  const meals = app.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
  app.ledger.addCategory('早餐', 'EXPENSE', meals.id);
  await go(page, 'session');
  const box = page.getByRole('textbox', { name: '文字输入' });
  await box.fill('早饭包子八块标签出差');
  await box.press('Enter');
  const card = page.getByRole('region', { name: '确认卡片' });
  await expect(card).toContainText('早餐');
  await expect(card).toContainText('#出差');
  await box.fill('确认');
  await box.press('Enter');
  await expect.poll(() => app.ledger.count()).toBe(1);
  expect(app.ledger.list({}).rows[0]).toMatchObject({ category: '早餐', parentCategory: '餐饮', tags: ['出差'] });

  await go(page, 'ledger');
  const row = ledgerRows(page).first();
  await expect(row.locator('.category')).toHaveText('餐饮 › 早餐');
  await expect(row.getByLabel('标签：出差')).toBeVisible();
});

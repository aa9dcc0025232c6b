import { formatDate } from '@shared/display';
import { localDate, systemNow } from '@shared/time';
import { expect, go, overflowingElements, screenshots, test, ledgerRows } from './fixtures';

// 周期记账 against the real app core through the bridge: a monthly rule made in the page is
// due today, so its entry is made at once, and exactly once however often catch-up runs.

test('周期记账: a monthly rule from the page makes today’s entry once; pause, edit, delete', async ({ app }) => {
  const { page } = app;
  const today = localDate(systemNow());
  await go(page, 'recurring');
  const region = page.getByRole('region', { name: '周期记账' });
  await expect(region.getByText('还没有周期记账规则。')).toBeVisible();

  // The form starts monthly on today's day, from today: due at once.
  await region.getByRole('button', { name: '新建规则' }).click();
  const dialog = page.getByRole('dialog', { name: '新建规则' });
  await dialog.getByLabel('金额').fill('3000');
  await dialog.getByLabel('分类').selectOption('住房');
  await dialog.getByLabel('备注').fill('房租');
  await expect(dialog.getByLabel('重复')).toHaveValue('month');
  await screenshots(page, 'recurring-dialog');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();

  const rule = region.getByRole('listitem', { name: '房租' });
  const day = Number(today.slice(8, 10));
  await expect(rule).toContainText(`每月${day}日 · 住房 · ¥3,000.00`);
  const [stored] = app.ledger.recurringRules();
  const next = stored!.nextDate!;
  expect(next > today).toBe(true);
  await expect(rule).toContainText(`下次 ${formatDate(next, today)}`);
  await expect(rule).toContainText('自动记账');
  expect(await overflowingElements(page, '[aria-label="周期记账"], [aria-label="周期记账"] li', 'x')).toEqual([]);
  await screenshots(page, 'recurring-rules');

  // Today's entry is in 明细, once: another catch-up (the hourly one) makes nothing more.
  app.core.history.catchUpRecurring();
  await go(page, 'ledger');
  const rows = ledgerRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('房租');
  expect(app.ledger.list({}).rows.map((r) => [r.date, r.amountFen, r.source])).toEqual([[today, 3000_00, 'recurring']]);

  await go(page, 'recurring');
  await rule.getByRole('button', { name: '暂停' }).click();
  await expect(rule.getByRole('button', { name: '恢复' })).toBeVisible();
  await expect(rule.getByText('已暂停').first()).toBeVisible();
  expect(app.ledger.recurringRules()[0]!.paused).toBe(true);

  await rule.getByRole('button', { name: '编辑' }).click();
  const edit = page.getByRole('dialog', { name: '编辑规则' });
  await expect(edit.getByLabel('金额')).toHaveValue('3000');
  await edit.getByLabel('金额').fill('3200');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(rule).toContainText('¥3,200.00');
  expect(app.ledger.recurringRules()[0]).toMatchObject({ amountFen: 3200_00, nextDate: next, paused: true });

  await rule.getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog', { name: '删除规则「房租」？' }).getByRole('button', { name: '删除' }).click();
  await expect(region.getByText('还没有周期记账规则。')).toBeVisible();
  expect(app.ledger.recurringRules()).toEqual([]);
  // The entry it made stays.
  expect(app.ledger.count()).toBe(1);
});

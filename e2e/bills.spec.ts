import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatFen } from '@shared/money';
import { WECHAT_EXPECTED, wechatSheet } from '../test/support/bill-fixtures';
import { xlsxOf } from '../test/support/xlsx-fixture';
import { expect, screenshots, test } from './fixtures';

// A new user's first import: WeChat Pay's .xlsx bill chosen in the open dialog, its preview
// (lines left out by reason, refunds netted, the figures 统计 will show), then a category
// changed on an imported row and the merchant rule that follows from it in 设置.

const toast = (page: Page) => page.getByRole('status').filter({ has: page.getByRole('button', { name: '关闭提示' }) });
/** Money as the app shows it: ¥1399, ¥446.20. */
const yuan = (fen: number) => `¥${formatFen(fen)}`;

test('a WeChat .xlsx bill: preview with what is left out and why, import, and the merchant rule a change makes', async ({ app }) => {
  const bill = join(app.dataDir, '微信支付账单(20260301-20260331).xlsx');
  writeFileSync(bill, await xlsxOf(wechatSheet()));
  const page = await app.open('#/ledger');
  app.dialogs.openFile = bill;
  await page.getByRole('button', { name: '导入账单' }).click();

  const dialog = page.getByRole('dialog', { name: '导入预览' });
  const summary = dialog.getByRole('list', { name: '导入概要' });
  await expect(summary).toContainText('微信支付账单（Excel 工作簿）');
  await expect(summary).toContainText(`共 ${WECHAT_EXPECTED.rows} 笔，将导入 ${WECHAT_EXPECTED.rows} 笔`);
  const skipped = dialog.getByRole('list', { name: '略过不计收支' });
  await expect(skipped.getByRole('listitem')).toHaveCount(WECHAT_EXPECTED.skipped.length);
  await expect(skipped).toContainText('全额退款（与原订单相抵） 2 笔');
  await expect(skipped).toContainText('提现、充值 1 笔');
  await expect(skipped).toContainText('零钱通、余额宝、理财 1 笔');
  await expect(skipped).toContainText('信用卡、花呗、白条还款 1 笔');
  await expect(summary).toContainText(`退款冲抵 ${WECHAT_EXPECTED.refunds.count} 笔，共 ${yuan(WECHAT_EXPECTED.refunds.fen)}`);
  await expect(summary).toContainText(`支出 ${yuan(WECHAT_EXPECTED.expenseFen)} · 收入 ${yuan(WECHAT_EXPECTED.incomeFen)}`);
  // The canteen at a university named 交通大学 is a meal, and the partial refund shows as 退款.
  await expect(dialog.getByRole('row', { name: /上海交通大学第一食堂/ })).toContainText('餐饮');
  await expect(dialog.getByRole('row', { name: /退款-羽绒服/ })).toContainText('退款');
  await screenshots(page, 'import-bill-preview');

  await dialog.getByRole('button', { name: '确认导入' }).click();
  const skippedCount = WECHAT_EXPECTED.skipped.reduce((n, s) => n + s.count, 0);
  await expect(toast(page)).toContainText(`已导入 ${WECHAT_EXPECTED.rows} 笔，略过不计收支 ${skippedCount} 笔`);
  const expense = app.ledger.totals({ from: '2026-03-01', to: '2026-03-31', type: 'EXPENSE' }).totalFen;
  expect(expense).toBe(WECHAT_EXPECTED.expenseFen);

  // The user files the breakfast stall under 购物 once; later bills follow, as 设置 shows.
  const [breakfast] = app.ledger.search('早餐店');
  expect(breakfast).toBeDefined();
  app.ledger.updateTransaction(breakfast!.id, { category: '购物' });
  const settings = await app.open('#/settings');
  const rules = settings.getByRole('region', { name: '商户分类规则' });
  await expect(rules.getByRole('list', { name: '商户分类规则列表' })).toContainText('早餐店 → 购物（支出）');
  await rules.scrollIntoViewIfNeeded();
  await screenshots(settings, 'merchant-rules');
  await rules.getByRole('button', { name: '删除「早餐店」的支出规则' }).click();
  await expect(rules).toContainText('还没有规则。');
  expect(app.ledger.merchantRules()).toEqual([]);
});

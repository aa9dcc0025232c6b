import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatMoney } from '@shared/display';
import { meituanCsv, MEITUAN_EXPECTED, utf8Bom, WECHAT_EXPECTED, wechatSheet } from '../test/support/bill-fixtures';
import { xlsxOf } from '../test/support/xlsx-fixture';
import { expect, overflowingElements, screenshots, test } from './fixtures';

// A new user's first import: WeChat Pay's .xlsx bill chosen in the open dialog, its preview
// (every line counted once: to import, left out by reason, netted refunds; the figures 统计 will
// show), a row unticked and another re-filed with its merchant remembered before 确认导入, the
// merchant rule that follows in 设置, and the same bill chosen again after a row was deleted.

const toast = (page: Page) => page.getByRole('status').filter({ has: page.getByRole('button', { name: '关闭提示' }) });
/** Money as the app shows it: ¥1,399.00, ¥446.20. */
const yuan = (fen: number) => formatMoney(fen);
const MARCH = { from: '2026-03-01', to: '2026-03-31' };

test('a WeChat .xlsx bill: preview, a row left out and one re-filed, import, the merchant rule, and the bill again', async ({ app }) => {
  const bill = join(app.dataDir, '微信支付账单(20260301-20260331).xlsx');
  writeFileSync(bill, await xlsxOf(wechatSheet()));
  const page = await app.open('#/ledger');
  app.dialogs.openFile = bill;
  await page.getByRole('button', { name: '导入账单' }).click();

  const { lines, toImport, skipped, netted, expenseFen, incomeFen } = WECHAT_EXPECTED;
  const skippedCount = skipped.reduce((n, s) => n + s.count, 0);
  const dialog = page.getByRole('dialog', { name: '导入预览' });
  const summary = dialog.getByRole('list', { name: '导入概要' });
  await expect(summary).toContainText('微信支付账单（Excel 工作簿）');
  await expect(summary).toContainText(`共 ${lines} 笔：将导入 ${toImport} 笔 · 略过 ${skippedCount} 笔 · 退款冲抵 ${netted.count} 笔`);
  const reasons = dialog.getByRole('list', { name: '略过原因' });
  await expect(reasons.getByRole('listitem')).toHaveText(['零钱通、余额宝、理财 1 笔，¥1,000.00', '信用卡、花呗、白条还款 1 笔，¥500.00']);
  await expect(summary).toContainText(`退款冲抵 ${netted.count} 笔：全额退款或已关闭的订单与其退款相抵，共 ${yuan(netted.fen)}，不计入收支`);
  const totals = summary.getByRole('listitem').filter({ hasText: '导入后计入' });
  await expect(totals).toHaveText(`导入后计入支出 ${yuan(expenseFen)} · 收入 ${yuan(incomeFen)}（退款已从支出扣除，转账不计）`);
  await expect(dialog.getByRole('columnheader')).toHaveText(['导入', '日期', '类型', '分类', '金额', '账户', '备注']);
  // The canteen at a university named 交通大学 is a meal, and the partial refund shows as 退款.
  await expect(dialog.getByRole('row', { name: /上海交通大学第一食堂/ }).getByRole('combobox')).toHaveValue('餐饮');
  await expect(dialog.getByRole('row', { name: /退款-羽绒服/ })).toContainText('退款');
  await expect(dialog.getByRole('checkbox', { name: /^导入「/ })).toHaveCount(toImport);
  expect(await overflowingElements(page, '.dialog')).toEqual([]);
  await screenshots(page, 'import-bill-preview');

  // The ride was paid for the user by someone else: left out. The figures follow at once.
  const ride = dialog.getByRole('row', { name: /滴滴出行/ });
  await ride.getByRole('checkbox', { name: /^导入「/ }).uncheck();
  await expect(summary).toContainText(`共 ${lines} 笔：将导入 ${toImport - 1} 笔 · 取消勾选 1 笔 · 略过 ${skippedCount} 笔`);
  await expect(totals).toContainText(`导入后计入支出 ${yuan(expenseFen - 2340)} · 收入 ${yuan(incomeFen)}`);
  // The breakfast stall is filed under 购物, for this bill and the ones after it.
  const breakfast = dialog.getByRole('row', { name: /早餐店/ });
  await breakfast.getByRole('combobox', { name: /的分类$/ }).selectOption('购物');
  await breakfast.getByRole('checkbox', { name: '以后这个商户都记为此分类' }).check();

  await dialog.getByText('怎么导出账单').click();
  await expect(dialog.getByRole('list', { name: '各 App 导出账单的路径' }).getByRole('listitem')).toHaveText([
    /^微信：我 → 服务 → 钱包 → 账单/,
    /^支付宝：我的 → 账单 .*开具交易流水证明/,
    /^京东：我的 → 我的钱包 → 账单/,
    /^美团：我的 → 钱包 → 账单/,
  ]);

  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expect(toast(page)).toContainText(`已导入 ${WECHAT_EXPECTED.rows - 1} 笔`);
  await expect(dialog).toHaveCount(0);
  expect(app.ledger.count(MARCH)).toBe(WECHAT_EXPECTED.rows - 1);
  expect(app.ledger.totals({ ...MARCH, type: 'EXPENSE' }).totalFen).toBe(expenseFen - 2340);
  expect(app.ledger.search('滴滴出行')).toEqual([]);
  const [stall] = app.ledger.search('早餐店');
  expect(stall).toMatchObject({ category: '购物', amountFen: 800 });
  expect(app.ledger.merchantRules()).toEqual([expect.objectContaining({ merchant: '早餐店', type: 'EXPENSE', category: '购物' })]);

  const settings = await app.open('#/settings');
  const rules = settings.getByRole('region', { name: '商户分类规则' });
  await expect(rules.getByRole('list', { name: '商户分类规则列表' })).toContainText('早餐店 → 购物（支出）');
  await rules.scrollIntoViewIfNeeded();
  await screenshots(settings, 'merchant-rules');
  await rules.getByRole('button', { name: '删除「早餐店」的支出规则' }).click();
  await expect(rules).toContainText('还没有规则。');
  expect(app.ledger.merchantRules()).toEqual([]);

  // Next month the user picks the same bill again, having deleted the breakfast meanwhile: only
  // the ride left out is offered; the rest is already in, the deleted row stays out unless ticked.
  app.ledger.deleteTransactions([stall!.id]);
  await page.getByRole('button', { name: '导入账单' }).click();
  await expect(summary).toContainText(
    `共 ${lines} 笔：将导入 1 笔 · 已导入过 ${toImport - 2} 笔 · 已删除过 1 笔 · 略过 ${skippedCount} 笔 · 退款冲抵 ${netted.count} 笔`,
  );
  await expect(breakfast).toContainText('已删除过');
  await expect(breakfast.getByRole('checkbox', { name: /^导入「/ })).not.toBeChecked();
  await expect(dialog.getByRole('row', { name: /上海交通大学第一食堂/ })).toContainText('已导入过');
  await expect(dialog.getByRole('row', { name: /上海交通大学第一食堂/ }).getByRole('checkbox')).toBeDisabled();
  await expect(ride.getByRole('checkbox', { name: /^导入「/ })).toBeChecked();
  await expect(totals).toContainText(`导入后计入支出 ${yuan(2340)} · 收入 ¥0.00`);
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toHaveCount(0);
  expect(app.ledger.count(MARCH)).toBe(WECHAT_EXPECTED.rows - 2);
});

test('a refund whose purchase is in no imported bill: imported as 「退款·待关联」, counting nothing, and marked so in 明细', async ({ app }) => {
  const bill = join(app.dataDir, '美团账单.csv');
  writeFileSync(bill, utf8Bom(meituanCsv()));
  const page = await app.open('#/ledger');
  app.dialogs.openFile = bill;
  await page.getByRole('button', { name: '导入账单' }).click();
  const dialog = page.getByRole('dialog', { name: '导入预览' });
  const coffee = dialog.getByRole('row', { name: /瑞幸咖啡/ });
  await expect(coffee).toContainText('退款·待关联');
  await expect(dialog.getByRole('list', { name: '导入概要' })).toContainText('待关联的退款暂不计');
  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expect(dialog).toHaveCount(0);
  expect(app.ledger.totals({ ...MARCH, type: 'EXPENSE' }).totalFen).toBe(MEITUAN_EXPECTED.expenseFen);

  const list = await app.open(`#/ledger?from=${MARCH.from}&to=${MARCH.to}`);
  const tag = list.getByText('退款 · 待关联');
  await expect(tag).toHaveCount(1);
  await expect(tag).toHaveAttribute('title', /导入含原订单的账单后自动关联，在此之前不计入支出/);
  await screenshots(list, 'ledger-awaiting-refund');
});

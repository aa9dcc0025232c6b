import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import readExcelFile from 'read-excel-file/node';
import { expect, screenshots, test, type AppHarness } from './fixtures';

// 明细's export and import through the shell's save and open dialogs, against the real
// handler table, ledger and file writer: the e2e harness answers the dialogs (a save lands
// in dialogs.saveDir under the suggested name) and the files are read back from disk.

/** Today's calendar day where the app runs (the fixture pins Asia/Shanghai). */
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** Two expenses, an income into the bank card and a transfer from it to 钱包, all today. */
function seed(app: AppHarness): string {
  const date = today();
  app.ledger.addAccount('招商银行');
  app.ledger.addTransaction({ amountFen: 3550, type: 'EXPENSE', category: '餐饮', date, time: '08:00', note: '午饭' });
  app.ledger.addTransaction({ amountFen: 400, type: 'EXPENSE', category: '交通', date, time: '09:00', note: '地铁' });
  app.ledger.addTransaction({ amountFen: 900_000, type: 'INCOME', category: '工资', date, time: '10:00', account: '招商银行' });
  app.ledger.addTransaction({ amountFen: 50_000, type: 'TRANSFER', date, time: '11:00', account: '招商银行', toAccount: '钱包', note: '取现' });
  return date;
}

/** The page's toast (the shell's budget banner is a status region too). */
const toast = (page: Page) => page.getByRole('status').filter({ has: page.getByRole('button', { name: '关闭提示' }) });

async function closeToast(page: Page) {
  await toast(page).getByRole('button', { name: '关闭提示' }).click();
  await expect(toast(page)).toHaveCount(0);
}

test.describe('export and import through the native dialogs', () => {
  test('Excel with both sheets, CSV of the filtered list, a cancelled save writes nothing', async ({ app }) => {
    const date = seed(app);
    const page = await app.open('#/ledger');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', '共 4 笔，支出 ¥39.50，收入 ¥9,000.00');

    await page.getByRole('button', { name: '导出 Excel' }).click();
    await expect(toast(page)).toContainText('已导出 4 笔：');
    expect(app.dialogs.saved).toHaveLength(1);
    const xlsx = app.dialogs.saved[0]!;
    expect(basename(xlsx)).toMatch(/^随口记_\d{8}_\d{6}\.xlsx$/);
    await expect(toast(page)).toContainText(xlsx);
    await screenshots(page, 'ledger-exported');

    const sheets = Object.fromEntries((await readExcelFile(xlsx)).map((s) => [s.sheet, s.data]));
    expect(Object.keys(sheets)).toEqual(['明细', '分类汇总']);
    expect(sheets['明细']).toEqual([
      ['日期', '时间', '类型', '分类', '金额', '账户', '转入账户/对方', '备注', '资金类型', '报销', '标签', '父分类', '附件'],
      [date, '08:00:00', '支出', '餐饮', 35.5, '钱包', null, '午饭', null, null, null, null, null],
      [date, '09:00:00', '支出', '交通', 4, '钱包', null, '地铁', null, null, null, null, null],
      [date, '10:00:00', '收入', '工资', 9000, '招商银行', null, null, null, null, null, null, null],
      [date, '11:00:00', '转账', '转账', 500, '招商银行', '钱包', '取现', null, null, null, null, null],
    ]);
    expect(sheets['分类汇总']).toEqual([
      ['类型', '分类', '笔数', '金额'],
      ['支出', '餐饮', 1, 35.5],
      ['支出', '交通', 1, 4],
      ['支出', '合计', 2, 39.5],
      ['收入', '工资', 1, 9000],
      ['收入', '合计', 1, 9000],
      ['转账', '转账', 1, 500],
      ['转账', '合计', 1, 500],
    ]);
    await closeToast(page);

    // CSV of what the list shows: the page's filter goes with the export.
    await page.getByRole('combobox', { name: '类型' }).selectOption('支出');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', '共 2 笔，支出 ¥39.50，收入 ¥0.00');
    await page.getByRole('button', { name: '导出 CSV' }).click();
    await expect(toast(page)).toContainText('已导出 2 笔：');
    const csv = app.dialogs.saved[1]!;
    expect(basename(csv)).toMatch(/^随口记_\d{8}_\d{6}\.csv$/);
    const lines = readFileSync(csv, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    // Each row ends with its money-flow columns (none here), its id, and its tags and parent category (none).
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('日期,时间,类型,分类,金额,账户,备注,转入账户,对方,资金类型,报销,编号,退款对应编号,报销到账编号,标签,父分类,附件');
    expect(lines[1]).toMatch(new RegExp(`^${date},08:00:00,支出,餐饮,35.50,钱包,午饭,,,,,[0-9a-f-]{36},,,,,$`));
    expect(lines[2]).toMatch(new RegExp(`^${date},09:00:00,支出,交通,4,钱包,地铁,,,,,[0-9a-f-]{36},,,,,$`));
    await closeToast(page);

    // The user closes the save dialog: nothing written, nothing said.
    app.dialogs.cancelNext();
    await page.getByRole('button', { name: '导出 Excel' }).click();
    await expect.poll(() => app.dialogs.suggested.length).toBe(3);
    await expect(page.getByRole('button', { name: '导出 Excel' })).toBeEnabled();
    expect(app.dialogs.saved).toHaveLength(2);
    expect(readdirSync(app.dialogs.saveDir).sort()).toEqual([basename(csv), basename(xlsx)].sort());
    await expect(toast(page)).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('import a bill chosen in the open dialog: preview, then import with 撤销', async ({ app }) => {
    const date = seed(app);
    const page = await app.open('#/ledger');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', /^共 4 笔/);

    // The user closes the open dialog: no preview.
    await page.getByRole('button', { name: '导入账单' }).click();
    await expect(page.getByRole('button', { name: '导入账单' })).toBeEnabled();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    const bill = join(app.dataDir, '我的账单.csv');
    writeFileSync(
      bill,
      `\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n${date},08:00:00,支出,餐饮,35.50,钱包,午饭\r\n${date},12:30:00,支出,购物,66.60,钱包,导入的台灯\r\n`,
    );
    app.dialogs.openFile = bill;
    await page.getByRole('button', { name: '导入账单' }).click();
    const dialog = page.getByRole('dialog', { name: '导入预览' });
    await expect(dialog).toContainText('导入 我的账单.csv');
    // Before anything is written: what the file is, what will be written, and what 统计 will count.
    const summary = dialog.getByRole('list', { name: '导入概要' });
    await expect(summary).toContainText('随口记 CSV（UTF-8）');
    await expect(summary).toContainText('共 2 笔：将导入 1 笔 · 已导入过 1 笔');
    await expect(summary).toContainText('支出 ¥66.60 · 收入 ¥0.00');
    // Our own CSV leaves no bill lines out.
    await expect(dialog.getByRole('list', { name: '略过原因' })).toHaveCount(0);
    await screenshots(page, 'import-preview');
    await dialog.getByRole('button', { name: '确认导入' }).click();
    await expect(toast(page)).toContainText('已导入 1 笔，已导入过的 1 笔未重复导入');
    expect(app.ledger.search('导入的台灯')).toHaveLength(1);
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', /^共 5 笔/);

    await toast(page).getByRole('button', { name: '撤销' }).click();
    await expect.poll(() => app.ledger.search('导入的台灯').length).toBe(0);
  });
});

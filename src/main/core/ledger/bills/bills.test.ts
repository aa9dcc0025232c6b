// Bills in every layout we read, through the app's own import (parse, preview, commit into a
// real SQLite ledger) and read back as 统计 counts them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import {
  ALIPAY_EXPECTED,
  ALIPAY_MONTH,
  alipay2021,
  alipayCurrent,
  alipayWeb,
  BANK_STATEMENTS,
  bankStatement,
  excelResavedCsv,
  gbk,
  JD_EXPECTED,
  jdCsv,
  MEITUAN_EXPECTED,
  meituanCsv,
  utf8,
  utf8Bom,
  WECHAT_EXPECTED,
  WECHAT_MONTH,
  wechatCsv,
  wechatSheet,
} from '../../../../../test/support/bill-fixtures';
import { excelResavedXlsx, xlsxOf } from '../../../../../test/support/xlsx-fixture';
import { writeExportFile } from '../export-file';
import { LedgerHistory, openLedger, type Ledger } from '../index';

const NOW = toZonedNow('2026-04-02T10:00:00+08:00');
let ledger: Ledger;
let history: LedgerHistory;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  history = new LedgerHistory(ledger);
});
afterEach(() => ledger.close());

interface Expected {
  format: string;
  lines: number;
  toImport: number;
  rows: number;
  expenseFen: number;
  incomeFen: number;
  skipped: readonly { reason: string; count: number; fen: number }[];
  netted: { count: number; fen: number };
}

/** What 统计 shows for March after the import. */
function march() {
  const expense = ledger.totals({ from: '2026-03-01', to: '2026-03-31', type: 'EXPENSE' }).totalFen;
  const income = ledger.totals({ from: '2026-03-01', to: '2026-03-31', type: 'INCOME' }).totalFen;
  return { expenseFen: expense, incomeFen: income };
}

async function importsExactly(bytes: Uint8Array, expected: Expected) {
  const preview = await history.previewImport(bytes);
  expect(preview).toMatchObject({
    format: expected.format,
    lines: expected.lines,
    toImport: expected.toImport,
    duplicates: 0,
    deleted: 0,
    skipped: expected.skipped,
    netted: expected.netted,
    expenseFen: expected.expenseFen,
    incomeFen: expected.incomeFen,
  });
  expect(preview.rows).toHaveLength(expected.rows);
  // Every line counted once.
  const skipped = expected.skipped.reduce((n, s) => n + s.count, 0);
  expect(preview.toImport + preview.duplicates + preview.deleted + skipped + preview.netted.count).toBe(preview.lines);
  const outcome = await history.importFile(bytes);
  expect(outcome).toEqual({
    format: expected.format,
    imported: expected.rows,
    skipped: skipped + expected.netted.count,
    duplicates: 0,
    deleted: 0,
  });
  // The preview's figures are what 统计 counts once the rows are in.
  expect(march()).toEqual({ expenseFen: expected.expenseFen, incomeFen: expected.incomeFen });
  // Importing the same bill again adds nothing.
  expect(await history.importFile(bytes)).toMatchObject({ imported: 0, duplicates: expected.toImport });
  expect(march()).toEqual({ expenseFen: expected.expenseFen, incomeFen: expected.incomeFen });
  return preview;
}

const rowsOf = () => ledger.list({ from: '2026-03-01', to: '2026-03-31', limit: 100 }).rows;

describe('Alipay', () => {
  it('reads today’s 电子客户回单 in GBK: a partial refund linked to its purchase, a closed purchase and its refund (marked 收入) left out together', async () => {
    await importsExactly(gbk(alipayCurrent()), ALIPAY_EXPECTED);
    const rows = rowsOf();
    const coat = rows.find((r) => r.description === '优衣库官方旗舰店 羽绒服')!;
    const refund = rows.find((r) => r.flow === 'refund')!;
    expect(refund).toMatchObject({ amountFen: 10000, refundOf: coat.id, category: '购物', account: '支付宝' });
    expect(rows.some((r) => r.type === 'INCOME' && r.amountFen === 99900)).toBe(false);
    const categories = Object.fromEntries(rows.map((r) => [r.description, r.category]));
    expect(categories).toMatchObject({
      '上海交通大学第一食堂 午餐': '餐饮',
      '滴滴出行 快车': '交通',
      '中国移动 话费充值': '账单',
      '张三 转账': '红包',
      '某某科技有限公司 二月工资': '工资',
    });
  });

  it('reads the 2021 app export (收/支 first, a neutral line’s 收/支 empty) to the same month', async () => {
    await importsExactly(gbk(alipay2021()), ALIPAY_EXPECTED);
  });

  it('reads the old web 交易记录明细查询: the refund column nets its purchase, a closed trade refunded in full is left out, a fee is spending', async () => {
    await importsExactly(gbk(alipayWeb()), {
      format: 'alipay',
      lines: 7,
      // The coat's line writes the coat and the refund its column states; the withdrawal's, its fee.
      toImport: 5,
      rows: 6,
      expenseFen: 49900 + 1550 + 2340 + 200 - 10000,
      incomeFen: 20000,
      skipped: [{ reason: 'closed', count: 1, fen: 990 }],
      netted: { count: 1, fen: 99900 },
    });
    const rows = rowsOf();
    const coat = rows.find((r) => r.description === '优衣库官方旗舰店 羽绒服' && !r.flow)!;
    expect(rows.find((r) => r.flow === 'refund')).toMatchObject({ amountFen: 10000, refundOf: coat.id, date: '2026-03-15' });
    expect(rows.find((r) => r.description.startsWith('服务费'))).toMatchObject({ type: 'EXPENSE', amountFen: 200 });
  });

  it('reads the same bill as UTF-8 with a BOM', async () => {
    await importsExactly(utf8Bom(alipayCurrent()), ALIPAY_EXPECTED);
  });
});

describe('WeChat Pay', () => {
  it('reads the CSV: a refund told by status and by its own line counted once, a transfer sent back and a full refund left out, the withdrawal’s fee kept', async () => {
    await importsExactly(utf8(wechatCsv()), WECHAT_EXPECTED);
    const rows = rowsOf();
    expect(rows.filter((r) => r.flow === 'refund')).toHaveLength(1);
    expect(rows.find((r) => r.description.startsWith('服务费'))).toMatchObject({ amountFen: 30, type: 'EXPENSE', account: '微信' });
    expect(rows.find((r) => r.description === '李四')).toMatchObject({ type: 'INCOME', category: '红包' });
    // No category in the bill: the merchant's and item's words, as whole words.
    const categories = Object.fromEntries(rows.map((r) => [r.description, r.category]));
    expect(categories).toMatchObject({
      '上海交通大学第一食堂 午餐': '餐饮',
      '滴滴出行 快车': '交通',
      '早餐店 收款方备注:二维码收款': '餐饮',
      '优衣库 羽绒服': '购物',
    });
  });
});

describe('WeChat Pay workbooks', () => {
  it('reads the .xlsx export: 交易时间 a date cell, the amount a number cell', async () => {
    const preview = await importsExactly(await xlsxOf(wechatSheet()), WECHAT_EXPECTED);
    expect(preview.encoding).toBe('xlsx');
    expect(rowsOf().find((r) => r.description === '滴滴出行 快车')).toMatchObject({
      occurredAt: '2026-03-09T08:00:00+08:00',
      amountFen: 2340,
      category: '交通',
    });
  });

  it.each([
    ['Excel’s own save (shared strings, serial dates)', {}],
    ['a Power Query table, times to the minute', { powerQueryHeader: true, dropSeconds: true }],
    ['WPS with a custom date format', { dateFormat: 'yyyy/m/d h:mm' }],
  ] as const)('reads the workbook re-saved: %s', async (_name, options) => {
    await importsExactly(excelResavedXlsx(wechatSheet(), options), WECHAT_EXPECTED);
  });

  it('refuses a workbook that is not a bill, and a damaged one, writing nothing', async () => {
    await expect(
      history.importFile(
        await xlsxOf([
          ['姓名', '年龄'],
          ['张三', 30],
        ]),
      ),
    ).rejects.toThrow(/无法识别的文件格式/);
    const damaged = (await xlsxOf(wechatSheet())).slice(0, 2000);
    await expect(history.importFile(damaged)).rejects.toThrow(/Excel|文件未导入任何记录/);
    expect(ledger.count()).toBe(0);
  });
});

describe('JD and Meituan', () => {
  it('reads a JD bill as JD’s, never as Alipay’s: refunds inside the amount cell and on their own lines counted once', async () => {
    await importsExactly(utf8Bom(jdCsv()), JD_EXPECTED);
    const rows = rowsOf();
    expect(new Set(rows.map((r) => r.account))).toEqual(new Set(['京东']));
    expect(rows.find((r) => r.description.includes('羽绒服') && !r.flow)).toMatchObject({ amountFen: 13177, category: '购物' });
    expect(rows.find((r) => r.description.includes('苹果 5斤'))).toMatchObject({ category: '餐饮' });
  });

  it('reads a Meituan bill: what was paid after discounts, a refund of an order in the bill left out with it, one of an earlier order kept as a refund', async () => {
    await importsExactly(utf8Bom(meituanCsv()), MEITUAN_EXPECTED);
    const refund = rowsOf().find((r) => r.flow === 'refund')!;
    expect(refund).toMatchObject({ amountFen: 1190, account: '美团' });
    const categories = Object.fromEntries(rowsOf().map((r) => [r.description, r.category]));
    expect(categories).toMatchObject({ '云南米线（某某店）': '餐饮', '打车 快车订单': '交通' });
  });

  it('nets a JD partial refund told only inside the amount cell', async () => {
    const text = jdCsv()
      .split('\n')
      .filter((l) => !l.includes('退款-'))
      .join('\n');
    const preview = await history.previewImport(utf8Bom(text));
    expect(preview).toMatchObject({ expenseFen: JD_EXPECTED.expenseFen, netted: { count: 1, fen: 46832 } });
  });
});

describe('files re-saved by Excel or WPS', () => {
  it.each([
    ['Alipay (GBK)', () => gbk(excelResavedCsv(alipayCurrent())), ALIPAY_EXPECTED],
    ['Alipay 2021 (UTF-8 BOM)', () => utf8Bom(excelResavedCsv(alipay2021())), ALIPAY_EXPECTED],
    ['WeChat (UTF-8 BOM)', () => utf8Bom(excelResavedCsv(wechatCsv())), WECHAT_EXPECTED],
    ['JD', () => utf8Bom(excelResavedCsv(jdCsv())), JD_EXPECTED],
    ['Meituan', () => utf8Bom(excelResavedCsv(meituanCsv())), MEITUAN_EXPECTED],
  ] as const)('%s: dates without seconds, ids quoted, padding gone — the same rows and sums', async (_name, bytes, expected) => {
    await importsExactly(bytes(), expected);
    for (const r of rowsOf()) expect(r.occurredAt).toMatch(/T\d{2}:\d{2}:00\+08:00$/);
  });
});

describe('our own workbook', () => {
  it('imports the .xlsx 随口记 exports: the same rows, refunds still refunds, the same figures', async () => {
    await history.importFile(gbk(alipayCurrent()));
    await history.importFile(utf8(wechatCsv()));
    const dir = mkdtempSync(join(tmpdir(), 'skj-own-xlsx-'));
    try {
      const path = join(dir, 'export.xlsx');
      await writeExportFile(ledger, 'xlsx', {}, path);
      const target = openLedger({ path: ':memory:', now: () => NOW });
      const preview = await new LedgerHistory(target).previewImport(readFileSync(path));
      expect(preview).toMatchObject({
        format: 'suikouji',
        encoding: 'xlsx',
        lines: ledger.count(),
        toImport: ledger.count(),
        duplicates: 0,
        skipped: [],
      });
      expect(await new LedgerHistory(target).importFile(readFileSync(path))).toMatchObject({ imported: ledger.count() });
      const figures = (l: Ledger) =>
        ['EXPENSE', 'INCOME'].map((type) => l.totals({ from: '2026-03-01', to: '2026-03-31', type: type as 'EXPENSE' }).totalFen);
      expect(figures(target)).toEqual(figures(ledger));
      const shape = (l: Ledger) =>
        l
          .list({ limit: 100 })
          .rows.map((r) => [r.occurredAt, r.type, r.category, r.amountFen, r.account, r.description, r.flow ?? null])
          .sort();
      expect(shape(target)).toEqual(shape(ledger));
      target.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what is not a bill', () => {
  it('refuses a bank statement as such and writes nothing', async () => {
    await expect(history.previewImport(utf8(bankStatement()))).rejects.toThrow(/这是银行流水，暂不支持/);
    await expect(history.importFile(gbk(bankStatement()))).rejects.toThrow(/这是银行流水，暂不支持.*文件未导入任何记录/);
    expect(ledger.count()).toBe(0);
  });

  it.each(BANK_STATEMENTS)('refuses %s as a bank statement', async (_name, text) => {
    await expect(history.previewImport(gbk(text))).rejects.toThrow(/这是银行流水，暂不支持/);
    await expect(history.previewImport(utf8Bom(text))).rejects.toThrow(/这是银行流水，暂不支持/);
  });

  it('asks for a legacy .xls to be saved as .xlsx', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    await expect(history.importFile(ole)).rejects.toThrow(/不支持旧版 Excel 文件（.xls），请在 Excel 或 WPS 中另存为 .xlsx/);
    expect(ledger.count()).toBe(0);
  });

  it('refuses a table it does not know, naming what it reads', async () => {
    await expect(history.importFile(utf8('姓名,年龄\n张三,30\n'))).rejects.toThrow(/无法识别的文件格式/);
    expect(ledger.count()).toBe(0);
  });

  it('refuses a bill with a bad amount by its line, and writes nothing', async () => {
    const text = alipayCurrent().replace('23.40 ', '二十三');
    const line = text.split('\r\n').findIndex((l) => l.includes('二十三')) + 1;
    await expect(history.importFile(gbk(text))).rejects.toThrow(new RegExp(`第${line}行：金额「二十三\\s*」无效`));
    expect(ledger.count()).toBe(0);
  });
});

describe('the category a merchant had', () => {
  it('follows the user’s change of an imported row’s category in later imports, until the rule is deleted', async () => {
    const first = WECHAT_MONTH.find(([, , who]) => who === '早餐店')!;
    const rest = WECHAT_MONTH.filter(([, , who]) => who === '滴滴出行');
    await history.importFile(utf8(wechatCsv([first])));
    const row = rowsOf()[0]!;
    const other = row.category === '餐饮' ? '购物' : '餐饮';
    history.updateTransaction(row.id, { category: other });
    const later = wechatCsv([['2026-03-21 07:45:00', ...first.slice(1)] as unknown as typeof first, ...rest]);
    const preview = await history.previewImport(utf8(later));
    expect(preview.rows.map((r) => [r.merchant, r.category])).toEqual([
      ['早餐店', other],
      ['滴滴出行', '交通'],
    ]);
    ledger.deleteMerchantRule('早餐店', 'EXPENSE');
    expect((await history.previewImport(utf8(later))).rows[0]!.category).toBe(row.category);
  });
});

describe('refunds across bills', () => {
  it('links a refund in a later bill to its purchase imported from an earlier one', async () => {
    const [refund, ...rest] = ALIPAY_MONTH;
    await history.importFile(gbk(alipayCurrent(rest)));
    const coat = rowsOf().find((r) => r.description === '优衣库官方旗舰店 羽绒服')!;
    const preview = await history.previewImport(gbk(alipayCurrent([refund!])));
    expect(preview).toMatchObject({ lines: 1, toImport: 1, netted: { count: 0, fen: 0 }, expenseFen: -10000 });
    expect(preview.rows[0]).not.toHaveProperty('pendingRefund');
    await history.importFile(gbk(alipayCurrent([refund!])));
    expect(rowsOf().find((r) => r.flow === 'refund')).toMatchObject({ refundOf: coat.id, amountFen: 10000 });
  });
});

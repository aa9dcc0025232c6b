import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportOutcome, ImportPreview, ImportRowDto } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import ImportDialog from './ImportDialog.svelte';
import { importOutcomeText } from './import-labels';

// The preview says, before anything is written, what the bill is, what will be written, what is
// left out and why, and what 统计 will count from it.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

function row(line: number, over: Partial<ImportRowDto> = {}): ImportRowDto {
  return {
    line,
    date: '2026-11-02',
    time: '12:30:00',
    type: 'EXPENSE',
    category: '餐饮',
    amountFen: 3500,
    account: '微信',
    description: '午饭',
    duplicate: false,
    ...over,
  };
}

const wechat: ImportPreview = {
  format: 'wechat',
  encoding: 'xlsx',
  total: 4,
  duplicates: 1,
  skipped: [
    { reason: 'closed', count: 2, fen: 5000 },
    { reason: 'wealth', count: 3, fen: 120_000 },
    { reason: 'own-transfer', count: 1, fen: 20_000 },
  ],
  refunds: { count: 1, fen: 1200 },
  expenseFen: 8300,
  incomeFen: 50_000,
  rows: [
    row(18),
    row(19, { category: '购物', amountFen: 6000, description: '台灯', merchant: '某某家居' }),
    row(20, { category: '购物', amountFen: 1200, description: '台灯退款', flow: 'refund', type: 'INCOME' }),
    row(21, { type: 'INCOME', category: '其他', amountFen: 50_000, description: '红包', duplicate: true }),
  ],
};

const ownCsv: ImportPreview = {
  format: 'suikouji',
  encoding: 'utf-8',
  total: 1,
  duplicates: 0,
  skipped: [],
  refunds: { count: 0, fen: 0 },
  expenseFen: 3500,
  incomeFen: 0,
  rows: [row(2, { account: '钱包' })],
};

function open(preview: ImportPreview, onDone: (o: ImportOutcome | null) => void = () => {}) {
  render(ImportDialog, { fileName: 'bill', dataBase64: 'YWJj', preview, onDone });
  return screen.getByRole('dialog', { name: '导入预览' });
}

const squash = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const summaryItems = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: '导入概要' }))
    .getAllByRole('listitem')
    .map(squash);

describe('ImportDialog', () => {
  it('a WeChat workbook: format, rows to import, skipped lines by reason, refunds netted and the totals', () => {
    const dialog = open(wechat);
    const items = summaryItems(dialog);
    expect(items).toContain('微信支付账单（Excel 工作簿）');
    expect(items).toContain('共 4 笔，将导入 3 笔，跳过重复 1 笔');
    expect(items).toContain('退款冲抵 1 笔，共 ¥12');
    expect(items).toContain('支出 ¥83 · 收入 ¥500（与统计口径一致：转账不计，支出已扣除退款）');

    const skipped = within(dialog).getByRole('list', { name: '略过不计收支' });
    expect(within(skipped).getAllByRole('listitem').map(squash)).toEqual([
      '已关闭或失败的交易 2 笔，¥50',
      '零钱通、余额宝、理财 3 笔，¥1200',
      '自己账户间转账 1 笔，¥200',
    ]);
    expect(items.some((t) => t.startsWith('略过不计收支 6 笔：'))).toBe(true);
  });

  it('names a refund row 退款 and shows its amount in the income colour', () => {
    const dialog = open(wechat);
    const refund = within(dialog).getByText('台灯退款').closest('tr')!;
    const cells = [...refund.querySelectorAll('td')];
    expect(cells.map(squash)).toEqual(['20', '2026-11-02 12:30', '退款', '购物', '¥12', '微信', '台灯退款']);
    expect(cells[4]!.classList.contains('income')).toBe(true);
    const lunch = within(dialog).getByText('午饭').closest('tr')!;
    expect(squash(lunch.querySelectorAll('td')[2]!)).toBe('支出');
    expect(lunch.querySelectorAll('td')[4]!.classList.contains('income')).toBe(false);
  });

  it('names a JD bill', () => {
    const dialog = open({ ...wechat, format: 'jd', encoding: 'gbk' });
    expect(summaryItems(dialog)).toContain('京东账单（GBK）');
  });

  it('our own CSV with nothing left out shows no skipped lines and no refunds', () => {
    const dialog = open(ownCsv);
    const items = summaryItems(dialog);
    expect(items).toEqual(['随口记 CSV（UTF-8）', '共 1 笔，将导入 1 笔', '支出 ¥35 · 收入 ¥0（与统计口径一致：转账不计，支出已扣除退款）']);
    expect(within(dialog).queryByRole('list', { name: '略过不计收支' })).toBeNull();
    expect(dialog.textContent).not.toContain('略过');
    expect(dialog.textContent).not.toContain('退款冲抵');
  });

  it('offers no 确认导入 when every row is already in the ledger', () => {
    const dialog = open({ ...ownCsv, duplicates: 1, expenseFen: 0, rows: [row(2, { duplicate: true })] });
    expect((within(dialog).getByRole('button', { name: '确认导入' }) as HTMLButtonElement).disabled).toBe(true);
    expect(summaryItems(dialog)).toContain('共 1 笔，将导入 0 笔，跳过重复 1 笔');
  });

  it('commits, and hands the outcome back', async () => {
    const outcome: ImportOutcome = { format: 'wechat', imported: 3, skipped: 6, duplicates: 1 };
    fake.handle('commitImport', () => outcome);
    const onDone = vi.fn();
    const dialog = open(wechat, onDone);
    await fireEvent.click(within(dialog).getByRole('button', { name: '确认导入' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(outcome));
    expect(fake.inputsOf('commitImport')).toEqual([{ dataBase64: 'YWJj' }]);
  });

  it('shows the ledger’s refusal of the commit in the alert and stays open', async () => {
    fake.failNext('commitImport', { code: 'import_invalid', message: '账单已变化，请重新选择文件' });
    const onDone = vi.fn();
    const dialog = open(wechat, onDone);
    await fireEvent.click(within(dialog).getByRole('button', { name: '确认导入' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('账单已变化，请重新选择文件');
    expect(onDone).not.toHaveBeenCalled();
    expect((within(dialog).getByRole('button', { name: '确认导入' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('importOutcomeText', () => {
  it('leaves out the parts that are zero', () => {
    expect(importOutcomeText({ imported: 3, duplicates: 1, skipped: 6 })).toBe('已导入 3 笔，跳过重复 1 笔，略过不计收支 6 笔');
    expect(importOutcomeText({ imported: 3, duplicates: 0, skipped: 6 })).toBe('已导入 3 笔，略过不计收支 6 笔');
    expect(importOutcomeText({ imported: 2, duplicates: 0, skipped: 0 })).toBe('已导入 2 笔');
  });
});

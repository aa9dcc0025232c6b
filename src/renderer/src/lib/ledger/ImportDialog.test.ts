import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportOutcome, ImportPreview, ImportRowDto } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import ImportDialog from './ImportDialog.svelte';
import { countedFen, lineCounts, liveTotals, newRowsPerLine } from './import-edits';
import { importOutcomeText } from './import-labels';

// The preview says, before anything is written, what the bill is, where each of its lines goes
// (将导入, 已导入过, 已删除过, 略过 and why, 退款冲抵), what 统计 will count from it — and lets
// the user untick a row, bring back one deleted before, or file a row elsewhere.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

type RowSpec = Omit<ImportRowDto, 'index' | 'date' | 'time' | 'account' | 'status'> & Partial<Pick<ImportRowDto, 'status'>>;

/** The rows of a preview, indexed by position as the ledger sends them. */
function rowsOf(specs: RowSpec[]): ImportRowDto[] {
  return specs.map((s, index) => ({ index, date: '2026-11-02', time: '12:30:00', account: '微信', status: 'new', ...s }));
}

const rows = rowsOf([
  /* 0 */ { line: 18, type: 'EXPENSE', category: '餐饮', amountFen: 3500, description: '午饭' },
  /* 1 */ { line: 19, type: 'EXPENSE', category: '购物', amountFen: 6000, description: '台灯', merchant: '某某家居' },
  /* 2 */ { line: 20, type: 'EXPENSE', category: '购物', amountFen: 1200, description: '台灯退款', flow: 'refund', merchant: '某某家居' },
  /* 3 */ { line: 21, type: 'INCOME', category: '红包', amountFen: 50_000, description: '李四的红包', status: 'duplicate' },
  /* 4 */ { line: 22, type: 'EXPENSE', category: '服饰', amountFen: 10_000, description: '羽绒服退款', flow: 'refund', pendingRefund: true },
  /* 5 */ { line: 23, type: 'EXPENSE', category: '交通', amountFen: 2340, description: '打车', merchant: '滴滴出行', status: 'deleted' },
  /* 6 */ { line: 24, type: 'INCOME', category: '其他', amountFen: 8000, description: '差旅报销', flow: 'reimbursement' },
  /* 7 */ { line: 25, type: 'TRANSFER', category: '转账', amountFen: 20_000, description: '转入储蓄卡' },
  /* 8 */ { line: 26, type: 'INCOME', category: '工资', amountFen: 900_000, description: '工资' },
  /* 9 */ { line: 27, type: 'EXPENSE', category: '其他', amountFen: 30, description: '服务费 零钱提现' },
  /* 10 */ { line: 28, type: 'EXPENSE', category: '购物', amountFen: 19_900, description: '耳机', merchant: '京东' },
  /* 11 */ { line: 28, type: 'EXPENSE', category: '购物', amountFen: 5000, description: '退款 耳机', flow: 'refund', merchant: '京东' },
  /* 12 */ { line: 29, type: 'EXPENSE', category: '住房', amountFen: 30_000, description: '出差酒店', reimbursable: true },
]);

// The ledger's figures for these rows: spending 35 + 60 − 12 + 0.30 + 199 − 50 (the 待关联
// refund, the 待报销 hotel and the transfer not counted), income 9000 (the reimbursement not).
const wechat: ImportPreview = {
  format: 'wechat',
  encoding: 'xlsx',
  lines: 20,
  toImport: 10,
  duplicates: 1,
  deleted: 1,
  skipped: [
    { reason: 'closed', count: 2, fen: 5000 },
    { reason: 'wealth', count: 3, fen: 120_000 },
    { reason: 'repayment', count: 0, fen: 0 },
    { reason: 'own-transfer', count: 1, fen: 20_000 },
  ],
  netted: { count: 2, fen: 129_900 },
  expenseFen: 23_230,
  incomeFen: 900_000,
  rows,
};

const ownCsv: ImportPreview = {
  format: 'suikouji',
  encoding: 'utf-8',
  lines: 1,
  toImport: 1,
  duplicates: 0,
  deleted: 0,
  skipped: [],
  netted: { count: 0, fen: 0 },
  expenseFen: 3500,
  incomeFen: 0,
  rows: rowsOf([{ line: 2, type: 'EXPENSE', category: '餐饮', amountFen: 3500, description: '午饭' }]),
};

function open(preview: ImportPreview, onDone: (o: ImportOutcome | null) => void = () => {}) {
  render(ImportDialog, { fileName: 'bill', dataBase64: 'YWJj', preview, categories: fake.categories, onDone });
  return screen.getByRole('dialog', { name: '导入预览' });
}

const squash = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const summaryItems = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: '导入概要' }))
    .getAllByRole('listitem')
    .filter((li) => li.parentElement?.getAttribute('aria-label') === '导入概要')
    .map(squash);
const countsLine = (dialog: HTMLElement) => summaryItems(dialog).find((t) => t.startsWith('共 '));
const totalsLine = (dialog: HTMLElement) => summaryItems(dialog).find((t) => t.startsWith('导入后计入'));
const rowOf = (dialog: HTMLElement, description: string) => within(dialog).getByText(description, { selector: 'td' }).closest('tr')!;
const tickBox = (dialog: HTMLElement, description: string) =>
  within(rowOf(dialog, description)).getByRole('checkbox', { name: `导入「${description}」` }) as HTMLInputElement;
const categoryBox = (dialog: HTMLElement, description: string) =>
  within(rowOf(dialog, description)).getByRole('combobox', { name: `「${description}」的分类` }) as HTMLSelectElement;
const confirmButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: '确认导入' }) as HTMLButtonElement;

async function commitAndGetInput(dialog: HTMLElement) {
  fake.handle('commitImport', () => ({ format: 'wechat', imported: 1, skipped: 0, duplicates: 0, deleted: 0 }));
  await fireEvent.click(confirmButton(dialog));
  await vi.waitFor(() => expect(fake.inputsOf('commitImport')).toHaveLength(1));
  return fake.inputsOf('commitImport')[0];
}

describe('ImportDialog: what the bill holds', () => {
  it('counts every line of the bill once, lists what is left out by reason, explains 退款冲抵, and says what 统计 will count', () => {
    const dialog = open(wechat);
    expect(summaryItems(dialog)).toEqual([
      '微信支付账单（Excel 工作簿）',
      '共 20 笔：将导入 10 笔 · 已导入过 1 笔 · 已删除过 1 笔 · 略过 6 笔 · 退款冲抵 2 笔',
      expect.stringMatching(/^略过 6 笔（不计收支）：/),
      '退款冲抵 2 笔：全额退款或已关闭的订单与其退款相抵，共 ¥1,299.00，不计入收支',
      '导入后计入支出 ¥232.30 · 收入 ¥9,000.00（退款已从支出扣除，转账不计，待关联的退款暂不计）',
    ]);
    const skipped = within(dialog).getByRole('list', { name: '略过原因' });
    // A reason with no lines is not listed.
    expect(within(skipped).getAllByRole('listitem').map(squash)).toEqual([
      '已关闭或失败的交易 2 笔，¥50.00',
      '零钱通、余额宝、理财 3 笔，¥1,200.00',
      '自己账户间转账 1 笔，¥200.00',
    ]);
    expect(dialog.textContent).not.toContain('统计口径');
  });

  it('shows no line numbers: the table has no 行 column', () => {
    const dialog = open(wechat);
    expect(within(dialog).getAllByRole('columnheader').map(squash)).toEqual(['导入', '日期', '类型', '分类', '金额', '账户', '备注']);
    expect(squash(rowOf(dialog, '午饭'))).not.toContain('18');
    // The day as every screen writes it (11月2日, or with its year once that is past), the time on the 24-hour dial.
    expect(rowOf(dialog, '午饭').querySelector('.when')!.textContent).toMatch(/^(2026年)?11月2日 12:30$/);
    expect(rowOf(dialog, '午饭').querySelector('.num')!.textContent).toBe('¥35.00');
  });

  it('the figures it starts from are the ledger’s, and the rows’ own counting gives the same', () => {
    // countedFen is what moves the totals when a row is ticked or unticked: over the rows the
    // ledger would write it must give the ledger's figures, or the live totals would drift.
    const written = wechat.rows.filter((r) => r.status === 'new').map(countedFen);
    expect(written.reduce((n, c) => n + c.expenseFen, 0)).toBe(wechat.expenseFen);
    expect(written.reduce((n, c) => n + c.incomeFen, 0)).toBe(wechat.incomeFen);
    const none = { exclude: new Set<number>(), restore: new Set<number>() };
    expect(liveTotals(wechat, none)).toEqual({ expenseFen: wechat.expenseFen, incomeFen: wechat.incomeFen });
    expect(lineCounts(wechat, newRowsPerLine(wechat.rows), none)).toEqual({ toImport: 10, deleted: 1, unticked: 0 });
  });

  it('names refunds 退款, in the income colour, and a refund whose purchase is not in yet 退款·待关联 with why', () => {
    const dialog = open(wechat);
    const refund = [...rowOf(dialog, '台灯退款').querySelectorAll('td')];
    expect(squash(refund[2]!)).toBe('退款');
    expect(refund[4]!.classList.contains('income')).toBe(true);
    expect(squash(rowOf(dialog, '午饭').querySelectorAll('td')[2]!)).toBe('支出');
    expect(rowOf(dialog, '午饭').querySelectorAll('td')[4]!.classList.contains('income')).toBe(false);

    const pending = within(rowOf(dialog, '羽绒服退款')).getByText('退款·待关联');
    expect(pending.getAttribute('title')).toBe('原订单不在本账单也不在账本里，导入原订单后自动关联；在此之前不计入支出');
    expect(within(rowOf(dialog, '台灯退款')).queryByText('退款·待关联')).toBeNull();
  });

  it('ticks the rows it will write, greys out and locks the ones already imported, and leaves the deleted ones unticked', () => {
    const dialog = open(wechat);
    expect(tickBox(dialog, '午饭').checked).toBe(true);
    expect(tickBox(dialog, '午饭').disabled).toBe(false);
    expect(rowOf(dialog, '午饭').classList.contains('off')).toBe(false);

    const duplicate = rowOf(dialog, '李四的红包');
    expect(tickBox(dialog, '李四的红包').checked).toBe(false);
    expect(tickBox(dialog, '李四的红包').disabled).toBe(true);
    expect(duplicate.classList.contains('off')).toBe(true);
    expect(within(duplicate).getByText('已导入过')).toBeTruthy();
    // Nothing about it can change: no category picker.
    expect(within(duplicate).queryByRole('combobox')).toBeNull();

    const deleted = rowOf(dialog, '打车');
    expect(tickBox(dialog, '打车').checked).toBe(false);
    expect(tickBox(dialog, '打车').disabled).toBe(false);
    expect(deleted.classList.contains('off')).toBe(true);
    expect(within(deleted).getByText('已删除过').getAttribute('title')).toContain('勾选可再次导入');
  });

  it('names a JD bill', () => {
    const dialog = open({ ...wechat, format: 'jd', encoding: 'gbk' });
    expect(summaryItems(dialog)).toContain('京东账单（GBK）');
  });

  it('our own CSV with nothing left out shows only what it writes', () => {
    const dialog = open(ownCsv);
    expect(summaryItems(dialog)).toEqual([
      '随口记 CSV（UTF-8）',
      '共 1 笔：将导入 1 笔',
      '导入后计入支出 ¥35.00 · 收入 ¥0.00（退款已从支出扣除，转账不计）',
    ]);
    expect(within(dialog).queryByRole('list', { name: '略过原因' })).toBeNull();
    expect(dialog.textContent).not.toContain('略过');
    expect(dialog.textContent).not.toContain('退款冲抵');
  });

  it('offers no 确认导入 when every row is already in the ledger', () => {
    const dialog = open({
      ...ownCsv,
      toImport: 0,
      duplicates: 1,
      expenseFen: 0,
      rows: rowsOf([{ line: 2, type: 'EXPENSE', category: '餐饮', amountFen: 3500, description: '午饭', status: 'duplicate' }]),
    });
    expect(confirmButton(dialog).disabled).toBe(true);
    expect(countsLine(dialog)).toBe('共 1 笔：将导入 0 笔 · 已导入过 1 笔');
  });

  it('tells how to export a bill from WeChat, Alipay, JD and Meituan, folded away until asked', () => {
    const dialog = open(wechat);
    const help = within(dialog).getByText('怎么导出账单').closest('details')!;
    expect(help.open).toBe(false);
    const paths = within(help).getByRole('list', { name: '各 App 导出账单的路径' }).querySelectorAll('li');
    expect([...paths].map(squash)).toEqual([
      '微信：我 → 服务 → 钱包 → 账单 → 右上角「常见问题」→ 下载账单 → 用于个人对账',
      '支付宝：我的 → 账单 → 右上角「···」→ 开具交易流水证明 → 用于个人对账',
      '京东：我的 → 我的钱包 → 账单 → 右上角 → 导出账单（或「账单下载」）',
      '美团：我的 → 钱包 → 账单 → 右上角 → 导出账单',
    ]);
    expect(help.textContent).toContain('.csv 或 .xlsx');
  });
});

describe('ImportDialog: the user’s changes', () => {
  it('unticking a row leaves it out: the counts and totals follow at once, and 确认导入 sends it in exclude', async () => {
    const dialog = open(wechat);
    await fireEvent.click(tickBox(dialog, '午饭'));
    expect(tickBox(dialog, '午饭').checked).toBe(false);
    expect(rowOf(dialog, '午饭').classList.contains('off')).toBe(true);
    expect(countsLine(dialog)).toBe('共 20 笔：将导入 9 笔 · 取消勾选 1 笔 · 已导入过 1 笔 · 已删除过 1 笔 · 略过 6 笔 · 退款冲抵 2 笔');
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥197\.30 · 收入 ¥9,000\.00/);

    // Leaving out a refund puts its money back into spending; the salary leaves income.
    await fireEvent.click(tickBox(dialog, '台灯退款'));
    await fireEvent.click(tickBox(dialog, '工资'));
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥209.30 · 收入 ¥0\.00（/);
    // Ticked again, the salary is back.
    await fireEvent.click(tickBox(dialog, '工资'));
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥209.30 · 收入 ¥9,000\.00（/);

    expect(await commitAndGetInput(dialog)).toEqual({ dataBase64: 'YWJj', choices: { exclude: [0, 2] } });
  });

  it('a line stays 将导入 while any of its rows is ticked', async () => {
    const dialog = open(wechat);
    await fireEvent.click(tickBox(dialog, '耳机'));
    expect(countsLine(dialog)).toMatch(/^共 20 笔：将导入 10 笔 · 已导入过/);
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥33.30 /);
    await fireEvent.click(tickBox(dialog, '退款 耳机'));
    expect(countsLine(dialog)).toMatch(/^共 20 笔：将导入 9 笔 · 取消勾选 1 笔 · /);
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥83.30 /);
  });

  it('ticking a row deleted before brings it back: 已删除过 goes, spending grows, and it is sent in restore', async () => {
    const dialog = open(wechat);
    await fireEvent.click(tickBox(dialog, '打车'));
    expect(rowOf(dialog, '打车').classList.contains('off')).toBe(false);
    expect(countsLine(dialog)).toBe('共 20 笔：将导入 11 笔 · 已导入过 1 笔 · 略过 6 笔 · 退款冲抵 2 笔');
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥255.70 · 收入 ¥9,000\.00/);
    expect(await commitAndGetInput(dialog)).toEqual({ dataBase64: 'YWJj', choices: { restore: [5] } });
  });

  it('a pending refund ticked counts nothing; unticked, the note about it goes', async () => {
    const dialog = open(wechat);
    await fireEvent.click(tickBox(dialog, '羽绒服退款'));
    expect(totalsLine(dialog)).toBe('导入后计入支出 ¥232.30 · 收入 ¥9,000.00（退款已从支出扣除，转账不计）');
  });

  it('offers the book’s categories of the row’s type, and the row’s own first when the book has none such', () => {
    const dialog = open(wechat);
    const options = (select: HTMLSelectElement) => [...select.options].map((o) => o.textContent);
    // The hidden presets (宠物, 旅行) are not offered.
    expect(options(categoryBox(dialog, '台灯'))).toEqual(['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他']);
    expect(categoryBox(dialog, '台灯').value).toBe('购物');
    expect(options(categoryBox(dialog, '工资'))).toEqual(['工资', '奖金', '兼职', '红包', '其他']);
    expect(options(categoryBox(dialog, '羽绒服退款'))[0]).toBe('服饰');
    expect(categoryBox(dialog, '羽绒服退款').value).toBe('服饰');
    // A row that is not written cannot be re-filed until ticked.
    expect(categoryBox(dialog, '打车').disabled).toBe(true);
  });

  it('a new category for a row, remembered for its merchant when asked, is sent in recategorize', async () => {
    const dialog = open(wechat);
    const remember = (description: string) =>
      within(rowOf(dialog, description)).queryByRole<HTMLInputElement>('checkbox', { name: '以后这个商户都记为此分类' });
    expect(remember('台灯')).toBeNull();

    await fireEvent.change(categoryBox(dialog, '台灯'), { target: { value: '住房' } });
    expect(remember('台灯')!.checked).toBe(false);
    await fireEvent.click(remember('台灯')!);
    // A row without a merchant has nothing to remember.
    await fireEvent.change(categoryBox(dialog, '午饭'), { target: { value: '其他' } });
    expect(remember('午饭')).toBeNull();
    // Moved back to where it was, a row is no change at all.
    await fireEvent.change(categoryBox(dialog, '耳机'), { target: { value: '娱乐' } });
    await fireEvent.change(categoryBox(dialog, '耳机'), { target: { value: '购物' } });
    expect(remember('耳机')).toBeNull();
    // A category does not change what 统计 counts.
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥232.30 · 收入 ¥9,000\.00/);

    expect(await commitAndGetInput(dialog)).toEqual({
      dataBase64: 'YWJj',
      choices: {
        recategorize: [
          { index: 0, category: '其他', remember: false },
          { index: 1, category: '住房', remember: true },
        ],
      },
    });
  });

  it('a re-filed row then unticked is not re-filed; a deleted one ticked back and re-filed is', async () => {
    const dialog = open(wechat);
    await fireEvent.change(categoryBox(dialog, '台灯'), { target: { value: '住房' } });
    await fireEvent.click(tickBox(dialog, '台灯'));
    await fireEvent.click(tickBox(dialog, '打车'));
    await fireEvent.change(categoryBox(dialog, '打车'), { target: { value: '其他' } });
    await fireEvent.click(within(rowOf(dialog, '打车')).getByRole('checkbox', { name: '以后这个商户都记为此分类' }));
    expect(await commitAndGetInput(dialog)).toEqual({
      dataBase64: 'YWJj',
      choices: { exclude: [1], restore: [5], recategorize: [{ index: 5, category: '其他', remember: true }] },
    });
  });

  it('nothing changed: 确认导入 sends the file alone, and hands the outcome back', async () => {
    const outcome: ImportOutcome = { format: 'wechat', imported: 11, skipped: 8, duplicates: 1, deleted: 1 };
    fake.handle('commitImport', () => outcome);
    const onDone = vi.fn();
    const dialog = open(wechat, onDone);
    await fireEvent.click(confirmButton(dialog));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(outcome));
    expect(fake.inputsOf('commitImport')).toEqual([{ dataBase64: 'YWJj' }]);
  });

  it('no 确认导入 once every row is unticked; ticking one back offers it again', async () => {
    const dialog = open(ownCsv);
    await fireEvent.click(tickBox(dialog, '午饭'));
    expect(confirmButton(dialog).disabled).toBe(true);
    expect(countsLine(dialog)).toBe('共 1 笔：将导入 0 笔 · 取消勾选 1 笔');
    await fireEvent.click(tickBox(dialog, '午饭'));
    expect(confirmButton(dialog).disabled).toBe(false);
  });

  it('shows the ledger’s refusal of the commit in the alert and stays open', async () => {
    fake.failNext('commitImport', { code: 'import_invalid', message: '账单已变化，请重新选择文件' });
    const onDone = vi.fn();
    const dialog = open(wechat, onDone);
    await fireEvent.click(confirmButton(dialog));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('账单已变化，请重新选择文件');
    expect(onDone).not.toHaveBeenCalled();
    expect(confirmButton(dialog).disabled).toBe(false);
  });
});

describe('ImportDialog: a large bill', () => {
  const big: ImportPreview = {
    ...ownCsv,
    lines: 700,
    toImport: 700,
    expenseFen: 700 * 100,
    rows: rowsOf(
      Array.from({ length: 700 }, (_, i): RowSpec => ({
        line: i + 2,
        type: 'EXPENSE',
        category: '餐饮',
        amountFen: 100,
        description: `第${i + 1}笔`,
      })),
    ),
  };
  const bodyRows = (dialog: HTMLElement) => [...dialog.querySelectorAll('tbody tr')] as HTMLElement[];
  // By position: a text search over hundreds of jsdom rows is what would make this test slow.
  const tickOf = (dialog: HTMLElement, n: number) =>
    within(bodyRows(dialog)[n - 1]!).getByRole('checkbox', { name: `导入「第${n}笔」` }) as HTMLInputElement;
  const more = (dialog: HTMLElement) => dialog.querySelector<HTMLButtonElement>('button.more');

  it('draws the first 100 rows, and 500 more on each 显示更多; ticks on rows drawn earlier are kept', { timeout: 20_000 }, async () => {
    const dialog = open(big);
    expect(bodyRows(dialog)).toHaveLength(100);
    expect(countsLine(dialog)).toBe('共 700 笔：将导入 700 笔');
    await fireEvent.click(tickOf(dialog, 100));
    expect(more(dialog)!.textContent).toBe('显示更多（还有 600 笔）');
    await fireEvent.click(more(dialog)!);
    expect(bodyRows(dialog)).toHaveLength(600);
    expect(tickOf(dialog, 100).checked).toBe(false);
    await fireEvent.click(tickOf(dialog, 600));
    expect(more(dialog)!.textContent).toBe('显示更多（还有 100 笔）');
    await fireEvent.click(more(dialog)!);
    expect(bodyRows(dialog)).toHaveLength(700);
    expect(more(dialog)).toBeNull();
    expect(countsLine(dialog)).toBe('共 700 笔：将导入 698 笔 · 取消勾选 2 笔');
    expect(totalsLine(dialog)).toMatch(/^导入后计入支出 ¥698\.00 /);
    expect(await commitAndGetInput(dialog)).toEqual({ dataBase64: 'YWJj', choices: { exclude: [99, 599] } });
  });
});

describe('importOutcomeText', () => {
  it('leaves out the parts that are zero', () => {
    expect(importOutcomeText({ imported: 3, duplicates: 1, deleted: 2, skipped: 6 })).toBe(
      '已导入 3 笔，已导入过的 1 笔未重复导入，已删除过的 2 笔未导入，略过 6 笔',
    );
    expect(importOutcomeText({ imported: 3, duplicates: 0, deleted: 0, skipped: 6 })).toBe('已导入 3 笔，略过 6 笔');
    expect(importOutcomeText({ imported: 0, duplicates: 4, deleted: 0, skipped: 0 })).toBe('已导入 0 笔，已导入过的 4 笔未重复导入');
    expect(importOutcomeText({ imported: 2, duplicates: 0, deleted: 0, skipped: 0 })).toBe('已导入 2 笔');
  });
});

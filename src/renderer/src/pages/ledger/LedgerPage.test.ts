import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportPreview, ImportRowDto } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { rangeFor, ymdOf } from '../../lib/ledger/ranges';
import UndoToast from '../../lib/ledger/UndoToast.svelte';
import LedgerPage from './LedgerPage.svelte';

// jsdom has no layout engine and no ResizeObserver (bind:clientHeight needs one); the list
// then keeps its default viewport height, which is all these tests rely on.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// The page against a fake of the ledger commands: what it sends and how it shows the answers.
// The same flows against the real handler table and SQLite ledger are in e2e/ledger.spec.ts.
let fake: FakeLedgerApi;
const today = ymdOf(new Date());

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  fake.addRow({ amountFen: 3500, description: '午饭' });
  fake.addRow({ amountFen: 1250, category: '交通', description: '地铁' });
  fake.addRow({ amountFen: 900_000, type: 'INCOME', category: '工资', description: '工资' });
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const summary = () => document.querySelector('p.summary')!.getAttribute('aria-label');
const lastListDays = () => fake.inputsOf('listDays').at(-1);

describe('明细 page', () => {
  it('asks for this month, and shows it grouped by day with signed amounts and the totals', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    expect(fake.inputsOf('listDays')[0]).toEqual(rangeFor('month', new Date()));
    expect(summary()).toBe('共 3 笔，支出 ¥47.50，收入 ¥9,000.00');
    const rows = within(screen.getByRole('grid', { name: '明细列表' }))
      .getAllByRole('row')
      .filter((r) => r.hasAttribute('aria-selected'));
    expect(rows.map((r) => r.querySelector('.amount')!.textContent)).toEqual(expect.arrayContaining(['−¥35.00', '−¥12.50', '+¥9,000.00']));
    expect(document.querySelector(`.day[data-date="${today}"]`)).not.toBeNull();
  });

  it('reads the count and totals once per filter, and each page of rows after the page before it', async () => {
    for (let i = 0; i < 150; i++) fake.addRow({ amountFen: 100 + i, description: `第${i}笔` });
    render(LedgerPage);
    await screen.findByText('第149笔');
    const [first] = fake.inputsOf('listTransactions');
    expect(first).toEqual({ ...rangeFor('month', new Date()), limit: 100 });
    const grid = screen.getByRole('grid', { name: '明细列表' });
    grid.scrollTop = 146 * 44;
    await fireEvent.scroll(grid);
    // The oldest rows of the month, asked for after where the first page ended.
    await screen.findByText('第0笔');
    const pages = fake.inputsOf('listTransactions');
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatchObject({ ...rangeFor('month', new Date()), after: { date: today, rowid: 100 } });
    expect(fake.inputsOf('listDays')).toHaveLength(1);
    expect(summary()).toMatch(/^共 153 笔/);
  });

  it('heads each day by its distance from today with its weekday, and signs a refund and a reimbursement by their flow', async () => {
    const d = new Date();
    const weekday = (at: Date) => `周${'日一二三四五六'[at.getDay()]}`;
    const yesterdayDate = new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1);
    const yesterday = ymdOf(yesterdayDate);
    fake.addRow({ amountFen: 300_00, description: '退了鞋', category: '购物', flow: 'refund', refundOf: null, date: yesterday });
    fake.addRow({ amountFen: 500_00, type: 'INCOME', description: '差旅费', category: '其他', flow: 'reimbursement', date: yesterday });
    // The fake keeps to the month's range, where yesterday may not be (on the 1st): every row here.
    fake.handle('listDays', () => [
      { date: today, count: 3, expenseFen: 4750, incomeFen: 900_000 },
      { date: yesterday, count: 2, expenseFen: 0, incomeFen: 0 },
    ]);
    fake.handle('listTransactions', ({ limit = 50 }) => ({ rows: fake.rows.slice(0, limit), next: null }));
    render(LedgerPage);
    await screen.findByText('退了鞋');
    const header = (date: string) => document.querySelector(`.day[data-date="${date}"] .day-date`)!.textContent;
    expect(header(today)).toBe(`今天 ${weekday(d)}`);
    expect(header(yesterday)).toBe(`昨天 ${weekday(yesterdayDate)}`);
    const row = (text: string) => screen.getByText(text).closest('[role="row"]')!;
    expect(row('午饭').querySelector('.time')!.textContent).toBe('12:00');
    // A refund is money back, not spending: + and its own tag; so is a reimbursement.
    expect([row('退了鞋').querySelector('.tag')!.textContent, row('退了鞋').querySelector('.amount')!.textContent]).toEqual(['退款', '+¥300.00']);
    expect(row('差旅费').querySelector('.amount')!.textContent).toBe('+¥500.00');
    expect(row('差旅费').querySelector('.tag')!.textContent).not.toMatch(/收入|支出/);
  });

  it('in a book that syncs, says on each row and in the editor which computer recorded it', async () => {
    fake.rows[0]!.recordedBy = '小王的电脑';
    fake.rows[1]!.recordedBy = '小李的笔记本';
    fake.sync = { ...fake.sync, state: 'idle' };
    fake.handle('refundCandidates', () => []);
    render(LedgerPage);
    const row = (text: string) => screen.getByText(text, { selector: '.description' }).closest('[role="row"]') as HTMLElement;
    await vi.waitFor(() => expect(within(row('午饭')).getByLabelText('记账人：小王的电脑').textContent).toBe('小王的电脑'));
    expect(within(row('地铁')).getByLabelText('记账人：小李的笔记本')).toBeTruthy();
    // A row from before 记账人 was kept says nothing rather than guessing.
    expect(row('工资').querySelector('.recorder')).toBeNull();

    await fireEvent.click(within(row('地铁')).getByRole('button', { name: '编辑 地铁' }));
    const field = within(screen.getByRole('form', { name: '编辑记录' })).getByLabelText('记账人') as HTMLInputElement;
    expect([field.value, field.readOnly]).toEqual(['小李的笔记本', true]);
    await fireEvent.click(screen.getByRole('button', { name: '取消' }));

    // Sync stopped on this computer: the list no longer names computers.
    fake.emit({ channel: 'sync', event: { type: 'status', status: { ...fake.sync, state: 'off' } } });
    await vi.waitFor(() => expect(document.querySelector('.recorder')).toBeNull());
  });

  it('names no computer in a book that does not sync', async () => {
    fake.rows[0]!.recordedBy = '小王的电脑';
    render(LedgerPage);
    await screen.findByText('午饭');
    await vi.waitFor(() => expect(fake.inputsOf('syncStatus')).toHaveLength(1));
    expect(screen.queryByText('小王的电脑')).toBeNull();
  });

  it('sends the type filter and the search text, and shows what comes back', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: 'INCOME' } });
    await vi.waitFor(() => expect(summary()).toBe('共 1 笔，支出 ¥0.00，收入 ¥9,000.00'));
    expect(lastListDays()).toMatchObject({ type: 'INCOME' });
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: '' } });
    await fireEvent.input(screen.getByLabelText('搜索'), { target: { value: '交通' } });
    // Enter searches at once, without waiting for the typing pause.
    await fireEvent.keyDown(screen.getByLabelText('搜索'), { key: 'Enter' });
    await vi.waitFor(() => expect(summary()).toBe('共 1 笔，支出 ¥12.50，收入 ¥0.00'));
    expect(lastListDays()).toEqual({ ...rangeFor('month', new Date()), text: '交通' });
  });

  it('deletes after confirmation, offers 撤销 in a toast, and Ctrl+Z / Ctrl+Shift+Z undo and redo', async () => {
    render(LedgerPage);
    await fireEvent.click(await screen.findByRole('button', { name: '删除 午饭' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('午饭');
    expect(fake.inputsOf('deleteTransactions')).toEqual([]);
    await fireEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    const lunch = fake.inputsOf('deleteTransactions')[0]!.ids;
    expect(lunch).toHaveLength(1);
    const toast = await screen.findByRole('status');
    expect(toast.textContent).toContain('已删除 1 笔');
    await vi.waitFor(() => expect(screen.queryByText('午饭')).toBeNull());
    await fireEvent.click(within(toast).getByRole('button', { name: '撤销' }));
    await screen.findByText('午饭');
    expect(fake.inputsOf('undo')).toHaveLength(1);

    await fireEvent.click(screen.getByRole('button', { name: '删除 地铁' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    await vi.waitFor(() => expect(screen.queryByText('地铁')).toBeNull());
    const toolbarUndo = screen.getAllByRole('button', { name: '撤销' }).find((b) => b.classList.contains('history'))!;
    await vi.waitFor(() => expect(toolbarUndo).toHaveProperty('disabled', false));
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await screen.findByText('地铁');
    expect((await screen.findByRole('status')).textContent).toContain('已撤销：删除 1 笔');
    await fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    await vi.waitFor(() => expect(screen.queryByText('地铁')).toBeNull());
    expect(fake.inputsOf('undo')).toHaveLength(2);
    expect(fake.inputsOf('redo')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('已重做：删除 1 笔');
  });

  it('leaves Ctrl+Z inside a text field to the field', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    await fireEvent.keyDown(screen.getByLabelText('搜索'), { key: 'z', ctrlKey: true });
    expect(fake.inputsOf('undo')).toEqual([]);
  });

  it('shows the sentence main sends when a delete fails, and keeps the row', async () => {
    render(LedgerPage);
    fake.failNext('deleteTransactions', { code: 'ledger_error', message: '账本暂时无法写入，请稍后重试。' });
    await fireEvent.click(await screen.findByRole('button', { name: '删除 午饭' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    expect((await screen.findByRole('alert')).textContent).toContain('账本暂时无法写入，请稍后重试。');
    expect(screen.getByText('午饭')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('refreshes the list when the ledger announces a change (a voice save)', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    fake.addRow({ amountFen: 880, description: '奶茶' });
    fake.changed('save');
    await screen.findByText('奶茶');
    await vi.waitFor(() => expect(summary()).toBe('共 4 笔，支出 ¥56.30，收入 ¥9,000.00'));
  });
});

describe('a row read off a picture', () => {
  it('carries a picture mark; opening it shows the picture from its bytes and the text read off it, and Esc closes it', async () => {
    const made: Blob[] = [];
    const revoked: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (blob: Blob) => (made.push(blob), `blob:picture/${made.length}`);
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    try {
      const coffee = fake.addRow({ amountFen: 2390, description: '瑞幸咖啡', attachment: { id: 'a1', mime: 'image/png' } });
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 9]);
      fake.handle('attachmentGet', ({ transactionId }) =>
        transactionId === coffee.id ? { mime: 'image/png', bytes, text: '支付成功\n瑞幸咖啡\n-23.90' } : null,
      );
      render(LedgerPage);
      await screen.findByText('瑞幸咖啡');
      // Only the row that has a picture says so.
      expect(screen.getAllByRole('button', { name: /^查看图片/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['查看图片 瑞幸咖啡']);
      await fireEvent.click(screen.getByRole('button', { name: '查看图片 瑞幸咖啡' }));
      const dialog = await screen.findByRole('dialog', { name: '记录的图片' });
      const img = (await within(dialog).findByRole('img', { name: '记录的图片' })) as HTMLImageElement;
      expect(img.getAttribute('src')).toBe('blob:picture/1');
      expect(made[0]!.type).toBe('image/png');
      expect(new Uint8Array(await made[0]!.arrayBuffer())).toEqual(bytes);
      expect(within(dialog).getByRole('region', { name: '识别出的文字' }).textContent).toContain('支付成功\n瑞幸咖啡\n-23.90');
      expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toContain('−¥23.90');
      expect(fake.inputsOf('attachmentGet')).toEqual([{ transactionId: coffee.id }]);
      await fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.queryByRole('dialog', { name: '记录的图片' })).toBeNull();
      expect(revoked).toEqual(['blob:picture/1']);
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it('says so when the picture is gone from the book’s folder, or main refuses', async () => {
    fake.addRow({ amountFen: 2390, description: '瑞幸咖啡', attachment: { id: 'a1', mime: 'image/png' } });
    fake.handle('attachmentGet', () => null);
    render(LedgerPage);
    await fireEvent.click(await screen.findByRole('button', { name: '查看图片 瑞幸咖啡' }));
    const dialog = await screen.findByRole('dialog', { name: '记录的图片' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('这笔记录的图片已不在账本文件夹里。');
    await fireEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    fake.failNext('attachmentGet', { code: 'ledger_error', message: '读取图片失败' });
    await fireEvent.click(screen.getByRole('button', { name: '查看图片 瑞幸咖啡' }));
    expect((await within(await screen.findByRole('dialog', { name: '记录的图片' })).findByRole('alert')).textContent).toBe('读取图片失败');
  });
});

describe('export and import through the shell’s dialogs', () => {
  it('exports what the list shows, in the chosen format, and names the file it wrote', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: 'EXPENSE' } });
    await vi.waitFor(() => expect(summary()).toBe('共 2 笔，支出 ¥47.50，收入 ¥0.00'));

    await fireEvent.click(screen.getByRole('button', { name: '导出 Excel' }));
    const toast = await screen.findByRole('status');
    const written = fake.exported[0]!;
    expect(fake.inputsOf('exportFile')).toEqual([{ format: 'xlsx', filter: { ...rangeFor('month', new Date()), type: 'EXPENSE' } }]);
    expect(written.path).toMatch(/^\/home\/user\/文档\/随口记_\d{8}_\d{6}\.xlsx$/);
    expect(written.rows.map((r) => r.description).sort()).toEqual(['午饭', '地铁']);
    expect(toast.textContent).toContain(`已导出 2 笔：${written.path}`);
    expect(within(toast).queryByRole('button', { name: '撤销' })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '导出 CSV' }));
    await vi.waitFor(() => expect(fake.exported).toHaveLength(2));
    expect(fake.exported[1]!.path).toMatch(/\.csv$/);
  });

  it('says nothing when the user closes the save dialog, and shows why an export failed', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    fake.saveDir = null;
    await fireEvent.click(screen.getByRole('button', { name: '导出 CSV' }));
    await vi.waitFor(() => expect(fake.inputsOf('exportFile')).toHaveLength(1));
    await vi.waitFor(() => expect((screen.getByRole('button', { name: '导出 CSV' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();

    fake.failNext('exportFile', { code: 'export_failed', message: '导出失败：磁盘已满' });
    await fireEvent.click(screen.getByRole('button', { name: '导出 Excel' }));
    expect((await screen.findByRole('alert')).textContent).toBe('导出失败：磁盘已满');
    expect(screen.queryByRole('status')).toBeNull();

    // The next export that works clears the sentence.
    fake.saveDir = '/tmp';
    await fireEvent.click(screen.getByRole('button', { name: '导出 Excel' }));
    await screen.findByRole('status');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('filters by a tag chosen from the ledger’s tags, and shows each row’s tags and sub-category path', async () => {
    const dining = fake.category('餐饮').id;
    fake.categories.push({ id: 900, name: '早餐', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 0, count: 0, parentId: dining });
    fake.addRow({ amountFen: 800, category: '早餐', parentCategory: '餐饮', description: '包子', tags: ['出差'] });
    fake.addRow({ amountFen: 30000, category: '住房', description: '酒店', tags: ['出差', '报销'] });
    render(LedgerPage);
    const bun = (await screen.findByText('包子')).closest('[role="row"]')!;
    expect(bun.querySelector('.category')!.textContent).toBe('餐饮 › 早餐');
    expect(within(bun as HTMLElement).getByLabelText('标签：出差')).toBeTruthy();
    expect(screen.getByText('酒店').closest('[role="row"]')!.querySelector('.labels')!.getAttribute('aria-label')).toBe('标签：出差、报销');

    const tagFilter = screen.getByRole('combobox', { name: '标签' }) as HTMLSelectElement;
    await vi.waitFor(() => expect([...tagFilter.options].map((o) => o.textContent)).toEqual(['全部标签', '#出差', '#报销']));
    await fireEvent.change(tagFilter, { target: { value: '报销' } });
    await vi.waitFor(() => expect(summary()).toBe('共 1 笔，支出 ¥300.00，收入 ¥0.00'));
    expect(lastListDays()).toEqual({ ...rangeFor('month', new Date()), tag: '报销' });
    expect(fake.inputsOf('listTransactions').at(-1)).toMatchObject({ tag: '报销' });
  });

  it('lists the categories as a tree; a parent takes in its sub-categories’ rows', async () => {
    const dining = fake.category('餐饮').id;
    fake.categories.push({ id: 900, name: '早餐', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 0, count: 0, parentId: dining });
    fake.addRow({ amountFen: 800, category: '早餐', parentCategory: '餐饮', description: '包子' });
    render(LedgerPage);
    await screen.findByText('包子');
    await fireEvent.change(screen.getByRole('combobox', { name: '类型' }), { target: { value: 'EXPENSE' } });
    const picker = screen.getByRole('combobox', { name: '分类' }) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent).slice(0, 4)).toEqual(['全部分类', '餐饮', '\u3000早餐', '交通']);
    await fireEvent.change(picker, { target: { value: '餐饮' } });
    await vi.waitFor(() => expect(summary()).toBe('共 2 笔，支出 ¥43.00，收入 ¥0.00'));
    expect(lastListDays()).toMatchObject({ category: '餐饮' });
  });

  it('imports the file chosen in the open dialog: preview with the book’s categories, then commit with the user’s changes and 撤销 offered', async () => {
    const row = (over: Partial<ImportRowDto> & Pick<ImportRowDto, 'index' | 'description'>): ImportRowDto => ({
      line: over.index + 3,
      date: today,
      time: '09:15:00',
      type: 'EXPENSE',
      category: '交通',
      amountFen: 4250,
      account: '支付宝',
      status: 'new',
      ...over,
    });
    const preview: ImportPreview = {
      format: 'alipay',
      encoding: 'gbk',
      lines: 6,
      toImport: 2,
      duplicates: 1,
      deleted: 1,
      skipped: [{ reason: 'closed', count: 2, fen: 1800 }],
      netted: { count: 0, fen: 0 },
      expenseFen: 4250 + 1600,
      incomeFen: 0,
      rows: [
        row({ index: 0, description: '公交卡' }),
        row({ index: 1, category: '餐饮', amountFen: 1600, description: '面包', merchant: '面包房' }),
        row({ index: 2, category: '餐饮', amountFen: 3500, account: '钱包', description: '午饭', status: 'duplicate' }),
        row({ index: 3, category: '娱乐', amountFen: 6000, description: '电影', status: 'deleted' }),
      ],
    };
    fake.handle('previewImport', () => preview);
    fake.handle('commitImport', () => ({ format: 'alipay', imported: 1, skipped: 2, duplicates: 1, deleted: 0 }));
    const dining = fake.category('餐饮').id;
    fake.categories.push({ id: 900, name: '早餐', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 0, count: 0, parentId: dining });
    render(LedgerPage);
    await screen.findByText('午饭');

    // A closed open dialog: nothing to preview.
    await fireEvent.click(screen.getByRole('button', { name: '导入账单' }));
    await vi.waitFor(() => expect(fake.inputsOf('openImportFile')).toHaveLength(1));
    expect(fake.inputsOf('previewImport')).toEqual([]);
    await vi.waitFor(() => expect((screen.getByRole('button', { name: '导入账单' }) as HTMLButtonElement).disabled).toBe(false));

    fake.openFile = { name: '支付宝账单.csv', dataBase64: 'YWJj' };
    await fireEvent.click(screen.getByRole('button', { name: '导入账单' }));
    const dialog = await screen.findByRole('dialog', { name: '导入预览' });
    expect(fake.inputsOf('previewImport')).toEqual([{ dataBase64: 'YWJj' }]);
    expect(dialog.textContent).toContain('导入 支付宝账单.csv');
    expect(dialog.textContent).toContain('支付宝账单（GBK）');
    expect(dialog.textContent).toContain('共 6 笔：将导入 2 笔 · 已导入过 1 笔 · 已删除过 1 笔 · 略过 2 笔');
    expect(dialog.textContent).toContain('已关闭或失败的交易 2 笔，¥18.00');

    // The page's categories, as a tree, are what a row can be moved to.
    const bread = within(dialog).getByText('面包', { selector: 'td' }).closest('tr')!;
    const picker = within(bread).getByRole('combobox', { name: '「面包」的分类' }) as HTMLSelectElement;
    await vi.waitFor(() => expect([...picker.options].map((o) => o.textContent).slice(0, 3)).toEqual(['餐饮', '\u3000早餐', '交通']));
    await fireEvent.change(picker, { target: { value: '早餐' } });
    await fireEvent.click(within(bread).getByRole('checkbox', { name: '以后这个商户都记为此分类' }));
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: '导入「公交卡」' }));
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: '导入「电影」' }));
    expect(dialog.textContent).toContain('导入后计入支出 ¥76.00 · 收入 ¥0.00');

    await fireEvent.click(within(dialog).getByRole('button', { name: '确认导入' }));
    const toast = await screen.findByRole('status');
    expect(fake.inputsOf('commitImport')).toEqual([
      { dataBase64: 'YWJj', choices: { exclude: [0], restore: [3], recategorize: [{ index: 1, category: '早餐', remember: true }] } },
    ]);
    expect(toast.textContent).toContain('已导入 1 笔，已导入过的 1 笔未重复导入，略过 2 笔');
    expect(within(toast).getByRole('button', { name: '撤销' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the shell’s and the ledger’s refusals and opens no preview; a refused file comes with how to export a bill', async () => {
    render(LedgerPage);
    await screen.findByText('午饭');
    fake.failNext('openImportFile', { code: 'dialog_unavailable', message: '无法打开文件对话框，请重启应用后再试。' });
    await fireEvent.click(screen.getByRole('button', { name: '导入账单' }));
    expect((await screen.findByRole('alert')).textContent).toBe('无法打开文件对话框，请重启应用后再试。');
    // The shell failed, not the file: no export help.
    expect(screen.queryByText('怎么导出账单')).toBeNull();

    fake.openFile = { name: 'bad.csv', dataBase64: 'YWJj' };
    fake.failNext('previewImport', { code: 'import_invalid', message: '第2行：金额「四十」不是数字' });
    await fireEvent.click(screen.getByRole('button', { name: '导入账单' }));
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe('第2行：金额「四十」不是数字'));
    expect(screen.queryByRole('dialog')).toBeNull();
    const help = screen.getByText('怎么导出账单').closest('details')!;
    expect(help.open).toBe(true);
    expect(help.textContent).toContain('微信：我 → 服务 → 钱包 → 账单 → 右上角「常见问题」→ 下载账单 → 用于个人对账');
    expect(help.textContent).toContain('支付宝：我的 → 账单 → 右上角「···」→ 开具交易流水证明 → 用于个人对账');

    // The next file that reads clears the refusal and its help.
    fake.handle('previewImport', () => ({
      format: 'suikouji',
      encoding: 'utf-8',
      lines: 0,
      toImport: 0,
      duplicates: 0,
      deleted: 0,
      skipped: [],
      netted: { count: 0, fen: 0 },
      expenseFen: 0,
      incomeFen: 0,
      rows: [],
    }));
    await fireEvent.click(screen.getByRole('button', { name: '导入账单' }));
    const dialog = await screen.findByRole('dialog', { name: '导入预览' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByText('怎么导出账单').map((s) => dialog.contains(s))).toEqual([true]);
  });
});

describe('undo toast', () => {
  it('closes itself after eight seconds', async () => {
    vi.useFakeTimers();
    try {
      const onClose = vi.fn();
      render(UndoToast, { props: { message: '已删除 1 笔', onUndo: () => {}, onClose } });
      vi.advanceTimersByTime(7999);
      expect(onClose).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onClose).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});

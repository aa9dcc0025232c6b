import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ParseResult } from '@shared/domain';
import { formatMoney } from '@shared/display';
import { yuanToFen } from '@shared/money';
import type { Page } from '@playwright/test';
import { openLedger } from '@core/ledger/index';
import { SyncEngine } from '@core/sync/engine';
import { FolderRemote } from '@core/sync/folder-remote';
import { expect, screenshots, test, type AppHarness, ledgerRows } from './fixtures';

// The 明细 and 统计 pages against the real ledger through the bridge: 2 000 seeded rows,
// filters, edit, delete + undo, the statistics totals, CSV export and import.

const SHOTS = 'test-results/screenshots';
const CATEGORIES = ['餐饮', '交通', '购物', '娱乐', '住房'] as const;

/** Today's calendar day where the page runs (the fixture pins Asia/Shanghai). */
function shanghaiToday(): string {
  return new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
}

function monthOf(ymd: string, delta: number): { from: string; to: string; ym: string } {
  const [y, m] = ymd.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + delta, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const ym = first.toISOString().slice(0, 7);
  return { from: `${ym}-01`, to: last.toISOString().slice(0, 10), ym };
}

interface Seeded {
  items: ParseResult[];
  thisMonth: ReturnType<typeof monthOf>;
  lastMonth: ReturnType<typeof monthOf>;
}

/** 2 000 rows over this month and last, deterministic amounts with fen, 1 in 10 an income. */
function seed(app: AppHarness): Seeded {
  const today = shanghaiToday();
  const thisMonth = monthOf(today, 0);
  const lastMonth = monthOf(today, -1);
  const items: ParseResult[] = [];
  for (let i = 0; i < 2000; i++) {
    const month = i % 2 === 0 ? thisMonth : lastMonth;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const income = i % 20 === 7 || i % 20 === 14;
    items.push({
      amount: income ? 1000 + (i % 7) : 1 + (i % 97) + (i % 100) / 100,
      type: income ? 'INCOME' : 'EXPENSE',
      category: income ? '工资' : CATEGORIES[i % CATEGORIES.length]!,
      description: `条目${i}`,
      date: `${month.ym}-${day}`,
      account: null,
      confidence: 1,
      source: 'local',
    });
  }
  for (let i = 0; i < items.length; i += 200) app.ledger.saveBatch(items.slice(i, i + 200));
  return { items, thisMonth, lastMonth };
}

function expected(items: ParseResult[], range: { from: string; to: string }, pick: (p: ParseResult) => boolean = () => true) {
  const rows = items.filter((p) => p.date! >= range.from && p.date! <= range.to && pick(p));
  const fen = (type: string) => rows.filter((p) => p.type === type).reduce((n, p) => n + yuanToFen(p.amount!), 0);
  return { count: rows.length, expenseFen: fen('EXPENSE'), incomeFen: fen('INCOME') };
}

const yuan = (fen: number) => formatMoney(fen);

function summaryText(e: { count: number; expenseFen: number; incomeFen: number }): string {
  return `共 ${e.count} 笔，支出 ${yuan(e.expenseFen)}，收入 ${yuan(e.incomeFen)}`;
}

/** The page's toast (the shell's budget banner is a status region too). */
const toast = (page: Page) => page.getByRole('status').filter({ has: page.getByRole('button', { name: '关闭提示' }) });

test.describe('ledger app', () => {
  test('list: month and category filters, edit, delete and undo, live voice saves', async ({ app }) => {
    const { items, thisMonth, lastMonth } = seed(app);
    const page = await app.open('#/ledger');
    const rows = ledgerRows(page);

    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(expected(items, thisMonth)));
    await expect(rows.first()).toBeVisible();
    // Virtualised: 1 000 rows in range, only a window of them in the DOM.
    expect(await rows.count()).toBeLessThan(60);

    // Filter by month (custom range = last month), then by category.
    await page.getByRole('button', { name: '自定义' }).click();
    await page.getByLabel('开始日期').fill(lastMonth.from);
    await page.getByLabel('结束日期').fill(lastMonth.to);
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(expected(items, lastMonth)));
    await page.getByRole('combobox', { name: '分类' }).selectOption('交通');
    const traffic = expected(items, lastMonth, (p) => p.category === '交通');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(traffic));
    await expect(page.locator('.row .category').first()).toHaveText('交通');

    // Scroll to the bottom of the virtual list: the oldest day is rendered.
    await page.locator('.list').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const oldest = items
      .filter((p) => p.category === '交通' && p.date! >= lastMonth.from && p.date! <= lastMonth.to)
      .map((p) => p.date!)
      .sort()[0]!;
    await expect(page.locator(`.day[data-date="${oldest}"]`)).toBeVisible();
    await page.locator('.list').evaluate((el) => (el.scrollTop = 0));

    // Edit the first row in place.
    const first = rows.first();
    const description = (await first.locator('.description').textContent())!;
    await first.getByRole('button', { name: /^编辑/ }).click();
    const editor = page.getByRole('form', { name: '编辑记录' });
    await editor.getByLabel('金额').fill('123.45');
    await editor.getByLabel('备注').fill(`${description} 已改`);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/ledger-edit-light.png` });
    await editor.getByRole('button', { name: '保存' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByText(`${description} 已改`)).toBeVisible();
    const edited = app.ledger.search(`${description} 已改`)[0]!;
    expect(edited.amountFen).toBe(12345);
    await expect(rows.filter({ hasText: `${description} 已改` }).locator('.amount')).toHaveText('−¥123.45');

    // Delete with confirmation, then undo from the toast.
    const before = app.ledger.count();
    const victim = rows.nth(1);
    const victimText = (await victim.locator('.description').textContent())!;
    await victim.getByRole('button', { name: /^删除/ }).click();
    await expect(page.getByRole('alertdialog')).toContainText(victimText);
    await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
    const undoToast = toast(page);
    await expect(undoToast).toContainText('已删除 1 笔');
    await expect(page.getByText(victimText, { exact: true })).toBeHidden();
    expect(app.ledger.count()).toBe(before - 1);
    await undoToast.getByRole('button', { name: '撤销' }).click();
    await expect(page.getByText(victimText, { exact: true })).toBeVisible();
    expect(app.ledger.count()).toBe(before);

    // Keyboard: ↓ selects, Delete asks, Enter confirms, Ctrl+Z undoes.
    await page.getByRole('grid', { name: '明细列表' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const selected = page.locator('.row.selected .description');
    const keyVictim = (await selected.textContent())!;
    await page.keyboard.press('Delete');
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByText(keyVictim, { exact: true })).toBeHidden();
    await expect(page.locator('.filters button.history', { hasText: '撤销' })).toBeEnabled();
    await page.keyboard.press('Control+z');
    await expect(page.getByText(keyVictim, { exact: true })).toBeVisible();
    await expect(toast(page)).toContainText('已撤销：删除 1 笔');
    expect(app.ledger.count()).toBe(before);
    // Ctrl+Shift+Z redoes the delete; Ctrl+Z takes it back for the steps below.
    await page.keyboard.press('Control+Shift+Z');
    await expect(page.getByText(keyVictim, { exact: true })).toBeHidden();
    await expect(toast(page)).toContainText('已重做：删除 1 笔');
    expect(app.ledger.count()).toBe(before - 1);
    await page.keyboard.press('Control+z');
    await expect(page.getByText(keyVictim, { exact: true })).toBeVisible();
    expect(app.ledger.count()).toBe(before);

    // End jumps to the oldest row (the list scrolls and renders it), Home back to the newest.
    await page.keyboard.press('End');
    await expect(page.locator('.row.selected')).toBeVisible();
    expect(await page.locator('.row.selected').getAttribute('id')).toBe(`tx-${traffic.count - 1}`);
    await page.keyboard.press('Home');
    await expect(page.locator('.row.selected')).toHaveAttribute('id', 'tx-0');
    await page.keyboard.press('ArrowDown');

    // Keyboard: Enter edits the selected row, Escape leaves it unchanged.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const keyEditor = page.getByRole('form', { name: '编辑记录' });
    await expect(keyEditor.getByLabel('金额')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(keyEditor).toBeHidden();
    await expect(page.getByRole('grid', { name: '明细列表' })).toBeFocused();

    // A voice save through the history appears at once (an event, not polling).
    await page.getByRole('button', { name: '本月' }).click();
    await page.getByRole('combobox', { name: '分类' }).selectOption('');
    app.core.history.saveBatch([
      { amount: 8.8, type: 'EXPENSE', category: '餐饮', description: '语音记的奶茶', date: null, account: null, confidence: 1, source: 'llm' },
    ]);
    const spent = app.ledger.totals({ ...thisMonth, type: 'EXPENSE' });
    const earned = app.ledger.totals({ ...thisMonth, type: 'INCOME' });
    expect(spent.count + earned.count).toBe(expected(items, thisMonth).count + 1);
    await expect(page.locator('p.summary')).toHaveAttribute(
      'aria-label',
      summaryText({ count: spent.count + earned.count, expenseFen: spent.totalFen, incomeFen: earned.totalFen }),
    );
    await page.getByRole('button', { name: '关闭提示' }).click();
    await page.screenshot({ path: `${SHOTS}/ledger-list-light.png` });
    await page.getByLabel('搜索').fill('奶茶');
    await expect(rows.first().locator('.description')).toHaveText('语音记的奶茶');

    const dark = await app.open('#/ledger', { colorScheme: 'dark' });
    await expect(ledgerRows(dark).first()).toBeVisible();
    await dark.screenshot({ path: `${SHOTS}/ledger-list-dark.png` });
  });

  test('list: type filter with signed incomes, search by category name', async ({ app }) => {
    const { items, thisMonth } = seed(app);
    const page = await app.open('#/ledger');
    const rows = ledgerRows(page);
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(expected(items, thisMonth)));

    await page.getByRole('combobox', { name: '类型' }).selectOption('INCOME');
    const incomes = expected(items, thisMonth, (p) => p.type === 'INCOME');
    expect(incomes.expenseFen).toBe(0);
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(incomes));
    await expect(rows.first().locator('.amount')).toHaveText(/^\+¥\d/);
    expect((await rows.locator('.amount').allTextContents()).every((a) => a.startsWith('+'))).toBe(true);

    // The search text matches category names too; Enter searches without the typing pause.
    await page.getByRole('combobox', { name: '类型' }).selectOption('');
    await page.getByLabel('搜索').fill('住房');
    await page.getByLabel('搜索').press('Enter');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(expected(items, thisMonth, (p) => p.category === '住房')));
    await expect(rows.first().locator('.category')).toHaveText('住房');
  });

  test('statistics: totals, donut and trend, click-through to the list', async ({ app }) => {
    const { items, thisMonth, lastMonth } = seed(app);
    const page = await app.open('#/stats');
    const now = expected(items, thisMonth);
    await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', `支出 ${yuan(now.expenseFen)}`);
    await expect(page.getByTestId('total-income')).toHaveAttribute('aria-label', `收入 ${yuan(now.incomeFen)}`);
    const balance = now.incomeFen - now.expenseFen;
    await expect(page.getByTestId('total-balance')).toHaveAttribute('aria-label', `结余 ${yuan(balance)}`);

    // The donut lists every category with its exact total.
    const donut = page.getByTestId('donut');
    for (const c of CATEGORIES) {
      const e = expected(items, thisMonth, (p) => p.category === c);
      await expect(donut).toHaveAttribute('aria-label', new RegExp(`${c} ${yuan(e.expenseFen).replace('.', '\\.')}（`));
    }
    // chart.js drew something on both canvases.
    const painted = async (testId: string) =>
      page
        .getByTestId(testId)
        .locator('canvas')
        .evaluate((c: HTMLCanvasElement) => {
          const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
          return n;
        });
    expect(await painted('donut')).toBeGreaterThan(1000);
    expect(await painted('trend')).toBeGreaterThan(500);

    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/stats-light.png` });
    const dark = await app.open('#/stats', { colorScheme: 'dark' });
    await expect(dark.getByTestId('total-expense')).toHaveAttribute('aria-label', `支出 ${yuan(now.expenseFen)}`);
    await dark.screenshot({ path: `${SHOTS}/stats-dark.png` });

    // Year view: totals over the whole year, a monthly trend.
    const year = thisMonth.ym.slice(0, 4);
    await page.getByRole('button', { name: '年', exact: true }).click();
    await expect(page.getByTestId('period-label')).toHaveText(`${year}年`);
    const wholeYear = expected(items, { from: `${year}-01-01`, to: `${year}-12-31` });
    await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', `支出 ${yuan(wholeYear.expenseFen)}`);
    await expect(page.getByTestId('trend')).toHaveAttribute('aria-label', `${year}年每月收支趋势`);
    await page.getByRole('button', { name: '月', exact: true }).click();

    // Previous month, then click a category through to the list.
    await page.getByRole('button', { name: '上一期' }).click();
    const prev = expected(items, lastMonth);
    await expect(page.getByTestId('total-expense')).toHaveAttribute('aria-label', `支出 ${yuan(prev.expenseFen)}`);
    await page.getByRole('button', { name: /^交通 / }).click();
    await expect(page).toHaveURL(/#\/ledger\?/);
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(expected(items, lastMonth, (p) => p.category === '交通')));
  });

  test('CSV: export the filtered list through the save dialog, import a file chosen in the open dialog', async ({ app }) => {
    const { items, thisMonth } = seed(app);
    const page = await app.open('#/ledger');
    await page.getByRole('combobox', { name: '分类' }).selectOption('餐饮');
    const food = expected(items, thisMonth, (p) => p.category === '餐饮');
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', summaryText(food));

    await page.getByRole('button', { name: '导出 CSV' }).click();
    await expect(toast(page)).toContainText(`已导出 ${food.count} 笔：`);
    expect(app.dialogs.saved).toHaveLength(1);
    const saved = app.dialogs.saved[0]!;
    expect(basename(saved)).toMatch(/^随口记_\d{8}_\d{6}\.csv$/);
    await expect(toast(page)).toContainText(saved);
    const bytes = readFileSync(saved);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('日期,时间,类型,分类,金额,账户,备注,转入账户,对方,资金类型,报销,编号,退款对应编号,报销到账编号,标签,父分类,附件');
    expect(lines).toHaveLength(1 + food.count);
    const sum = lines.slice(1).reduce((n, l) => n + yuanToFen(Number(l.split(',')[4])), 0);
    expect(sum).toBe(food.expenseFen);

    // Import: one new row and one that is already in the ledger.
    const dup = lines[1]!;
    const csv = `\uFEFF${lines[0]}\r\n${dup}\r\n${thisMonth.from},09:15:00,支出,交通,42.50,钱包,导入的地铁卡,,,,,,,,,,\r\n`;
    app.dialogs.openFile = join(app.dataDir, 'bill.csv');
    writeFileSync(app.dialogs.openFile, csv);
    await page.getByRole('button', { name: '导入账单' }).click();
    const dialog = page.getByRole('dialog', { name: '导入预览' });
    await expect(dialog).toContainText('导入 bill.csv');
    await expect(dialog).toContainText('共 2 笔');
    await expect(dialog).toContainText('已导入过 1 笔');
    await dialog.getByRole('button', { name: '确认导入' }).click();
    await expect(toast(page)).toContainText('已导入 1 笔，已导入过的 1 笔未重复导入');
    expect(app.ledger.search('导入的地铁卡')).toHaveLength(1);
    await toast(page).getByRole('button', { name: '撤销' }).click();
    await expect.poll(() => app.ledger.search('导入的地铁卡').length).toBe(0);

    // A malformed file is refused with its line number and nothing is written.
    const count = app.ledger.count();
    const bad = `\uFEFF${lines[0]}\r\n${thisMonth.from},09:15:00,支出,交通,四十,钱包,坏金额\r\n`;
    app.dialogs.openFile = join(app.dataDir, 'bad.csv');
    writeFileSync(app.dialogs.openFile, bad);
    await page.getByRole('button', { name: '导入账单' }).click();
    await expect(page.getByRole('alert')).toContainText('第2行');
    expect(app.ledger.count()).toBe(count);
  });

  test('100 000 rows: the list stays a small window of DOM nodes while scrolling anywhere', async ({ app }) => {
    const year = shanghaiToday().slice(0, 4);
    const db = app.ledger.database;
    const insert = db.prepare(
      `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
         occurred_at, occurred_date, occurred_ms, source, created_at, updated_at)
       VALUES (?, ?, 'CNY', 'EXPENSE', 1, 1, ?, ?, ?, ?, 'import', ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 100_000; i++) {
        const day = new Date(Date.UTC(Number(year), 0, 1 + (i % 365))).toISOString().slice(0, 10);
        const iso = `${day}T12:${String(i % 60).padStart(2, '0')}:00+08:00`;
        insert.run(`big-${i}`, 100 + (i % 1000), `大账本${i}`, iso, day, Date.parse(iso), iso, iso);
      }
    })();
    const page = await app.open('#/ledger');
    await page.getByRole('button', { name: '本年' }).click();
    await expect(page.locator('p.summary')).toHaveAttribute('aria-label', /^共 100000 笔/);
    const list = page.getByRole('grid', { name: '明细列表' });
    for (const fraction of [0.5, 0.9, 0.25, 1]) {
      await list.evaluate((el, f) => (el.scrollTop = f * (el.scrollHeight - el.clientHeight)), fraction);
      await expect(list.locator('.row .description').first()).toHaveText(/^大账本\d+$/);
      expect(await list.locator('.row, .day').count()).toBeLessThan(60);
    }
  });

  test('categories and accounts page renders in light and dark', async ({ app }) => {
    seed(app);
    for (const scheme of ['light', 'dark'] as const) {
      const page = await app.open('#/categories', { colorScheme: scheme });
      await expect(page.getByRole('region', { name: '分类' }).getByText('人情往来')).toBeVisible();
      await expect(page.getByRole('region', { name: '账户' }).getByRole('listitem', { name: '钱包', exact: true })).toBeVisible();
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/categories-${scheme}.png` });
    }
  });
});

// A book that syncs with another computer: 明细 says who recorded each row (记账人), the
// editor shows it read-only, and a refund's editor picks the purchase it returns.
test.describe('明细 in a synced book', () => {
  const PASSPHRASE = 'e2e-家庭账本-Q7v4kX';
  /** scrypt cheap enough for a test. */
  const KDF = { name: 'scrypt', N: 1024, r: 8, p: 1 } as const;
  test.use({ appOptions: { connection: 'offline', sync: { engine: { kdf: KDF }, debounceMs: 200, intervalMs: 10 * 60_000 } } });

  test('each row names the computer that recorded it; the editor shows it; a refund is linked to its purchase', async ({ app }) => {
    const remoteDir = mkdtempSync(join(tmpdir(), 'skj-e2e-recorders-remote-'));
    const otherDir = mkdtempSync(join(tmpdir(), 'skj-e2e-recorders-other-'));
    // The second computer: its own ledger file and engine on the same synced folder.
    const other = openLedger({ path: join(otherDir, 'ledger.db'), recordedBy: '小李的电脑' });
    try {
      other.journal.setCapture(true);
      const engine = new SyncEngine({
        db: other.database,
        journal: other.journal,
        dbPath: other.path,
        remote: new FolderRemote(remoteDir, other.journal.deviceId),
        passphrase: PASSPHRASE,
        deviceName: '小李的电脑',
        kdf: KDF,
      });
      await app.core.sync.configure({ remote: { kind: 'folder', path: remoteDir }, passphrase: PASSPHRASE, deviceName: '小王的电脑' });
      const today = shanghaiToday();
      const item = (over: Partial<ParseResult>): ParseResult => ({
        amount: 35,
        type: 'EXPENSE',
        category: '餐饮',
        description: '',
        date: today,
        account: null,
        confidence: 1,
        source: 'local',
        ...over,
      });
      const [shoes] = app.core.history.saveBatch([
        item({ amount: 500, category: '购物', description: '淘宝买鞋' }),
        item({ amount: 35, description: '午饭' }),
      ]);
      // Money back, not yet said to be for the shoes: the user links it in the editor.
      app.core.history.saveBatch([item({ amount: 300, category: '购物', description: '退货退款', flow: 'refund' })]);
      await engine.round();
      other.saveBatch([
        item({ amount: 42.8, description: '买菜' }),
        item({ amount: 9000, type: 'INCOME', category: '工资', description: '小李工资' }),
      ]);
      await engine.round();
      await app.core.sync.syncNow();
      expect(app.ledger.search('买菜')[0]!.recordedBy).toBe('小李的电脑');

      const page = await app.open('#/ledger');
      const rows = ledgerRows(page);
      const row = (text: string) => rows.filter({ has: page.locator('.description', { hasText: text }) });
      await expect(row('买菜').getByLabel('记账人：小李的电脑')).toHaveText('小李的电脑');
      await expect(row('午饭').getByLabel('记账人：小王的电脑')).toHaveText('小王的电脑');
      await expect(row('买菜').locator('.amount')).toHaveText('−¥42.80');
      await expect(row('小李工资').locator('.amount')).toHaveText('+¥9,000.00');
      // A refund is money back with its own tag, never 支出.
      await expect(row('退货退款').locator('.amount')).toHaveText('+¥300.00');
      await expect(row('退货退款').locator('.tag')).toHaveText('退款');
      await expect(page.locator(`.day[data-date="${today}"] .day-date`)).toHaveText(/^今天 周[日一二三四五六]$/);
      await expect(row('午饭').locator('.time')).toHaveText(/^\d{2}:\d{2}$/);
      await screenshots(page, 'ledger-recorders');

      await row('买菜').getByRole('button', { name: '编辑 买菜' }).click();
      const editor = page.getByRole('form', { name: '编辑记录' });
      await expect(editor.getByLabel('记账人')).toHaveValue('小李的电脑');
      await expect(editor.getByLabel('记账人')).toHaveJSProperty('readOnly', true);
      await expect(editor.getByLabel('金额')).toHaveValue('42.80');
      await screenshots(page, 'ledger-editor-recorder');
      await editor.getByRole('button', { name: '取消' }).click();
      await expect(editor).toBeHidden();

      // 退的是哪一笔: the refund's editor offers the purchases it may return.
      await row('退货退款').getByRole('button', { name: '编辑 退货退款' }).click();
      await expect(editor.getByLabel('类型')).toHaveValue('退款');
      const picker = editor.getByRole('combobox', { name: '退的是哪一笔' });
      await expect(picker.locator('option', { hasText: '淘宝买鞋' })).toHaveText('今天 淘宝买鞋 ¥500.00');
      await picker.selectOption(shoes!.id);
      await screenshots(page, 'refund-link-editor');
      await editor.getByRole('button', { name: '保存' }).click();
      await expect(editor).toBeHidden();
      expect(app.ledger.search('退货退款')[0]!.refundOf).toBe(shoes!.id);
      await expect(row('退货退款').locator('.tag')).toHaveText(/^退款 · 今天\s?淘宝买鞋 ¥500\.00$/);
    } finally {
      other.close();
      rmSync(otherDir, { recursive: true, force: true });
      rmSync(remoteDir, { recursive: true, force: true });
    }
  });
});

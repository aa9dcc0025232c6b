import type { Page } from '@playwright/test';
import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test } from './fixtures';

const FOUR_ITEMS = '吃饭花了60，洗脚花了60，抢红包抢了30，工资收到90';

/** Today as the app computes it: this machine's zone (the core runs here). */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** What a chat model answers to the parse prompt for the four-item sentence. */
function fourItemAnswer() {
  const tx = (amount: number, type: 'EXPENSE' | 'INCOME', category: string, description: string) => ({
    amount,
    currency: 'CNY',
    date: today(),
    category,
    description,
    type,
    account: '钱包',
    confidence: 0.93,
  });
  return {
    transactions: [
      tx(60, 'EXPENSE', '餐饮', '吃饭'),
      tx(60, 'EXPENSE', '其他', '洗脚'),
      tx(30, 'INCOME', '红包', '抢红包'),
      tx(90, 'INCOME', '工资', '工资'),
    ],
  };
}

async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: '文字输入' });
  await box.fill(text);
  await box.press('Enter');
  // Accepted input clears the box; after an exit word the box is gone with the session.
  // One read of whatever boxes exist, so a box removed mid-check cannot stall the wait.
  const typed = () => box.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value).join(''));
  await expect.poll(typed, { timeout: 10_000, message: `「${text}」 was not accepted` }).toBe('');
}

const card = (page: Page) => page.getByRole('region', { name: '确认卡片' });
const row = (page: Page, n: number) => card(page).getByRole('listitem', { name: `第${n}笔` });

async function expectFits(page: Page): Promise<void> {
  expect(await overflowingElements(page, '[aria-label="确认卡片"], [aria-label="语音记账"]')).toEqual([]);
  // Rows may scroll out of the list vertically, never sideways.
  expect(await overflowingElements(page, '[aria-label="确认卡片"] li', 'x')).toEqual([]);
}

test.describe('online (LLM double)', () => {
  test.use({ appOptions: { connection: 'llm' } });

  test('four items → list; 「第三笔改为支出」 updates row 3; cancel row 2 and 「确认」 saves 3 rows', async ({ app }) => {
    const page = await app.open('#/session');
    const model = app.model!;
    await expect(page.getByRole('status', { name: '会话状态' })).toContainText('待机');
    model.answer(fourItemAnswer());
    await say(page, FOUR_ITEMS);

    await expect(card(page).getByRole('listitem')).toHaveCount(4);
    await expect(page.getByRole('status', { name: '会话状态' })).toContainText('请确认');
    await expect(row(page, 3)).toContainText('收入');
    await expect(row(page, 3)).toContainText('¥30');
    await expect(row(page, 1)).toHaveAttribute('data-status', 'pending');
    await expectFits(page);
    expect(await hanziRenderAsGlyphs(page)).toBe(true);
    await screenshots(page, 'session-four-items');
    // The model really was asked, with the user's key.
    expect(model.server.calls[0]?.authorization).toBe('Bearer sk-e2e-fake-0000');

    model.answer({ intent: 'correction', corrections: [{ index: 2, updatedFields: { type: 'EXPENSE' } }], confidence: 0.95 });
    await say(page, '第三笔改为支出');
    await expect(row(page, 3)).toContainText('支出');
    await expect(row(page, 3)).toHaveAttribute('data-status', 'pending');
    await expect(row(page, 1)).toContainText('餐饮');

    await row(page, 2).getByRole('button', { name: '取消第2笔' }).click();
    await expect(row(page, 2)).toHaveAttribute('data-status', 'cancelled');
    await expect(row(page, 2)).toContainText('已取消');

    await say(page, '确认');
    await expect(card(page)).toHaveCount(0);
    await expect(page.getByRole('list', { name: '对话记录' })).toContainText('已保存 3 笔');
    const saved = app.ledger.list({ limit: 50 }).rows;
    expect(saved.map((r) => [r.description, r.type, r.amountFen]).sort()).toEqual(
      [
        ['吃饭', 'EXPENSE', 6000],
        ['抢红包', 'EXPENSE', 3000],
        ['工资', 'INCOME', 9000],
      ].sort(),
    );
  });

  test('inline edit goes through the orchestrator and the card shows its answer', async ({ app }) => {
    const page = await app.open('#/session');
    app.model!.answer(fourItemAnswer());
    await say(page, FOUR_ITEMS);
    await row(page, 4).getByRole('button', { name: '修改第4笔' }).click();
    const form = page.getByRole('form', { name: '修改第4笔' });
    await form.getByLabel('金额（元）').fill('95.5');
    await form.getByLabel('备注').fill('二月工资');
    await form.getByRole('button', { name: '保存修改' }).click();
    await expect(row(page, 4)).toContainText('¥95.50');
    await expect(row(page, 4)).toContainText('二月工资');
    await row(page, 4).getByRole('button', { name: '确认第4笔' }).click();
    await expect(row(page, 4)).toHaveAttribute('data-status', 'confirmed');
    await card(page).getByRole('button', { name: '取消', exact: true }).click();
    await expect(card(page)).toHaveCount(0);
    const saved = app.ledger.list({ limit: 50 }).rows;
    expect(saved.map((r) => [r.description, r.amountFen])).toEqual([['二月工资', 9550]]);
  });
});

test.describe('online swipe', () => {
  test.use({ appOptions: { connection: 'llm' } });

  test('dragging a row right confirms it, left cancels it, a short drag does nothing', async ({ app }) => {
    const page = await app.open('#/session');
    app.model!.answer(fourItemAnswer());
    await say(page, FOUR_ITEMS);
    const drag = async (n: number, dx: number) => {
      const box = (await row(page, n).locator('.slide').boundingBox())!;
      const y = box.y + box.height / 2;
      const x = box.x + box.width / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx / 2, y, { steps: 4 });
      await page.mouse.move(x + dx, y, { steps: 4 });
      await page.mouse.up();
    };
    await drag(1, 30);
    await expect(card(page).getByText(/待确认 4/)).toBeVisible();
    await expect(row(page, 1)).toHaveAttribute('data-status', 'pending');
    await drag(1, 220);
    await drag(2, -220);
    await expect(row(page, 1)).toHaveAttribute('data-status', 'confirmed');
    await expect(row(page, 2)).toHaveAttribute('data-status', 'cancelled');
    await expect(row(page, 3)).toHaveAttribute('data-status', 'pending');
  });
});

test.describe('online, ten items', () => {
  test.use({ appOptions: { connection: 'llm' } });

  test('ten drafts fit the 900×600 window and scroll inside the card', async ({ app }) => {
    const page = await app.open('#/session');
    const ten = Array.from({ length: 10 }, (_, i) => ({
      amount: 10 + i,
      currency: 'CNY',
      date: today(),
      category: '餐饮',
      description: `第${i + 1}样很长很长很长很长很长很长很长很长很长很长很长很长很长很长的备注`,
      type: 'EXPENSE',
      account: '钱包',
      confidence: 0.9,
    }));
    app.model!.answer({ transactions: ten });
    await say(page, '十样东西');
    await expect(card(page).getByRole('listitem')).toHaveCount(10);
    await expectFits(page);
    await expect(card(page).getByRole('button', { name: '全部确认' })).toBeInViewport();
    await row(page, 10).scrollIntoViewIfNeeded();
    await expect(row(page, 10).getByRole('button', { name: '确认第10笔' })).toBeInViewport();
    await expect(page.getByRole('textbox', { name: '文字输入' })).toBeInViewport();
    await screenshots(page, 'session-ten-items');
  });
});

test.describe('offline', () => {
  test('empty session renders in both themes', async ({ app }) => {
    const page = await app.open('#/session');
    await expect(page.getByRole('status', { name: '会话状态' })).toContainText('待机');
    await expect(page.getByRole('note')).toHaveText('离线');
    expect(await hanziRenderAsGlyphs(page)).toBe(true);
    await screenshots(page, 'session-empty');
  });

  test('offline, the four-item sentence gives four drafts; 「第三笔改为支出」 and 确认 save four rows', async ({ app }) => {
    const page = await app.open('#/session');
    await say(page, FOUR_ITEMS);
    await expect(card(page)).toHaveAttribute('data-count', '4');
    await expect(card(page).getByRole('listitem')).toHaveCount(4);
    await expect(row(page, 1)).toContainText('¥60');
    // The local rules read 抢红包 as income: the correction below really changes it.
    await expect(row(page, 3)).toContainText('收入');
    await expect(row(page, 3)).toContainText('¥30');
    const log = page.getByRole('list', { name: '对话记录' });
    await expect(log).not.toContainText('仅支持单笔记账');
    await expectFits(page);
    await screenshots(page, 'session-offline-four');

    await say(page, '第三笔改为支出');
    await expect(row(page, 3)).toContainText('支出');
    await expect(row(page, 3)).toHaveAttribute('data-status', 'pending');
    await card(page).getByRole('button', { name: '全部确认' }).click();
    await expect(card(page)).toHaveCount(0);
    const saved = app.ledger.list({ limit: 10 });
    expect(saved.rows).toHaveLength(4);
    expect(saved.rows.map((r) => r.amountFen).sort((a, b) => a - b)).toEqual([3000, 6000, 6000, 9000]);
    expect(saved.rows.find((r) => r.amountFen === 3000)?.type).toBe('EXPENSE');
  });

  test('a draft without an amount is marked 缺金额, asked for, filled by 「二十八」, then saved', async ({ app }) => {
    const page = await app.open('#/session');
    await say(page, '打车，还有午饭35');
    await expect(card(page).getByRole('listitem')).toHaveCount(2);
    await expect(row(page, 1)).toContainText('缺金额');
    await expect(row(page, 1)).not.toContainText('¥');
    const confirmFirst = row(page, 1).getByRole('button', { name: '确认第1笔' });
    await expect(confirmFirst).toBeDisabled();
    await expect(confirmFirst).toHaveAttribute('title', '请先说出或填写金额');
    await expect(row(page, 2)).toContainText('¥35');
    await expect(row(page, 2).getByRole('button', { name: '确认第2笔' })).toBeEnabled();
    await expect(card(page).getByRole('button', { name: '全部确认' })).toBeEnabled();
    const log = page.getByRole('list', { name: '对话记录' });
    await expect(log).toContainText('第1笔打车多少钱？');
    await expectFits(page);
    await screenshots(page, 'session-missing-amount');

    await say(page, '二十八');
    await expect(row(page, 1)).toContainText('¥28');
    await expect(row(page, 1)).not.toContainText('缺金额');
    await expect(confirmFirst).toBeEnabled();
    await card(page).getByRole('button', { name: '全部确认' }).click();
    await expect(card(page)).toHaveCount(0);
    const saved = app.ledger.list({ limit: 10 });
    expect(saved.rows.map((r) => r.amountFen).sort((a, b) => a - b)).toEqual([2800, 3500]);
  });

  test('ENDED lists drafts left pending under 未确认; 继续确认 opens the next session with them', async ({ app }) => {
    const page = await app.open('#/session');
    await say(page, '午饭35，打车20');
    await expect(card(page).getByRole('listitem')).toHaveCount(2);
    await say(page, '没有了');
    const summary = page.getByRole('region', { name: '会话总结' });
    await expect(summary.getByRole('heading', { name: /未确认/ })).toBeVisible();
    const left = summary.getByRole('list', { name: '未确认' }).getByRole('listitem');
    await expect(left).toHaveCount(2);
    await expect(left.nth(0)).toContainText('¥35');
    await expect(left.nth(1)).toContainText('¥20');
    // The next session opens with these drafts: no 「重新开始」 promising a clean slate.
    await expect(summary.getByRole('button', { name: '重新开始' })).toHaveCount(0);
    expect(await overflowingElements(page, '[aria-label="会话总结"], [aria-label="语音记账"]')).toEqual([]);
    await screenshots(page, 'session-ended-unconfirmed');
    expect(app.ledger.count()).toBe(0);

    await summary.getByRole('button', { name: '继续确认' }).click();
    await expect(summary).toHaveCount(0);
    await expect(card(page).getByRole('listitem')).toHaveCount(2);
    await expect(row(page, 1)).toContainText('¥35');
    await expect(row(page, 2)).toContainText('¥20');
    await expect(row(page, 1)).toHaveAttribute('data-status', 'pending');
  });

  test('ENDED shows the summary; restart clears the log and starts a new session', async ({ app }) => {
    const page = await app.open('#/session');
    await say(page, '午饭35');
    await card(page).getByRole('button', { name: '确认', exact: true }).click();
    await expect(card(page)).toHaveCount(0);
    await say(page, '没有了');
    const summary = page.getByRole('region', { name: '会话总结' });
    await expect(summary).toContainText('共记录 1 笔');
    await expect(summary).toContainText('¥35');
    await expect(page.getByRole('status', { name: '会话状态' })).toContainText('已结束');
    await screenshots(page, 'session-ended');

    await summary.getByRole('button', { name: '重新开始' }).click();
    await expect(summary).toHaveCount(0);
    await expect(page.getByRole('status', { name: '会话状态' })).not.toContainText('已结束');
    // The old session's lines are gone; the new one's greeting may already be there.
    await expect(
      page.getByRole('list', { name: '对话记录' }).locator('li[data-kind="user"], li[data-kind="saved"], li[data-kind="notice"]'),
    ).toHaveCount(0);
    // The new session works.
    await say(page, '打车20');
    await expect(card(page)).toContainText('¥20');
  });

  test('a saved refund and a saved 报销到账 read as the card words them, once per save', async ({ app }) => {
    const page = await app.open('#/session');
    const log = page.getByRole('list', { name: '对话记录' });
    const savedLines = log.locator('li[data-kind="saved"]');
    const confirm = () => card(page).getByRole('button', { name: '确认', exact: true }).click();

    await say(page, '淘宝买鞋五百');
    await confirm();
    await expect(savedLines.last()).toHaveText(/^已保存\s*1 笔：支出 ¥500\.00 · 淘宝买鞋\s*$/);
    await say(page, '淘宝买鞋那笔退了三百');
    await expect(card(page)).toContainText('退款');
    // The link in the screen's money and day, not the read-back's 「500元」.
    await expect(card(page)).toContainText(/退的是 (今天|昨天|\d+月\d+日) 淘宝买鞋 ¥500\.00/);
    await expectFits(page);
    await screenshots(page, 'session-refund-card');
    await confirm();
    await expect(savedLines.last()).toHaveText(/^已保存\s*1 笔：退款 ¥300\.00 · 淘宝买鞋\s*$/);
    await expect(log).not.toContainText('支出 ¥300.00');
    await screenshots(page, 'session-saved-refund');

    await say(page, '出差打车八十可以报销');
    await confirm();
    await say(page, '住酒店六百可以报销');
    await confirm();
    await say(page, '报销到账五百');
    // 500 pays the 80 and part of the 600: what those still lack is said, not what is left over.
    await expect(card(page)).toContainText('报销2笔待报销，还差 ¥180.00');
    await expect(log.locator('li[data-kind="app"]').last()).toContainText('还差180元');
    await screenshots(page, 'session-reimbursement-card');
    await confirm();
    await expect(savedLines.last()).toHaveText(/^已保存\s*1 笔：报销到账 ¥500\.00\s*$/);
    await expect(log).not.toContainText('收入 ¥500.00');
    // Each save is announced once: five saved lines, no spoken 「已保存…」 beside them.
    await expect(savedLines).toHaveCount(5);
    await expect(log.locator('li[data-kind="app"]', { hasText: '已保存' })).toHaveCount(0);
    expect(await overflowingElements(page, '[aria-label="对话记录"]', 'x')).toEqual([]);
    await screenshots(page, 'session-saved-reimbursement');
  });

  test('a card that would take the wallet below zero says so, and confirms all the same', async ({ app }) => {
    const cash = app.ledger.addAccount('现金', 100_00);
    app.ledger.setDefaultAccount(cash.id);
    const page = await app.open('#/session');
    await say(page, '午饭六十，晚饭八十');
    await expect(row(page, 1).getByRole('note')).toHaveCount(0);
    await expect(row(page, 2).getByRole('note')).toHaveText('现金余额将变为 −¥40.00');
    await expectFits(page);
    await screenshots(page, 'session-overdraft-note');
    await card(page).getByRole('button', { name: '全部确认' }).click();
    await expect(card(page)).toHaveCount(0);
    expect(app.ledger.accountBalances().accounts.find((a) => a.name === '现金')?.balanceFen).toBe(-40_00);
  });

  test("the category picker offers the user's own categories from the ledger", async ({ app }) => {
    const page = await app.open('#/session');
    expect(await app.core.dispatch('addCategory', { name: '奶茶', type: 'EXPENSE' })).toMatchObject({ ok: true });
    await say(page, '午饭35');
    await card(page).getByRole('button', { name: '修改' }).click();
    const form = page.getByRole('form', { name: '修改第1笔' });
    await form.getByLabel('分类').selectOption('奶茶');
    await form.getByRole('button', { name: '保存修改' }).click();
    await expect(card(page)).toContainText('奶茶');
    await card(page).getByRole('button', { name: '确认', exact: true }).click();
    await expect(card(page)).toHaveCount(0);
    expect(app.ledger.list({ limit: 10 }).rows.map((r) => [r.category, r.amountFen])).toEqual([['奶茶', 3500]]);
  });

  test('an error says what to do and its button leads there', async ({ app }) => {
    // DashScope chosen without a key or gateway: cloud recognition cannot start.
    app.core.settings.save({ settings: { asr: { provider: 'dashscope' } }, secrets: {} });
    const page = await app.open('#/session');
    await page.getByRole('button', { name: '开始聆听' }).click();
    const error = page.getByRole('list', { name: '对话记录' }).locator('li[data-kind="error"]').first();
    await expect(error).toBeVisible();
    await expect(error).toContainText('请');
    await error.getByRole('button').click();
    await expect(page).toHaveURL(/#\/settings/);
    await expect(page.getByRole('heading', { name: '设置' })).toBeVisible();
  });

  test('Esc in ENDED leaves the session page', async ({ app }) => {
    const page = await app.open('#/session');
    await say(page, '退出');
    await expect(page.getByRole('region', { name: '会话总结' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/#\/ledger$/);
  });
});

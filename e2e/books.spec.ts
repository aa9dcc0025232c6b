import { expect, go, sayAndConfirm, screenshots, test, ledgerRows } from './fixtures';

// Several books against the real app core through the bridge: a book created in 设置, entries
// said into it, the sidebar switching back, and a voice card that stays with its book.

test('账本: a new book from 设置, entries kept apart, the sidebar and title follow the switch', async ({ app }) => {
  const { page } = app;
  await sayAndConfirm(app, '午饭三十五');
  const home = app.core.book('main').ledger;

  await go(page, 'settings');
  const books = page.getByRole('region', { name: '账本', exact: true });
  await books.getByRole('textbox', { name: '新账本名称' }).fill('旅行');
  await books.getByRole('button', { name: '新建账本' }).click();
  const switcher = page.getByRole('combobox', { name: '当前账本' });
  await expect(switcher.locator('option:checked')).toHaveText('旅行');
  await expect(page).toHaveTitle('随口记 — 旅行');
  await screenshots(page, 'books-settings');

  await sayAndConfirm(app, '机票一千二');
  expect(app.ledger.list({}).rows.map((r) => r.amountFen)).toEqual([1200_00]);
  expect(home.list({}).rows.map((r) => r.amountFen)).toEqual([35_00]);

  await go(page, 'home');
  await expect(page.getByTestId('home-book')).toHaveText('旅行');
  await expect(page.getByRole('region', { name: '本月概览' })).toContainText(/¥1,?200/);
  await screenshots(page, 'books-switch');

  // A card spoken in 旅行 and confirmed after switching to 我的账本 is saved in 旅行.
  await go(page, 'session');
  const box = page.getByRole('textbox', { name: '文字输入' });
  await box.fill('门票八十');
  await box.press('Enter');
  await expect.poll(async () => (await app.core.dispatch('voiceSnapshot', {})).ok).toBe(true);
  await expect(page.getByText('门票').first()).toBeVisible();
  await switcher.selectOption({ label: '我的账本' });
  await expect(page).toHaveTitle('随口记 — 我的账本');
  await go(page, 'session');
  await page.getByRole('textbox', { name: '文字输入' }).fill('确认');
  await page.getByRole('textbox', { name: '文字输入' }).press('Enter');
  await expect.poll(() => app.core.book(app.core.books.listing().books.find((b) => b.name === '旅行')!.id).ledger.count()).toBe(2);
  expect(home.count()).toBe(1);

  await go(page, 'ledger');
  const rows = ledgerRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('午饭');
});

test('账本: a book archived from 设置 leaves the switcher, and 恢复 brings it back', async ({ app }) => {
  const { page } = app;
  await go(page, 'settings');
  const books = page.getByRole('region', { name: '账本', exact: true });
  await books.getByRole('textbox', { name: '新账本名称' }).fill('装修');
  await books.getByRole('checkbox', { name: '建好后切换过去' }).uncheck();
  await books.getByRole('button', { name: '新建账本' }).click();
  const list = books.getByRole('list', { name: '账本列表' });
  const renovation = list.getByRole('listitem', { name: '装修' });
  await expect(renovation).toBeVisible();
  const switcher = page.getByRole('combobox', { name: '当前账本' });
  await expect(switcher.locator('option', { hasText: '装修' })).toHaveCount(1);

  await renovation.getByRole('button', { name: '归档 装修' }).click();
  await expect(renovation.getByText('已归档')).toBeVisible();
  // An archived book is kept but out of the way: not offered for switching, nor switched to here.
  await expect(renovation.getByRole('button', { name: '切换' })).toHaveCount(0);
  await expect(switcher.locator('option', { hasText: '装修' })).toHaveCount(0);
  expect(app.core.books.listing().books.find((b) => b.name === '装修')?.archived).toBe(true);
  await books.scrollIntoViewIfNeeded();
  await screenshots(page, 'books-archived');

  await renovation.getByRole('button', { name: '恢复 装修' }).click();
  await expect(renovation.getByText('已归档')).toHaveCount(0);
  await expect(renovation.getByRole('button', { name: '切换' })).toBeVisible();
  await expect(switcher.locator('option', { hasText: '装修' })).toHaveCount(1);
  expect(app.core.books.listing().books.find((b) => b.name === '装修')?.archived).toBe(false);
  await books.scrollIntoViewIfNeeded();
  await screenshots(page, 'books-restored');
});

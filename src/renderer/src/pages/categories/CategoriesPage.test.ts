import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import CategoriesPage from './CategoriesPage.svelte';

// The page against a fake of the ledger commands: what it sends and how it shows the answers.
// The same flows against the real handler table and SQLite ledger are in e2e/categories.spec.ts.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const categoryPanel = () => screen.getByRole('region', { name: '分类' });
const accountPanel = () => screen.getByRole('region', { name: '账户' });
const names = () =>
  within(categoryPanel())
    .getAllByRole('listitem')
    .map((li) => li.getAttribute('aria-label'));

async function submit(label: string, value: string) {
  await fireEvent.input(screen.getByLabelText(label), { target: { value } });
  await fireEvent.submit(screen.getByLabelText(label).closest('form')!);
}

describe('分类与账户', () => {
  it('lists the categories of the chosen type in the order main sends them', async () => {
    render(CategoriesPage);
    await screen.findByText('餐饮');
    expect(names()).toEqual(['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他', '宠物', '旅行']);
    expect(within(within(categoryPanel()).getByRole('listitem', { name: '宠物' })).getByText('已隐藏')).toBeTruthy();

    await fireEvent.click(within(categoryPanel()).getByRole('button', { name: '收入' }));
    expect(names()).toEqual(['工资', '奖金', '兼职', '红包', '其他']);
  });

  it('adds, reorders, renames and hides categories, sending each command and showing the reloaded list', async () => {
    render(CategoriesPage);
    await screen.findByText('餐饮');

    await submit('新分类名称', '咖啡');
    await within(categoryPanel()).findByText('咖啡');
    expect(fake.inputsOf('addCategory')).toEqual([{ name: '咖啡', type: 'EXPENSE' }]);
    await vi.waitFor(() => expect((screen.getByLabelText('新分类名称') as HTMLInputElement).value).toBe(''));
    const coffee = fake.category('咖啡').id;
    const travel = fake.category('旅行').id;

    await fireEvent.click(screen.getByRole('button', { name: '上移 咖啡' }));
    await within(categoryPanel()).findByRole('button', { name: '下移 咖啡' });
    expect(fake.inputsOf('reorderCategories')[0]?.ids.slice(-2)).toEqual([coffee, travel]);
    expect(names().slice(-2)).toEqual(['咖啡', '旅行']);

    await fireEvent.click(screen.getByRole('button', { name: '重命名 咖啡' }));
    await submit('新名称：咖啡', '咖啡茶饮');
    await within(categoryPanel()).findByText('咖啡茶饮');
    expect(fake.inputsOf('renameCategory')).toEqual([{ id: coffee, name: '咖啡茶饮' }]);

    await fireEvent.click(screen.getByRole('button', { name: '隐藏 餐饮' }));
    await screen.findByRole('button', { name: '显示 餐饮' });
    expect(fake.inputsOf('setCategoryHidden')).toEqual([{ id: fake.category('餐饮').id, hidden: true }]);
    expect(within(within(categoryPanel()).getByRole('listitem', { name: '餐饮' })).getByText('已隐藏')).toBeTruthy();
  });

  it('deletes an unused custom category at once, offers no delete for presets, and shows the refusal sentence main sends', async () => {
    fake.categories.push({ id: 900, name: '咖啡', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 20, count: 0, parentId: null });
    render(CategoriesPage);
    await screen.findByText('咖啡');
    expect(screen.queryByRole('button', { name: '删除 餐饮' })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '删除 咖啡' }));
    await vi.waitFor(() => expect(within(categoryPanel()).queryByText('咖啡')).toBeNull());
    expect(fake.inputsOf('deleteCategory')).toEqual([{ id: 900 }]);
    expect(screen.queryByRole('dialog')).toBeNull();

    fake.failNext('addCategory', { code: 'duplicate_name', message: '已有名为「餐饮」的分类' });
    await submit('新分类名称', '餐饮');
    expect((await screen.findByRole('alert')).textContent).toContain('已有名为「餐饮」的分类');
    expect((screen.getByLabelText('新分类名称') as HTMLInputElement).value).toBe('餐饮');

    // The next command that succeeds clears the sentence.
    await fireEvent.click(screen.getByRole('button', { name: '隐藏 交通' }));
    await screen.findByRole('button', { name: '显示 交通' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('deletes a used category only after the user picks where its rows go', async () => {
    fake.categories.push({ id: 900, name: '咖啡', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 20, count: 0, parentId: null });
    fake.addRow({ amountFen: 1500, category: '咖啡', description: '拿铁' });
    fake.addRow({ amountFen: 1200, category: '咖啡', description: '美式' });
    render(CategoriesPage);
    await within(await within(categoryPanel()).findByRole('listitem', { name: '咖啡' })).findByText('2 笔');

    // Esc closes the question and nothing is sent.
    await fireEvent.click(screen.getByRole('button', { name: '删除 咖啡' }));
    await fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '删除 咖啡' }));
    const dialog = screen.getByRole('dialog', { name: '删除分类「咖啡」' });
    expect(dialog.textContent).toContain('「咖啡」下有 2 笔记录，删除前请选择移到哪个分类');
    const select = within(dialog).getByRole('combobox', { name: '移到' }) as HTMLSelectElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(select));
    const options = [...select.options].filter((o) => !o.disabled).map((o) => o.textContent);
    expect(options).toEqual(['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他', '宠物（已隐藏）', '旅行（已隐藏）']);
    const confirm = within(dialog).getByRole('button', { name: '移动并删除' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await fireEvent.submit(confirm.closest('form')!);
    expect(fake.inputsOf('deleteCategory')).toEqual([]);

    await fireEvent.change(select, { target: { value: String(fake.category('餐饮').id) } });
    expect(confirm.disabled).toBe(false);
    await fireEvent.click(confirm);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.inputsOf('deleteCategory')).toEqual([{ id: 900, moveTo: fake.category('餐饮').id }]);
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('已删除「咖啡」，2 笔记录移到了「餐饮」'));
    expect(within(categoryPanel()).queryByText('咖啡')).toBeNull();
    expect(within(within(categoryPanel()).getByRole('listitem', { name: '餐饮' })).getByText('2 笔')).toBeTruthy();
  });

  it('keeps the dialog open with the ledger’s sentence when the move is refused', async () => {
    fake.categories.push({ id: 900, name: '咖啡', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 20, count: 0, parentId: null });
    fake.addRow({ amountFen: 1500, category: '咖啡', description: '拿铁' });
    render(CategoriesPage);
    await within(await within(categoryPanel()).findByRole('listitem', { name: '咖啡' })).findByText('1 笔');
    await fireEvent.click(screen.getByRole('button', { name: '删除 咖啡' }));
    const dialog = screen.getByRole('dialog');
    await fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: String(fake.category('交通').id) } });
    fake.failNext('deleteCategory', { code: 'ledger_error', message: '账本暂时无法写入，请稍后重试。' });
    await fireEvent.click(within(dialog).getByRole('button', { name: '移动并删除' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('账本暂时无法写入，请稍后重试。');
    expect(within(categoryPanel()).getByText('咖啡')).toBeTruthy();
  });

  it('reloads when the ledger announces a change', async () => {
    render(CategoriesPage);
    await screen.findByText('餐饮');
    expect(within(within(categoryPanel()).getByRole('listitem', { name: '交通' })).getByText('0 笔')).toBeTruthy();
    fake.addRow({ amountFen: 400, category: '交通', description: '地铁' });
    fake.changed('save');
    await within(within(categoryPanel()).getByRole('listitem', { name: '交通' })).findByText('1 笔');
  });
});

describe('sub-categories', () => {
  const sub = (id: number, name: string, parent: string, sortOrder = 0) =>
    fake.categories.push({ id, name, type: 'EXPENSE', hidden: false, preset: false, sortOrder, count: 0, parentId: fake.category(parent).id });

  it('shows each sub-category under its parent, in their own order, and reorders among siblings', async () => {
    sub(901, '午餐', '餐饮', 1);
    sub(900, '早餐', '餐饮', 0);
    sub(902, '地铁', '交通', 0);
    render(CategoriesPage);
    await screen.findByText('早餐');
    expect(names().slice(0, 6)).toEqual(['餐饮', '早餐', '午餐', '交通', '地铁', '购物']);
    expect(within(categoryPanel()).getByRole('listitem', { name: '早餐' }).classList.contains('child')).toBe(true);
    // Only top-level categories take sub-categories: two levels at most.
    expect(screen.queryByRole('button', { name: '添加子分类 早餐' })).toBeNull();
    expect((screen.getByRole('button', { name: '上移 早餐' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '下移 午餐' }) as HTMLButtonElement).disabled).toBe(true);

    await fireEvent.click(screen.getByRole('button', { name: '下移 餐饮' }));
    await vi.waitFor(() => expect(names().slice(0, 5)).toEqual(['交通', '地铁', '餐饮', '早餐', '午餐']));
    // The parent moves with its children; the whole type goes in tree order.
    expect(fake.inputsOf('reorderCategories')[0]?.ids.slice(0, 5)).toEqual([fake.category('交通').id, 902, fake.category('餐饮').id, 900, 901]);

    await fireEvent.click(screen.getByRole('button', { name: '上移 午餐' }));
    await vi.waitFor(() => expect(names().slice(2, 5)).toEqual(['餐饮', '午餐', '早餐']));
  });

  it('adds a sub-category under a top-level one, sending its parentId', async () => {
    render(CategoriesPage);
    await screen.findByText('餐饮');
    await fireEvent.click(screen.getByRole('button', { name: '添加子分类 餐饮' }));
    await submit('子分类名称：餐饮', '早餐');
    await within(categoryPanel()).findByText('早餐');
    expect(fake.inputsOf('addCategory')).toEqual([{ name: '早餐', type: 'EXPENSE', parentId: fake.category('餐饮').id }]);
    expect(names().slice(0, 3)).toEqual(['餐饮', '早餐', '交通']);
    expect(screen.queryByLabelText('子分类名称：餐饮')).toBeNull();

    fake.failNext('addCategory', { code: 'duplicate_name', message: '已有名为「早餐」的分类' });
    await fireEvent.click(screen.getByRole('button', { name: '添加子分类 交通' }));
    await submit('子分类名称：交通', '早餐');
    expect((await screen.findByRole('alert')).textContent).toBe('已有名为「早餐」的分类');
    expect(screen.getByLabelText('子分类名称：交通')).toBeTruthy();
  });

  it('moves a category under another and back to the top level, and shows a refusal in the dialog', async () => {
    sub(900, '早餐', '餐饮');
    render(CategoriesPage);
    await screen.findByText('早餐');

    await fireEvent.click(screen.getByRole('button', { name: '移动 娱乐' }));
    let dialog = screen.getByRole('dialog', { name: '移动分类「娱乐」' });
    const select = within(dialog).getByRole('combobox', { name: '移到' }) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect([...select.options].map((o) => o.textContent)).not.toContain('娱乐 之下');
    await fireEvent.change(select, { target: { value: String(fake.category('购物').id) } });
    await fireEvent.click(within(dialog).getByRole('button', { name: '移动' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.inputsOf('setCategoryParent')).toEqual([{ id: fake.category('娱乐').id, parentId: fake.category('购物').id }]);
    await vi.waitFor(() => expect(names().indexOf('娱乐')).toBe(names().indexOf('购物') + 1));

    await fireEvent.click(screen.getByRole('button', { name: '移动 早餐' }));
    dialog = screen.getByRole('dialog', { name: '移动分类「早餐」' });
    expect((within(dialog).getByRole('combobox') as HTMLSelectElement).value).toBe(String(fake.category('餐饮').id));
    await fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: '' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: '移动' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.inputsOf('setCategoryParent').at(-1)).toEqual({ id: 900, parentId: null });
    expect(within(categoryPanel()).getByRole('listitem', { name: '早餐' }).classList.contains('child')).toBe(false);

    await fireEvent.click(screen.getByRole('button', { name: '移动 购物' }));
    dialog = screen.getByRole('dialog', { name: '移动分类「购物」' });
    expect(dialog.textContent).toContain('「购物」下有子分类');
    await fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: String(fake.category('餐饮').id) } });
    fake.failNext('setCategoryParent', { code: 'invalid_category', message: '分类最多两级' });
    await fireEvent.click(within(dialog).getByRole('button', { name: '移动' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('分类最多两级');
  });
});

describe('tags', () => {
  const tagPanel = () => screen.getByRole('region', { name: '标签' });

  beforeEach(() => {
    fake.addRow({ amountFen: 8000, description: '打车', tags: ['出差'] });
    fake.addRow({ amountFen: 30000, description: '酒店', tags: ['出差', '报销'] });
  });

  it('lists the tags with their counts, most used first, and renames one', async () => {
    render(CategoriesPage);
    const chips = await within(tagPanel()).findAllByRole('listitem');
    expect(chips.map((li) => [li.getAttribute('aria-label'), within(li).getByText(/笔$/).textContent])).toEqual([
      ['出差', '2 笔'],
      ['报销', '1 笔'],
    ]);
    await fireEvent.click(screen.getByRole('button', { name: '重命名标签 出差' }));
    await submit('新名称：出差', '差旅');
    await within(tagPanel()).findByRole('listitem', { name: '差旅' });
    expect(fake.inputsOf('renameTag')).toEqual([{ id: expect.any(Number), name: '差旅' }]);
    expect(fake.rows.map((r) => r.tags)).toEqual([['差旅'], ['差旅', '报销']]);
  });

  it('deletes a tag only after the confirmation, keeping the rows', async () => {
    render(CategoriesPage);
    await within(tagPanel()).findByRole('listitem', { name: '报销' });
    await fireEvent.click(screen.getByRole('button', { name: '删除标签 出差' }));
    let dialog = screen.getByRole('alertdialog', { name: '删除标签「出差」？' });
    expect(dialog.textContent).toContain('2 笔记录将去掉这个标签');
    await fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(fake.inputsOf('deleteTag')).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: '删除标签 出差' }));
    dialog = screen.getByRole('alertdialog');
    await fireEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await vi.waitFor(() => expect(within(tagPanel()).queryByRole('listitem', { name: '出差' })).toBeNull());
    expect(fake.inputsOf('deleteTag')).toHaveLength(1);
    expect(fake.rows).toHaveLength(2);
    expect((await within(tagPanel()).findByRole('status')).textContent).toBe('已删除标签「出差」，2 笔记录去掉了这个标签');
  });
});

describe('accounts', () => {
  const account = (name: string) => within(accountPanel()).getByRole('listitem', { name });
  const balanceOf = (name: string) => within(account(name)).getByLabelText(/^余额 /).textContent;
  const total = () =>
    within(accountPanel())
      .getByLabelText(/^全部账户合计 /)
      .getAttribute('aria-label');

  it('shows each balance (initial + income + transfers in − expense − transfers out) and the total', async () => {
    fake.accounts.push(
      { id: 2, name: '招商银行', isDefault: false, initialBalanceFen: 500_000, archived: false, preset: false },
      { id: 3, name: '信用卡', isDefault: false, initialBalanceFen: -120_050, archived: false, preset: false },
    );
    fake.addRow({ amountFen: 3500, description: '午饭' });
    fake.addRow({ amountFen: 900_000, type: 'INCOME', category: '工资', account: '招商银行', description: '工资' });
    fake.addRow({ amountFen: 100_000, type: 'TRANSFER', category: '转账', account: '招商银行', toAccount: '钱包', description: '取现' });
    render(CategoriesPage);
    await within(accountPanel()).findByText('招商银行');
    expect(balanceOf('钱包')).toBe('¥965.00');
    expect(balanceOf('招商银行')).toBe('¥13,000.00');
    expect(balanceOf('信用卡')).toBe('\u2212¥1,200.50');
    expect(within(account('招商银行')).getByText('2 笔')).toBeTruthy();
    expect(total()).toBe('全部账户合计 ¥12,764.50');
  });

  it('adds an account with an initial balance, negative allowed, and refuses a bad amount inline without sending', async () => {
    render(CategoriesPage);
    await within(accountPanel()).findByText('钱包');
    await fireEvent.input(screen.getByLabelText('初始余额'), { target: { value: '12.345' } });
    await submit('新账户名称', '花呗');
    expect((await within(accountPanel()).findByRole('alert')).textContent).toContain('最多两位小数');
    expect(screen.getByLabelText('初始余额').getAttribute('aria-invalid')).toBe('true');
    expect(fake.inputsOf('addAccount')).toEqual([]);

    // Fixing the field clears the hint as the user types.
    await fireEvent.input(screen.getByLabelText('初始余额'), { target: { value: '-3000' } });
    expect(within(accountPanel()).queryByRole('alert')).toBeNull();
    await fireEvent.submit(screen.getByLabelText('新账户名称').closest('form')!);
    await within(accountPanel()).findByText('花呗');
    expect(balanceOf('花呗')).toBe('\u2212¥3,000.00');
    expect(total()).toBe('全部账户合计 \u2212¥3,000.00');

    await submit('新账户名称', '招商银行');
    await within(accountPanel()).findByText('招商银行');
    expect(fake.inputsOf('addAccount')).toEqual([
      { name: '花呗', initialBalanceYuan: -3000 },
      { name: '招商银行', initialBalanceYuan: 0 },
    ]);
    expect((screen.getByLabelText('初始余额') as HTMLInputElement).value).toBe('');

    fake.failNext('addAccount', { code: 'duplicate_name', message: '已有名为「招商银行」的账户' });
    await submit('新账户名称', '招商银行');
    expect((await within(accountPanel()).findByRole('alert')).textContent).toBe('已有名为「招商银行」的账户');
  });

  it('renames, sets the default, and keeps the default out of archive and delete', async () => {
    fake.accounts.push({ id: 2, name: '招商银行', isDefault: false, initialBalanceFen: 0, archived: false, preset: false });
    render(CategoriesPage);
    await within(accountPanel()).findByText('招商银行');
    expect(within(account('钱包')).getByText('默认')).toBeTruthy();
    for (const action of ['设为默认', '归档', '删除']) expect(screen.queryByRole('button', { name: `${action} 钱包` })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '重命名 招商银行' }));
    await submit('新名称：招商银行', '招行');
    await within(accountPanel()).findByText('招行');
    expect(fake.inputsOf('renameAccount')).toEqual([{ id: 2, name: '招行' }]);

    await fireEvent.click(screen.getByRole('button', { name: '设为默认 招行' }));
    await within(account('招行')).findByText('默认');
    expect(fake.inputsOf('setDefaultAccount')).toEqual([{ id: 2 }]);
    // The preset 钱包 is no longer the default, and still never archived nor deleted.
    expect(within(account('钱包')).getByText('预设')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '归档 钱包' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除 钱包' })).toBeNull();
    expect(screen.queryByRole('button', { name: '归档 招行' })).toBeNull();
  });

  it('archives into 已归档 and back, the balance still counted', async () => {
    fake.accounts.push({ id: 2, name: '招商银行', isDefault: false, initialBalanceFen: 500_000, archived: false, preset: false });
    // An account with entries is archived (one without is deleted instead).
    fake.addRow({ amountFen: 800, type: 'INCOME', account: '招商银行', description: '利息' });
    render(CategoriesPage);
    await fireEvent.click(await screen.findByRole('button', { name: '归档 招商银行' }));
    const archived = await screen.findByRole('list', { name: '已归档账户' });
    expect(within(archived).getByRole('listitem', { name: '招商银行' })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: '使用中的账户' })).queryByText('招商银行')).toBeNull();
    expect(fake.inputsOf('archiveAccount')).toEqual([{ id: 2, archived: true }]);
    expect(total()).toBe('全部账户合计 ¥5,008.00');

    await fireEvent.click(within(archived).getByRole('button', { name: '恢复 招商银行' }));
    await vi.waitFor(() => expect(screen.queryByRole('list', { name: '已归档账户' })).toBeNull());
    expect(fake.inputsOf('archiveAccount').at(-1)).toEqual({ id: 2, archived: false });
  });

  it('offers 归档, not 删除, on a used account; deletes an empty one after confirmation, showing the ledger’s refusal', async () => {
    fake.accounts.push(
      { id: 2, name: '招商银行', isDefault: false, initialBalanceFen: 0, archived: false, preset: false },
      { id: 3, name: '旧卡', isDefault: false, initialBalanceFen: 0, archived: false, preset: false },
    );
    fake.addRow({ amountFen: 800, account: '招商银行', description: '奶茶' });
    render(CategoriesPage);
    await within(accountPanel()).findByText('旧卡');
    expect(screen.queryByRole('button', { name: '删除 招商银行' })).toBeNull();
    expect(screen.getByRole('button', { name: '归档 招商银行' })).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: '删除 旧卡' }));
    const confirm = within(account('旧卡')).getByRole('group', { name: '确认删除 旧卡' });
    expect(fake.inputsOf('deleteAccount')).toEqual([]);
    await fireEvent.click(within(confirm).getByRole('button', { name: '取消' }));
    expect(within(accountPanel()).queryByRole('group')).toBeNull();

    // Another window recorded on it meanwhile: the ledger refuses, and says so under the row.
    fake.failNext('deleteAccount', { code: 'account_in_use', message: '该账户有 1 笔记录，不能删除，可以归档' });
    await fireEvent.click(screen.getByRole('button', { name: '删除 旧卡' }));
    await fireEvent.click(within(account('旧卡')).getByRole('button', { name: '确认删除' }));
    expect((await within(account('旧卡')).findByRole('alert')).textContent).toBe('该账户有 1 笔记录，不能删除，可以归档');

    await fireEvent.click(screen.getByRole('button', { name: '删除 旧卡' }));
    await fireEvent.click(within(account('旧卡')).getByRole('button', { name: '确认删除' }));
    await vi.waitFor(() => expect(within(accountPanel()).queryByText('旧卡')).toBeNull());
    expect(fake.inputsOf('deleteAccount')).toEqual([{ id: 3 }, { id: 3 }]);
  });
});

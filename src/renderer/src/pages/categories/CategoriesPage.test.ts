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

  it('offers delete only for an unused custom category, and shows the refusal sentence main sends', async () => {
    fake.categories.push(
      { id: 900, name: '咖啡', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 20, count: 0 },
      { id: 901, name: '奶茶', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 21, count: 0 },
    );
    fake.addRow({ amountFen: 1500, category: '奶茶', description: '下午茶' });
    render(CategoriesPage);
    await screen.findByText('咖啡');
    expect(screen.queryByRole('button', { name: '删除 餐饮' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除 奶茶' })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '删除 咖啡' }));
    await vi.waitFor(() => expect(within(categoryPanel()).queryByText('咖啡')).toBeNull());
    expect(fake.inputsOf('deleteCategory')).toEqual([{ id: 900 }]);

    fake.failNext('addCategory', { code: 'duplicate_name', message: '已有名为「餐饮」的分类' });
    await submit('新分类名称', '餐饮');
    expect((await screen.findByRole('alert')).textContent).toContain('已有名为「餐饮」的分类');
    expect((screen.getByLabelText('新分类名称') as HTMLInputElement).value).toBe('餐饮');

    // The next command that succeeds clears the sentence.
    await fireEvent.click(screen.getByRole('button', { name: '隐藏 交通' }));
    await screen.findByRole('button', { name: '显示 交通' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('manages accounts with 钱包 as the default', async () => {
    render(CategoriesPage);
    await within(accountPanel()).findByText('钱包');
    expect(within(accountPanel()).getByText('默认')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '设为默认 钱包' })).toBeNull();

    await submit('新账户名称', '招商银行');
    await fireEvent.click(await screen.findByRole('button', { name: '设为默认 招商银行' }));
    await screen.findByRole('button', { name: '设为默认 钱包' });
    expect(fake.inputsOf('addAccount')).toEqual([{ name: '招商银行' }]);
    const bank = fake.accounts.find((a) => a.name === '招商银行')!.id;
    expect(fake.inputsOf('setDefaultAccount')).toEqual([{ id: bank }]);
    expect(within(within(accountPanel()).getByRole('listitem', { name: '招商银行' })).getByText('默认')).toBeTruthy();
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

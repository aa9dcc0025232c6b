import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../main/core/ledger/index';
import { installRealLedgerApi, type RealApi } from '../../lib/ledger/real-api.test-helper';
import CategoriesPage from './CategoriesPage.svelte';

// The page against the REAL ledger handlers and an in-memory SQLite ledger.
let api: RealApi;
let ledger: Ledger;

beforeEach(() => {
  api = installRealLedgerApi();
  ledger = api.ledger;
});

afterEach(() => {
  cleanup();
  api.close();
});

const categoryPanel = () => screen.getByRole('region', { name: '分类' });
const names = () =>
  within(categoryPanel())
    .getAllByRole('listitem')
    .map((li) => li.getAttribute('aria-label'));

describe('分类与账户', () => {
  it('adds, renames, reorders and hides categories in the real ledger', async () => {
    render(CategoriesPage);
    await screen.findByText('餐饮');
    expect(names()).toEqual(['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他', '宠物', '旅行']);

    await fireEvent.input(screen.getByLabelText('新分类名称'), { target: { value: '咖啡' } });
    await fireEvent.submit(screen.getByLabelText('新分类名称').closest('form')!);
    await within(categoryPanel()).findByText('咖啡');
    expect(ledger.categories('EXPENSE').map((c) => c.name)).toContain('咖啡');

    await fireEvent.click(screen.getByRole('button', { name: '上移 咖啡' }));
    await within(categoryPanel()).findByRole('button', { name: '下移 咖啡' });
    await expect
      .poll(() =>
        ledger
          .categories('EXPENSE')
          .map((c) => c.name)
          .slice(-2),
      )
      .toEqual(['咖啡', '旅行']);

    await fireEvent.click(screen.getByRole('button', { name: '重命名 咖啡' }));
    await fireEvent.input(screen.getByLabelText('新名称：咖啡'), { target: { value: '咖啡茶饮' } });
    await fireEvent.submit(screen.getByLabelText('新名称：咖啡').closest('form')!);
    await within(categoryPanel()).findByText('咖啡茶饮');

    await fireEvent.click(screen.getByRole('button', { name: '隐藏 餐饮' }));
    await screen.findByRole('button', { name: '显示 餐饮' });
    expect(ledger.categories('EXPENSE').find((c) => c.name === '餐饮')!.hidden).toBe(true);
  });

  it('offers no delete for presets or used categories, and shows the ledger’s refusal', async () => {
    ledger.saveBatch([{ amount: 5, type: 'EXPENSE', category: '交通', description: '', date: null, account: null, confidence: 1, source: 'local' }]);
    render(CategoriesPage);
    await screen.findByText('餐饮');
    expect(screen.queryByRole('button', { name: '删除 餐饮' })).toBeNull();
    await fireEvent.input(screen.getByLabelText('新分类名称'), { target: { value: '餐饮' } });
    await fireEvent.submit(screen.getByLabelText('新分类名称').closest('form')!);
    expect((await screen.findByRole('alert')).textContent).toContain('已有名为「餐饮」的分类');
  });

  it('manages accounts with 钱包 as the default', async () => {
    render(CategoriesPage);
    const accounts = () => screen.getByRole('region', { name: '账户' });
    await within(accounts()).findByText('钱包');
    expect(within(accounts()).getByText('默认')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('新账户名称'), { target: { value: '招商银行' } });
    await fireEvent.submit(screen.getByLabelText('新账户名称').closest('form')!);
    await fireEvent.click(await screen.findByRole('button', { name: '设为默认 招商银行' }));
    await screen.findByRole('button', { name: '设为默认 钱包' });
    expect(ledger.listAccounts().find((a) => a.isDefault)!.name).toBe('招商银行');
  });
});

import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CardStatement } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import AccountsPanel from './AccountsPanel.svelte';

// The 账户 panel against a fake of the ledger commands: the aligned rows, what each row offers,
// the credit-card terms it sends and the card view it draws from cardStatements. The real
// ledger's numbers are tested in src/main/core/ledger/accounts.test.ts and e2e/accounts.spec.ts.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const row = (name: string) => screen.getByRole('listitem', { name });
const text = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

const CARD = { id: 2, name: '招行信用卡', isDefault: false, initialBalanceFen: -800_00, archived: false, preset: false } as const;
const terms = { kind: 'credit', statementDay: 5, dueDay: 23, creditLimitFen: 10_000_00 } as const;

function statement(over: Partial<NonNullable<CardStatement['bill']>> = {}): CardStatement {
  return {
    accountId: CARD.id,
    owedFen: 880_00,
    availableFen: 9120_00,
    bill: {
      from: '2026-10-06',
      to: '2026-11-05',
      closed: true,
      billFen: 1300_00,
      carriedFen: 200_00,
      spentFen: 1300_00,
      repaidFen: 200_00,
      leftFen: 800_00,
      unbilledFen: 80_00,
      dueDate: '2026-11-23',
      daysLeft: 13,
      ...over,
    },
  };
}

describe('the 账户 rows', () => {
  it('offers 删除 only on an empty account, 归档 on a used one, 恢复 on an archived one, and marks a cash account below zero', async () => {
    fake.accounts.push(
      { id: 2, name: '招商银行', isDefault: false, initialBalanceFen: 500_000, archived: false, preset: false },
      { id: 3, name: '旧卡', isDefault: false, initialBalanceFen: 0, archived: false, preset: false },
      { id: 4, name: '老钱包', isDefault: false, initialBalanceFen: 100, archived: true, preset: false },
    );
    fake.addRow({ amountFen: 3500, description: '午饭' });
    fake.addRow({ amountFen: 800, account: '招商银行', description: '奶茶' });
    render(AccountsPanel);
    await screen.findByText('旧卡');

    expect(within(row('钱包')).getByLabelText(/^余额 /).textContent).toBe('−¥35.00');
    expect(within(row('钱包')).getByText('余额为负')).toBeTruthy();
    expect(within(row('招商银行')).getByLabelText(/^余额 /).textContent).toBe('¥4,992.00');
    expect(within(row('招商银行')).queryByText('余额为负')).toBeNull();
    expect(screen.getByLabelText(/^全部账户合计 /).getAttribute('aria-label')).toBe('全部账户合计 ¥4,958.00');

    expect(screen.queryByRole('button', { name: '删除 招商银行' })).toBeNull();
    expect(screen.getByRole('button', { name: '归档 招商银行' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '删除 旧卡' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '归档 旧卡' })).toBeNull();
    for (const action of ['删除', '归档', '设为默认']) expect(screen.queryByRole('button', { name: `${action} 钱包` })).toBeNull();

    const archived = screen.getByRole('list', { name: '已归档账户' });
    await fireEvent.click(within(archived).getByRole('button', { name: '恢复 老钱包' }));
    expect(fake.inputsOf('archiveAccount')).toEqual([{ id: 4, archived: false }]);
    await vi.waitFor(() => expect(screen.queryByRole('list', { name: '已归档账户' })).toBeNull());
  });
});

describe('credit cards', () => {
  it('adds a card with its 账单日, 还款日 and 额度, refusing bad ones inline without sending', async () => {
    fake.handle('cardStatements', () => []);
    render(AccountsPanel);
    await screen.findByText('钱包');
    await text('新账户名称', '招行信用卡');
    await fireEvent.change(screen.getByLabelText('账户类型'), { target: { value: 'credit' } });
    const form = screen.getByRole('form', { name: '添加账户' });
    await text('账单日（每月）', '0');
    await text('还款日（每月）', '23');
    await fireEvent.submit(form);
    expect((await screen.findByRole('alert')).textContent).toBe('账单日和还款日应为每月1–31日');
    await text('账单日（每月）', '5');
    await text('额度（元）', '2000.555');
    await fireEvent.submit(form);
    expect((await screen.findByRole('alert')).textContent).toBe('额度最多两位小数（精确到分）');
    expect(fake.inputsOf('addAccount')).toEqual([]);

    await text('额度（元）', '20,000');
    await text('初始余额', '-300');
    await fireEvent.submit(form);
    await vi.waitFor(() =>
      expect(fake.inputsOf('addAccount')).toEqual([
        { name: '招行信用卡', initialBalanceYuan: -300, card: { statementDay: 5, dueDay: 23, creditLimitYuan: 20000 } },
      ]),
    );
    await vi.waitFor(() => expect(screen.queryByLabelText('额度（元）')).toBeNull());
  });

  it('shows the days to pay and 可用额度 on the row, and the bill in the card view', async () => {
    fake.accounts.push({ ...CARD, ...terms });
    fake.handle('cardStatements', () => [statement()]);
    render(AccountsPanel);
    const card = await screen.findByRole('listitem', { name: '招行信用卡' });
    await vi.waitFor(() => expect(card.textContent).toContain('还有 13 天还款'));
    expect(card.textContent).toContain('可用 ¥9,120.00');
    expect(within(card).getByLabelText(/^余额 /).textContent).toBe('欠款 ¥800.00');
    expect(within(card).queryByText('余额为负')).toBeNull();

    const toggle = within(card).getByRole('button', { name: '查看账单 招行信用卡' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    const view = within(card).getByRole('region', { name: '账单 招行信用卡' });
    expect(within(view).getByLabelText('本期账单 ¥1,300.00')).toBeTruthy();
    expect(view.textContent).toContain('上期未还 ¥200.00 · 消费 ¥1,300.00 · 还款与退款 ¥200.00');
    expect(view.textContent).toContain('还需还 ¥800.00');
    expect(within(view).getByLabelText('未出账 ¥80.00')).toBeTruthy();
    expect(within(view).getByLabelText('可用额度 ¥9,120.00')).toBeTruthy();
    expect(view.textContent).toContain('额度 ¥10,000.00 · 已用 ¥880.00');
    await fireEvent.click(toggle);
    expect(within(card).queryByRole('region')).toBeNull();
  });

  it.each([
    [{ daysLeft: 0 }, '今天还款'],
    [{ daysLeft: -3 }, '已逾期 3 天'],
    [{ daysLeft: -3, leftFen: 0 }, '已还清'],
  ])('says %j as %s', async (over, said) => {
    fake.accounts.push({ ...CARD, ...terms });
    fake.handle('cardStatements', () => [statement(over)]);
    render(AccountsPanel);
    const card = await screen.findByRole('listitem', { name: '招行信用卡' });
    await vi.waitFor(() => expect(card.textContent).toContain(said));
  });

  it('edits the terms with the 额度 filled in, and sends what was typed', async () => {
    fake.accounts.push({ ...CARD, ...terms });
    fake.handle('cardStatements', () => [statement()]);
    fake.handle('setCard', ({ id }) => ({ id, name: CARD.name, isDefault: false, count: 0, archived: false, ...terms, creditLimitFen: 15_000_00 }));
    render(AccountsPanel);
    await screen.findByRole('listitem', { name: '招行信用卡' });
    await fireEvent.click(screen.getByRole('button', { name: '信用卡设置 招行信用卡' }));
    const form = screen.getByRole('form', { name: '信用卡设置 招行信用卡' });
    expect((within(form).getByLabelText('额度（元）') as HTMLInputElement).value).toBe('10000');
    await fireEvent.input(within(form).getByLabelText('额度（元）'), { target: { value: '-1' } });
    await fireEvent.submit(form);
    expect((await screen.findByRole('alert')).textContent).toBe('额度不能为负');
    await fireEvent.input(within(form).getByLabelText('额度（元）'), { target: { value: '15000' } });
    await fireEvent.submit(form);
    await vi.waitFor(() =>
      expect(fake.inputsOf('setCard')).toEqual([{ id: CARD.id, terms: { statementDay: 5, dueDay: 23, creditLimitYuan: 15000 } }]),
    );
  });
});

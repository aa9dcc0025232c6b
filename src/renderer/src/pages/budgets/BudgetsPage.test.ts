import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BudgetLine, BudgetStatus } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { monthLabel, monthOf, shiftMonth } from '../../lib/budgets/budgets';
import BudgetsPage from './BudgetsPage.svelte';

// The page against the fake ledger, with budgetStatus/setBudgets scripted as a tiny model of
// main's (set months, lazy inheritance, this month's expense rows). The real ledger's answers
// and the alerts are exercised end to end in e2e/budgets.spec.ts.
let fake: FakeLedgerApi;
/** The months whose budgets were set, with their items in fen. */
let set: Map<string, { categoryId: number | null; fen: number }[]>;
const thisMonth = monthOf(new Date());

function budgetLine(categoryId: number | null, budgetFen: number, month: string): BudgetLine {
  const category = categoryId === null ? null : fake.categories.find((c) => c.id === categoryId)!.name;
  const spentFen = fake.rows
    .filter((r) => r.type === 'EXPENSE' && r.date.startsWith(month) && (category === null || r.category === category))
    .reduce((sum, r) => sum + r.amountFen, 0);
  const percent = Math.floor((spentFen * 100) / budgetFen);
  return { categoryId, category, budgetFen, spentFen, percent, level: percent >= 100 ? 'over' : percent >= 80 ? 'warn' : 'ok' };
}

function status(month: string): BudgetStatus {
  const source =
    [...set.keys()]
      .filter((m) => m <= month)
      .sort()
      .at(-1) ?? null;
  const items = source ? set.get(source)! : [];
  const total = items.find((i) => i.categoryId === null);
  return {
    month,
    source,
    inherited: source !== null && source !== month,
    lines: items.filter((i) => i.categoryId !== null).map((i) => budgetLine(i.categoryId, i.fen, month)),
    total: total ? budgetLine(null, total.fen, month) : null,
  };
}

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  set = new Map();
  fake.handle('budgetStatus', ({ month }) => status(month));
  fake.handle('setBudgets', ({ month, items }) => {
    set.set(
      month,
      items.map((i) => ({ categoryId: i.categoryId, fen: Math.round(i.amountYuan * 100) })),
    );
    return status(month);
  });
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const id = (name: string) => fake.category(name).id;
const bar = (name: string) => screen.getByRole('group', { name: name === '总预算' ? name : `${name}预算` });
const editor = () => screen.getByRole('form', { name: '编辑预算' });
const field = (label: string) => within(editor()).getByLabelText(label) as HTMLInputElement;

async function type(label: string, value: string) {
  await fireEvent.input(field(label), { target: { value } });
}

describe('预算', () => {
  it('invites to set budgets when the month has none', async () => {
    render(BudgetsPage);
    await screen.findByText(`${monthLabel(thisMonth)}还没有预算。`);
    expect(screen.getByRole('button', { name: '设置预算' })).toBeTruthy();
    expect(fake.inputsOf('budgetStatus')).toEqual([{ month: thisMonth }]);
  });

  it('shows the total and one bar per budgeted category with amounts, what is left or over, the level and the percent', async () => {
    set.set(thisMonth, [
      { categoryId: null, fen: 300_000 },
      { categoryId: id('餐饮'), fen: 100_000 },
      { categoryId: id('交通'), fen: 20_000 },
      { categoryId: id('购物'), fen: 50_000 },
    ]);
    fake.addRow({ amountFen: 82_000, category: '餐饮', description: '午饭' });
    fake.addRow({ amountFen: 21_050, category: '交通', description: '打车' });
    fake.addRow({ amountFen: 10_000, category: '购物', description: '书' });
    render(BudgetsPage);
    await screen.findByRole('group', { name: '餐饮预算' });

    expect(bar('餐饮').dataset['level']).toBe('warn');
    expect(bar('餐饮').textContent).toContain('已用 ¥820.00 / 预算 ¥1,000.00');
    expect(bar('餐饮').textContent).toContain('剩余 ¥180.00');
    expect(bar('餐饮').textContent).toContain('82%');
    expect(within(bar('餐饮')).getByRole('progressbar').getAttribute('aria-valuetext')).toBe('已用 82%');
    expect(bar('交通').dataset['level']).toBe('over');
    expect(bar('交通').textContent).toContain('超出 ¥10.50');
    expect(bar('交通').textContent).toContain('105%');
    expect(within(bar('交通')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(bar('购物').dataset['level']).toBe('ok');
    expect(bar('总预算').textContent).toContain('已用 ¥1,130.50 / 预算 ¥3,000.00');
    expect(bar('总预算').textContent).toContain('37%');
  });

  it('switches months and says when a month takes an earlier month’s budgets', async () => {
    set.set(thisMonth, [{ categoryId: id('餐饮'), fen: 100_000 }]);
    render(BudgetsPage);
    await screen.findByRole('group', { name: '餐饮预算' });
    expect(screen.queryByText(/沿用/)).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: '下个月' }));
    await screen.findByText(`沿用 ${monthLabel(thisMonth)}的预算`);
    expect(screen.getByText(monthLabel(shiftMonth(thisMonth, 1)))).toBeTruthy();
    expect(bar('餐饮').textContent).toContain('0%');

    await fireEvent.click(screen.getByRole('button', { name: '上个月' }));
    await fireEvent.click(screen.getByRole('button', { name: '上个月' }));
    await screen.findByText(`${monthLabel(shiftMonth(thisMonth, -1))}还没有预算。`);
    await fireEvent.click(screen.getByRole('button', { name: '回到本月' }));
    await screen.findByRole('group', { name: '餐饮预算' });
    expect(fake.inputsOf('budgetStatus').map((i) => i.month)).toEqual([
      thisMonth,
      shiftMonth(thisMonth, 1),
      thisMonth,
      shiftMonth(thisMonth, -1),
      thisMonth,
    ]);
  });

  it('edits every visible expense category and the total in one go, prefilled, with sums, and saves them', async () => {
    set.set(thisMonth, [{ categoryId: id('餐饮'), fen: 100_000 }]);
    render(BudgetsPage);
    await screen.findByRole('group', { name: '餐饮预算' });
    await fireEvent.click(screen.getByRole('button', { name: '编辑预算' }));

    const labels = within(editor())
      .getAllByRole('textbox')
      .map((input) => (input as HTMLInputElement).labels![0]!.textContent);
    const visible = fake.categories.filter((c) => c.type === 'EXPENSE' && !c.hidden).map((c) => c.name);
    expect(labels).toEqual(['总预算（可选）', ...visible]);
    expect(labels).not.toContain('宠物');
    expect(document.activeElement).toBe(field('总预算（可选）'));
    expect(field('餐饮').value).toBe('1000');
    expect(field('交通').value).toBe('');

    await type('总预算（可选）', '3000');
    await type('餐饮', '1000+500');
    await type('交通', '300');
    await fireEvent.submit(editor());
    await screen.findByRole('group', { name: '交通预算' });

    expect(fake.inputsOf('setBudgets')).toEqual([
      {
        month: thisMonth,
        items: [
          { categoryId: null, amountYuan: 3000 },
          { categoryId: id('餐饮'), amountYuan: 1500 },
          { categoryId: id('交通'), amountYuan: 300 },
        ],
      },
    ]);
    expect(screen.queryByRole('form', { name: '编辑预算' })).toBeNull();
    expect(bar('餐饮').textContent).toContain('预算 ¥1,500.00');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '编辑预算' }));
  });

  it('keeps the field of a hidden category while it has a budget, so saving does not drop it', async () => {
    set.set(thisMonth, [{ categoryId: id('宠物'), fen: 30_000 }]);
    render(BudgetsPage);
    await screen.findByRole('group', { name: '宠物预算' });
    await fireEvent.click(screen.getByRole('button', { name: '编辑预算' }));
    expect(field('宠物').value).toBe('300');
    await fireEvent.submit(editor());
    await vi.waitFor(() => expect(fake.inputsOf('setBudgets')).toEqual([{ month: thisMonth, items: [{ categoryId: id('宠物'), amountYuan: 300 }] }]));
  });

  it('marks each bad field with its own error and saves nothing', async () => {
    render(BudgetsPage);
    await fireEvent.click(await screen.findByRole('button', { name: '设置预算' }));
    await type('餐饮', '0');
    await type('交通', '-50');
    await type('购物', 'abc');
    await type('娱乐', '1e9');
    await type('账单', '200');
    await fireEvent.submit(editor());

    for (const [label, error] of [
      ['餐饮', '预算金额必须大于0'],
      ['交通', '预算金额不能为负数'],
      ['购物', '预算金额只能包含数字、小数点、+ − × ÷ 和括号'],
      ['娱乐', '预算金额只能包含数字、小数点、+ − × ÷ 和括号'],
    ] as const) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(field(label).getAttribute('aria-describedby')!)!.textContent).toBe(error);
    }
    expect(field('账单').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(field('餐饮'));
    expect(fake.inputsOf('setBudgets')).toEqual([]);
  });

  it('clears the month when every field is emptied, and Esc leaves without saving', async () => {
    set.set(thisMonth, [{ categoryId: id('餐饮'), fen: 100_000 }]);
    render(BudgetsPage);
    await screen.findByRole('group', { name: '餐饮预算' });

    await fireEvent.click(screen.getByRole('button', { name: '编辑预算' }));
    await type('餐饮', '5');
    await fireEvent.keyDown(field('餐饮'), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: '编辑预算' })).toBeNull();
    expect(fake.inputsOf('setBudgets')).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: '编辑预算' }));
    await type('餐饮', '');
    await fireEvent.submit(editor());
    await screen.findByText(`${monthLabel(thisMonth)}还没有预算。`);
    expect(fake.inputsOf('setBudgets')).toEqual([{ month: thisMonth, items: [] }]);
  });

  it('shows main’s refusal and keeps the editor open', async () => {
    render(BudgetsPage);
    await fireEvent.click(await screen.findByRole('button', { name: '设置预算' }));
    await type('餐饮', '100');
    fake.failNext('setBudgets', { code: 'invalid_budget', message: '预算只能设给支出分类' });
    await fireEvent.submit(editor());
    expect((await screen.findByRole('alert')).textContent).toBe('预算只能设给支出分类');
    expect(editor()).toBeTruthy();
  });

  it('reloads when the ledger changes', async () => {
    set.set(thisMonth, [{ categoryId: id('餐饮'), fen: 100_000 }]);
    render(BudgetsPage);
    await screen.findByRole('group', { name: '餐饮预算' });
    expect(bar('餐饮').textContent).toContain('0%');
    fake.addRow({ amountFen: 85_000, category: '餐饮', description: '聚餐' });
    fake.changed('save');
    await vi.waitFor(() => expect(bar('餐饮').dataset['level']).toBe('warn'));
    expect(bar('餐饮').textContent).toContain('85%');
  });
});

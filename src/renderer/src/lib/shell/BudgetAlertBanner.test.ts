import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import type { BudgetAlert } from '@shared/ipc/ledger';
import BudgetAlertBanner from './BudgetAlertBanner.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeApi() {
  const listeners: ((event: AppEvent) => void)[] = [];
  return {
    onEvent(listener: (event: AppEvent) => void) {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener), 1);
    },
    emit: (event: AppEvent) => listeners.forEach((l) => l(event)),
    alert: (...alerts: BudgetAlert[]) => listeners.forEach((l) => l({ channel: 'ledger', event: { type: 'budgetAlert', alerts } })),
    listening: () => listeners.length,
  };
}

const food80: BudgetAlert = { month: '2026-11', categoryId: 1, category: '餐饮', threshold: 80, percent: 82, spentFen: 82_000, budgetFen: 100_000 };
const food100: BudgetAlert = { ...food80, threshold: 100, percent: 105, spentFen: 105_000 };
const total80: BudgetAlert = {
  month: '2026-11',
  categoryId: null,
  category: null,
  threshold: 80,
  percent: 90,
  spentFen: 270_000,
  budgetFen: 300_000,
};

const region = () => screen.getByRole('status', { name: '预算提醒' });
const lines = () => Array.from(region().querySelectorAll('p')).map((p) => p.querySelector('.text')!.textContent);

afterEach(() => cleanup());

describe('budget alert banner', () => {
  it('shows nothing until main reports a crossed threshold, and ignores other events', async () => {
    const api = fakeApi();
    render(BudgetAlertBanner, { props: { api } });
    api.emit({ channel: 'ledger', event: { type: 'changed', reason: 'save' } });
    await tick();
    expect(region().getAttribute('aria-live')).toBe('polite');
    expect(lines()).toEqual([]);
  });

  it('stacks one line per alert in the notification’s words, coloured by threshold, with a link to the budgets page', async () => {
    const api = fakeApi();
    render(BudgetAlertBanner, { props: { api } });
    api.alert(food80, total80);
    await tick();
    expect(lines()).toEqual(['预算提醒：餐饮本月已用 82%', '预算提醒：总预算本月已用 90%']);
    api.alert(food100);
    await tick();
    expect(lines()).toEqual(['预算提醒：餐饮本月已用 82%', '预算提醒：总预算本月已用 90%', '预算提醒：餐饮本月已用 105%']);
    const thresholds = Array.from(region().querySelectorAll('p')).map((p) => p.dataset['threshold']);
    expect(thresholds).toEqual(['80', '80', '100']);
    const links = within(region()).getAllByRole('link', { name: '查看预算' });
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['#/budgets', '#/budgets', '#/budgets']);
  });

  it('closes a line with its button, and a closed alert reported again stays closed', async () => {
    const api = fakeApi();
    render(BudgetAlertBanner, { props: { api } });
    api.alert(food80, total80);
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '关闭提醒：餐饮本月已用 82%' }));
    expect(lines()).toEqual(['预算提醒：总预算本月已用 90%']);
    api.alert(food80, total80);
    await tick();
    expect(lines()).toEqual(['预算提醒：总预算本月已用 90%']);
  });

  it('stops listening when it is removed', async () => {
    const api = fakeApi();
    const { unmount } = render(BudgetAlertBanner, { props: { api } });
    expect(api.listening()).toBe(1);
    unmount();
    expect(api.listening()).toBe(0);
  });
});

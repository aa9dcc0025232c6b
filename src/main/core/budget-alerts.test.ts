import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import type { BudgetAlert } from '@shared/ipc/ledger';
import { localDate, systemNow } from '@shared/time';
import { createAppCore, type AppCore } from './app-core';

// The composition root turns a crossed budget threshold into the windows' event and the
// shell's native notification, whichever write crossed it, once per threshold.
let dir: string;
let core: AppCore;
let notices: { title: string; body: string }[];
let alerts: BudgetAlert[][];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-budget-alerts-'));
  notices = [];
  alerts = [];
  core = createAppCore({ dataDir: dir, version: 'test', log: () => {}, backups: false, notify: (n) => notices.push(n) });
  core.onEvent((e: AppEvent) => {
    if (e.channel === 'ledger' && e.event.type === 'budgetAlert') alerts.push(e.event.alerts);
  });
});

afterEach(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const today = () => localDate(systemNow());

async function spend(amountYuan: number): Promise<void> {
  const result = await core.dispatch('addTransaction', { amountYuan, type: 'EXPENSE', category: '餐饮', date: today(), time: '12:00' });
  expect(result.ok).toBe(true);
}

describe('budget alerts', () => {
  it('reach the windows and the native notification once per threshold', async () => {
    const food = core.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    const set = await core.dispatch('setBudgets', { month: today().slice(0, 7), items: [{ categoryId: food.id, amountYuan: 1000 }] });
    expect(set.ok).toBe(true);

    await spend(500);
    expect(notices).toEqual([]);
    await spend(320);
    expect(alerts.map((batch) => batch.map((a) => [a.category, a.threshold, a.percent]))).toEqual([[['餐饮', 80, 82]]]);
    expect(notices).toEqual([{ title: '预算提醒', body: '餐饮本月已用 82%，已用 820 元，预算 1000 元' }]);

    await spend(100);
    expect(notices).toHaveLength(1);
    await spend(100);
    expect(notices.map((n) => n.body)).toEqual(['餐饮本月已用 82%，已用 820 元，预算 1000 元', '餐饮本月已用 102%，已用 1020 元，预算 1000 元']);

    // Undo and redo the crossing save: the thresholds are used up, nothing is told twice.
    expect((await core.dispatch('undo', {})).ok).toBe(true);
    expect((await core.dispatch('redo', {})).ok).toBe(true);
    expect(notices).toHaveLength(2);
    expect(alerts).toHaveLength(2);
  });

  it('an edit that crosses a threshold alerts too', async () => {
    await core.dispatch('setBudgets', { month: today().slice(0, 7), items: [{ categoryId: null, amountYuan: 100 }] });
    await spend(10);
    const [row] = core.ledger.list({ limit: 1 }).rows;
    expect((await core.dispatch('updateTransaction', { id: row!.id, patch: { amountFen: 9_000 } })).ok).toBe(true);
    expect(notices.map((n) => n.body)).toEqual(['总预算本月已用 90%，已用 90 元，预算 100 元']);
  });
});

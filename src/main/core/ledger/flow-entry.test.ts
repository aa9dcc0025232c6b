import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../app-core';

// 借出 / 借入 / 还款 / 收回 / 报销到账 and the 待报销 checkbox by hand, through the real
// composition root: zod at the boundary, the voice card's save path behind it, undo after.
let dir: string;
let core: AppCore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-flow-entry-'));
  core = createAppCore({ dataDir: dir, version: 'test', log: () => {} });
});
afterEach(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const day = '2026-02-10';
const owed = (name: string) => core.ledger.people().people.find((p) => p.name === name)?.balanceFen;

describe('recordFlow', () => {
  it('records the four debts with a person, account, day and note, as typed rows that Ctrl+Z takes back', async () => {
    core.ledger.addAccount('微信', 0);
    const lend = await core.dispatch('recordFlow', {
      flow: 'lend',
      amountYuan: 1000,
      counterparty: ' 小李 ',
      account: '微信',
      date: day,
      note: '房租周转',
    });
    expect(lend).toMatchObject({
      ok: true,
      value: {
        type: 'TRANSFER',
        flow: 'lend',
        person: '小李',
        amountFen: 1000_00,
        account: '微信',
        date: day,
        description: '房租周转',
        source: 'manual',
      },
    });
    await core.dispatch('recordFlow', { flow: 'collect', amountYuan: 300, counterparty: '小李', date: day });
    await core.dispatch('recordFlow', { flow: 'borrow', amountYuan: 3000, counterparty: '我哥', date: day });
    await core.dispatch('recordFlow', { flow: 'repay', amountYuan: 1000, counterparty: '我哥', date: day });
    expect([owed('小李'), owed('我哥')]).toEqual([700_00, -2000_00]);
    expect(core.ledger.monthSummary('2026-02')).toMatchObject({ expenseFen: 0, incomeFen: 0 });

    expect(await core.dispatch('undo', {})).toMatchObject({ ok: true, value: { done: '记账 1 笔' } });
    expect(owed('我哥')).toBe(-3000_00);
  });

  it('refuses a debt without a person, or ticks on a debt, in plain words, and saves nothing', async () => {
    expect(await core.dispatch('recordFlow', { flow: 'lend', amountYuan: 100, date: day })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', message: expect.stringContaining('请填写是谁') },
    });
    expect(await core.dispatch('recordFlow', { flow: 'lend', amountYuan: 100, counterparty: '  ', date: day })).toMatchObject({ ok: false });
    expect(await core.dispatch('recordFlow', { flow: 'repay', amountYuan: 100, counterparty: '小李', date: day, settles: [] })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('只有报销到账可以勾选待报销') },
    });
    expect(await core.dispatch('recordFlow', { flow: 'reimbursement', amountYuan: 0, date: day })).toMatchObject({ ok: false });
    expect(core.ledger.count()).toBe(0);
    expect(core.ledger.people().people).toEqual([]);
  });

  it('报销到账 pays the ticked 待报销 in part when short, and the proposal says 还差 for exactly those', async () => {
    const spend = (amountYuan: number, date: string) =>
      core.dispatch('addTransaction', { amountYuan, type: 'EXPENSE', category: '交通', date, time: '09:00', reimbursable: true });
    const taxi = await spend(80, '2026-02-01');
    const hotel = await spend(600, '2026-02-02');
    const other = await spend(50, '2026-02-03');
    expect(taxi).toMatchObject({ ok: true, value: { reimbursable: true } });
    const ids = [taxi, hotel].map((r) => (r as { value: { id: string } }).value.id);
    expect(await core.dispatch('proposeSettlement', { amountFen: 500_00, ids })).toEqual({
      ok: true,
      value: { ids, settledFen: 500_00, leftOverFen: 0, stillOwedFen: 180_00 },
    });
    const paid = await core.dispatch('recordFlow', { flow: 'reimbursement', amountYuan: 500, date: '2026-02-05', settles: ids });
    expect(paid).toMatchObject({ ok: true, value: { type: 'INCOME', flow: 'reimbursement', source: 'manual' } });
    expect(core.ledger.pendingReimbursements().rows.map((r) => [r.id, r.amountFen])).toEqual([
      [ids[1], 180_00],
      [(other as { value: { id: string } }).value.id, 50_00],
    ]);
    expect(core.ledger.monthSummary('2026-02')).toMatchObject({ expenseFen: 0, incomeFen: 0 });
  });

  it('marks only spending 待报销 in 记一笔', async () => {
    expect(
      await core.dispatch('addTransaction', { amountYuan: 9, type: 'INCOME', category: '工资', date: day, time: '09:00', reimbursable: true }),
    ).toMatchObject({ ok: false, error: { message: '只有支出可以标记待报销' } });
    expect(await core.dispatch('addTransaction', { amountYuan: 9, type: 'EXPENSE', date: day, time: '09:00', reimbursable: false })).toMatchObject({
      ok: true,
      value: { type: 'EXPENSE' },
    });
    expect(core.ledger.pendingReimbursements().totalFen).toBe(0);
  });
});

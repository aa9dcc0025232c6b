import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import { createAppCore, type AppCore } from '../app-core';

// The ledger commands through the real composition root: zod at the boundary, the history
// behind the handlers, and the 'changed' events the windows refresh on.
let dir: string;
let core: AppCore;
let events: AppEvent[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-ledger-ipc-'));
  core = createAppCore({ dataDir: dir, version: 'test', log: () => {} });
  events = [];
  core.onEvent((e) => events.push(e));
});
afterEach(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const changed = () => events.flatMap((e) => (e.channel === 'ledger' ? [e.event.reason] : []));

describe('ledger commands', () => {
  it('a voice save through the history LedgerPort is announced and undoable from the window', async () => {
    const [row] = core.history.saveBatch([
      { amount: 35, type: 'EXPENSE', category: '餐饮', description: '午饭', date: '2026-02-01', account: null, confidence: 1, source: 'local' },
    ]);
    expect(changed()).toEqual(['save']);
    expect(await core.dispatch('historyState', {})).toMatchObject({ ok: true, value: { canUndo: true, undoLabel: '记账 1 笔' } });
    expect(await core.dispatch('undo', {})).toMatchObject({ ok: true, value: { canUndo: false, canRedo: true } });
    expect(core.ledger.getTransaction(row!.id)).toBeUndefined();
    expect(changed()).toEqual(['save', 'undo']);
  });

  it('edits and deletes with events, and reports rule errors as plain sentences', async () => {
    const [row] = core.history.saveBatch([
      { amount: 35, type: 'EXPENSE', category: '餐饮', description: '午饭', date: '2026-02-01', account: null, confidence: 1, source: 'local' },
    ]);
    const edited = await core.dispatch('updateTransaction', { id: row!.id, patch: { amountFen: 4000, category: '交通' } });
    expect(edited).toMatchObject({ ok: true, value: { amountFen: 4000, category: '交通' } });
    expect(await core.dispatch('updateTransaction', { id: row!.id, patch: { account: '没有这个' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transaction', message: '账户不存在（没有这个）' },
    });
    expect(await core.dispatch('deleteTransactions', { ids: [row!.id] })).toEqual({ ok: true, value: { deleted: 1 } });
    const cats = await core.dispatch('listCategories', {});
    const pet = (cats as { value: { id: number; name: string }[] }).value.find((c) => c.name === '宠物')!;
    expect(await core.dispatch('deleteCategory', { id: pet.id })).toMatchObject({ ok: false, error: { code: 'category_in_use' } });
    expect(changed()).toEqual(['save', 'edit', 'delete']);
  });

  it('rejects malformed input at the boundary', async () => {
    expect(await core.dispatch('updateTransaction', { id: 'x', patch: { amountFen: 1.5 } })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed' },
    });
    expect(await core.dispatch('listDays', { minFen: -1 })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.dispatch('addCategory', { name: '  ', type: 'EXPENSE' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.dispatch('previewImport', { dataBase64: '%%%' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.dispatch('periodStats', { from: '2026-02-01', to: '2026-01-01', granularity: 'day' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', message: expect.stringContaining('开始日期不能晚于结束日期') },
    });
    expect(await core.dispatch('periodStats', { from: '1900-01-01', to: '2026-01-01', granularity: 'day' })).toMatchObject({ ok: false });
    expect(await core.dispatch('periodStats', { from: '2026-01-01', to: '2026-12-31', granularity: 'month' })).toMatchObject({
      ok: true,
      value: { count: 0, trend: expect.arrayContaining([{ key: '2026-12', expenseFen: 0, incomeFen: 0 }]) },
    });
  });

  it('imports a file sent as base64 and names the bad line when it is malformed', async () => {
    const csv =
      '\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n2026-02-01,12:00:00,支出,餐饮,35,钱包,午饭\r\n2026-02-02,12:00:00,支出,餐饮,abc,钱包,午饭\r\n';
    const bad = Buffer.from(csv).toString('base64');
    expect(await core.dispatch('commitImport', { dataBase64: bad })).toMatchObject({
      ok: false,
      error: { code: 'import_invalid', message: expect.stringContaining('第3行') },
    });
    expect(core.ledger.count()).toBe(0);
    const good = Buffer.from(csv.replace(',abc,', ',36,')).toString('base64');
    expect(await core.dispatch('previewImport', { dataBase64: good })).toMatchObject({ ok: true, value: { total: 2, duplicates: 0 } });
    expect(await core.dispatch('commitImport', { dataBase64: good })).toEqual({ ok: true, value: { imported: 2, skippedDuplicates: 0 } });
    const chunk = await core.dispatch('exportCsv', { filter: { from: '2026-02-01', to: '2026-02-01' } });
    expect(chunk).toMatchObject({ ok: true, value: { rows: 1, total: 1 } });
    expect(changed()).toEqual(['import']);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import { LEDGER_COMMANDS } from '@shared/ipc/ledger.names';
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

const changed = () => events.flatMap((e) => (e.channel === 'ledger' && e.event.type === 'changed' ? [e.event.reason] : []));

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
    expect(await core.dispatch('previewImport', { dataBase64: good })).toMatchObject({ ok: true, value: { lines: 2, toImport: 2, duplicates: 0 } });
    expect(await core.dispatch('commitImport', { dataBase64: good })).toEqual({
      ok: true,
      value: { format: 'suikouji', imported: 2, skipped: 0, duplicates: 0, deleted: 0 },
    });
    expect(core.ledger.count({ from: '2026-02-01', to: '2026-02-01' })).toBe(1);
    expect(changed()).toEqual(['import']);
  });
});

describe('dates, months, amounts, ids and bounds are checked at the boundary', () => {
  const refused = (message?: RegExp) => ({
    ok: false,
    error: { code: 'validation_failed', ...(message ? { message: expect.stringMatching(message) } : {}) },
  });

  it('answers a period ending on 9999-12-31 with validation_failed, not internal_error', async () => {
    expect(await core.dispatch('periodStats', { from: '9999-12-01', to: '9999-12-31', granularity: 'day' })).toMatchObject(
      refused(/统计区间最晚到 9999-12-30/),
    );
    expect(await core.dispatch('periodStats', { from: '9999-01-01', to: '9999-12-31', granularity: 'month' })).toMatchObject(refused());
    expect(await core.dispatch('periodStats', { from: '9999-12-01', to: '9999-12-30', granularity: 'day' })).toMatchObject({
      ok: true,
      value: { trend: expect.arrayContaining([{ key: '9999-12-30', expenseFen: 0, incomeFen: 0 }]) },
    });
    expect(await core.dispatch('periodStats', { from: '0001-01-01', to: '0001-12-31', granularity: 'month' })).toMatchObject({
      ok: true,
      value: { trend: expect.arrayContaining([{ key: '0001-02', expenseFen: 0, incomeFen: 0 }]) },
    });
  });

  it.each([
    ['periodStats', { from: '2026-02-01', to: '2026-02-30', granularity: 'day' }],
    ['periodStats', { from: '2026-13-01', to: '2026-13-31', granularity: 'month' }],
    ['periodStats', { from: '0000-01-01', to: '0000-12-31', granularity: 'month' }],
    ['listTransactions', { from: '2026-02-30' }],
    ['listTransactions', { to: '2026-13-01' }],
    ['listTransactions', { from: '2026-02-29' }],
    ['listDays', { from: '2026-04-31' }],
    ['exportFile', { format: 'xlsx', filter: { to: '2026-00-10' } }],
    ['updateTransaction', { id: 'x', patch: { date: '2026-02-30' } }],
  ])('refuses the day that is not in the calendar: %s %j', async (name, input) => {
    expect(await core.dispatch(name, input)).toMatchObject(refused(/真实存在的日期/));
  });

  it.each(['2026-13', '2026-00', '0000-01', '2026-1', '2026-02-01', ''])('refuses the month %j', async (month) => {
    expect(await core.dispatch('monthSummary', { month })).toMatchObject(refused(/月份/));
  });

  it('accepts the first and last months and leap days', async () => {
    for (const month of ['0001-01', '9999-12', '2026-02']) expect(await core.dispatch('monthSummary', { month })).toMatchObject({ ok: true });
    expect(await core.dispatch('listTransactions', { from: '2024-02-29', to: '2024-02-29' })).toMatchObject({ ok: true });
  });

  it.each([0, -1, 1.5, 0.5, 10_000_000_001, Number.NaN, Number.POSITIVE_INFINITY])('refuses an edited amount of %d fen', async (amountFen) => {
    expect(await core.dispatch('updateTransaction', { id: 'x', patch: { amountFen } })).toMatchObject(refused());
  });

  it.each([
    [{ amount: 0.001 }, /两位小数/],
    [{ amount: 12.345 }, /两位小数/],
    [{ amount: 0 }, /大于0/],
    [{ amount: -5 }, /大于0/],
    [{ amount: 100_000_000.01 }, /上限/],
    [{ amount: Number.NaN }, /./],
    [{ date: '2026-02-30' }, /真实存在的日期/],
    [{ date: '2026-13-01' }, /真实存在的日期/],
    [{ date: '0000-01-01' }, /真实存在的日期/],
  ])('refuses the card’s edit %j before it reaches the session', async (fields, message) => {
    expect(await core.dispatch('voiceAction', { action: 'editItem', index: 0, fields })).toMatchObject(refused(message));
  });

  it('lets a well-formed card edit through to the session', async () => {
    for (const fields of [{ amount: 19.99 }, { amount: 0.01 }, { amount: 100_000_000 }, { date: '2024-02-29' }]) {
      const result = await core.dispatch('voiceAction', { action: 'editItem', index: 0, fields });
      expect(result, JSON.stringify(fields)).not.toMatchObject({ error: { code: 'validation_failed' } });
    }
  });

  it.each([
    ['addCategory', { name: '=HYPERLINK("x")', type: 'EXPENSE' }],
    ['addCategory', { name: ' ＋1', type: 'EXPENSE' }],
    ['addAccount', { name: '@A1' }],
    ['addAccount', { name: '-1+1' }],
    ['renameCategory', { id: 1, name: '=1' }],
    ['renameAccount', { id: 1, name: '\t=1' }],
  ])('refuses a %s name that a spreadsheet would run: %j', async (name, input) => {
    expect(await core.dispatch(name, input)).toMatchObject(refused(/不能以 = \+ - @ 等符号开头/));
  });

  it.each([
    ['listTransactions', { offset: -1 }],
    ['listTransactions', { offset: 1e20 }],
    ['listTransactions', { limit: 0 }],
    ['listTransactions', { minFen: 1.5 }],
    ['searchTransactions', { query: 'x', limit: Number.NaN }],
    ['renameCategory', { id: 2 ** 53, name: '新名字' }],
    ['deleteCategory', { id: 0 }],
    ['setDefaultAccount', { id: -1 }],
    ['reorderCategories', { type: 'EXPENSE', ids: [1.5] }],
    ['exportFile', { format: 'pdf' }],
  ])('refuses the bound %s %j', async (name, input) => {
    expect(await core.dispatch(name, input)).toMatchObject(refused());
  });

  // The same class of bug anywhere else: a value at the edge of what the schema lets through
  // must get a proper answer (a result or a rule error), never internal_error.
  it('never answers internal_error for edge values of any ledger command', async () => {
    core.history.saveBatch([
      { amount: 35, type: 'EXPENSE', category: '餐饮', description: '午饭', date: '2026-02-01', account: null, confidence: 1, source: 'local' },
    ]);
    const days = ['0001-01-01', '9999-12-30', '9999-12-31', '2024-02-29', '2026-02-30', '0000-01-01', '+010000-01-01'];
    const inputs: Record<string, unknown[]> = {
      listTransactions: [...days.flatMap((d) => [{ from: d }, { to: d }, { from: d, to: d }]), { offset: Number.MAX_SAFE_INTEGER }, { limit: 500 }],
      searchTransactions: [{ query: '%' }, { query: '_' }, { query: '\\' }, { query: "'" }],
      monthSummary: ['0001-01', '9999-12', '2026-02', '2026-13'].map((month) => ({ month })),
      listDays: days.map((d) => ({ from: d, to: d })),
      periodStats: days.flatMap((d) => [
        { from: d, to: d, granularity: 'day' },
        { from: d, to: d, granularity: 'month' },
      ]),
      updateTransaction: [
        { id: 'nope', patch: { date: '0001-01-01' } },
        { id: 'nope', patch: { date: '9999-12-31' } },
        { id: 'nope', patch: { amountFen: 10_000_000_000 } },
      ],
      deleteTransactions: [{ ids: ['nope'] }],
      renameCategory: [{ id: Number.MAX_SAFE_INTEGER, name: 'x' }],
      setCategoryHidden: [{ id: Number.MAX_SAFE_INTEGER, hidden: true }],
      reorderCategories: [{ type: 'EXPENSE', ids: [Number.MAX_SAFE_INTEGER] }],
      deleteCategory: [{ id: Number.MAX_SAFE_INTEGER }],
      addCategory: [{ name: '早餐', type: 'EXPENSE', parentId: Number.MAX_SAFE_INTEGER }],
      setCategoryParent: [
        { id: Number.MAX_SAFE_INTEGER, parentId: null },
        { id: 1, parentId: Number.MAX_SAFE_INTEGER },
        { id: 1, parentId: 1 },
      ],
      renameTag: [{ id: Number.MAX_SAFE_INTEGER, name: 'x' }],
      deleteTag: [{ id: Number.MAX_SAFE_INTEGER }],
      renameAccount: [{ id: Number.MAX_SAFE_INTEGER, name: 'x' }],
      setDefaultAccount: [{ id: Number.MAX_SAFE_INTEGER }],
      deleteAccount: [{ id: Number.MAX_SAFE_INTEGER }],
      exportFile: [
        { format: 'csv', filter: { from: '9999-12-31' } },
        { format: 'xlsx', filter: { to: '0001-01-01' } },
      ],
      previewImport: [
        { dataBase64: Buffer.from('\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n9999-12-31,23:59:59,支出,餐饮,0.01,钱包,x\r\n').toString('base64') },
      ],
    };
    const hostile = [null, [], 'x', 42, { evil: true }, { from: '9999-12-31', to: '9999-12-31' }];
    for (const name of LEDGER_COMMANDS) {
      for (const input of [...(inputs[name] ?? []), ...hostile]) {
        const result = await core.dispatch(name, input);
        expect(result, `${name} ${JSON.stringify(input)}`).not.toMatchObject({ error: { code: 'internal_error' } });
      }
    }
  });
});

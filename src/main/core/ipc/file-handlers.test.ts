import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readExcelFile from 'read-excel-file/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportFormat, ExportOutcome } from '@shared/ipc/ledger';
import { openLedger, type Ledger } from '../ledger/index';
import { createDispatch, type Dispatch } from './handlers';
import { createLedgerHandlers, type LedgerHandlerDeps } from './ledger-handlers';
import type { Handlers } from './types';
import { refused } from '../../../../test/support/dispatch';
import { entry, NOW } from '../../../../test/support/ledger-fixtures';

// exportFile and openImportFile through the real dispatch, with the shell's dialogs scripted:
// what the user picks (or closing the dialog) decides what is written or read.
let ledger: Ledger;
let dir: string;
let asked: { name: string; format: ExportFormat }[];

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  dir = mkdtempSync(join(tmpdir(), 'skj-file-cmd-'));
  asked = [];
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

function dispatchWith(deps: Omit<LedgerHandlerDeps, 'ledger'>): Dispatch {
  return createDispatch(createLedgerHandlers({ ledger, now: () => new Date(2026, 1, 17, 9, 5, 3), ...deps }) as Handlers);
}

/** A save dialog that answers `path` (null: the user closed it), remembering what it offered. */
const saveDialog = (path: string | null) => (name: string, format: ExportFormat) => {
  asked.push({ name, format });
  return Promise.resolve(path);
};

describe('exportFile', () => {
  it('offers 随口记_<local time>.xlsx and writes the filtered rows where the user chose', async () => {
    ledger.addTransaction(entry({ date: '2026-01-20', note: '一月' }));
    ledger.addTransaction(entry({ date: '2026-02-03', note: '二月' }));
    const path = join(dir, '我的账本.xlsx');
    const dispatch = dispatchWith({ chooseSavePath: saveDialog(path) });

    const result = await dispatch('exportFile', { format: 'xlsx', filter: { from: '2026-02-01', to: '2026-02-28' } });

    expect(result).toEqual({ ok: true, value: { path, rows: 1, pictures: 0, folder: null } satisfies ExportOutcome });
    expect(asked).toEqual([{ name: '随口记_20260217_090503.xlsx', format: 'xlsx' }]);
    const [detail] = await readExcelFile(path);
    expect(detail!.data.slice(1).map((r) => r[7])).toEqual(['二月']);
  });

  it('writes CSV when asked for it, and the whole ledger without a filter', async () => {
    ledger.addTransaction(entry());
    const path = join(dir, 'out.csv');
    const dispatch = dispatchWith({ chooseSavePath: saveDialog(path) });
    expect(await dispatch('exportFile', { format: 'csv' })).toEqual({ ok: true, value: { path, rows: 1, pictures: 0, folder: null } });
    expect(asked).toEqual([{ name: '随口记_20260217_090503.csv', format: 'csv' }]);
  });

  it('writes nothing and answers null when the user closes the dialog', async () => {
    ledger.addTransaction(entry());
    const dispatch = dispatchWith({ chooseSavePath: saveDialog(null) });
    expect(await dispatch('exportFile', { format: 'xlsx' })).toEqual({ ok: true, value: null });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says why in Chinese when the place cannot be written, and leaves no file', async () => {
    ledger.addTransaction(entry());
    const missing = dispatchWith({ chooseSavePath: saveDialog(join(dir, '不存在的文件夹', 'a.xlsx')) });
    expect(await missing('exportFile', { format: 'xlsx' })).toEqual(refused('export_failed', /^导出失败：文件或文件夹不存在$/));

    // A folder of that name is in the way: the finished temp file cannot take its place.
    mkdirSync(join(dir, 'taken.xlsx'));
    const taken = dispatchWith({ chooseSavePath: saveDialog(join(dir, 'taken.xlsx')) });
    expect(await taken('exportFile', { format: 'xlsx' })).toEqual(refused('export_failed', /^导出失败：选择的是文件夹$/));
    expect(readdirSync(dir)).toEqual(['taken.xlsx']);
    expect(readdirSync(join(dir, 'taken.xlsx'))).toEqual([]);
  });

  it('refuses a format it cannot write, before any dialog', async () => {
    const dispatch = dispatchWith({ chooseSavePath: saveDialog(join(dir, 'x.pdf')) });
    expect(await dispatch('exportFile', { format: 'pdf' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(asked).toEqual([]);
  });

  it('says so when no shell offers a save dialog', async () => {
    expect(await dispatchWith({})('exportFile', { format: 'xlsx' })).toEqual(refused('dialog_unavailable', /保存对话框/));
  });
});

describe('openImportFile', () => {
  const openDialog = (path: string | null) => () => Promise.resolve(path);

  it('reads the chosen bill file as its name and bytes', async () => {
    const path = join(dir, '支付宝账单.csv');
    const bytes = Buffer.from('\uFEFF交易时间,金额\r\n2026-02-01 12:00:00,12.50\r\n');
    writeFileSync(path, bytes);
    const result = await dispatchWith({ chooseOpenPath: openDialog(path) })('openImportFile', {});
    expect(result).toEqual({ ok: true, value: { name: '支付宝账单.csv', dataBase64: bytes.toString('base64') } });
  });

  it('answers null when the user closes the dialog', async () => {
    expect(await dispatchWith({ chooseOpenPath: openDialog(null) })('openImportFile', {})).toEqual({ ok: true, value: null });
  });

  it('refuses an empty file, a file over 30 MB and a file that is gone', async () => {
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    expect(await dispatchWith({ chooseOpenPath: openDialog(empty) })('openImportFile', {})).toEqual(refused('import_unreadable', /^文件为空$/));

    // Sparse: the size is what counts, and the file is refused before it is read.
    const huge = join(dir, 'huge.csv');
    writeFileSync(huge, '');
    truncateSync(huge, 30 * 1024 * 1024 + 1);
    expect(await dispatchWith({ chooseOpenPath: openDialog(huge) })('openImportFile', {})).toEqual(refused('import_too_large', /超过 30 MB/));

    const gone = join(dir, 'gone.csv');
    expect(await dispatchWith({ chooseOpenPath: openDialog(gone) })('openImportFile', {})).toEqual(
      refused('import_unreadable', /^无法读取文件：文件或文件夹不存在$/),
    );
  });

  it('reads a file of exactly 30 MB', async () => {
    const edge = join(dir, 'edge.csv');
    writeFileSync(edge, '');
    truncateSync(edge, 30 * 1024 * 1024);
    const result = await dispatchWith({ chooseOpenPath: openDialog(edge) })('openImportFile', {});
    expect(result).toMatchObject({ ok: true, value: { name: 'edge.csv' } });
  });

  it('says so when no shell offers an open dialog', async () => {
    expect(await dispatchWith({})('openImportFile', {})).toEqual(refused('dialog_unavailable', /文件对话框/));
  });
});

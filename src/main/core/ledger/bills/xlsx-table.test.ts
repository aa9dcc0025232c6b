import { strToU8, zipSync } from 'fflate';
import type * as WorkerThreads from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { excelResavedXlsx, type FixtureCell, xlsxOf } from '../../../../../test/support/xlsx-fixture';
import { isXlsx, readXlsxTable, tooManyRows, XLSX_ERRORS, XLSX_MAX_BYTES } from './xlsx-table';

// Every worker the reader starts is recorded, to see that it is gone once the read settles;
// `script.instead` swaps the worker's code, to see a crash or a silent exit reject.
const started = vi.hoisted(() => ({ workers: [] as WorkerThreads.Worker[], instead: null as string | null }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  class RecordedWorker extends actual.Worker {
    constructor(code: string, options: WorkerThreads.WorkerOptions) {
      super(started.instead ?? code, options);
      started.workers.push(this);
    }
  }
  return { ...actual, Worker: RecordedWorker };
});

afterEach(() => {
  started.instead = null;
});

/** Resolves once every worker started so far has exited (a stuck one fails the test by its timeout). */
const workersGone = () => Promise.all(started.workers.map((w) => (w.threadId === -1 ? undefined : new Promise((done) => w.once('exit', done)))));

/** A wall-clock time as the fixtures take it (see test/support/xlsx-fixture.ts). */
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(Date.UTC(y, mo - 1, d, h, mi, s));

const HEADER = ['交易时间', '交易类型', '交易对方', '商品', '收/支', '金额(元)', '支付方式', '当前状态', '交易单号', '商户单号', '备注'];
const SEPARATOR = '----------------------微信支付账单明细列表--------------------';

/** WeChat Pay's export: the preamble, a blank row, the header, then rows with date and number cells. */
const wechatRows = (): FixtureCell[][] => [
  ['微信支付账单明细'],
  ['微信昵称：[测试]'],
  ['起始时间：[2024-01-01 00:00:00] 终止时间：[2024-03-31 23:59:59]'],
  [],
  [SEPARATOR],
  HEADER,
  [
    at(2024, 3, 5, 12, 45, 27),
    '商户消费',
    '云膳过桥米线',
    '总共消费:28.16',
    '支出',
    28.16,
    '零钱',
    '支付成功',
    '4200002155202403051234567890\t',
    '129847129\t',
    '/',
  ],
  [at(2024, 3, 4, 0, 0, 0), '微信红包', '同性好友', '/', '收入', 0.1 + 0.2, '/', '已存入零钱', '1000039501240304', '/', '/'],
  [at(2024, 3, 3, 23, 59, 59), '转账', '张三', '/', '支出', 1234.5, '招商银行(1234)', '对方已收钱', 98765432101234, null, '转账备注:房租'],
];

const text = (...cells: string[]) => cells;
const pad = (cells: string[], width = 11) => [...cells, ...Array<string>(width - cells.length).fill('')];

describe('readXlsxTable: a WeChat Pay export', () => {
  it('reads back text cells with the rows numbered as in the sheet', async () => {
    const rows = await readXlsxTable(await xlsxOf(wechatRows()));
    expect(rows).toEqual([
      { line: 1, cells: pad(['微信支付账单明细']) },
      { line: 2, cells: pad(['微信昵称：[测试]']) },
      { line: 3, cells: pad(['起始时间：[2024-01-01 00:00:00] 终止时间：[2024-03-31 23:59:59]']) },
      // Row 4 is empty: left out, and the rows after it keep their numbers.
      { line: 5, cells: pad([SEPARATOR]) },
      { line: 6, cells: HEADER },
      {
        line: 7,
        cells: text(
          '2024-03-05 12:45:27',
          '商户消费',
          '云膳过桥米线',
          '总共消费:28.16',
          '支出',
          '28.16',
          '零钱',
          '支付成功',
          '4200002155202403051234567890',
          '129847129',
          '/',
        ),
      },
      { line: 8, cells: text('2024-03-04 00:00:00', '微信红包', '同性好友', '/', '收入', '0.3', '/', '已存入零钱', '1000039501240304', '/', '/') },
      {
        line: 9,
        cells: text(
          '2024-03-03 23:59:59',
          '转账',
          '张三',
          '/',
          '支出',
          '1234.5',
          '招商银行(1234)',
          '对方已收钱',
          '98765432101234',
          '',
          '转账备注:房租',
        ),
      },
    ]);
  });

  it('an older export: amounts as text like ¥28.16 stay as they are', async () => {
    const rows = await readXlsxTable(
      await xlsxOf([HEADER, ['2019-09-26 12:45:27', '商户消费', '云膳', '/', '支出', '¥28.16', '零钱', '支付成功', '1', '2', '/']]),
    );
    expect(rows[1]).toEqual({
      line: 2,
      cells: ['2019-09-26 12:45:27', '商户消费', '云膳', '/', '支出', '¥28.16', '零钱', '支付成功', '1', '2', '/'],
    });
  });

  it('numbers come back as their shortest decimal, without float noise', async () => {
    const values = [28.159999999999997, 0.1 + 0.2, 19.99 * 3, -0.07, 100, 1e-7 + 0.1, 123456789012.34, 4.2000021552024e27, -1e21, 0];
    const rows = await readXlsxTable(await xlsxOf([values]));
    expect(rows[0]!.cells).toEqual([
      '28.16',
      '0.3',
      '59.97',
      '-0.07',
      '100',
      '0.1000001',
      '123456789012.34',
      '4200002155202400000000000000',
      '-1000000000000000000000',
      '0',
    ]);
  });

  it('dates at every second of a day read back exactly, however the serial number rounds', async () => {
    const dates = Array.from({ length: 86_400 / 7 }, (_, i) => at(2024, 2, 29, 0, 0, i * 7));
    dates.push(at(2024, 2, 29, 23, 59, 59), at(1999, 12, 31, 23, 59, 59), at(2000, 1, 1));
    const rows = await readXlsxTable(await xlsxOf(dates.map((date) => [date])));
    const wanted = dates.map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
    expect(rows.map((row) => row.cells[0])).toEqual(wanted);
  });
});

describe('readXlsxTable: a bill re-saved in Excel or WPS', () => {
  it('shared strings, serial dates with seconds, ids as text', async () => {
    const rows = await readXlsxTable(excelResavedXlsx(wechatRows()));
    expect(rows.map((row) => row.line)).toEqual([1, 2, 3, 5, 6, 7, 8, 9]);
    expect(rows[5]!.cells).toEqual(
      text(
        '2024-03-05 12:45:27',
        '商户消费',
        '云膳过桥米线',
        '总共消费:28.16',
        '支出',
        '28.16',
        '零钱',
        '支付成功',
        '4200002155202403051234567890',
        '129847129',
        '/',
      ),
    );
    expect(rows[6]!.cells.slice(0, 6)).toEqual(['2024-03-04 00:00:00', '微信红包', '同性好友', '/', '收入', '0.3']);
    expect(rows[7]!.cells).toEqual(
      text('2024-03-03 23:59:59', '转账', '张三', '/', '支出', '1234.5', '招商银行(1234)', '对方已收钱', '98765432101234', '', '转账备注:房租'),
    );
  });

  it('serial dates without seconds, under a custom date format', async () => {
    for (const dateFormat of [undefined, 'yyyy/m/d h:mm']) {
      const rows = await readXlsxTable(excelResavedXlsx(wechatRows(), { dropSeconds: true, ...(dateFormat ? { dateFormat } : {}) }));
      expect(rows.slice(5).map((row) => row.cells[0])).toEqual(['2024-03-05 12:45:00', '2024-03-04 00:00:00', '2024-03-03 23:59:00']);
    }
  });

  it('a Power Query table: the Column1..Column11 row first, its empty cells read as empty', async () => {
    const rows = await readXlsxTable(excelResavedXlsx(wechatRows(), { powerQueryHeader: true }));
    expect(rows[0]).toEqual({ line: 1, cells: Array.from({ length: 11 }, (_, i) => `Column${i + 1}`) });
    // The blank preamble row is a row of empty strings there: still no content, still left out.
    expect(rows.map((row) => row.line)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
    expect(rows[1]!.cells).toEqual(pad(['微信支付账单明细']));
    expect(rows[5]).toEqual({ line: 7, cells: HEADER });
    expect(rows[6]!.cells[0]).toBe('2024-03-05 12:45:27');
    expect(rows[8]!.cells[9]).toBe('');
  });

  it('leading empty rows and gaps keep the rows after them in place', async () => {
    const rows = await readXlsxTable(excelResavedXlsx([[], [], ['a', 1], [], [], [null, true, false], ['b']]));
    expect(rows).toEqual([
      { line: 3, cells: ['a', '1', ''] },
      { line: 6, cells: ['', 'TRUE', 'FALSE'] },
      { line: 7, cells: ['b', '', ''] },
    ]);
  });
});

describe('readXlsxTable: what it refuses', () => {
  const refusedAs = async (bytes: Uint8Array, message: string, limits: { maxRows?: number } = {}) => {
    const error = await readXlsxTable(bytes, limits).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(message);
  };

  it('a zip that is not a workbook, random bytes, a truncated workbook, an empty file', async () => {
    const workbook = excelResavedXlsx(wechatRows());
    // A zip naming xl/ but holding no workbook gets as far as the reader, which refuses it.
    await refusedAs(zipSync({ 'xl/readme.txt': strToU8('hi') }), XLSX_ERRORS.invalid);
    const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);
    await refusedAs(random, XLSX_ERRORS.invalid);
    await refusedAs(new Uint8Array(), XLSX_ERRORS.invalid);
    for (const length of [30, 200, Math.floor(workbook.length / 2), workbook.length - 10]) {
      await refusedAs(workbook.slice(0, length), XLSX_ERRORS.invalid);
    }
  });

  it('a legacy .xls and a file over the size bound, without starting a worker', async () => {
    const before = started.workers.length;
    await refusedAs(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), XLSX_ERRORS.legacyXls);
    await refusedAs(new Uint8Array(XLSX_MAX_BYTES + 1), XLSX_ERRORS.tooLarge);
    await refusedAs(zipSync({ 'word/document.xml': strToU8('<w:document/>') }), XLSX_ERRORS.invalid);
    expect(started.workers.length).toBe(before);
  });

  it('a sheet over the row bound (rows up to its last non-empty one count)', async () => {
    const rows: FixtureCell[][] = [['a'], [], [], ['b']];
    await refusedAs(await xlsxOf(rows), tooManyRows(3), { maxRows: 3 });
    expect(await readXlsxTable(await xlsxOf(rows), { maxRows: 4 })).toHaveLength(2);
    expect(tooManyRows(200_000)).toBe('表格超过 200000 行');
  });

  it('every worker is gone once a read settles, read or refused', async () => {
    started.workers.length = 0;
    await readXlsxTable(await xlsxOf([['a']]));
    await refusedAs(zipSync({ 'xl/readme.txt': strToU8('hi') }), XLSX_ERRORS.invalid);
    const workbook = excelResavedXlsx([['a']]);
    await refusedAs(workbook.slice(0, workbook.length - 10), XLSX_ERRORS.invalid);
    expect(started.workers).toHaveLength(3);
    await workersGone();
  });

  it('a worker that crashes, throws, or exits without an answer rejects instead of hanging', async () => {
    const workbook = await xlsxOf([['a']]);
    for (const code of [
      'process.exit(3)',
      'throw new Error("boom")',
      'setTimeout(() => {}, 50)',
      'require("node:worker_threads").parentPort.close()',
    ]) {
      started.instead = code;
      await refusedAs(workbook, XLSX_ERRORS.failed);
    }
    await workersGone();
  });
});

describe('isXlsx', () => {
  it('a workbook, in either shape, is one', async () => {
    expect(isXlsx(await xlsxOf([['a']]))).toBe(true);
    expect(isXlsx(excelResavedXlsx([['a']]))).toBe(true);
  });

  it('other zips, other files and nothing are not', () => {
    expect(isXlsx(zipSync({ 'word/document.xml': strToU8('<w:document/>') }))).toBe(false);
    expect(isXlsx(strToU8('交易时间,交易类型\nxl/,PK'))).toBe(false);
    expect(isXlsx(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(false);
    expect(isXlsx(new Uint8Array())).toBe(false);
  });

  it('a workbook whose first entries are large still has its names in the central directory', () => {
    const noise = new Uint8Array(200_000).map((_, i) => (i * 2654435761) % 256);
    const zip = zipSync({ '[Content_Types].xml': [noise, { level: 0 }], 'xl/workbook.xml': strToU8('<workbook/>') });
    expect(isXlsx(zip)).toBe(true);
  });
});

describe('readXlsxTable: a large bill', () => {
  it('reads 10 000 WeChat rows in well under a few seconds', async () => {
    const rows: FixtureCell[][] = [...wechatRows().slice(0, 6)];
    for (let i = 0; i < 10_000; i++) {
      rows.push([at(2024, 1, 1, 8, 0, i), '商户消费', `商户${i}`, '/', '支出', (i % 1000) + 0.99, '零钱', '支付成功', `42000${i}`, `${i}`, '/']);
    }
    const bytes = await xlsxOf(rows);
    const started = performance.now();
    const table = await readXlsxTable(bytes);
    const elapsed = performance.now() - started;
    expect(table).toHaveLength(10_005);
    expect(table.at(-1)).toEqual({
      line: 10_006,
      cells: ['2024-01-01 10:46:39', '商户消费', '商户9999', '/', '支出', '999.99', '零钱', '支付成功', '420009999', '9999', '/'],
    });
    // ≈ 0.6 s of parsing plus the worker's start on an idle machine; loose, for shared CI machines.
    expect(elapsed).toBeLessThan(10_000);
  });
});

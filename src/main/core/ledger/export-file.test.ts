import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { strFromU8, unzipSync } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CSV_HEADER, LedgerHistory, openLedger, type Ledger } from './index';
import {
  CHUNK_ROWS,
  DETAIL_HEADER,
  DETAIL_LEGACY_COLUMNS,
  DETAIL_SHEET,
  exportFileName,
  SUMMARY_HEADER,
  SUMMARY_SHEET,
  writeExport,
  writeExportFile,
} from './export-file';
import type { KeptPicture } from './attachments';
import type * as WorkerRequire from '../worker-require';
import { entry, item, NOW } from '../../../../test/support/ledger-fixtures';
import { xlsxOf } from '../../../../test/support/xlsx-fixture';

// The worker requires write-excel-file from where resolveForWorker says; a test points it at a
// stand-in that fails the way a broken package or a crashing worker would.
const workerModule = vi.hoisted(() => ({ xlsx: null as string | null }));
vi.mock('../worker-require', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerRequire>();
  return {
    ...actual,
    resolveForWorker: (name: Parameters<typeof actual.resolveForWorker>[0]) =>
      (name === 'write-excel-file/node' && workerModule.xlsx) || actual.resolveForWorker(name),
  };
});

let ledger: Ledger;
let dir: string;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  dir = mkdtempSync(join(tmpdir(), 'skj-export-'));
});
afterEach(() => {
  workerModule.xlsx = null;
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Both sheets by name, cells as read-excel-file types them (a number cell comes back a number). */
async function readBack(path: string) {
  const sheets = await readExcelFile(path, { trim: false });
  return Object.fromEntries(sheets.map((s) => [s.sheet, s.data]));
}

describe('exportFileName', () => {
  it('is 随口记_YYYYMMDD_HHmmss in local time with the format as extension', () => {
    expect(exportFileName('xlsx', new Date(2026, 0, 5, 7, 8, 9))).toBe('随口记_20260105_070809.xlsx');
    expect(exportFileName('csv', new Date(2026, 11, 31, 23, 59, 58))).toBe('随口记_20261231_235958.csv');
  });
});

describe('xlsx export', () => {
  it('writes 明细 oldest first with real numbers and 分类汇总 with transfers apart', async () => {
    ledger.addAccount('银行卡', 0);
    ledger.addTransaction(entry({ amountFen: 20, date: '2026-02-11', note: '糖' }));
    ledger.addTransaction(entry({ amountFen: 10, date: '2026-02-10', time: '09:30', note: '早饭，豆浆' }));
    ledger.addTransaction(entry({ type: 'INCOME', category: '工资', amountFen: 1_234_567, account: '银行卡', date: '2026-02-12' }));
    ledger.addTransaction(
      entry({ type: 'TRANSFER', category: undefined, amountFen: 50_00, account: '银行卡', toAccount: '钱包', date: '2026-02-13' }),
    );
    ledger.addTransaction(
      entry({ type: 'TRANSFER', category: undefined, amountFen: 30_00, account: '钱包', counterparty: '房东', date: '2026-02-14' }),
    );
    const path = join(dir, '导出.xlsx');

    expect(await writeExportFile(ledger, 'xlsx', {}, path)).toBe(5);

    const sheets = await readBack(path);
    expect(Object.keys(sheets)).toEqual([DETAIL_SHEET, SUMMARY_SHEET]);
    expect(sheets[DETAIL_SHEET]).toEqual([
      [...DETAIL_HEADER],
      ['2026-02-10', '09:30:00', '支出', '餐饮', 0.1, '钱包', null, '早饭，豆浆', null, null, null, null, null],
      ['2026-02-11', '08:15:00', '支出', '餐饮', 0.2, '钱包', null, '糖', null, null, null, null, null],
      ['2026-02-12', '08:15:00', '收入', '工资', 12345.67, '银行卡', null, null, null, null, null, null, null],
      ['2026-02-13', '08:15:00', '转账', '转账', 50, '银行卡', '钱包', null, null, null, null, null, null],
      ['2026-02-14', '08:15:00', '转账', '转账', 30, '钱包', '房东', null, null, null, null, null, null],
    ]);
    // Summed in fen: 0.1 + 0.2 is 0.3 here, not 0.30000000000000004.
    expect(sheets[SUMMARY_SHEET]).toEqual([
      [...SUMMARY_HEADER],
      ['支出', '餐饮', 2, 0.3],
      ['支出', '合计', 2, 0.3],
      ['收入', '工资', 1, 12345.67],
      ['收入', '合计', 1, 12345.67],
      ['转账', '转账', 2, 80],
      ['转账', '合计', 2, 80],
    ]);
  });

  it('names the money flow of each row and counts the summary as 统计 does: refunds off their category, reimbursements apart', async () => {
    const [shoes] = ledger.saveBatch([item({ amount: 500, category: '购物', date: '2026-02-01' })]);
    const [taxi] = ledger.saveBatch([item({ amount: 80, category: '交通', reimbursable: true, date: '2026-02-02' })]);
    ledger.saveBatch([
      item({ amount: 120, type: 'INCOME', category: null, flow: 'refund', refundOf: shoes!.id, date: '2026-02-03' }),
      item({ amount: 80, type: 'INCOME', category: null, flow: 'reimbursement', settles: [taxi!.id], date: '2026-02-04' }),
      item({ amount: 1000, type: 'TRANSFER', category: null, flow: 'lend', counterparty: '小李', date: '2026-02-05' }),
    ]);
    const path = join(dir, 'flows.xlsx');
    await writeExportFile(ledger, 'xlsx', {}, path);
    const sheets = await readBack(path);
    expect(sheets[DETAIL_SHEET]!.slice(1).map((r) => [r[2], r[3], r[6], r[8], r[9]])).toEqual([
      ['支出', '购物', null, null, null],
      ['支出', '交通', null, null, '已报销'],
      ['支出', '购物', null, '退款', null],
      ['收入', '其他', null, '报销到账', null],
      ['转账', '转账', '小李', '借出', null],
    ]);
    expect(sheets[SUMMARY_SHEET]!.slice(1)).toEqual([
      ['支出', '购物', 2, 380],
      ['支出', '交通', 1, 80],
      ['支出', '合计', 3, 460],
      ['报销到账', '其他', 1, 80],
      ['报销到账', '合计', 1, 80],
      ['转账', '转账', 1, 1000],
      ['转账', '合计', 1, 1000],
    ]);
  });

  it('formats amounts with two decimals', async () => {
    ledger.addTransaction(entry({ amountFen: 500 }));
    const path = join(dir, 'a.xlsx');
    await writeExportFile(ledger, 'xlsx', {}, path);
    const styles = unzipEntry(path, 'xl/styles.xml');
    expect(styles).toContain('formatCode="0.00"');
  });

  it('writes text that looks like a formula as a plain string cell, exactly as typed', async () => {
    ledger.addCategory('+餐饮', 'EXPENSE');
    ledger.addTransaction(entry({ note: '=HYPERLINK("http://x","<点我>&")', category: '+餐饮' }));
    const path = join(dir, 'f.xlsx');
    await writeExportFile(ledger, 'xlsx', {}, path);

    const sheet = unzipEntry(path, 'xl/worksheets/sheet1.xml');
    // No formula element anywhere: text lives in the shared-string table, which is never evaluated.
    expect(sheet).not.toMatch(/<f[ >]/);
    expect(unzipEntry(path, 'xl/sharedStrings.xml')).toContain('<t>=HYPERLINK("http://x","&lt;点我&gt;&amp;")</t>');
    const row = (await readBack(path))[DETAIL_SHEET]![1]!;
    expect(row[3]).toBe('+餐饮');
    expect(row[7]).toBe('=HYPERLINK("http://x","<点我>&")');
  });

  it('exports only the filtered rows', async () => {
    ledger.addTransaction(entry({ date: '2026-01-31' }));
    ledger.addTransaction(entry({ date: '2026-02-01', note: '二月' }));
    const path = join(dir, 'feb.xlsx');
    expect(await writeExportFile(ledger, 'xlsx', { from: '2026-02-01', to: '2026-02-28' }, path)).toBe(1);
    const detail = (await readBack(path))[DETAIL_SHEET]!;
    expect(detail.map((r) => r[7])).toEqual(['备注', '二月']);
  });

  it('writes an empty ledger as headers only', async () => {
    const path = join(dir, 'empty.xlsx');
    expect(await writeExportFile(ledger, 'xlsx', {}, path)).toBe(0);
    const sheets = await readBack(path);
    expect(sheets[DETAIL_SHEET]).toEqual([[...DETAIL_HEADER]]);
    expect(sheets[SUMMARY_SHEET]).toEqual([[...SUMMARY_HEADER]]);
  });
});

describe('csv export to a file', () => {
  it('writes the same text as the chunked CSV export, BOM and escaped cells included', async () => {
    ledger.addTransaction(entry({ note: '=1+1' }));
    const path = join(dir, 'out.csv');
    expect(await writeExportFile(ledger, 'csv', {}, path)).toBe(1);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(`\uFEFF${CSV_HEADER.join(',')}\r\n`)).toBe(true);
    expect(text).toMatch(/\r\n2026-02-10,08:15:00,支出,餐饮,10,钱包,'=1\+1,,,,,[0-9a-f-]{36},,,,,\r\n/);
  });
});

describe('a failed write', () => {
  it('leaves neither a half file nor its temp file behind', async () => {
    ledger.addTransaction(entry());
    // A folder where the file should go: the temp file is written, the rename fails.
    const target = join(dir, 'taken.xlsx');
    mkdirSync(target);
    await expect(writeExportFile(ledger, 'xlsx', {}, target)).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect(readdirSync(dir)).toEqual(['taken.xlsx']);
    expect(readdirSync(target)).toEqual([]);
  });

  it('replaces an existing file only once the new one is complete', async () => {
    ledger.addTransaction(entry());
    const path = join(dir, 'again.csv');
    await writeExportFile(ledger, 'csv', {}, path);
    ledger.addTransaction(entry({ note: '第二笔' }));
    expect(await writeExportFile(ledger, 'csv', {}, path)).toBe(2);
    expect(readFileSync(path, 'utf8')).toContain('第二笔');
    expect(readdirSync(dir)).toEqual(['again.csv']);
  });
});

describe('a large export', () => {
  /** `n` entries on consecutive days from 2026-01-01, amounts 0.01 … n/100 yuan. */
  function fill(n: number) {
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    ledger.database.transaction(() => {
      for (let i = 0; i < n; i++) ledger.addTransaction(entry({ amountFen: i + 1, date: day(i), note: `第${i}笔` }));
    })();
  }

  it.each(['xlsx', 'csv'] as const)(
    'reads the %s in chunks, and other commands run on the ledger between them',
    async (format) => {
      const rows = 2 * CHUNK_ROWS[format] + 1;
      fill(rows);
      // A command answered meanwhile reads the ledger too: the export's statement must be done.
      let answered = 0;
      let exporting = true;
      const otherCommands = () => {
        if (!exporting) return;
        ledger.count({});
        answered++;
        setImmediate(otherCommands);
      };
      const reads: { limit: number; answeredBefore: number }[] = [];
      const read = ledger.iterateForExport.bind(ledger);
      vi.spyOn(ledger, 'iterateForExport').mockImplementation((filter, after, limit) => {
        reads.push({ limit, answeredBefore: answered });
        return read(filter, after, limit);
      });
      setImmediate(otherCommands);

      const written = await writeExportFile(ledger, format, {}, join(dir, `big.${format}`));
      exporting = false;

      expect(written).toBe(rows);
      expect(reads.map((r) => r.limit)).toEqual([CHUNK_ROWS[format], CHUNK_ROWS[format], CHUNK_ROWS[format]]);
      for (let i = 1; i < reads.length; i++) expect(reads[i]!.answeredBefore).toBeGreaterThan(reads[i - 1]!.answeredBefore);
      if (format === 'xlsx') {
        const detail = (await readBack(join(dir, 'big.xlsx')))[DETAIL_SHEET]!;
        expect(detail).toHaveLength(rows + 1);
        expect(detail.at(-1)).toEqual([
          expect.any(String),
          '08:15:00',
          '支出',
          '餐饮',
          rows / 100,
          '钱包',
          null,
          `第${rows - 1}笔`,
          null,
          null,
          null,
          null,
          null,
        ]);
      } else {
        expect(readFileSync(join(dir, 'big.csv'), 'utf8').trimEnd().split('\r\n')).toHaveLength(rows + 1);
      }
    },
    60_000,
  );

  it('keeps the main thread free while the workbook is built: no stall near the length of the export', async () => {
    // Long enough that a passing hiccup of a loaded machine is small beside it.
    fill(5 * CHUNK_ROWS.xlsx);
    // A 1 ms timer stands for the app's IPC; its longest wait is the longest the app was deaf.
    let last = performance.now();
    let longest = 0;
    const ticks = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const start = performance.now();
    try {
      await writeExportFile(ledger, 'xlsx', {}, join(dir, 'big.xlsx'));
    } finally {
      clearInterval(ticks);
    }
    const took = performance.now() - start;
    // Built on the main thread, the workbook was one stall of nearly the whole export; now the
    // longest stall is one chunk of reading. Relative, so a loaded machine slows both alike.
    expect(longest).toBeLessThan(took / 2);
  }, 60_000);
});

describe('the pictures of the exported rows', () => {
  const RECEIPT: KeptPicture = {
    id: 'pic-receipt',
    bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]),
    format: 'jpeg',
    text: '永辉超市\n合计 52.30',
  };
  const PAID: KeptPicture = { id: 'pic-paid', bytes: new Uint8Array([0x52, 0x49, 0x46, 0x46, 7]), format: 'webp', text: '支付成功\n-35.00' };
  const MARCH: KeptPicture = { id: 'pic-march', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9]), format: 'png', text: '三月' };
  const FEBRUARY = { from: '2026-02-01', to: '2026-02-28' };

  let book: Ledger;
  let out: string;
  beforeEach(() => {
    // A book in a folder keeps pictures (':memory:' keeps none); the exports go elsewhere.
    book = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
    out = join(dir, 'out');
    mkdirSync(out);
  });
  afterEach(() => book.close());

  /** Two rows off one receipt, one off a screenshot, one typed, and a picture row in March. */
  function keepPictures() {
    book.saveBatch(
      [
        item({ amount: 12, description: '牛奶', picture: RECEIPT.id, date: '2026-02-01' }),
        item({ amount: 40.3, description: '大米', picture: RECEIPT.id, date: '2026-02-01' }),
      ],
      { now: NOW, pictures: [RECEIPT] },
    );
    book.saveBatch([item({ amount: 35, description: '午饭', picture: PAID.id, date: '2026-02-02' })], { now: NOW, pictures: [PAID] });
    book.saveBatch([item({ amount: 5, description: '地铁', date: '2026-02-03' })], { now: NOW });
    book.saveBatch([item({ amount: 9, description: '三月', picture: MARCH.id, date: '2026-03-01' })], { now: NOW, pictures: [MARCH] });
  }

  /** The 备注 and 附件 cells of each exported row, read back from the file. */
  async function pictureColumn(format: 'csv' | 'xlsx', path: string): Promise<[string, string][]> {
    if (format === 'xlsx') {
      const detail = (await readBack(path))[DETAIL_SHEET]!;
      expect(detail[0]).toEqual([...DETAIL_HEADER]);
      return detail.slice(1).map((r) => [String(r[7]), (r[12] as string | null) ?? '']);
    }
    const lines = readFileSync(path, 'utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    return lines.slice(1).map((l) => {
      const cells = l.split(',');
      return [cells[6]!, cells.at(-1)!];
    });
  }

  it.each(['csv', 'xlsx'] as const)(
    '%s: a folder named after the file holds each exported picture once with its text, and 附件 names it',
    async (format) => {
      keepPictures();
      const path = join(out, `随口记_20260217_123000.${format}`);
      const folder = join(out, '随口记_20260217_123000_附件');

      expect(await writeExport(book, format, FEBRUARY, path)).toEqual({ rows: 4, pictures: 2, folder });

      expect(await pictureColumn(format, path)).toEqual([
        ['牛奶', 'pic-receipt.jpg'],
        ['大米', 'pic-receipt.jpg'],
        ['午饭', 'pic-paid.webp'],
        ['地铁', ''],
      ]);
      expect(readdirSync(out).sort()).toEqual([basename(path), basename(folder)].sort());
      // March is not exported, so neither is its picture.
      expect(readdirSync(folder).sort()).toEqual(['pic-paid.webp', 'pic-paid.webp.txt', 'pic-receipt.jpg', 'pic-receipt.jpg.txt']);
      expect(new Uint8Array(readFileSync(join(folder, 'pic-receipt.jpg')))).toEqual(RECEIPT.bytes);
      expect(new Uint8Array(readFileSync(join(folder, 'pic-paid.webp')))).toEqual(PAID.bytes);
      expect(readFileSync(join(folder, 'pic-receipt.jpg.txt'), 'utf8')).toBe(RECEIPT.text);
      expect(readFileSync(join(folder, 'pic-paid.webp.txt'), 'utf8')).toBe(PAID.text);
    },
  );

  it.each(['csv', 'xlsx'] as const)('%s: imports back into another ledger, the 附件 column ignored', async (format) => {
    keepPictures();
    const path = join(out, `export.${format}`);
    await writeExport(book, format, {}, path);
    const target = openLedger({ path: ':memory:', now: () => NOW });
    try {
      expect(await new LedgerHistory(target).importFile(readFileSync(path))).toMatchObject({ imported: 5, duplicates: 0 });
      const shape = (l: Ledger) =>
        l
          .list({ limit: 10 })
          .rows.map((r) => [r.date, r.type, r.category, r.amountFen, r.account, r.description].join('|'))
          .sort();
      expect(shape(target)).toEqual(shape(book));
    } finally {
      target.close();
    }
  });

  it('a workbook of the columns before 附件 still imports as ours', async () => {
    const old = await xlsxOf([
      [...DETAIL_HEADER.slice(0, DETAIL_LEGACY_COLUMNS)],
      ['2026-02-01', '12:00:00', '支出', '餐饮', 35, '钱包', null, '午饭', null, null, null, null],
    ]);
    expect(await new LedgerHistory(book).importFile(old)).toMatchObject({ imported: 1 });
    expect(book.list({}).rows.map((r) => [r.date, r.amountFen, r.description])).toEqual([['2026-02-01', 35_00, '午饭']]);
  });

  it('makes no folder when no exported row has a picture, or the picture is gone from the book', async () => {
    keepPictures();
    const typed = join(out, 'typed.csv');
    expect(await writeExport(book, 'csv', { ...FEBRUARY, category: '餐饮', from: '2026-02-03' }, typed)).toEqual({
      rows: 1,
      pictures: 0,
      folder: null,
    });
    rmSync(join(dir, 'attachments', 'pic-paid.webp'));
    const gone = join(out, 'gone.xlsx');
    expect(await writeExport(book, 'xlsx', { from: '2026-02-02', to: '2026-02-02' }, gone)).toEqual({ rows: 1, pictures: 0, folder: null });
    expect(await pictureColumn('xlsx', gone)).toEqual([['午饭', '']]);
    expect(readdirSync(out).sort()).toEqual(['gone.xlsx', 'typed.csv']);
  });

  it('replaces the folder of an earlier export by the same name', async () => {
    keepPictures();
    const path = join(out, 'again.csv');
    await writeExport(book, 'csv', FEBRUARY, path);
    expect(await writeExport(book, 'csv', { from: '2026-03-01' }, path)).toMatchObject({ rows: 1, pictures: 1 });
    expect(readdirSync(out).sort()).toEqual(['again.csv', 'again_附件']);
    expect(readdirSync(join(out, 'again_附件')).sort()).toEqual(['pic-march.png', 'pic-march.png.txt']);
  });

  it.each(['csv', 'xlsx'] as const)('%s: a failed export leaves neither a half file nor a half folder', async (format) => {
    keepPictures();
    // A folder where the file should go: file and pictures are written, the file's rename fails.
    const target = join(out, `taken.${format}`);
    mkdirSync(target);
    await expect(writeExport(book, format, {}, target)).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect(readdirSync(out)).toEqual([`taken.${format}`]);
    expect(readdirSync(target)).toEqual([]);
  });

  it('a failed export puts back the folder of the earlier export by the same name', async () => {
    keepPictures();
    const path = join(out, 'kept.csv');
    await writeExport(book, 'csv', { from: '2026-03-01' }, path);
    // The file cannot be replaced once the new folder is in place: a folder took its name.
    rmSync(path);
    mkdirSync(path);
    await expect(writeExport(book, 'csv', FEBRUARY, path)).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect(readdirSync(out).sort()).toEqual(['kept.csv', 'kept_附件']);
    expect(readdirSync(join(out, 'kept_附件')).sort()).toEqual(['pic-march.png', 'pic-march.png.txt']);
  });

  it('names and copies pictures chunk by chunk, a picture met again in a later chunk copied once', async () => {
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const rows = CHUNK_ROWS.csv + 1;
    book.saveBatch([item({ description: '第一笔', picture: RECEIPT.id, date: day(0) })], { now: NOW, pictures: [RECEIPT] });
    book.database.transaction(() => {
      for (let i = 1; i < rows - 1; i++) book.addTransaction(entry({ date: day(i) }));
    })();
    book.saveBatch([item({ description: '最后', picture: RECEIPT.id, date: day(rows) })], { now: NOW, pictures: [RECEIPT] });
    const path = join(out, 'big.csv');
    expect(await writeExport(book, 'csv', {}, path)).toMatchObject({ rows, pictures: 1 });
    const named = (await pictureColumn('csv', path)).filter(([, file]) => file);
    expect(named).toEqual([
      ['第一笔', 'pic-receipt.jpg'],
      ['最后', 'pic-receipt.jpg'],
    ]);
    expect(readdirSync(join(out, 'big_附件'))).toEqual(['pic-receipt.jpg', 'pic-receipt.jpg.txt']);
  }, 60_000);
});

describe('a failing workbook worker', () => {
  /** Points the worker at a stand-in for write-excel-file with this source. */
  function brokenPackage(source: string) {
    const modules = mkdtempSync(join(tmpdir(), 'skj-broken-xlsx-'));
    writeFileSync(join(modules, 'index.cjs'), source);
    workerModule.xlsx = join(modules, 'index.cjs');
    return () => rmSync(modules, { recursive: true, force: true });
  }

  it.each([
    ['the package does not load', `throw new Error('cannot load')`],
    ['the worker dies while zipping', `module.exports = () => ({ toBuffer: () => process.exit(7) })`],
    ['the zip fails', `module.exports = () => ({ toBuffer: () => Promise.reject(new Error('deflate failed')) })`],
  ])('rejects the export with a reason in Chinese and leaves no file when %s', async (_, source) => {
    const cleanUp = brokenPackage(source);
    try {
      ledger.addTransaction(entry());
      await expect(writeExportFile(ledger, 'xlsx', {}, join(dir, 'a.xlsx'))).rejects.toThrow(/^生成 Excel 文件时出错，请重试$/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanUp();
    }
  });

  it('leaves no half folder of pictures either', async () => {
    const cleanUp = brokenPackage(`module.exports = () => ({ toBuffer: () => Promise.reject(new Error('deflate failed')) })`);
    const book = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
    try {
      const picture: KeptPicture = { id: 'pic-1', bytes: new Uint8Array([0xff, 0xd8, 0xff]), format: 'jpeg', text: '合计 5.00' };
      book.saveBatch([item({ picture: picture.id })], { now: NOW, pictures: [picture] });
      const out = join(dir, 'out');
      mkdirSync(out);
      await expect(writeExport(book, 'xlsx', {}, join(out, 'a.xlsx'))).rejects.toThrow(/^生成 Excel 文件时出错，请重试$/);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      book.close();
      cleanUp();
    }
  });
});

/** One file inside the xlsx (a zip) as text. */
function unzipEntry(path: string, name: string): string {
  const files = unzipSync(readFileSync(path), { filter: (f) => f.name === name });
  const file = files[name];
  if (!file) throw new Error(`${name} is not in ${path}`);
  return strFromU8(file);
}

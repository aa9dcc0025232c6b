import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CategoryCandidate } from '../categories/index';
import { parseCsvPaced } from './csv';
import { BOM, CSV_HEADER, exportCsv, ImportError, LedgerHistory, openLedger, parseImport, type Ledger } from './index';
import { escapeCell, parseCsv, unescapeCell } from './csv';
import { startsLikeFormula } from '@shared/ipc/fields';
import { entry, item, NOW, rentRule } from '../../../../test/support/ledger-fixtures';

const context = (categories: readonly CategoryCandidate[], accounts: readonly string[] = []) => ({
  categories,
  accounts,
  merchantCategories: new Map<string, string>(),
});

import { gbk, utf8 } from '../../../../test/support/bill-fixtures';

let source: Ledger;
let target: Ledger;

beforeEach(() => {
  source = openLedger({ path: ':memory:', now: () => NOW });
  target = openLedger({ path: ':memory:', now: () => NOW });
});
afterEach(() => {
  source.close();
  target.close();
});

const comparable = (l: Ledger) =>
  l
    .list({ limit: 10_000 })
    .rows.map((r) => [r.occurredAt, r.type, r.category, r.amountFen, r.account, r.description, r.currency].join('|'))
    .sort();

describe('CSV export', () => {
  it('writes UTF-8 with a BOM, the seven Chinese columns, oldest first, quoting where needed', () => {
    source.saveBatch([
      item({ amount: 35, description: '午饭, 和同事', date: '2026-02-02' }),
      item({ amount: 9000.5, type: 'INCOME', category: '工资', description: '说"谢谢"\n第二行', date: '2026-02-01' }),
    ]);
    const { text, rows, total } = exportCsv(source);
    expect(rows).toBe(2);
    expect(total).toBe(2);
    expect(text.startsWith(`${BOM}${CSV_HEADER.join(',')}\r\n`)).toBe(true);
    const lines = text.slice(1).split('\r\n');
    const [income, lunch] = source.list({ limit: 2 }).rows.sort((a, b) => a.date.localeCompare(b.date));
    expect(lines[1]).toBe(`2026-02-01,12:30:00,收入,工资,9000.50,钱包,"说""谢谢""\n第二行",,,,,${income!.id},,,,,`);
    expect(lines[2]).toBe(`2026-02-02,12:30:00,支出,餐饮,35,钱包,"午饭, 和同事",,,,,${lunch!.id},,,,,`);
  });

  it('quotes a lone CR, which readers take for the end of a record, and reads it back whole', async () => {
    source.saveBatch([item({ amount: 12, description: '第一行\r第二行', date: '2026-02-03' })]);
    const { text } = exportCsv(source);
    expect(text).toContain(',"第一行\r第二行",');
    const parsed = await parseImport(Buffer.from(text, 'utf8'), context(source.categoryCandidates()));
    expect(parsed.rows.map((r) => r.description)).toEqual(['第一行\r第二行']);
  });

  it('exports only the filtered rows, in chunks that add up to the whole', () => {
    source.saveBatch(Array.from({ length: 25 }, (_, i) => item({ amount: i + 1, date: `2026-02-${String(i + 1).padStart(2, '0')}` })));
    source.saveBatch([item({ category: '交通', date: '2026-03-01' })]);
    const whole = exportCsv(source, { from: '2026-02-01', to: '2026-02-28' });
    expect(whole.rows).toBe(25);
    // Same-instant rows (one batch) must not be split or repeated across chunk borders.
    source.saveBatch(Array.from({ length: 7 }, (_, i) => item({ amount: 100 + i, date: '2026-02-10' })));
    const whole7 = exportCsv(source, { from: '2026-02-01', to: '2026-02-28' });
    expect(whole7.rows).toBe(32);
    const chunks = [];
    let after: string | null = null;
    do {
      const chunk = exportCsv(source, { from: '2026-02-01', to: '2026-02-28' }, { after, limit: 10 });
      chunks.push(chunk);
      after = chunk.cursor;
    } while (after);
    expect(chunks.map((c) => c.rows)).toEqual([10, 10, 10, 2]);
    expect(chunks.map((c) => c.text).join('')).toBe(whole7.text);
    expect(() => exportCsv(source, {}, { after: 'nonsense' })).toThrow(/导出位置无效/);
    expect(exportCsv(source, { category: '交通' }).rows).toBe(1);
  });
});

describe('CSV round trip', () => {
  it('export → import into an empty ledger gives identical rows and fen-exact sums', async () => {
    source.addAccount('信用卡');
    source.addCategory('咖啡', 'EXPENSE');
    source.saveBatch([
      item({ amount: 0.01, description: '' }),
      item({ amount: 19.99, category: '购物', description: '袜子,两双', date: '2026-01-31' }),
      item({ amount: 100_000_000, type: 'INCOME', category: '奖金', description: '"大奖"', date: '2025-12-31' }),
      item({ amount: 33.3, category: '咖啡', account: '信用卡', description: '拿铁\r\n加燕麦奶' }),
      item({ amount: 5, type: 'TRANSFER', category: '转账', description: '还钱' }),
      item({ amount: 60 }),
      item({ amount: 60 }),
    ]);
    const { text } = exportCsv(source);
    const history = new LedgerHistory(target);
    expect(await history.importFile(utf8(text))).toMatchObject({ imported: 7, duplicates: 0 });
    expect(comparable(target)).toEqual(comparable(source));
    for (const type of ['EXPENSE', 'INCOME', 'TRANSFER'] as const) {
      expect(target.totals({ from: '2000-01-01', to: '2099-12-31', type })).toEqual(source.totals({ from: '2000-01-01', to: '2099-12-31', type }));
    }
    expect(target.listAccounts().map((a) => a.name)).toContain('信用卡');
    expect(target.list({ limit: 10 }).rows.every((r) => r.source === 'import')).toBe(true);
  });

  it('skips rows already in the ledger (exact duplicates) and reports them in the preview', async () => {
    source.saveBatch([item({ amount: 1 }), item({ amount: 2 })]);
    const history = new LedgerHistory(source);
    const bytes = utf8(exportCsv(source).text + '2026-02-03,08:00:00,支出,交通,3,钱包,地铁,,,,,,,,,,\r\n');
    const preview = await history.previewImport(bytes);
    expect(preview).toMatchObject({ format: 'suikouji', encoding: 'utf-8', lines: 3, toImport: 1, duplicates: 2 });
    expect(preview.rows.map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'new']);
    expect(source.count()).toBe(2);
    expect(await history.importFile(bytes)).toMatchObject({ imported: 1, duplicates: 2 });
    expect(source.count()).toBe(3);
    expect(await history.importFile(bytes)).toMatchObject({ imported: 0, duplicates: 3 });
  });
});

describe('malformed imports are rejected with the line number and nothing written', () => {
  const header = '\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n';
  const good = '2026-02-01,12:00:00,支出,餐饮,35,钱包,午饭\r\n';
  it.each([
    ['wrong columns', '日期,时间,金额\r\n2026-02-01,12:00,35\r\n', 1, /列不正确|无法识别/],
    ['a missing column', header + good + '2026-02-01,12:00:00,支出,餐饮,35,钱包\r\n', 3, /应有7列/],
    ['a bad amount', header + good + good.replace(',35,', ',3x5,'), 3, /金额「3x5」无效/],
    ['a negative amount', header + good + good.replace(',35,', ',-35,'), 3, /金额「-35」无效/],
    ['three decimals', header + good + good + good.replace(',35,', ',1.005,'), 4, /金额/],
    ['a bad date', header + good.replace('2026-02-01', '2026-02-30'), 2, /日期「2026-02-30」无效/],
    ['a bad time', header + good.replace('12:00:00', '25:00:00'), 2, /时间/],
    ['a bad type', header + good.replace('支出', '花费'), 2, /类型「花费」无效/],
    ['an unclosed quote', header + good + '2026-02-01,12:00:00,支出,餐饮,35,钱包,"午饭\r\n', 3, /引号/],
  ])('%s', async (_name, text, line, message) => {
    const ledger = openLedger({ path: ':memory:', now: () => NOW });
    const history = new LedgerHistory(ledger);
    let error: unknown;
    try {
      await history.importFile(utf8(text));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).line).toBe(line);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`第${line}行`);
    expect(ledger.count()).toBe(0);
    expect(history.state().canUndo).toBe(false);
    ledger.close();
  });

  it('bad encoding: names the first line that is neither UTF-8 nor GBK', async () => {
    const ledger = openLedger({ path: ':memory:', now: () => NOW });
    const bytes = new Uint8Array([...utf8(header + good), 0x32, 0x30, 0xff, 0xfe, 0x0d, 0x0a]);
    await expect(new LedgerHistory(ledger).importFile(bytes)).rejects.toThrow(/第3行：文件编码无法识别/);
    const bomThenGbk = new Uint8Array([...utf8(header), ...gbk('2026-02-01,12:00:00,支出,餐饮,35,钱包,午饭\r\n')]);
    await expect(new LedgerHistory(ledger).importFile(bomThenGbk)).rejects.toThrow(/第2行：文件编码无法识别/);
    expect(ledger.count()).toBe(0);
    ledger.close();
  });
});

describe('bill exports', () => {
  const alipay = [
    '------------------------------------------------------------------------------------',
    '导出信息：',
    '姓名：张三',
    '支付宝账户：zhangsan@example.com',
    '起始时间：[2026-02-01 00:00:00]    终止时间：[2026-02-28 23:59:59]',
    '共5笔记录',
    '------------------------支付宝（中国）网络技术有限公司  电子客户回单------------------------',
    '交易时间,交易分类,交易对方,对方账号,商品说明,收/支,金额,收/付款方式,交易状态,交易订单号,商家订单号,备注,',
    '2026-02-03 12:01:02,餐饮美食,兰州拉面,/,牛肉面,支出,18.00,花呗,交易成功,2026020322001,T001,,',
    '2026-02-04 08:30:00,交通出行,滴滴出行,/,快车,支出,25.50,余额宝,交易成功,2026020422001,T002,,',
    '2026-02-05 09:00:00,日用百货,超市,/,纸巾,支出,9.90,余额,交易关闭,2026020522001,T003,,',
    '2026-02-06 10:00:00,投资理财,余额宝,/,收益发放,不计收支,0.35,余额宝,交易成功,2026020622001,,,',
    '2026-02-07 18:00:00,转账红包,李四,li***@qq.com,微信群里说的红包,收入,"1,200.00",余额,交易成功,2026020722001,,,',
    '',
  ].join('\r\n');

  it('reads an Alipay bill in GBK, maps its categories, leaves out lines that move no money', async () => {
    const ledger = openLedger({ path: ':memory:', now: () => NOW });
    const history = new LedgerHistory(ledger);
    const preview = await history.previewImport(gbk(alipay));
    expect(preview).toMatchObject({
      format: 'alipay',
      encoding: 'gbk',
      toImport: 3,
      duplicates: 0,
      skipped: [
        { reason: 'closed', count: 1, fen: 990 },
        { reason: 'wealth', count: 1, fen: 35 },
      ],
      expenseFen: 4350,
      incomeFen: 120000,
    });
    expect(preview.rows.map((r) => [r.line, r.date, r.time, r.type, r.category, r.amountFen, r.account, r.description])).toEqual([
      [9, '2026-02-03', '12:01:02', 'EXPENSE', '餐饮', 1800, '支付宝', '兰州拉面 牛肉面'],
      [10, '2026-02-04', '08:30:00', 'EXPENSE', '交通', 2550, '支付宝', '滴滴出行 快车'],
      [13, '2026-02-07', '18:00:00', 'INCOME', '红包', 120000, '支付宝', '李四 微信群里说的红包'],
    ]);
    expect(await history.importFile(gbk(alipay))).toMatchObject({ imported: 3, duplicates: 0 });
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE' })).toEqual({ totalFen: 4350, count: 2 });
    expect(await history.importFile(gbk(alipay))).toMatchObject({ imported: 0, duplicates: 3 });
    ledger.close();
  });

  it('reads a WeChat Pay bill (UTF-8, ¥ amounts, tab-padded ids) and rejects a bad amount by line', async () => {
    const wechat = [
      '微信支付账单明细,,,,,,,,',
      '微信昵称：[张三],,,,,,,,',
      '起始时间：[2026-02-01 00:00:00] 终止时间：[2026-02-28 23:59:59],,,,,,,,',
      '----------------------微信支付账单明细列表--------------------,,,,,,,,',
      '交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注',
      '2026-02-10 12:00:00,商户消费,瑞幸咖啡,生椰拿铁,支出,¥9.90,零钱,支付成功,4200001\t,100\t,/',
      '2026-02-11 20:00:00,微信红包,王五,/,收入,¥66.00,/,已存入零钱,1000002\t,/,/',
      '2026-02-12 09:00:00,零钱提现,招商银行,/,/,¥100.00,零钱,提现已到账,1000003\t,/,/',
      '',
    ].join('\n');
    const ledger = openLedger({ path: ':memory:', now: () => NOW });
    const history = new LedgerHistory(ledger);
    const preview = await history.previewImport(utf8(wechat));
    expect(preview).toMatchObject({ format: 'wechat', encoding: 'utf-8', toImport: 2, skipped: [{ reason: 'withdrawal', count: 1, fen: 10000 }] });
    expect(preview.rows.map((r) => [r.line, r.type, r.amountFen, r.account])).toEqual([
      [6, 'EXPENSE', 990, '微信'],
      [7, 'INCOME', 6600, '微信'],
    ]);
    const bad = wechat.replace('¥66.00', '¥六十六');
    await expect(history.importFile(utf8(bad))).rejects.toThrow(/第7行：金额「¥六十六」无效/);
    expect(ledger.count()).toBe(0);
    ledger.close();
  });
});

describe('parseCsvPaced', () => {
  const preamble = '账单明细\n导出时间：[2026-03-01]\n\n';
  const row = (i: number) => `2026-03-01 12:00:00,店${i},商品${i},支出,${i}.50`;
  const cases: [string, string][] = [
    ['plain lines', preamble + Array.from({ length: 2500 }, (_, i) => row(i)).join('\n')],
    [
      'a quoted cell spanning the slice boundary',
      preamble +
        Array.from({ length: 2500 }, (_, i) =>
          i === 996 ? `2026-03-01 12:00:00,店,"第一行\n第二行\r\n第三行\n第四行\n第五行",支出,1` : row(i),
        ).join('\n'),
    ],
    [
      'a stray quote in a plain cell',
      preamble + Array.from({ length: 2500 }, (_, i) => (i === 10 ? `2026-03-01 12:00:00,店,点击"多多视频,支出,1` : row(i))).join('\r\n'),
    ],
    ['no preamble', Array.from({ length: 1500 }, (_, i) => row(i)).join('\n') + '\n'],
  ];

  it.each(cases)('reads %s exactly as parseCsv does, yielding between slices', async (_name, text) => {
    let yields = 0;
    const paced = await parseCsvPaced(text, () => {
      yields++;
      return undefined;
    });
    expect(paced).toEqual(parseCsv(text));
    expect(yields).toBeGreaterThan(1);
  });

  it('names the line of an unclosed quote', async () => {
    await expect(parseCsvPaced(`a,b\n${'x,y\n'.repeat(1500)}"open,z\n`, () => undefined)).rejects.toThrow(/第1502行：引号没有闭合/);
  });
});

describe('parseCsv', () => {
  it('tracks the starting line of records that span lines', () => {
    expect(parseCsv('a,b\r\n"x\ny",z\n\nlast,1')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', 'z'] },
      { line: 5, fields: ['last', '1'] },
    ]);
  });
});

describe('CSV injection', () => {
  // Everything a spreadsheet may run as a formula when a cell starts with it.
  const hostile = [
    '=HYPERLINK("http://evil.example","点我")',
    '+1+1',
    '-2+3',
    '@SUM(A1:A2)',
    '\t=1',
    '\r=1',
    '＝1+1',
    '＋1',
    '－1',
    '＠A1',
    '  =1+1',
    '\u3000=1',
    "\n=cmd|' /C calc'!A0",
    '−1',
  ];
  const harmless = ['午饭', '', "'引号开头", 'a=b', '1-2', '邮箱 a@b.c', ' 空格开头'];
  const tricky = ["'=已转义的样子", "''两个引号", "'\t=1", "'"];

  it('escapes a text cell that starts like a formula and reads every cell back to its text', () => {
    for (const text of [...hostile, ...harmless, ...tricky]) {
      const cell = escapeCell(text);
      expect(startsLikeFormula(cell), JSON.stringify(text)).toBe(false);
      expect(unescapeCell(cell), JSON.stringify(text)).toBe(text);
    }
    for (const text of hostile) expect(escapeCell(text)).toBe(`'${text}`);
    for (const text of harmless) expect(escapeCell(text)).toBe(text);
    expect(escapeCell("'=已转义的样子")).toBe("''=已转义的样子");
    // A cell with a leading quote that our export did not write stays as it is.
    expect(unescapeCell("'引号开头")).toBe("'引号开头");
  });

  it('holds for random text built from the characters that matter', () => {
    const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', '\n', ' ', '\u3000', '＝', '－', 'a', '1', '"', ','];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join('');
      expect(startsLikeFormula(escapeCell(text)), JSON.stringify(text)).toBe(false);
      expect(unescapeCell(escapeCell(text)), JSON.stringify(text)).toBe(text);
    }
  });

  it('exports hostile descriptions, categories and accounts as text, the amount as a number, and imports them back exactly', async () => {
    source.addCategory('=出租车', 'EXPENSE');
    source.addAccount('@信用卡');
    const rows = [...hostile, ...harmless, ...tricky].map((description, i) => ({
      line: i + 2,
      date: '2026-02-01',
      time: `12:00:${String(i).padStart(2, '0')}`,
      type: 'EXPENSE' as const,
      category: i % 2 ? '=出租车' : '餐饮',
      amountFen: 100 + i,
      account: i % 3 ? '@信用卡' : '钱包',
      description,
    }));
    source.importRows(rows);
    const { text } = exportCsv(source);
    const records = parseCsv(text.slice(1)).slice(1);
    expect(records).toHaveLength(rows.length);
    for (const { fields } of records) {
      for (const cell of fields) expect(startsLikeFormula(cell), JSON.stringify(cell)).toBe(false);
      expect(fields[4]).toMatch(/^\d+(\.\d{2})?$/);
    }
    expect(records[0]!.fields).toEqual([
      '2026-02-01',
      '12:00:00',
      '支出',
      '餐饮',
      '1',
      '钱包',
      `'${hostile[0]}`,
      '',
      '',
      '',
      '',
      expect.any(String),
      '',
      '',
      '',
      '',
      '',
    ]);
    expect(records[1]!.fields.slice(3, 7)).toEqual(["'=出租车", '1.01', "'@信用卡", "'+1+1"]);

    // Read back by a ledger that has the names: every cell comes back as it was.
    const parsed = await parseImport(utf8(text), context(source.categoryCandidates(), ['钱包', '@信用卡']));
    expect(parsed.rows.map(({ line: _line, id: _id, ...row }) => row)).toEqual(rows.map(({ line: _line, ...row }) => row));
    await expect(parseImport(utf8(text), context(source.categoryCandidates()))).rejects.toThrow(/第3行：账户「@信用卡」/);
    await expect(parseImport(utf8(text), context([], ['@信用卡']))).rejects.toThrow(/第3行：分类「=出租车」/);
  });

  it('round-trips hostile descriptions through export and import into an empty ledger', async () => {
    const rows = [...hostile, ...harmless, ...tricky].map((description, i) => ({
      line: i + 2,
      date: '2026-02-01',
      time: `12:00:${String(i).padStart(2, '0')}`,
      type: 'EXPENSE' as const,
      category: '餐饮',
      amountFen: 100 + i,
      account: '钱包',
      description,
    }));
    source.importRows(rows);
    const { text } = exportCsv(source);
    const history = new LedgerHistory(target);
    expect(await history.importFile(utf8(text))).toMatchObject({ imported: rows.length, duplicates: 0 });
    expect(comparable(target)).toEqual(comparable(source));
    expect(await history.importFile(utf8(text))).toMatchObject({ imported: 0, duplicates: rows.length });
  });

  it.each([
    ['a category', '2026-02-01,12:00:00,支出,=HYPERLINK("x"),35,钱包,午饭', /第2行：分类「=HYPERLINK\("x"\)」以 = \+ - @ 等符号开头/],
    ['an escaped category', "2026-02-01,12:00:00,支出,'+cmd,35,钱包,午饭", /第2行：分类「\+cmd」/],
    ['a full-width category', '2026-02-01,12:00:00,支出,＝1+1,35,钱包,午饭', /第2行：分类「＝1\+1」/],
    ['an account', '2026-02-01,12:00:00,支出,餐饮,35,-1+1,午饭', /第2行：账户「-1\+1」以 = \+ - @ 等符号开头/],
    ['an account after spaces', '2026-02-01,12:00:00,支出,餐饮,35,"\t@A1",午饭', /第2行：账户「@A1」/],
  ])('refuses to create %s that starts like a formula, naming the line, and writes nothing', async (_name, row, message) => {
    const history = new LedgerHistory(target);
    const bytes = utf8(`\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n${row}\r\n`);
    await expect(history.previewImport(bytes)).rejects.toThrow(message);
    await expect(history.importFile(bytes)).rejects.toThrow(ImportError);
    await expect(history.importFile(bytes)).rejects.toThrow(/文件未导入任何记录/);
    expect(target.count()).toBe(0);
    expect(target.listCategories().some((c) => c.name.includes('1'))).toBe(false);
  });
});

describe('re-import compares rows as multisets', () => {
  const header = '\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n';
  const tea = '2026-02-03,15:00:00,支出,餐饮,15,钱包,奶茶\r\n';

  it('imports identical twin rows, then only the copies the ledger lacks', async () => {
    const history = new LedgerHistory(target);
    expect(await history.importFile(utf8(header + tea))).toMatchObject({ imported: 1, duplicates: 0 });
    const twins = utf8(header + tea + tea);
    expect(await history.previewImport(twins)).toMatchObject({ lines: 2, toImport: 1, duplicates: 1 });
    expect((await history.previewImport(twins)).rows.map((r) => r.status)).toEqual(['duplicate', 'new']);
    expect(await history.importFile(twins)).toMatchObject({ imported: 1, duplicates: 1 });
    expect(await history.importFile(twins)).toMatchObject({ imported: 0, duplicates: 2 });
    expect(await history.importFile(utf8(header + tea + tea + tea))).toMatchObject({ imported: 1, duplicates: 2 });
    expect(target.totals({ from: '2026-02-03', to: '2026-02-03', type: 'EXPENSE' })).toEqual({ totalFen: 4500, count: 3 });
  });

  it('restores a backup with twins saved in the same second into a ledger that lost one of them', async () => {
    source.saveBatch([item({ amount: 15, description: '奶茶' }), item({ amount: 15, description: '奶茶' }), item({ amount: 9 })]);
    const backup = exportCsv(source).text;
    const history = new LedgerHistory(target);
    expect(await history.importFile(utf8(backup))).toMatchObject({ imported: 3, duplicates: 0 });
    const tea1 = target.list({ limit: 10 }).rows.find((r) => r.description === '奶茶')!;
    target.deleteTransaction(tea1.id);
    expect(await history.importFile(utf8(backup))).toMatchObject({ imported: 1, duplicates: 2 });
    expect(comparable(target)).toEqual(comparable(source));
  });
});

describe('money flows in our CSV', () => {
  /** A ledger with a debt each way, a write-off, a card, a linked refund and a settled and a pending 待报销. */
  function flowLedger(l: Ledger) {
    l.addAccount('招行信用卡');
    const [shoes] = l.saveBatch([item({ amount: 500, category: '购物', description: '淘宝买鞋', date: '2026-02-01' })]);
    const [taxi, hotel] = l.saveBatch([
      item({ amount: 80, category: '交通', description: '出差打车', reimbursable: true, date: '2026-02-02' }),
      item({ amount: 300, category: '住房', description: '酒店', reimbursable: true, date: '2026-02-03' }),
    ]);
    l.saveBatch([
      item({ amount: 120, type: 'INCOME', category: null, flow: 'refund', refundOf: shoes!.id, date: '2026-02-04' }),
      item({ amount: 80, type: 'INCOME', category: null, flow: 'reimbursement', settles: [taxi!.id], date: '2026-02-05' }),
      item({ amount: 1000, type: 'TRANSFER', category: null, flow: 'lend', counterparty: '小李', date: '2026-02-06' }),
      item({ amount: 3000, type: 'TRANSFER', category: null, flow: 'borrow', counterparty: '我哥', date: '2026-02-07' }),
      item({ amount: 200, type: 'TRANSFER', category: '转账', account: '钱包', description: '还信用卡', date: '2026-02-08' }),
    ]);
    l.addTransaction(
      entry({ type: 'TRANSFER', category: undefined, amountFen: 50_00, account: '钱包', toAccount: '招行信用卡', date: '2026-02-09' }),
    );
    l.writeOff(l.findPerson('小李')!.id, 100_00);
    return { shoes: shoes!, taxi: taxi!, hotel: hotel! };
  }

  const flows = (l: Ledger) =>
    l
      .list({ limit: 100 })
      .rows.map((r) =>
        [r.date, r.type, r.flow ?? '', r.category, r.amountFen, r.person ?? '', r.toAccount ?? '', r.counterparty, r.reimbursable ?? false].join('|'),
      )
      .sort();

  it('exports what each row is, and imports it back into an empty ledger with the same balances, people, links and statistics', async () => {
    flowLedger(source);
    const { text } = exportCsv(source);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    expect(lines.find((l) => l.includes('淘宝买鞋'))).toMatch(/^2026-02-01,12:30:00,支出,购物,500,钱包,淘宝买鞋,,,,,[0-9a-f-]{36},,,,,$/);
    expect(lines.find((l) => l.startsWith('2026-02-02'))).toMatch(/,出差打车,,,,已报销,[0-9a-f-]{36},,[0-9a-f-]{36},,,$/);
    expect(lines.find((l) => l.startsWith('2026-02-03'))).toMatch(/,酒店,,,,待报销,[0-9a-f-]{36},,,,,$/);
    expect(lines.find((l) => l.startsWith('2026-02-06'))).toMatch(/,转账,1000,钱包,.*,,小李,借出,,[0-9a-f-]{36},,,,,$/);

    const history = new LedgerHistory(target);
    expect(await history.importFile(utf8(text))).toMatchObject({ imported: source.count(), duplicates: 0 });
    expect(flows(target)).toEqual(flows(source));
    expect(target.people()).toEqual(source.people());
    expect(target.accountBalances().accounts.map((a) => [a.name, a.balanceFen])).toEqual(
      source.accountBalances().accounts.map((a) => [a.name, a.balanceFen]),
    );
    for (const includeReimbursed of [false, true])
      expect(target.monthSummary('2026-02', { includeReimbursed })).toEqual(source.monthSummary('2026-02', { includeReimbursed }));
    expect(target.pendingReimbursements()).toEqual(source.pendingReimbursements());
    // The refund still returns the shoes: no more than the 380 left of them can be refunded.
    const shoes = target.list({ limit: 100 }).rows.find((r) => r.description === '淘宝买鞋')!;
    expect(() => target.saveBatch([item({ amount: 381, type: 'INCOME', category: null, flow: 'refund', refundOf: shoes.id })])).toThrow(
      /可退的 380 元/,
    );
    // Importing the same file again adds nothing.
    expect(await history.importFile(utf8(text))).toMatchObject({ imported: 0, duplicates: source.count() });
  });

  it('gives imported rows new ids where the ledger already has theirs, and keeps links between them', async () => {
    const { shoes } = flowLedger(source);
    const text = exportCsv(source).text;
    // A second copy of the same rows, dated a year later so they are not duplicates: their ids are taken.
    const later = text.replace(/\r\n2026-/g, '\r\n2027-');
    const history = new LedgerHistory(source);
    const before = source.count();
    expect(await history.importFile(utf8(later))).toMatchObject({ imported: before, duplicates: 0 });
    const shoes2027 = source.list({ limit: 100 }).rows.find((r) => r.description === '淘宝买鞋' && r.date.startsWith('2027'))!;
    expect(shoes2027.id).not.toBe(shoes.id);
    const refund2027 = source.list({ limit: 100 }).rows.find((r) => r.flow === 'refund' && r.date.startsWith('2027'))!;
    expect(refund2027.refundOf).toBe(shoes2027.id);
    expect(source.monthSummary('2027-02').byCategory.find((c) => c.category === '购物')).toMatchObject({ totalFen: 380_00 });
  });

  it('still imports a file of the seven older columns', async () => {
    const old =
      '\uFEFF日期,时间,类型,分类,金额,账户,备注\r\n2026-02-01,12:00:00,支出,餐饮,35,钱包,午饭\r\n2026-02-01,12:00:00,转账,转账,20,钱包,存钱\r\n';
    expect(await new LedgerHistory(target).importFile(utf8(old))).toMatchObject({ imported: 2, duplicates: 0 });
    expect(
      target
        .list({ limit: 10 })
        .rows.map((r) => [r.type, r.amountFen, r.flow ?? null])
        .sort(),
    ).toEqual([
      ['EXPENSE', 35_00, null],
      ['TRANSFER', 20_00, null],
    ]);
  });

  it.each([
    ['a flow the app does not know', '支出,餐饮,35,钱包,午饭,,,送礼,,,,', /资金类型「送礼」无效/],
    ['a flow of the wrong type', '支出,转账,35,钱包,,,小李,借出,,,,', /资金类型「借出」应为转账/],
    ['a debt that names nobody', '转账,转账,35,钱包,,,,借出,,,,', /「借出」要填写对方/],
    ['a to-account on an expense', '支出,餐饮,35,钱包,,招行,,,,,,', /只有转账才有转入账户/],
    ['both a to-account and a counterparty', '转账,转账,35,钱包,,招行,小李,,,,,', /只能填一个/],
    ['待报销 on income', '收入,工资,35,钱包,,,,,待报销,,,', /只有支出才能报销/],
    ['an id that is not one', '支出,餐饮,35,钱包,,,,,,x1,,', /编号「x1」无效/],
    ['a refund link on a plain expense', '支出,餐饮,35,钱包,,,,,,,0b7c3a9e-1f2d-4c5b-8a6e-9d0f1e2a3b4c,', /只有退款才有退款对应编号/],
  ])('refuses %s with the line, and writes nothing', async (_what, cells, message) => {
    const file = `\uFEFF${CSV_HEADER.slice(0, 14).join(',')}\r\n2026-02-01,12:00:00,支出,餐饮,1,钱包,好的,,,,,,,\r\n2026-02-01,12:00:00,${cells}\r\n`;
    await expect(new LedgerHistory(target).importFile(utf8(file))).rejects.toThrow(message);
    await expect(new LedgerHistory(target).importFile(utf8(file))).rejects.toThrow(/第3行/);
    expect(target.count()).toBe(0);
  });

  it('refuses a header that is not a prefix of our columns', async () => {
    const file = `\uFEFF${[...CSV_HEADER.slice(0, 7), '对方'].join(',')}\r\n2026-02-01,12:00:00,支出,餐饮,1,钱包,好的,小李\r\n`;
    await expect(new LedgerHistory(target).importFile(utf8(file))).rejects.toThrow(/列不正确/);
  });
});

describe('recurring entries in our CSV', () => {
  it('exports rows a recurring rule made and imports them back with their ids', async () => {
    source.addRecurringRule(rentRule());
    const { saved } = source.catchUpRecurring();
    expect(saved).toHaveLength(2);
    const { text } = exportCsv(source);
    expect(text).toMatch(/,房租,,,,,r:r[0-9a-f]{16}:2026-01-05,,,,,\r\n/);
    expect(await new LedgerHistory(target).importFile(utf8(text))).toMatchObject({ imported: 2, duplicates: 0 });
    expect(
      target
        .list({})
        .rows.map((r) => r.id)
        .sort(),
    ).toEqual([...saved].sort());
  });
});

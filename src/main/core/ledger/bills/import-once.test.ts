// Bills that import once, whatever the user does next month: a re-saved copy, an overlapping or
// month-by-month import, an edited or deleted row, a refund whose purchase is in another bill,
// a second computer importing the same bill. Through the app's own import into real SQLite
// ledgers, read back as 统计 counts them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportChoices } from '@shared/ipc/ledger';
import { toZonedNow } from '@shared/time';
import {
  ALIPAY_MONTH,
  alipay2021,
  alipayCurrent,
  excelResavedCsv,
  gbk,
  jdCsv,
  meituanCsv,
  utf8,
  utf8Bom,
  WECHAT_MONTH,
  wechatCsv,
  wechatSheet,
  type AlipayTrade,
  type WechatTrade,
} from '../../../../../test/support/bill-fixtures';
import { makeDevices } from '../../../../../test/support/sync-devices';
import { excelResavedXlsx, xlsxOf } from '../../../../../test/support/xlsx-fixture';
import { LedgerHistory, openLedger, type Ledger } from '../index';

const NOW = toZonedNow('2026-04-02T10:00:00+08:00');
let ledger: Ledger;
let history: LedgerHistory;

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  history = new LedgerHistory(ledger);
});
afterEach(() => ledger.close());

/** What 统计 shows for a range (default: the first quarter). */
function figures(l: Ledger = ledger, from = '2026-01-01', to = '2026-03-31') {
  const total = (type: 'EXPENSE' | 'INCOME') => l.totals({ from, to, type }).totalFen;
  return { expenseFen: total('EXPENSE'), incomeFen: total('INCOME'), rows: l.count() };
}

/** The figures of importing `bills` in this order into a new ledger. */
async function importedInOrder(bills: readonly Uint8Array[]) {
  const l = openLedger({ path: ':memory:', now: () => NOW });
  try {
    const h = new LedgerHistory(l);
    for (const bill of bills) await h.importFile(bill);
    return figures(l);
  } finally {
    l.close();
  }
}

/**
 * Bills with seconds in their times, as real ones have (the fixtures' are on the minute):
 * a spreadsheet's re-save drops them, so only the rows' identities tell a line imported before.
 */
function withSeconds(text: string): string {
  return text.replace(/(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):00/g, (_, y: string, mo: string, d: string, h: string, mi: string) => {
    const ss = String(((Number(d) * 7 + Number(h) * 11 + Number(mi) * 13) % 59) + 1).padStart(2, '0');
    return `${y}-${mo}-${d} ${h}:${mi}:${ss}`;
  });
}
const secondsOf = <T extends { time: string } | WechatTrade>(trades: readonly T[]): T[] =>
  trades.map((t) => (Array.isArray(t) ? ([withSeconds(t[0]), ...t.slice(1)] as T) : { ...t, time: withSeconds((t as { time: string }).time) }));

const rows = () => ledger.list({ from: '2026-01-01', to: '2026-03-31', limit: 500 }).rows;

describe('the same bill again', () => {
  const alipay = secondsOf(ALIPAY_MONTH);
  const wechat = secondsOf(WECHAT_MONTH);
  it.each([
    ['Alipay, re-saved by Excel (seconds dropped, ids quoted)', () => gbk(alipayCurrent(alipay)), () => gbk(excelResavedCsv(alipayCurrent(alipay)))],
    ['Alipay, GBK then UTF-8', () => gbk(alipayCurrent(alipay)), () => utf8Bom(alipayCurrent(alipay))],
    ['Alipay, the 2021 layout of the same trades', () => gbk(alipayCurrent(alipay)), () => gbk(alipay2021(alipay))],
    ['WeChat, CSV then re-saved CSV', () => utf8(wechatCsv(wechat)), () => utf8Bom(excelResavedCsv(wechatCsv(wechat)))],
    ['JD, re-saved', () => utf8Bom(withSeconds(jdCsv())), () => utf8Bom(excelResavedCsv(withSeconds(jdCsv())))],
    ['Meituan, re-saved', () => utf8Bom(meituanCsv()), () => utf8Bom(excelResavedCsv(meituanCsv()))],
  ] as const)('%s: adds nothing, counts every line as imported before', async (_name, first, again) => {
    await history.importFile(first());
    const before = figures();
    const preview = await history.previewImport(again());
    expect(preview).toMatchObject({ toImport: 0, deleted: 0, expenseFen: 0, incomeFen: 0 });
    expect(preview.duplicates).toBeGreaterThan(0);
    expect(preview.rows.every((r) => r.status === 'duplicate')).toBe(true);
    expect(await history.importFile(again())).toMatchObject({ imported: 0, duplicates: preview.duplicates });
    expect(figures()).toEqual(before);
  });

  it('WeChat: the CSV, then the .xlsx of the same bill, then Excel’s re-save of the workbook', async () => {
    await history.importFile(utf8(wechatCsv(wechat)));
    const before = figures();
    expect(await history.importFile(await xlsxOf(wechatSheet(wechat)))).toMatchObject({ imported: 0 });
    expect(await history.importFile(excelResavedXlsx(wechatSheet(wechat), { dropSeconds: true }))).toMatchObject({ imported: 0 });
    expect(figures()).toEqual(before);
  });

  it('whatever the user changed on the rows since: category, description, tags, a merchant rule', async () => {
    const jd = withSeconds(jdCsv());
    await history.importFile(utf8Bom(jd));
    const before = figures();
    for (const r of rows()) {
      if (r.flow) continue;
      history.updateTransaction(r.id, { category: '娱乐', description: `改过的 ${r.description}`, tags: ['网购'] });
    }
    // The edits taught merchant rules: the next reading of the bill files its rows elsewhere.
    expect(ledger.merchantRules().length).toBeGreaterThan(0);
    const preview = await history.previewImport(utf8Bom(excelResavedCsv(jd)));
    expect(preview.toImport).toBe(0);
    expect(await history.importFile(utf8Bom(excelResavedCsv(jd)))).toMatchObject({ imported: 0 });
    expect(figures()).toEqual(before);
  });
});

describe('overlapping and month-by-month bills', () => {
  // A quarter of WeChat trades, and the bills a user might export of it.
  const feb: WechatTrade[] = [
    ['2026-02-03 12:00:00', '商户消费', '面馆', '牛肉面', '支出', 25, '零钱', '支付成功', '/'],
    ['2026-02-10 19:00:00', '商户消费', '某某超市', '日用品', '支出', 66.6, '零钱', '支付成功', '/'],
    ['2026-02-20 10:00:00', '商户消费', '某某书店', '专业书', '支出', 40.1, '零钱', '支付成功', '/'],
  ];
  const mar: WechatTrade[] = [
    ['2026-03-02 10:00:00', '退款', '某某书店', '退款-专业书', '收入', 40.1, '零钱', '已退款', '/'],
    ['2026-03-05 12:00:00', '商户消费', '某某商城', '台灯', '支出', 88, '零钱', '已全额退款', '/'],
    ['2026-03-06 09:00:00', '退款', '某某商城', '退款-台灯', '收入', 88, '零钱', '已退款', '/'],
    ['2026-03-08 12:00:00', '商户消费', '面馆', '牛肉面', '支出', 25, '零钱', '支付成功', '/'],
    ['2026-03-09 20:00:00', '微信红包', '李四', '/', '收入', 66, '/', '已存入零钱', '/'],
  ];
  const bill = (trades: readonly WechatTrade[]) => utf8(wechatCsv(secondsOf(trades)));

  it('the whole quarter, month by month in either order, or in overlapping halves: the same 统计 to the fen', async () => {
    const whole = await importedInOrder([bill([...feb, ...mar])]);
    // The book refunded in March was spent in February: nothing of it stays; the lamp nets to zero.
    expect(whole).toMatchObject({ expenseFen: 2500 + 6660 + 2500, incomeFen: 6600 });
    expect(await importedInOrder([bill(feb), bill(mar)])).toMatchObject({ expenseFen: whole.expenseFen, incomeFen: whole.incomeFen });
    expect(await importedInOrder([bill(mar), bill(feb)])).toMatchObject({ expenseFen: whole.expenseFen, incomeFen: whole.incomeFen });
    const overlapping = [bill([...feb.slice(1), ...mar.slice(0, 3)]), bill([...feb, ...mar])];
    expect(await importedInOrder(overlapping)).toMatchObject({ expenseFen: whole.expenseFen, incomeFen: whole.incomeFen });
  });

  it('a refund whose purchase is in no bill yet waits for it (待关联) without lowering spending, and links when it arrives', async () => {
    await history.importFile(bill(mar));
    const waiting = rows().find((r) => r.description.includes('退款-专业书'))!;
    expect(waiting).toMatchObject({ flow: 'refund', awaitingPurchase: true });
    // Not −40.10: the book was never spent in these books.
    expect(figures(ledger, '2026-03-01', '2026-03-31').expenseFen).toBe(2500);

    const preview = await history.previewImport(bill(feb));
    // The book arrives: its refund counts from now on, as the preview already says.
    expect(preview.expenseFen).toBe(2500 + 6660 + 4010 - 4010);
    await history.importFile(bill(feb));
    const book = rows().find((r) => r.description === '某某书店 专业书')!;
    expect(rows().find((r) => r.id === waiting.id)).toMatchObject({ refundOf: book.id });
    expect(rows().find((r) => r.id === waiting.id)).not.toHaveProperty('awaitingPurchase');
    expect(figures().expenseFen).toBe(2500 + 6660 + 2500);
  });

  it('a refund in a later bill links to its purchase from an earlier one by merchant and item (WeChat numbers its refunds apart)', async () => {
    await history.importFile(bill(feb));
    const preview = await history.previewImport(bill(mar));
    const refund = preview.rows.find((r) => r.description.includes('退款-专业书'))!;
    expect(refund).not.toHaveProperty('pendingRefund');
    await history.importFile(bill(mar));
    const book = rows().find((r) => r.description === '某某书店 专业书')!;
    expect(rows().find((r) => r.description.includes('退款-专业书'))).toMatchObject({ refundOf: book.id });
  });
});

describe('closed trades', () => {
  // A trade Alipay's app export lists as 交易关闭 (filed under 不计收支), with its 退款成功 lines.
  const closed: AlipayTrade = {
    time: '2026-03-11 09:00:00',
    category: '日用百货',
    counterpart: '某某家居旗舰店',
    item: '收纳箱',
    direction: '不计收支',
    amount: '109.90',
    method: '余额',
    status: '交易关闭',
    orderNo: '2026031122001100020',
  };
  const refunds: AlipayTrade[] = [
    {
      ...closed,
      time: '2026-03-12 09:00:00',
      category: '退款',
      item: '退款-收纳箱',
      amount: '60.00',
      status: '退款成功',
      orderNo: `${closed.orderNo}_R1`,
    },
    {
      ...closed,
      time: '2026-03-12 10:00:00',
      category: '退款',
      item: '退款-收纳箱',
      amount: '49.90',
      status: '退款成功',
      orderNo: `${closed.orderNo}_R2`,
    },
  ];
  const lunch = ALIPAY_MONTH.find((t) => t.item === '午餐')!;

  it('count zero with their refund lines, in one bill or in two, in either order', async () => {
    const one = gbk(alipay2021([lunch, closed, ...refunds]));
    const preview = await history.previewImport(one);
    expect(preview).toMatchObject({ lines: 4, toImport: 1, netted: { count: 3, fen: 10990 }, expenseFen: 1550 });
    const whole = await importedInOrder([one]);
    expect(whole.expenseFen).toBe(1550);
    const [purchaseBill, refundBill] = [gbk(alipay2021([lunch, closed])), gbk(alipay2021(refunds))];
    expect((await importedInOrder([purchaseBill, refundBill])).expenseFen).toBe(1550);
    expect((await importedInOrder([refundBill, purchaseBill])).expenseFen).toBe(1550);
  });
});

describe('rows the user deleted', () => {
  it('are not brought back: the preview lists them as 已删除过 and leaves them out unless ticked', async () => {
    const wechat = secondsOf(WECHAT_MONTH);
    await history.importFile(utf8(wechatCsv(wechat)));
    const canteen = rows().find((r) => r.description.startsWith('上海交通大学第一食堂'))!;
    history.remove([canteen.id]);
    const before = figures();

    const resaved = utf8Bom(excelResavedCsv(wechatCsv(wechat)));
    const preview = await history.previewImport(resaved);
    expect(preview).toMatchObject({ toImport: 0, deleted: 1, expenseFen: 0 });
    const row = preview.rows.find((r) => r.status === 'deleted')!;
    expect(row.description).toBe(canteen.description);
    expect(await history.importFile(resaved)).toMatchObject({ imported: 0, deleted: 1 });
    expect(figures()).toEqual(before);

    // Ticked in the preview: it comes back, once.
    const again = await history.previewImport(resaved);
    const index = again.rows.find((r) => r.status === 'deleted')!.index;
    expect(await history.importFile(resaved, { restore: [index] })).toMatchObject({ imported: 1, deleted: 0 });
    expect(figures().expenseFen).toBe(before.expenseFen + canteen.amountFen);
    expect(await history.importFile(utf8(wechatCsv(wechat)))).toMatchObject({ imported: 0 });
  });

  it('an undone import is no deletion: importing the bill again brings every row', async () => {
    const outcome = await history.importFile(utf8Bom(jdCsv()));
    history.undo();
    expect(ledger.count()).toBe(0);
    const preview = await history.previewImport(utf8Bom(jdCsv()));
    expect(preview).toMatchObject({ toImport: preview.lines - preview.netted.count - preview.skipped.reduce((n, s) => n + s.count, 0), deleted: 0 });
    expect(await history.importFile(utf8Bom(jdCsv()))).toMatchObject({ imported: outcome.imported });
  });
});

describe('what the user changes in the preview', () => {
  it('rows unticked are left out, a category changed is written, and remembered as the merchant’s rule when asked', async () => {
    const bytes = utf8(wechatCsv());
    const preview = await history.previewImport(bytes);
    const didi = preview.rows.find((r) => r.description.startsWith('滴滴出行'))!;
    const stall = preview.rows.find((r) => r.description.startsWith('早餐店'))!;
    const canteen = preview.rows.find((r) => r.description.startsWith('上海交通大学第一食堂'))!;
    const choices: ImportChoices = {
      exclude: [didi.index],
      recategorize: [
        { index: stall.index, category: '购物', remember: true },
        { index: canteen.index, category: '娱乐', remember: false },
      ],
    };
    const outcome = await history.importFile(bytes, choices);
    expect(outcome.imported).toBe(preview.rows.length - 1);
    expect(rows().some((r) => r.description.startsWith('滴滴出行'))).toBe(false);
    expect(rows().find((r) => r.description.startsWith('早餐店'))).toMatchObject({ category: '购物' });
    expect(rows().find((r) => r.description.startsWith('上海交通大学第一食堂'))).toMatchObject({ category: '娱乐' });
    expect(ledger.merchantRules().map((r) => `${r.merchant}→${r.category}`)).toEqual(['早餐店→购物']);
    // The unticked row is not a deleted one: the next import offers it as new.
    expect(await history.previewImport(bytes)).toMatchObject({ toImport: 1, deleted: 0 });
  });

  it('refuses a category the ledger does not have, or a row the file does not hold, writing nothing', async () => {
    const bytes = utf8(wechatCsv());
    await expect(history.importFile(bytes, { recategorize: [{ index: 0, category: '不存在的分类', remember: false }] })).rejects.toThrow(
      '分类「不存在的分类」不存在',
    );
    await expect(history.importFile(bytes, { exclude: [10_000] })).rejects.toThrow('导入预览已过期');
    expect(ledger.count()).toBe(0);
  });
});

describe('two computers', () => {
  it('the second importing the same bill adds nothing, and a row deleted on the first is not brought back by the second', async () => {
    const { devices } = makeDevices(2);
    const [a, b] = devices as [(typeof devices)[0], (typeof devices)[0]];
    const ha = new LedgerHistory(a.ledger);
    const hb = new LedgerHistory(b.ledger);
    const wechat = secondsOf(WECHAT_MONTH);
    const first = await ha.importFile(utf8(wechatCsv(wechat)));
    await a.engine.round();
    await b.engine.round();
    expect(b.ledger.count()).toBe(first.imported);
    const copy = excelResavedXlsx(wechatSheet(wechat), { dropSeconds: true });
    const preview = await hb.previewImport(copy);
    expect(preview).toMatchObject({ toImport: 0, deleted: 0 });
    expect(await hb.importFile(copy)).toMatchObject({ imported: 0, duplicates: preview.duplicates });
    expect(b.ledger.count()).toBe(first.imported);

    const stall = ha.ledger.search('早餐店')[0]!;
    ha.remove([stall.id]);
    await a.engine.round();
    await b.engine.round();
    expect(await hb.importFile(utf8Bom(excelResavedCsv(wechatCsv(wechat))))).toMatchObject({ imported: 0, deleted: 1 });
    expect(b.ledger.count()).toBe(first.imported - 1);
  });
});

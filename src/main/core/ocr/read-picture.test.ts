import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { accountFor } from './pay-account';
import { presetPictureContext, readPicture, type PictureContext } from './read-picture';
import { amountOnly, amountsIn, rowsOf, whenIn } from './read-rows';
import { groupByCategory, itemOf, prorate, receiptNotes, type Receipt } from './receipt';
import type { OcrLine, PictureDraft, PictureKind } from './types';

// testdata/readings.jsonl: lines as the recognizer gives them → what the picture is read as.
// A line is a string (one box on its own row) or a list of strings (boxes side by side on one
// row: a label and its value recognised apart). Drafts are compared on the fields the case
// gives, and always on flow and counterparty; notes exactly, [] when the case gives none.
interface ReadingCase {
  id: string;
  note?: string;
  now?: string;
  accounts?: string[];
  receiptLines?: 'items' | 'total';
  memory?: Record<string, string>;
  lines: (string | string[])[];
  expect: { kind: PictureKind | null; drafts: Partial<PictureDraft>[]; notes?: string[] };
}

const NOW = '2026-11-28T10:00:00+08:00';
const ROW_PITCH = 40;

/** Boxes for a case's lines: rows 40 px apart, boxes of one row side by side. */
function linesOf(entries: readonly (string | readonly string[])[]): OcrLine[] {
  return entries.flatMap((entry, row) =>
    (typeof entry === 'string' ? [entry] : entry).map((text, i) => ({
      text,
      confidence: 0.95,
      box: { x: 20 + i * 200, y: row * ROW_PITCH, width: Math.max(12, text.length * 12), height: 28 },
    })),
  );
}

function contextOf(c: ReadingCase): PictureContext {
  const preset = presetPictureContext(toZonedNow(c.now ?? NOW));
  return {
    ...preset,
    accounts: c.accounts ?? preset.accounts,
    receiptLines: c.receiptLines ?? 'items',
    categorize: { ...preset.categorize, memory: new Map(Object.entries(c.memory ?? {})) },
  };
}

const cases: ReadingCase[] = readFileSync(new URL('./testdata/readings.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as ReadingCase);

function compared(draft: PictureDraft, expected: Partial<PictureDraft>): Partial<PictureDraft> {
  const keys = new Set([...Object.keys(expected), 'flow', 'counterparty']) as Set<keyof PictureDraft>;
  return Object.fromEntries([...keys].map((k) => [k, draft[k]]));
}

describe('readPicture on recognised lines (testdata/readings.jsonl)', () => {
  it('reads every case as it expects', () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const reading = readPicture(linesOf(c.lines), contextOf(c));
      const got = { kind: reading.kind, drafts: reading.drafts.map((d, i) => compared(d, c.expect.drafts[i] ?? {})), notes: reading.notes };
      const want = {
        kind: c.expect.kind,
        drafts: c.expect.drafts.map((d) => ({ flow: undefined, counterparty: undefined, ...d })),
        notes: c.expect.notes ?? [],
      };
      try {
        expect(got).toEqual(want);
      } catch {
        wrong.push(`${c.id}: got ${JSON.stringify(got)}\n   want ${JSON.stringify(want)}`);
      }
    }
    expect(wrong.join('\n')).toBe('');
  });

  it('has at least four cases of every kind and ten that hold no payment', () => {
    const kinds: PictureKind[] = ['wechat', 'alipay', 'meituan', 'eleme', 'taobao', 'jd', 'unionpay', 'bank-sms', 'receipt', 'taxi', 'invoice'];
    const counts = Object.fromEntries(kinds.map((k) => [k, cases.filter((c) => c.expect.kind === k).length]));
    expect(Object.entries(counts).filter(([, n]) => n < 4)).toEqual([]);
    expect(cases.filter((c) => c.expect.kind === null).length).toBeGreaterThanOrEqual(10);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('takes a few milliseconds a picture once the dictionary is loaded', () => {
    // jieba's dictionary loads once a process (about half a second): not a picture's cost.
    for (const c of cases) readPicture(linesOf(c.lines), contextOf(c));
    // Fresh contexts, so no picture finds its words already cut by an earlier one.
    const prepared = cases.map((c) => ({ lines: linesOf(c.lines), context: contextOf(c) }));
    const started = performance.now();
    for (const p of prepared) readPicture(p.lines, p.context);
    expect((performance.now() - started) / prepared.length).toBeLessThan(5);
  });
});

describe('rows of a page', () => {
  const box = (text: string, x: number, y: number, height = 28): OcrLine => ({
    text,
    confidence: 0.9,
    box: { x, y, width: text.length * 14, height },
  });

  it('puts a label and its value on one row, even on a page turned by 3°', () => {
    const tilt = Math.tan((3 * Math.PI) / 180);
    const lines = [
      ['支付方式', '招商银行信用卡(0001)'],
      ['支付时间', '2026年11月27日 12:03:45'],
      ['商户单号', '4200002381202611270123'],
    ].flatMap(([label, value], i) => [box(label!, 20, 100 + i * 36), box(value!, 300, 100 + i * 36 + 300 * tilt)]);
    expect(rowsOf(lines).map((r) => r.text)).toEqual([
      '支付方式 招商银行信用卡(0001)',
      '支付时间 2026年11月27日 12:03:45',
      '商户单号 4200002381202611270123',
    ]);
  });

  it('keeps lines one above the other apart', () => {
    expect(rowsOf([box('瑞幸咖啡', 20, 100), box('¥23.90', 20, 140, 40)]).map((r) => r.text)).toEqual(['瑞幸咖啡', '¥23.90']);
  });

  it('reads amounts as the recognizer writes them', () => {
    expect(amountOnly('￥23.90')).toEqual({ fen: 2390, sign: null, marked: true });
    expect(amountOnly('羊23.90')?.fen).toBe(2390);
    expect(amountOnly('-1,280.00')).toEqual({ fen: 128000, sign: '-', marked: true });
    expect(amountOnly('2O.5O')?.fen).toBe(2050);
    expect(amountOnly('23,90')?.fen).toBe(2390);
    // An order number or a count alone is no amount.
    expect(amountOnly('4200002381202611270123')).toBeNull();
    expect(amountOnly('12')).toBeNull();
    expect(amountsIn('尾号0001 车号京B12345 实付¥27').map((m) => m.fen)).toEqual([2700]);
  });

  it('dates a month and day without a year in the last twelve months', () => {
    const now = toZonedNow(NOW);
    expect(whenIn('11月27日12:03', now)).toEqual({ date: '2026-11-27', time: '12:03:00' });
    expect(whenIn('12月03日19:20', now)).toEqual({ date: '2025-12-03', time: '19:20:00' });
    expect(whenIn('2026-11-2712:03:45', now)).toEqual({ date: '2026-11-27', time: '12:03:45' });
    expect(whenIn('2026 年 11 月 7 日 9:05', now)).toEqual({ date: '2026-11-07', time: '09:05:00' });
    expect(whenIn('2026-02-30', now)).toBeNull();
  });
});

describe('支付方式 → the book’s account', () => {
  const book = ['钱包', '微信', '支付宝', '招行信用卡0001', '招行储蓄卡', '工商银行储蓄卡6222', '交通银行信用卡'];

  it('finds a card by its last four digits, else by its bank and kind', () => {
    expect(accountFor('招商银行信用卡（0001)', book)).toBe('招行信用卡0001');
    expect(accountFor('招商银行储蓄卡(9999)', book)).toBe('招行储蓄卡');
    expect(accountFor('工商银行借记卡(6222)', book)).toBe('工商银行储蓄卡6222');
    expect(accountFor('交通银行信用卡(1111)', book)).toBe('交通银行信用卡');
    // Another kind of card of a bank the book has is not that card.
    expect(accountFor('交通银行储蓄卡(1111)', book)).toBeNull();
    expect(accountFor('建设银行信用卡(2222)', book)).toBeNull();
  });

  it('takes a generic card account when the book has no card of that bank', () => {
    expect(accountFor('建设银行信用卡(2222)', ['钱包', '信用卡', '银行卡'])).toBe('信用卡');
    expect(accountFor('建设银行储蓄卡(2222)', ['钱包', '信用卡', '银行卡'])).toBe('银行卡');
    // A card of no stated kind (an SMS's 您尾号2222的卡, a till's 银联卡) is the plain bank card.
    expect(accountFor('建设银行卡(2222)', ['钱包', '信用卡', '银行卡'])).toBe('银行卡');
    expect(accountFor('银联卡', ['钱包', '信用卡', '银行卡'])).toBe('银行卡');
  });

  it('puts 零钱 in 微信 and 余额, 花呗, 余额宝 in 支付宝 unless the book keeps them apart', () => {
    expect(accountFor('零钱', book)).toBe('微信');
    expect(accountFor('零钱通', book)).toBe('微信');
    expect(accountFor('花呗', book)).toBe('支付宝');
    expect(accountFor('花呗', [...book, '花呗'])).toBe('花呗');
    expect(accountFor('余额宝', book)).toBe('支付宝');
    expect(accountFor('账户余额', book, '支付宝')).toBe('支付宝');
    expect(accountFor('退回余额', book, '支付宝')).toBe('支付宝');
    expect(accountFor('退回零钱', book, '微信')).toBe('微信');
    expect(accountFor('零钱', ['钱包'])).toBeNull();
    expect(accountFor('在线支付', book)).toBeNull();
    expect(accountFor(null, book)).toBeNull();
  });
});

describe('receipt arithmetic', () => {
  it('shares a discount out in proportion, to the fen, adding up to what was paid', () => {
    expect(prorate([400, 4580, 250], 5000)).toEqual([382, 4379, 239]);
    const shares = prorate([333, 333, 334], 900);
    expect(shares.reduce((s, a) => s + a, 0)).toBe(900);
    expect(shares).toEqual([300, 300, 300]);
    expect(prorate([0, 0], 100)).toEqual([0, 0]);
  });

  it('says by how much the lines miss what was paid', () => {
    const receipt = (lines: number[], paidFen: number | null, discountFen = 0): Receipt => ({
      store: null,
      lines: lines.map((fen, i) => ({ name: `item${i}`, fen })),
      sums: { totalFen: null, discountFen, paidFen },
      payMethod: null,
    });
    expect(receiptNotes(receipt([400, 4580, 250], 5000, 230), true)).toEqual([
      '小票明细合计 ¥52.30，实付 ¥50.00，相差 ¥2.30',
      '优惠 ¥2.30 已按金额比例分摊到各项',
    ]);
    expect(receiptNotes(receipt([650, 1200, 200], 2350), false)).toEqual(['小票明细合计 ¥20.50，实付 ¥23.50，相差 ¥3.00']);
    expect(receiptNotes(receipt([650, 1200], 1850), false)).toEqual([]);
    expect(receiptNotes(receipt([650, 1200], null), false)).toEqual([]);
  });

  it('reads an item line: its name and its last figure', () => {
    expect(itemOf('农夫山泉550ml 2 2.00 4.00')).toEqual({ name: '农夫山泉550ml', fen: 400 });
    expect(itemOf('6901234567890 3 3.00 9.00')).toEqual({ name: '', fen: 900 });
    expect(itemOf('1 香蕉 1.235kg 7.39')).toEqual({ name: '香蕉', fen: 739 });
    expect(itemOf('会员优惠 -2.30')).toEqual({ name: '会员优惠', fen: -230 });
    expect(itemOf('收银员 012')).toBeNull();
  });

  it('merges drafts by category into no more than a card holds', () => {
    const draft = (description: string, category: string, amount: number): PictureDraft => ({
      amount,
      type: 'EXPENSE',
      category,
      date: '2026-11-27',
      time: null,
      description,
      account: null,
      merchant: '物美超市',
    });
    const merged = groupByCategory([
      draft('大米', '餐饮', 39.9),
      draft('牙膏', '购物', 15.8),
      draft('酱油', '餐饮', 12.5),
      draft('纸巾', '购物', 0.1),
    ]);
    expect(merged.map((d) => [d.description, d.category, d.amount])).toEqual([
      ['大米等2项', '餐饮', 52.4],
      ['牙膏等2项', '购物', 15.9],
    ]);
    const many = Array.from({ length: 12 }, (_, i) => draft(`item${i}`, `c${i}`, 1));
    const fitted = groupByCategory(many);
    expect(fitted).toHaveLength(10);
    expect(fitted[9]).toMatchObject({ description: 'item9等3项', category: '其他', amount: 3 });
  });
});

// A shop's printed receipt (小票): the store, item lines (name, count, price, amount — a line's
// amount is its last figure), then 合计 / 优惠 / 实付 (or 应付, 实收 and 找零). The reader checks the
// lines against what was paid and says on the card when they do not add up, and by how much.
//
// One draft per item line (context.receiptLines 'items') or one for what was paid ('total').
// Per line with a discount (the lines add up to 合计, and 合计 − 优惠 is what was paid), the
// discount is shared out over the lines in proportion to their amounts, to the fen: the drafts
// then add up to the money that left the account, which is what the account's balance and the
// bill import will show, and each item still carries its own share. Lines that do not add up
// for any written reason (a line misread or cut off) are kept as read, and the note says so.
// More lines than a card holds (MAX_BATCH_ITEMS) are merged by category, and a note says so.
import { OTHER_CATEGORY } from '@shared/categories';
import { MAX_BATCH_ITEMS } from '@shared/domain';
import { fenToYuan, yuanToFen } from '@shared/money';
import { draftOf, shortName, type Found, type PictureContext } from './read-draft';
import { amountOf, amountsIn, hasWords, normalizeText, valueOf, whenOnPage, type Row } from './read-rows';
import type { PictureDraft, PictureReading } from './types';

export interface ReceiptLine {
  name: string;
  fen: number;
}

export interface ReceiptSums {
  /** 合计 / 总计 as printed (before 优惠). */
  totalFen: number | null;
  /** 优惠, 折扣, 抹零: what came off, summed. */
  discountFen: number;
  /** What was paid: 实付 / 应付, or 实收 − 找零. */
  paidFen: number | null;
}

export interface Receipt {
  store: string | null;
  lines: ReceiptLine[];
  sums: ReceiptSums;
  payMethod: string | null;
}

/** Words only a till's slip prints (a shopping cart's 合计 and a menu's prices have none). */
const MARKERS = /收银|小票|找零|流水号|POS|收款机|件数|交易号|单号|机号|店号|欢迎光临|谢谢惠顾|销售单/i;
const TOTAL = '合计金额|商品合计|应收合计|(?<!优惠)合计|总计|小计|总金额|总额';
const DUE = '实付金额|实付|应付金额|应付|应收金额|应收|支付金额|实际支付';
const TENDERED = '实收金额|实收|收现|现金|收款';
const CHANGE = '找零|找赎';
const DISCOUNT = /优惠|折扣|折让|抹零|立减|促销|券/;
/** Rows that end the item lines. */
const SUMS_START = new RegExp(`^(${[TOTAL, DUE, TENDERED, CHANGE].join('|')}|${DISCOUNT.source})`);
/** The column header over the item lines. */
const HEADER = /品名|商品名称|名称.*(金额|单价|数量)|商品.*单价|货品|品项/;
/** Rows of a slip that are no item: the till's own words. */
const NOISE =
  /欢迎|谢谢|光临|电话|地址|收银|单号|流水|机号|店号|POS|会员|积分|日期|时间|小票|凭证|保留|退换|营业|发票|件数|编码|条码|No\.|卡号|交易号|订单号|操作员|门店|星期|www|http/i;
/** A figure at the end of a line: a count (2, x2, 1.235kg), a price or an amount. */
const FIGURE = /^([-+]?[¥羊Y]?\d+(?:[.,]\d+)?(?:kg|g|斤|件|个|袋|瓶|盒|包)?|[x×*]\d+(?:\.\d+)?|\d+(?:\.\d+)?[x×*]\d+(?:\.\d+)?)$/i;
const STORE = /超市|便利|商店|商场|百货|市场|店|mart|生鲜|药房|药店|烘焙|面包/i;

/** The receipt on a page, or null when it does not look like a till's slip. */
export function receiptOf(rows: readonly Row[]): Receipt | null {
  const all = rows.map((r) => r.text).join('\n');
  if (!MARKERS.test(all)) return null;
  const header = rows.findIndex((r) => HEADER.test(r.text));
  const end = rows.findIndex((r, i) => i > header && SUMS_START.test(r.text));
  if (end < 0) return null;
  const lines: ReceiptLine[] = [];
  let discountFen = 0;
  let pending: string | null = null;
  for (const row of rows.slice(header + 1, end)) {
    if (NOISE.test(row.text)) {
      pending = null;
      continue;
    }
    const item = itemOf(row.text);
    if (!item) {
      pending = hasWords(row.text) ? row.text : null;
      continue;
    }
    const name = item.name || pending;
    pending = null;
    if (item.fen < 0 || (name && DISCOUNT.test(name))) discountFen += Math.abs(item.fen);
    else if (name) lines.push({ name, fen: item.fen });
  }
  const sumsRows = rows.slice(end);
  const money = (labels: string) => amountOf(sumsRows, labels)?.fen ?? null;
  const totalFen = money(TOTAL);
  for (const row of sumsRows) {
    if (!DISCOUNT.test(row.text) || /实付|应付|(?<!优惠)合计/.test(row.text)) continue;
    const off = amountsIn(row.text)[0];
    if (off) discountFen += off.fen;
  }
  const due = money(DUE);
  const tendered = money(TENDERED);
  const change = money(CHANGE);
  const expected = totalFen !== null || lines.length > 0 ? (totalFen ?? sum(lines)) - discountFen : null;
  let paidFen = due;
  // 实付 printed as the cash handed over: what was paid is what was kept.
  if (due !== null && change !== null && change > 0 && due - change === expected) paidFen = due - change;
  if (paidFen === null && tendered !== null && change !== null) paidFen = tendered - change;
  if (paidFen === null && tendered !== null && change === null && tendered === expected) paidFen = tendered;
  if (paidFen === null && expected !== null && (totalFen !== null || discountFen > 0)) paidFen = expected;
  // Sums without a single item line are a page that talks about money (an article, an order's summary).
  if (lines.length === 0) return null;
  return { store: storeOf(rows, header), lines, sums: { totalFen, discountFen, paidFen }, payMethod: payMethodOf(sumsRows) };
}

/** An item line: its name (maybe empty, when it is on the row above) and its amount, the last figure. */
export function itemOf(text: string): { name: string; fen: number } | null {
  const tokens = normalizeText(text).split(' ');
  const figures: string[] = [];
  while (tokens.length > 0 && FIGURE.test(tokens[tokens.length - 1]!)) figures.unshift(tokens.pop()!);
  if (figures.length === 0) return null;
  const last = amountsIn(figures[figures.length - 1]!)[0];
  // A line's amount is printed with its fen; a bare integer is a count or a code.
  if (!last || !/[.,]\d{1,2}$/.test(figures[figures.length - 1]!)) return null;
  const name = tokens
    .filter((t, i) => !/^\d{6,14}$/.test(t) && !(i === 0 && /^\d{1,3}[.、]?$/.test(t)))
    .join(' ')
    .replace(/^\d{6,14}\s*/, '')
    .trim();
  return { name: hasWords(name) ? name : '', fen: last.sign === '-' ? -last.fen : last.fen };
}

function storeOf(rows: readonly Row[], header: number): string | null {
  const top = rows.slice(0, header > 0 ? header : 4).map((r) =>
    r.text
      .replace(/^欢迎光临\s*/, '')
      .replace(/\s*欢迎(您)?光临$/, '')
      .trim(),
  );
  const names = top.filter((t) => hasWords(t) && amountsIn(t).length === 0 && !/电话|地址|日期|时间|收银|单号|小票|\d{4}[-/年]/.test(t));
  return names.find((t) => STORE.test(t)) ?? names[0] ?? null;
}

function payMethodOf(rows: readonly Row[]): string | null {
  const paid = rows.map((r) => /^(微信支付|微信|支付宝|云闪付|银联|信用卡|储蓄卡|银行卡|刷卡|现金)/.exec(r.text)?.[1]).find(Boolean);
  return paid ?? valueOf(rows, '支付方式|付款方式');
}

const sum = (lines: readonly ReceiptLine[]) => lines.reduce((s, l) => s + l.fen, 0);

/** ¥52.30 */
export function yuanText(fen: number): string {
  return `¥${fenToYuan(fen).toFixed(2)}`;
}

/**
 * `amounts` shared out so they add up to `target`, each in proportion to its own, to the fen
 * (the largest remainders take the fen left over). Amounts that add up to nothing stay as they are.
 */
export function prorate(amounts: readonly number[], target: number): number[] {
  const total = amounts.reduce((s, a) => s + a, 0);
  if (total <= 0) return [...amounts];
  const exact = amounts.map((a) => (a * target) / total);
  const shares = exact.map(Math.floor);
  let left = target - shares.reduce((s, a) => s + a, 0);
  const order = exact.map((e, i) => ({ i, rest: e - Math.floor(e) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** What the lines of a receipt come to against what was paid, for the card. */
export function receiptNotes(receipt: Receipt, spread: boolean): string[] {
  const { paidFen, discountFen } = receipt.sums;
  const lines = sum(receipt.lines);
  if (receipt.lines.length === 0 || paidFen === null || lines === paidFen) return [];
  const notes = [`小票明细合计 ${yuanText(lines)}，实付 ${yuanText(paidFen)}，相差 ${yuanText(Math.abs(lines - paidFen))}`];
  if (spread) notes.push(`优惠 ${yuanText(discountFen)} 已按金额比例分摊到各项`);
  return notes;
}

/** The drafts of a receipt: one per line, or one for what was paid (context.receiptLines). */
export function readReceipt(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const receipt = receiptOf(rows);
  if (!receipt) return null;
  const { store, lines, sums, payMethod } = receipt;
  const when = whenOnPage(rows, '日期|交易时间|时间|销售时间', context.now);
  const base = { direction: 'out' as const, merchant: store, when, payMethod };
  const lineTotal = sum(lines);
  if (context.receiptLines === 'total') {
    const found: Found = {
      ...base,
      amountFen: sums.paidFen ?? lineTotal,
      note: lines.map((l) => l.name).join(' '),
      description: store ? shortName(store) : '超市购物',
    };
    return { kind: 'receipt', drafts: [draftOf(found, context)], notes: receiptNotes(receipt, false) };
  }
  const discounted = sums.paidFen !== null && sums.discountFen > 0 && lineTotal - sums.discountFen === sums.paidFen;
  const amounts = discounted
    ? prorate(
        lines.map((l) => l.fen),
        sums.paidFen!,
      )
    : lines.map((l) => l.fen);
  const drafts = lines.map((l, i) => draftOf({ ...base, amountFen: amounts[i]!, item: l.name, description: l.name }, context));
  const notes = receiptNotes(receipt, discounted);
  if (drafts.length <= MAX_BATCH_ITEMS) return { kind: 'receipt', drafts, notes };
  const grouped = groupByCategory(drafts);
  notes.push(`小票共 ${drafts.length} 项，一张卡片最多 ${MAX_BATCH_ITEMS} 笔，已按分类合并为 ${grouped.length} 笔`);
  return { kind: 'receipt', drafts: grouped, notes };
}

/**
 * Drafts merged by category, in the order the categories first appear: 「农夫山泉等5项」. Were
 * there more categories than a card holds, the last ones share one draft under 其他.
 */
export function groupByCategory(drafts: readonly PictureDraft[]): PictureDraft[] {
  const groups = new Map<string, PictureDraft[]>();
  for (const d of drafts) groups.set(d.category, [...(groups.get(d.category) ?? []), d]);
  let lists = [...groups.values()];
  if (lists.length > MAX_BATCH_ITEMS) {
    const rest = lists.slice(MAX_BATCH_ITEMS - 1).flat();
    lists = [...lists.slice(0, MAX_BATCH_ITEMS - 1), rest.map((d) => ({ ...d, category: OTHER_CATEGORY }))];
  }
  return lists.map((list) => {
    const first = list[0]!;
    if (list.length === 1) return first;
    const fen = list.reduce((s, d) => s + (d.amount === null ? 0 : yuanToFen(d.amount)), 0);
    return { ...first, amount: fenToYuan(fen), description: `${first.description}等${list.length}项` };
  });
}

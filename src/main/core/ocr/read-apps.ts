// Payment apps' pages: WeChat Pay's 支付成功 and 账单详情, Alipay's 账单详情 (and its 支付成功),
// 云闪付's 交易详情. Each page has one big amount with the merchant (or the person) written
// above it, and labelled rows under it. Which app it is comes from the labels only that app
// writes (WeChat: 支付方式, 当前状态, 商户单号; Alipay: 付款方式, 账单分类, 商家订单号); which way
// the money went comes from the page's words (退款成功, 已收款, 转账), never from the sign
// before the amount alone, which the recognizer sometimes drops.
import { draftOf, type Direction, type Found, type PictureContext } from './read-draft';
import { amountOf, amountOnly, hasWords, isLabelRow, valueOf, whenOnPage, type Money, type Row } from './read-rows';
import type { PictureReading } from './types';

/** The page's big amount: an amount alone on its row, the tallest one. */
export function heroAmount(rows: readonly Row[]): { index: number; money: Money } | null {
  let best: { index: number; money: Money } | null = null;
  rows.forEach((row, index) => {
    const money = amountOnly(row.text);
    if (money && (!best || row.height > rows[best.index]!.height)) best = { index, money };
  });
  return best;
}

/** Rows that are a page's furniture, not a name: titles, statuses, buttons, the phone's clock. */
const FURNITURE =
  /^([^\p{Script=Han}A-Za-z0-9]*)(支付成功|付款成功|交易成功|退款成功|转账成功|收款成功|支付结果|付款结果|交易结果|账单详情|全部账单|交易详情|订单详情|微信支付|支付宝|云闪付|完成|返回|关闭|查看账单|已支付|待支付|对方已收钱|对方已收款|已收款|已存入零钱|已全额退款|\d{1,2}:\d{2}.*)\s*[>〉]?$/u;

/**
 * The name written by the big amount (the merchant, or 转账-张三): above it on a bill's page,
 * below it on some apps' 支付成功. Null when neither row names anything.
 */
export function titleAbove(rows: readonly Row[], index: number): string | null {
  const near = [index - 1, index - 2, index - 3, index + 1];
  for (const i of near) {
    const text = rows[i]?.text.replace(/\s*[>〉›]+$/, '').trim();
    if (!text || !hasWords(text) || amountOnly(text) || isLabelRow(text) || FURNITURE.test(text)) continue;
    return text;
  }
  return null;
}

const rowIs = (rows: readonly Row[], re: RegExp) => rows.some((r) => re.test(r.text));
const labelCount = (rows: readonly Row[], labels: RegExp) => new Set(rows.map((r) => labels.exec(r.text)?.[1]).filter(Boolean)).size;

const SUCCESS_TITLE = /^[^\p{Script=Han}A-Za-z0-9]*(支付成功|付款成功)$/u;
const WECHAT_LABELS = /^(当前状态|商户全称|支付方式|交易单号|商户单号|转账单号|收款方|转账时间|收款时间)/;
const ALIPAY_LABELS = /^(付款方式|账单分类|商家订单号|商品说明|对方账户|退回账户|转账备注|收款方式|账单管理)/;

function scores(rows: readonly Row[], all: string): { wechat: number; alipay: number } {
  const success = rowIs(rows, SUCCESS_TITLE) ? 1 : 0;
  const wechat = labelCount(rows, WECHAT_LABELS) + success + (/微信支付|零钱/.test(all) ? 1 : 0) + (success && rowIs(rows, /^完成$/) ? 1 : 0);
  const alipay = labelCount(rows, ALIPAY_LABELS) + (/支付宝|花呗|余额宝/.test(all) ? 1 : 0) + (rowIs(rows, /^账单详情$/) ? 1 : 0);
  return { wechat, alipay };
}

/** A status alone on its row: what an Alipay page says happened. */
const ALIPAY_STATUS = /^[^\p{Script=Han}A-Za-z0-9]*(交易成功|退款成功|交易关闭|等待付款|待付款|支付成功|付款成功|转账成功|已退款|收款成功)$/u;

const noDraft = (kind: PictureReading['kind']): PictureReading => ({ kind, drafts: [], notes: [] });

/** Words of a page on which no money moved (yet). */
const NOTHING_PAID = /交易关闭|已关闭|等待付款|待付款|待支付|支付失败|已撤销|已取消/;
const REFUNDED = /退款成功|已退款|已全额退款|退款到账|已退回/;
const TRANSFER_TITLE = /^(?:微信)?转账(?:[-\s]*(?:转给|给|来自|-))?\s*(.*)$/;
const RED_PACKET_TITLE = /^微信红包(?:[-\s]*(?:发给|来自|-))?\s*(.*)$/;
const RECEIVED = /已收款|已存入|已收钱|收款成功|已到账|收钱码收款|二维码收款|收款到账/;

export function readWechat(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  const s = scores(rows, all);
  const hero = heroAmount(rows);
  // A status says money moved: 支付成功 as the page's title, or 当前状态, or a transfer's times.
  const status = rowIs(rows, SUCCESS_TITLE) || rowIs(rows, /^(当前状态|转账时间|收款时间)/);
  if (!hero || !status || s.wechat < 2 || s.wechat <= s.alipay) return null;
  const state = valueOf(rows, '当前状态') ?? '';
  if (NOTHING_PAID.test(state)) return noDraft('wechat');
  // 收款方 names the payee outright; else the name by the amount (a bill's short name, not its 商户全称).
  const title = valueOf(rows, '收款方|商户名称') ?? titleAbove(rows, hero.index) ?? valueOf(rows, '商户全称');
  const found: Found = {
    amountFen: hero.money.fen,
    direction: 'out',
    merchant: title,
    item: valueOf(rows, '商品') ?? '',
    when: whenOnPage(rows, '支付时间|交易时间|转账时间|收款时间|退款时间|创建时间', context.now),
    payMethod: valueOf(rows, '支付方式|付款方式|退款方式|收款方式'),
    wallet: '微信',
    format: 'wechat',
  };
  const transfer = title ? TRANSFER_TITLE.exec(title) : null;
  const packet = title ? RED_PACKET_TITLE.exec(title) : null;
  const received = /来自/.test(title ?? '') || (RECEIVED.test(state || all) && !/对方已收/.test(state || all));
  if (transfer || (rowIs(rows, /^(转账时间|转账单号)/) && title)) {
    const person = (transfer?.[1] || title || '').trim();
    return one('wechat', personMoney(found, person, received, valueOf(rows, '转账说明|转账备注')), context);
  }
  if (packet) {
    const person = (packet[1] ?? '').trim();
    const direction: Direction = received ? 'in' : 'out';
    return one(
      'wechat',
      { ...found, direction, merchant: person || title, billKind: '微信红包', description: received ? `${person}的红包` : `发给${person}的红包` },
      context,
    );
  }
  if (REFUNDED.test(state || all)) return one('wechat', refund(found), context);
  if (received) return one('wechat', { ...found, direction: 'in', billKind: '二维码收款' }, context);
  return one('wechat', found, context);
}

export function readAlipay(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  const s = scores(rows, all);
  const hero = heroAmount(rows);
  const status = rows.find((r) => ALIPAY_STATUS.test(r.text))?.text ?? '';
  if (!hero || !(status || rowIs(rows, /^账单详情$/)) || s.alipay < 2 || s.alipay < s.wechat) return null;
  if (NOTHING_PAID.test(status)) return noDraft('alipay');
  const title = titleAbove(rows, hero.index) ?? valueOf(rows, '收款方|交易对方|商户名称');
  const found: Found = {
    amountFen: hero.money.fen,
    direction: 'out',
    merchant: title,
    item: valueOf(rows, '商品说明') ?? '',
    billCategory: valueOf(rows, '账单分类')?.replace(/\s*[>〉›]+$/, '') ?? '',
    when: whenOnPage(rows, '支付时间|付款时间|创建时间|交易时间|退款时间|转账时间', context.now),
    payMethod: valueOf(rows, '付款方式|退回账户|退款方式|收款方式|支付方式'),
    wallet: '支付宝',
    format: 'alipay',
  };
  const counterpart = valueOf(rows, '对方账户');
  const transfer = title ? TRANSFER_TITLE.exec(title) : null;
  if (transfer || counterpart) {
    const person = personName(counterpart) ?? (transfer?.[1] || title || '').trim();
    const received = /来自|收款|转入/.test(title ?? '') || /转入成功|已收款|收款成功/.test(all);
    return one('alipay', personMoney(found, person, received, valueOf(rows, '转账说明|转账备注|备注')), context);
  }
  if (REFUNDED.test(status || all) || /^退款[-－]/.test(title ?? '') || /^退款[-－]/.test(found.item ?? ''))
    return one('alipay', refund(found), context);
  if (/收钱码收款|二维码收款|收款成功/.test(all)) return one('alipay', { ...found, direction: 'in', billKind: '二维码收款' }, context);
  return one('alipay', found, context);
}

/** 云闪付 by name: 银联 alone is on many apps' pages (收单机构 银联商务). */
const UNIONPAY = /云闪付/;

export function readUnionpay(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  if (!UNIONPAY.test(all) || !/交易详情|订单详情|账单详情|付款成功|支付成功|交易成功|退款成功/.test(all)) return null;
  const hero = heroAmount(rows);
  const money = hero?.money ?? amountOf(rows, '交易金额|订单金额|付款金额|实付金额|支付金额');
  const merchant = valueOf(rows, '商户名称|收款方|交易对象|商户') ?? (hero ? titleAbove(rows, hero.index) : null);
  if (!money && !merchant) return null;
  const status = valueOf(rows, '交易状态|当前状态') ?? '';
  if (NOTHING_PAID.test(status)) return noDraft('unionpay');
  const found: Found = {
    amountFen: money?.fen ?? null,
    direction: 'out',
    merchant,
    item: valueOf(rows, '商品名称|商品|订单描述') ?? '',
    when: whenOnPage(rows, '交易时间|付款时间|支付时间|创建时间|订单时间', context.now),
    payMethod: valueOf(rows, '付款卡|付款方式|支付方式|付款账户|交易卡号|支付卡'),
  };
  const kind = valueOf(rows, '交易类型') ?? '';
  if (/退货|退款/.test(kind) || REFUNDED.test(status || all)) return one('unionpay', refund(found), context);
  if (/收款|转入/.test(kind)) return one('unionpay', { ...found, direction: 'in' }, context);
  return one('unionpay', found, context);
}

/** Money to or from a person: out is a transfer the card can make a loan (借出); in is income. */
function personMoney(found: Found, person: string, received: boolean, note: string | null): Found {
  const name = person.replace(/\s*[(（].*$/, '').trim() || null;
  if (received) {
    return { ...found, direction: 'in', merchant: name, billKind: '转账', note: note ?? '', description: note || `${name ?? ''}转账` };
  }
  const counterparty = name ?? undefined;
  return { ...found, direction: 'transfer', merchant: name, counterparty, note: note ?? '', description: note || `转给${name ?? ''}` };
}

/** 「张三 138******00」, 「张三(z***@163.com)」: the name before the account. */
function personName(account: string | null): string | null {
  if (!account) return null;
  const name = account.split(/[\s(（*]|\d/)[0]!.trim();
  return name || null;
}

/** Money back for a purchase: the purchase's merchant and item, without 退款. */
function refund(found: Found): Found {
  const merchant = found.merchant?.replace(/[-－]退款$/, '').replace(/^退款[-－:：\s]*/, '') || null;
  return { ...found, direction: 'refund', merchant, item: (found.item ?? '').replace(/^退款[-－:：\s]*/, '') };
}

function one(kind: PictureReading['kind'], found: Found, context: PictureContext): PictureReading {
  return { kind, drafts: [draftOf(found, context)], notes: [] };
}

// The accounts a payment is made from (src/main/core/nlp/accounts.ts), and the words that put a
// name in the paying position wherever it is said: 用支付宝付的, 微信付的午饭, 吃烤鱼用的微信,
// 从银行卡扣的, 支付宝那个话费. A name without them (还信用卡, 给支付宝充值) is what the money
// went to, not what paid.
import { words } from './words';

/** Spoken name → the account it means. */
export const ACCOUNTS: Readonly<Record<string, string>> = {
  微信: '微信',
  微信支付: '微信',
  支付宝: '支付宝',
  花呗: '花呗',
  余额宝: '余额宝',
  现金: '现金',
  银行卡: '银行卡',
  储蓄卡: '银行卡',
  借记卡: '银行卡',
  信用卡: '信用卡',
  白条: '白条',
  零钱: '微信',
};

/**
 * 吃烤鱼用的微信, 刷的信用卡, 付的现金: before the name, a paying verb with 的 — the payment is told
 * after the item, so the name belongs to the item said before it.
 */
export const PAID_WITH_AFTER = words('用的 刷的 付的 拿的 走的');
/** 用支付宝, 刷信用卡, 付了现金: before the name, a paying verb said before the item. */
export const PAID_WITH = words('用了 用 刷了 刷 付了 通过 拿 走');
/** 用微信里的钱: right after a name that followed one of PAID_WITH. */
export const FUNDS_OF = words('里的钱 的钱 里');
/** 微信里付的, 支付宝上付的: between a name and the verb after it. */
export const WITHIN = words('里面 里 上');
/** 支付宝付的, 微信扫码, 银行卡扣的: after the name, the verb that paid (付 last, as it starts others). */
export const PAID_BY = words('支付的 支付 付款 扫码支付 扫码付 扫码 扫的 付的 付了 付 刷的 刷了 扣的 扣了 扣款 扣');
/** 微信转, 信用卡结账: after the name, a verb that pays with it and stays a word of the item. */
export const PAYING_WITH = words('转 刷 结账 买单');
/** 从银行卡扣的: before the name; TAKEN_BY (or one of PAYING_WITH) must follow it. */
export const TAKEN_FROM = words('从');
/** 从银行卡扣的, 从支付宝付了: after 从 and the name, the verb that took the money. */
export const TAKEN_BY = words('扣的 扣了 扣款 扣掉 扣 付的 付了 付 出的 出 划走 划的 划 支付的 支付');
/** 支付宝那个话费, 花呗那个吹风机: the name said first, as what the rest was paid with. */
export const THAT_ONE = words('那个');
/**
 * 还信用卡那个, 支付宝那个充了五百: right before the name, or right after 那个, money goes into the
 * account (paid back, topped up, moved in), so it did not pay.
 */
export const INTO = words('还 给 往 向 充 存 转 到 进');

// The accounts a payment is made from (src/main/core/nlp/accounts.ts): 用支付宝付的, 微信转的, 刷信用卡.
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

/** 用支付宝, 刷信用卡: before the name. */
export const PAID_WITH = words('用 刷 通过 拿 走');
/** 用微信里的钱: right after a name that followed one of PAID_WITH. */
export const FUNDS_OF = words('里的钱 的钱 里');
/** 支付宝付的, 微信扫码: after the name (付 last, as it starts others). */
export const PAID_BY = words('支付 付款 扫码支付 扫码付 扫码 付的 付了 付');
/** 微信转, 信用卡结账: after the name, the verb that pays with it. */
export const PAYING_WITH = words('转 刷 结账 买单');

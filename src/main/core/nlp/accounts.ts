// The account a payment was made from (用支付宝付的, 微信转的, 刷信用卡). The ledger maps an
// unknown account name to the default one, so naming one here never loses the item.
import type { Span } from './normalize';

export interface AccountMention extends Span {
  account: string;
}

const ACCOUNTS: Record<string, string> = {
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
const NAMES = Object.keys(ACCOUNTS)
  .sort((a, b) => b.length - a.length)
  .join('|');
// The name counts as the account only next to a paying word, so 还信用卡 stays a transfer word.
const PAID_WITH = new RegExp(
  `(?:用|刷|通过|拿|走)(${NAMES})(?:里的钱|的钱|里)?|(${NAMES})(?:支付|付款|扫码支付|扫码付|扫码|付的|付了|付)|(${NAMES})(?=转|刷|结账|买单)`,
);

export function findAccount(text: string): AccountMention | null {
  const m = PAID_WITH.exec(text);
  if (!m) return null;
  const name = (m[1] ?? m[2] ?? m[3])!;
  return { start: m.index, end: m.index + m[0].length, account: ACCOUNTS[name]! };
}

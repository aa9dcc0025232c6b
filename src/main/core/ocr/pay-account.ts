// The book's account a picture's 支付方式 names: 招商银行信用卡(0001) is the account whose name
// holds 0001, else the book's 招行 credit card, else its one 信用卡; 零钱 is 微信, 余额 / 花呗 /
// 余额宝 are 支付宝's (花呗 and 余额宝 themselves when the book keeps them apart). Nothing that
// fits: null, and the draft takes the book's default account as any other item does.

/** Banks by the names their cards and SMS use, the short ones (招行) with the full. */
const BANKS: readonly (readonly string[])[] = [
  ['招商银行', '招行', '招商'],
  ['工商银行', '工行', '中国工商'],
  ['建设银行', '建行', '中国建设'],
  ['农业银行', '农行', '中国农业'],
  ['中国银行', '中行'],
  ['交通银行', '交行'],
  ['邮储银行', '邮政储蓄', '邮储'],
  ['浦发银行', '浦发'],
  ['中信银行', '中信'],
  ['光大银行', '光大'],
  ['民生银行', '民生'],
  ['兴业银行', '兴业'],
  ['平安银行', '平安'],
  ['华夏银行', '华夏'],
  ['广发银行', '广发'],
  ['北京银行'],
  ['上海银行'],
  ['宁波银行'],
  ['江苏银行'],
  ['浙商银行', '浙商'],
  ['网商银行', '网商'],
  ['微众银行', '微众'],
];

type CardKind = 'credit' | 'debit' | null;

function bankOf(text: string): number {
  // 中国银行 is a prefix of none of the others' full names, but 中国工商银行 holds 工商银行: full names first.
  const full = BANKS.findIndex((names) => text.includes(names[0]!));
  return full >= 0 ? full : BANKS.findIndex((names) => names.slice(1).some((n) => text.includes(n)));
}

function cardKindOf(text: string): CardKind {
  if (/信用卡|贷记卡/.test(text)) return 'credit';
  if (/储蓄卡|借记卡|银行卡/.test(text)) return 'debit';
  return null;
}

/** The card's last four digits: (0001), 尾号0001, 0001 at the end. */
function lastFourOf(text: string): string | null {
  const m = /尾号\s*(\d{4})|[(（]\s*(\d{4})\s*[)）]|(?<!\d)(\d{4})\s*$/.exec(text);
  return m ? (m[1] ?? m[2] ?? m[3])! : null;
}

/**
 * The book's account for a way of paying as a picture writes it, or null. `wallet` is the app
 * the picture comes from: its 余额 is that app's.
 */
export function accountFor(method: string | null, accounts: readonly string[], wallet: '微信' | '支付宝' | null = null): string | null {
  if (!method) return null;
  // A refund's 退回余额, 退回零钱: where it went back to is the account.
  const text = method.replace(/\s+/g, '').replace(/^(退回|退至|退到)(至|到)?/, '');
  const exact = accounts.find((a) => a === text);
  if (exact) return exact;
  const named = (name: string) => accounts.find((a) => a === name) ?? null;

  if (/零钱|微信/.test(text) && !/银行|卡/.test(text)) return named('微信') ?? accounts.find((a) => a.includes('微信')) ?? null;
  if (/花呗/.test(text)) return named('花呗') ?? named('支付宝');
  if (/余额宝/.test(text)) return named('余额宝') ?? named('支付宝');
  if (/白条/.test(text)) return named('白条') ?? named('京东白条');
  if (/支付宝/.test(text) && !/银行|卡/.test(text)) return named('支付宝');
  if (/^(账户)?余额$/.test(text) && wallet) return named(wallet);
  if (/^现金/.test(text)) return named('现金');

  const digits = lastFourOf(text);
  const bank = bankOf(text);
  const kind = cardKindOf(text);
  if (digits) {
    const holding = accounts.filter((a) => a.includes(digits));
    if (holding.length === 1) return holding[0]!;
    const sameBank = holding.find((a) => bank >= 0 && bankOf(a) === bank);
    if (sameBank) return sameBank;
    if (holding.length > 0) return holding[0]!;
  }
  if (bank >= 0) {
    // An account of that bank with no other card's digits, and not the other kind of card.
    const ofBank = accounts.filter((a) => bankOf(a) === bank && (!digits || !/\d{4}/.test(a)));
    const fitting = ofBank.filter((a) => kind === null || cardKindOf(a) === null || cardKindOf(a) === kind);
    const sameKind = fitting.filter((a) => kind !== null && cardKindOf(a) === kind);
    if (sameKind.length >= 1) return sameKind[0]!;
    if (fitting.length === 1) return fitting[0]!;
  }
  if (kind === 'credit') return named('信用卡');
  // A card of no stated kind (an SMS's 尾号0001的卡, a till's 银联卡): the book's plain bank card.
  if (kind === 'debit' || /卡|银联/.test(text)) return named('银行卡') ?? named('储蓄卡') ?? named('借记卡');
  return null;
}

/** The bank an SMS or a card names, as its full name (招商银行), or null. */
export function bankName(text: string): string | null {
  const i = bankOf(text);
  return i >= 0 ? BANKS[i]![0]! : null;
}

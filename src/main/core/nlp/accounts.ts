// The account a payment was made from (用支付宝付的, 微信转的, 刷信用卡). The ledger maps an
// unknown account name to the default one, so naming one here never loses the item.
import { ACCOUNTS, FUNDS_OF, PAID_BY, PAID_WITH, PAYING_WITH } from './lexicon/accounts';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';

export interface AccountMention extends Span {
  account: string;
}

const NAMES = anyOf(Object.keys(ACCOUNTS).sort((a, b) => b.length - a.length));
// The name counts as the account only next to a paying word, so 还信用卡 stays a transfer word.
const PAID_WITH_PATTERN = new RegExp(
  `${anyOf(PAID_WITH)}(${NAMES})${anyOf(FUNDS_OF)}?|(${NAMES})${anyOf(PAID_BY)}|(${NAMES})(?=${anyOf(PAYING_WITH)})`,
);

const ALL_PAID_WITH = new RegExp(PAID_WITH_PATTERN.source, 'g');

function mention(m: RegExpExecArray): AccountMention {
  const name = (m[1] ?? m[2] ?? m[3])!;
  return { start: m.index, end: m.index + m[0].length, account: ACCOUNTS[name]! };
}

export function findAccount(text: string): AccountMention | null {
  const m = PAID_WITH_PATTERN.exec(text);
  return m ? mention(m) : null;
}

/** Every account named in the text, in order: each item of an utterance may name its own. */
export function findAccounts(text: string): AccountMention[] {
  const found: AccountMention[] = [];
  ALL_PAID_WITH.lastIndex = 0;
  for (let m = ALL_PAID_WITH.exec(text); m !== null; m = ALL_PAID_WITH.exec(text)) found.push(mention(m));
  return found;
}

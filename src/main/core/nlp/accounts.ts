// The account a payment was made from, wherever the sentence names it: 用支付宝付的, 微信付的午饭,
// 吃烤鱼用的微信, 理发刷的信用卡, 从银行卡扣的, 支付宝那个话费. A name counts only next to the words
// that make it the payer (lexicon/accounts.ts), so 还信用卡 and 给支付宝充值 stay what the money
// went to. The book's own account names count as well as the built-in ones. The ledger maps an
// unknown account name to the default one, so naming one here never loses the item.
import {
  ACCOUNTS,
  FUNDS_OF,
  INTO,
  PAID_BY,
  PAID_WITH,
  PAID_WITH_AFTER,
  PAYING_WITH,
  TAKEN_BY,
  TAKEN_FROM,
  THAT_ONE,
  WITHIN,
} from './lexicon/accounts';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';

export interface AccountMention extends Span {
  /** The account as the ledger knows it (零钱 → 微信; the book's own names as they are). */
  account: string;
  /** Where the name itself stands; start..end also holds the words that make it the payer. */
  name: Span;
  /** Told after its item (…一百三十八用的微信, …从银行卡扣的): it belongs to the item before it. */
  after: boolean;
}

/** Spoken names by their first character, longest first: one Map lookup per character of a text. */
class NameIndex {
  private readonly byFirst = new Map<number, [spoken: string, account: string][]>();
  /** The first characters by code: most characters of a text start no name, and skip the Map. */
  private readonly firsts = new Uint8Array(0x10000);

  constructor(names: Iterable<readonly [string, string]>) {
    for (const [spoken, account] of names) {
      const bucket = this.byFirst.get(spoken.charCodeAt(0)) ?? [];
      bucket.push([spoken, account]);
      this.byFirst.set(spoken.charCodeAt(0), bucket);
      this.firsts[spoken.charCodeAt(0)] = 1;
    }
    for (const bucket of this.byFirst.values()) bucket.sort((a, b) => b[0].length - a[0].length);
  }

  /** The names at `at`, longest first, as [length, account]. */
  at(text: string, at: number): [number, string][] {
    const code = text.charCodeAt(at);
    if (this.firsts[code] !== 1) return NO_NAMES;
    const bucket = this.byFirst.get(code)!;
    // Common characters (中, 工, 交) start names too: nothing is allocated until one matches.
    let found: [number, string][] | null = null;
    for (const [spoken, account] of bucket) if (text.startsWith(spoken, at)) (found ??= []).push([spoken.length, account]);
    return found ?? NO_NAMES;
  }
}

const NO_NAMES: [number, string][] = [];
const BUILT_IN = new NameIndex(Object.entries(ACCOUNTS));

// The book's own names change rarely: the index of the last list is kept.
let own: { key: string; index: NameIndex } | null = null;

function ownIndex(names: readonly string[]): NameIndex | null {
  // A one-character name (卡) would take every 刷卡; the book's names count from two characters.
  const usable = names.filter((n) => n.length >= 2);
  if (usable.length === 0) return null;
  const key = usable.join('\u0000');
  if (own?.key !== key) own = { key, index: new NameIndex(usable.map((n) => [n.toLowerCase(), n] as const)) };
  return own.index;
}

const BEFORE_LENGTH = Math.max(...[...PAID_WITH_AFTER, ...PAID_WITH, ...TAKEN_FROM].map((w) => w.length));
const BEFORE = new RegExp(`(?:(?<after>${anyOf(PAID_WITH_AFTER)})|(?<with>${anyOf(PAID_WITH)})|(?<from>${anyOf(TAKEN_FROM)}))$`);
const FUNDS = new RegExp(anyOf(FUNDS_OF), 'y');
const BY = new RegExp(`${anyOf(WITHIN)}?${anyOf(PAID_BY)}`, 'y');
const PAYING = new RegExp(`(?=${anyOf(PAYING_WITH)})`, 'y');
const TAKEN = new RegExp(`${anyOf(WITHIN)}?${anyOf(TAKEN_BY)}`, 'y');
const THAT = new RegExp(`${anyOf(THAT_ONE)}(?!${anyOf(INTO)})`, 'y');
const INTO_BEFORE = new RegExp(`${anyOf(INTO)}$`);

/** The length of what `pattern` matches at `at`, or -1. */
function lengthAt(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  return m ? m[0].length : -1;
}

/** The mention of the name at start..end when the words around it make it the payer. */
function asPayer(text: string, start: number, end: number, account: string): AccountMention | null {
  const name = { start, end };
  const before = BEFORE.exec(text.slice(Math.max(0, start - BEFORE_LENGTH), start));
  if (before?.groups!.from) {
    // 从银行卡扣的 tells what took the money; 从微信转给小明 keeps its 转 for the transfer.
    const taken = lengthAt(TAKEN, text, end);
    if (taken >= 0) return { start: start - before[0].length, end: end + taken, account, name, after: true };
    return lengthAt(PAYING, text, end) >= 0 ? { start: start - before[0].length, end, account, name, after: false } : null;
  }
  if (before) {
    // 用支付宝付的, 用微信里的钱: what follows the name is the payment's words too.
    const tail = Math.max(lengthAt(BY, text, end), lengthAt(FUNDS, text, end), 0);
    return { start: start - before[0].length, end: end + tail, account, name, after: before.groups!.after !== undefined };
  }
  const by = lengthAt(BY, text, end);
  if (by >= 0) return { start, end: end + by, account, name, after: false };
  if (lengthAt(PAYING, text, end) >= 0) return { start, end, account, name, after: false };
  const that = lengthAt(THAT, text, end);
  if (that >= 0 && !INTO_BEFORE.test(text.slice(Math.max(0, start - 1), start))) return { start, end: end + that, account, name, after: false };
  return null;
}

/** Every account named as the payer in the text, in order: each item of an utterance may name its own. */
export function findAccounts(text: string, ownNames: readonly string[] = []): AccountMention[] {
  const index = ownNames.length > 0 ? ownIndex(ownNames) : null;
  const found: AccountMention[] = [];
  for (let i = 0; i < text.length; i++) {
    const mention = payerAt(text, i, index);
    if (!mention) continue;
    // 钱包付的现金: two names share one paying word; the name after it is what paid.
    if (found.length > 0 && found.at(-1)!.end > mention.start) found.pop();
    found.push(mention);
    i = mention.end - 1;
  }
  return found;
}

/**
 * The longest name at `at` that the words around make the payer: 微信支付打车 is 微信 and 支付.
 * The book's names go first, so they win a tie: they are the accounts the user means.
 */
function payerAt(text: string, at: number, own: NameIndex | null): AccountMention | null {
  const names = own ? [...own.at(text, at), ...BUILT_IN.at(text, at)] : BUILT_IN.at(text, at);
  if (names.length === 0) return null;
  if (own) names.sort((a, b) => b[0] - a[0]);
  for (const [length, account] of names) {
    const mention = asPayer(text, at, at + length, account);
    if (mention) return mention;
  }
  return null;
}

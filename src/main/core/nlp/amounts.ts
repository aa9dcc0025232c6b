// Money in speech: 35, 28.5, ¥188, 三十五块, 七块五, 两块五毛, 八毛, 28块5, 六十三块二毛, 2.5万,
// and bare amounts (晚饭四十八). Numbers that are dates, ordinals, counts or times are not money.
import {
  BLOCK_NOUNS,
  FOLLOWERS_OF_MONEY,
  JIAO_UNITS,
  MEASURE_WORDS,
  MODEL_NAMES,
  NOT_MEASURE,
  TOGETHER_VERBS,
  TOTAL_WORDS,
  YUAN_UNITS,
} from './lexicon/amounts';
import { EXPENSE_CATEGORY_WORDS, INCOME_CATEGORY_WORDS } from './lexicon/categories';
import { DAY_PARTS, RELATIVE_DAYS } from './lexicon/dates';
import { ADDING_CONNECTIVES, HESITATIONS, SEQUENCE_CONNECTIVES } from './lexicon/fillers';
import { CoverageBuffer, isAsciiDigit, isAsciiLetter, isAsciiLetterCode, isCovered, isPunctuation, type Span } from './normalize';
import { chineseDigitValue, isChineseDigit, scanNumbers, type NumberToken } from './numbers';
import { startTable } from './starts';

export interface AmountMention extends Span {
  value: number;
  /** 3: currency or money unit; 2: a bare number that reads as money; 1: maybe not money (两块蛋糕 a count, lunch35). */
  strength: 1 | 2 | 3;
  /** 打车-5元, 负五块: a signed amount, which no payment is; the sign is inside the span. */
  negative?: true;
}

const MONEY_FOLLOWERS = new Set(FOLLOWERS_OF_MONEY);

function startsWithAny(text: string, at: number, words: readonly string[]): string | null {
  // The first character is compared first: most words of a list fail there.
  const code = text.charCodeAt(at);
  for (const w of words) if (w.charCodeAt(0) === code && text.startsWith(w, at)) return w;
  return null;
}

// By the code of the first character, with a table of those codes: most characters after a
// number start no measure word, and are settled without a string made or a hash taken.
const MEASURE_BY_FIRST = new Map<number, string[]>();
for (const w of MEASURE_WORDS) MEASURE_BY_FIRST.set(w.charCodeAt(0), [...(MEASURE_BY_FIRST.get(w.charCodeAt(0)) ?? []), w]);
const MEASURE_STARTS = startTable(MEASURE_WORDS.map((w) => w[0]!));

function measuresAt(text: string, at: number): readonly string[] | undefined {
  const code = text.charCodeAt(at);
  return MEASURE_STARTS[code] === 1 ? MEASURE_BY_FIRST.get(code) : undefined;
}

function isMeasureAt(text: string, at: number): boolean {
  const bucket = measuresAt(text, at);
  return bucket !== undefined && startsWithAny(text, at, bucket) !== null && startsWithAny(text, at, NOT_MEASURE) === null;
}

/** 十块两个: the digit before `at` counts; not in 九块九杯子, where an item word longer than the measure starts. */
function countsAt(text: string, at: number): boolean {
  const measure = isMeasureAt(text, at) ? startsWithAny(text, at, measuresAt(text, at)!)! : null;
  return measure !== null && ITEM_WORDS.startingAt(text, at) <= measure.length;
}

interface Scan {
  /** In order of position. */
  tokens: NumberToken[];
}

/** The token that starts exactly at `at`, by binary search: no index is built per parse. */
function tokenAt(tokens: readonly NumberToken[], at: number): NumberToken | undefined {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return tokens[lo]?.start === at ? tokens[lo] : undefined;
}

/** A single digit (Chinese or Arabic) starting exactly at `at`, for 块五 / 毛五 tails. */
function tailDigit(scan: Scan, at: number, text: string): NumberToken | null {
  const t = tokenAt(scan.tokens, at);
  if (!t || !Number.isInteger(t.value)) return null;
  // 零五 is one run; after 块 it is the digit behind the 零.
  const width = text[at] === '零' ? 2 : 1;
  if (t.end - t.start === width) return t.value < 10 ? t : null;
  // 九块九一双, 五块五两斤: the digits ran into the count after them (九一 read as 91).
  const digit = chineseDigitValue(text[at]);
  if (digit === null || width !== 1 || !isChineseDigit(text[at + 1]) || !isMeasureAt(text, t.end)) return null;
  return { start: at, end: at + 1, value: digit, chinese: true, raw: text[at]! };
}

function skipApprox(text: string, at: number): number {
  if (text.startsWith('左右', at)) return at + 2;
  const code = text.charCodeAt(at);
  if (code === 0x591a || code === 0x6765 || code === 0x4f59) return at + 1; // 多 来 余
  return at;
}

// Read only while the numbers are picked: one buffer serves every call.
const CLAIMED = new CoverageBuffer();

/**
 * Money mentions in normalized text, in order. `exclude` are spans already claimed (dates,
 * ordinals); numbers inside them are skipped.
 */
export function findAmounts(text: string, exclude: readonly Span[] = []): AmountMention[] {
  const claimed = CLAIMED.fill(text.length, exclude);
  const tokens = scanNumbers(text).filter((t) => !isCovered(claimed, t));
  const scan: Scan = { tokens };
  const found: AmountMention[] = [];
  let consumedTo = -1;
  for (const t of tokens) {
    if (t.start < consumedTo) continue;
    const mention = readAmount(text, t, scan);
    if (mention) {
      found.push(mention);
      consumedTo = mention.end;
    }
  }
  return found;
}

/**
 * Latin words that end a service keyword (ktv, spa, the k of 唱k): a number right after them is
 * money. Products are left out: after iphone or ipad a number is the model.
 */
const LATIN_ITEM_WORDS: ReadonlySet<string> = new Set(
  [EXPENSE_CATEGORY_WORDS, INCOME_CATEGORY_WORDS]
    .flatMap((table) => Object.entries(table).filter(([name]) => name !== '购物'))
    .flatMap(([name, list]) => [name, ...list])
    .map((word) => /[a-z]+$/.exec(word)?.[0])
    .filter((w): w is string => w !== undefined),
);

/**
 * What the Latin letters glued before a number make of it. An item word (ktv300, 唱k三百) or a
 * Chinese numeral leaves it money ('none'); one or two letters (p40, ps5, a4) or a product name
 * (iphone15) make it a model ('code'); any other word (lunch35, taxi20块 — the space is gone after
 * normalizing) is an item followed by its amount, unless a surer amount follows ('word').
 */
function latinGlue(text: string, t: NumberToken): 'none' | 'code' | 'word' {
  if (!isAsciiLetterCode(text.charCodeAt(t.start - 1))) return 'none';
  if (t.chinese || text.startsWith('rmb', t.start - 3)) return 'none';
  let from = t.start - 1;
  while (from > 0 && isAsciiLetter(text[from - 1])) from--;
  const letters = text.slice(from, t.start);
  if (LATIN_ITEM_WORDS.has(letters)) return 'none';
  if (letters.length <= 2 || MODEL_NAMES.some((m) => letters.endsWith(m))) return 'code';
  return 'word';
}

function readAmount(text: string, t: NumberToken, scan: Scan): AmountMention | null {
  const glue = latinGlue(text, t);
  if (glue === 'code') return null;
  const mention = readMention(text, t, scan);
  if (!mention) return null;
  // A bare number after an unknown word may still be a model (zenfone9): money only when nothing surer is there.
  if (glue === 'word' && mention.strength === 2) mention.strength = 1;
  if (signedNegative(text, mention.start)) {
    mention.start -= 1;
    mention.negative = true;
  }
  return mention;
}

// A minus after a digit or letter is a range or a code (3-5元, rx-7), not a sign.
function signedNegative(text: string, start: number): boolean {
  const sign = text[start - 1];
  if (sign === '负') return true;
  if (sign !== '-' && sign !== '−') return false;
  const before = text[start - 2];
  return !isAsciiDigit(before) && !isAsciiLetter(before);
}

function readMention(text: string, t: NumberToken, scan: Scan): AmountMention | null {
  const before = text[t.start - 1];
  if (before === '第') return null;
  if (before === '周' || before === '期' || before === '拜') return null; // 周一, 星期三, 礼拜五
  if (before === '双' && (t.value === 11 || t.value === 12)) return null; // 双十一, 双12: shopping days
  if (before === '几' && text[t.start] === '十') return null; // 几十块 names no amount (茶几三百 does)
  if (isAsciiDigit(before)) return null;
  if (t.value <= 0) return null;
  const currencyWord = text.startsWith('人民币', t.start - 3) ? 3 : text.startsWith('rmb', t.start - 3) ? 3 : 0;
  const currency = before === '¥' || before === '￥' || before === '$' || currencyWord > 0;
  const start = currencyWord > 0 ? t.start - currencyWord : currency ? t.start - 1 : t.start;
  let at = skipApprox(text, t.end);

  const yuan = startsWithAny(text, at, YUAN_UNITS);
  if (yuan) {
    at += yuan.length;
    let value = t.value;
    let strength: 1 | 3 = 3;
    // 七块五 / 两块五毛 / 一块五毛三 / 28块5: the digits after 块 are jiao, then fen — unless the
    // digit counts or starts a word (八块一共二十, 十块两个, 五块三天).
    const spokenTail = yuan.startsWith('块') || yuan.startsWith('元') || yuan === '圆';
    const jiao = spokenTail ? tailDigit(scan, at, text) : null;
    if (jiao && text[at] === '零' && !startsWithAny(text, jiao.end, ['毛', '角'])) {
      // 五块零五分, 一块零五: after 零 the digit is fen unless 毛/角 follows (十块零五毛).
      value += jiao.value / 100;
      at = jiao.end + (text[jiao.end] === '分' ? 1 : 0);
    } else if (jiao && !isAsciiDigit(text[jiao.end]) && !startsWithAny(text, jiao.end, ['块', '元']) && !countsAt(text, jiao.end)) {
      value += jiao.value / 10;
      at = jiao.end;
      const unit = startsWithAny(text, at, ['毛', '角']);
      if (unit) {
        at += 1;
        const fen = tailDigit(scan, at, text);
        if (fen) {
          value += fen.value / 100;
          at = fen.end;
          if (text[at] === '分') at++;
        }
      }
    } else if (yuan === '块' && !currency) {
      // 两块蛋糕: 块 is also the measure word for cake and soap.
      const next = text[at];
      if (next !== undefined && !isPunctuation(next) && !MONEY_FOLLOWERS.has(next) && /[\u4e00-\u9fff]/.test(next)) {
        const lone = (isChineseDigit(text[t.start]) || isAsciiDigit(text[t.start])) && t.end - t.start === 1;
        if (lone && !itemBefore(text, start) && !nextItemAt(text, at, t.value)) strength = 1;
      }
    }
    if (text[at] === '钱') at++;
    return { start, end: at, value: round(value), strength };
  }

  const jiaoUnit = startsWithAny(text, at, JIAO_UNITS);
  if (jiaoUnit) {
    at += jiaoUnit.length;
    let value = t.value / 10;
    const fen = tailDigit(scan, at, text);
    if (fen) {
      value += fen.value / 100;
      at = fen.end;
      if (text[at] === '分') at++;
    }
    if (text[at] === '钱') at++;
    return { start, end: at, value: round(value), strength: 3 };
  }
  if (text.startsWith('分钱', at)) return { start, end: at + 2, value: round(t.value / 100), strength: 3 };

  if (currency) return { start, end: t.end, value: t.value, strength: 3 };
  // 二十多个人: an approximate count is still a count; 三百多 at the end is money, 多 included.
  if (at > t.end && isMeasureAt(text, at)) return null;
  const approxEnd = at;
  const next = text[t.end];
  if (next !== undefined && isMeasureAt(text, t.end)) return null;
  if (next === ':' || next === '/' || next === '-') return null;
  if (isAsciiLetter(next)) return null;
  if (!t.chinese) return { start, end: approxEnd, value: t.value, strength: 2 };
  // A lone Chinese digit (三明治, 五花肉, 一下) is money only at the end of a clause.
  if (t.end - t.start === 1) {
    const clauseEnd = next === undefined || isPunctuation(next) || next === '的' || next === '吧' || next === '啊';
    return clauseEnd ? { start, end: t.end, value: t.value, strength: 2 } : null;
  }
  return { start, end: approxEnd, value: t.value, strength: 2 };
}

/** Words looked up by exact string, with the longest length and the first and last characters. */
class WordSet {
  private readonly words: ReadonlySet<string>;
  private readonly firsts: ReadonlySet<string>;
  private readonly lasts: ReadonlySet<string>;
  private readonly longest: number;

  constructor(list: readonly string[]) {
    this.words = new Set(list);
    this.firsts = new Set(list.map((w) => w[0]!));
    this.lasts = new Set(list.map((w) => w.at(-1)!));
    this.longest = Math.max(0, ...list.map((w) => w.length));
  }

  /** Length of the longest word that starts at `at`, else 0. */
  startingAt(text: string, at: number): number {
    if (!this.firsts.has(text[at]!)) return 0;
    for (let n = Math.min(this.longest, text.length - at); n > 0; n--) if (this.words.has(text.slice(at, at + n))) return n;
    return 0;
  }

  /** Length of the longest word that ends right before `at`, else 0. */
  endingAt(text: string, at: number): number {
    if (!this.lasts.has(text[at - 1]!)) return 0;
    for (let n = Math.min(this.longest, at); n > 0; n--) if (this.words.has(text.slice(at - n, at))) return n;
    return 0;
  }
}

// The number reader runs on every mention, so it asks sets, not the category matcher.
const ITEM_WORDS = new WordSet(
  [EXPENSE_CATEGORY_WORDS, INCOME_CATEGORY_WORDS].flatMap((table) => Object.entries(table)).flatMap(([name, list]) => [name, ...list]),
);
const BLOCK_NOUN_WORDS = new WordSet(BLOCK_NOUNS);
const NEXT_ITEM_WORDS = new WordSet([
  ...TOTAL_WORDS,
  ...ADDING_CONNECTIVES,
  ...SEQUENCE_CONNECTIVES,
  ...HESITATIONS,
  ...Object.keys(RELATIVE_DAYS),
  ...DAY_PARTS,
]);

/**
 * 鸡蛋五块牛奶八块: after 五块 the next item starts (an item word, a total, a connective, a filler,
 * a day), so 块 is money; before a noun counted in 块 (两块蛋糕) or a verb after 一块 (一块吃饭,
 * together) it is not.
 */
function nextItemAt(text: string, at: number, value: number): boolean {
  if (value === 1 && TOGETHER_VERBS.includes(text[at]!)) return false;
  if (NEXT_ITEM_WORDS.startingAt(text, at) > 0) return true;
  // 一块地铁三块 is money, 地铁 being longer than the 地 of 一块地.
  return ITEM_WORDS.startingAt(text, at) > BLOCK_NOUN_WORDS.startingAt(text, at);
}

/** 可乐三块薯片五块: an item word right before the number makes it that item's price (蛋糕两块 still counts). */
function itemBefore(text: string, start: number): boolean {
  const n = ITEM_WORDS.endingAt(text, start);
  return n > 0 && BLOCK_NOUN_WORDS.endingAt(text, start) < n;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Amounts that can be paid: a signed one (-5元) is no expense of 5. */
export function unsigned(all: readonly AmountMention[]): AmountMention[] {
  return all.filter((a) => !a.negative);
}

/** The mentions that read as money: strong ones, or the weak ones when nothing else is there. */
export function moneyMentions(all: readonly AmountMention[]): AmountMention[] {
  const strong = all.filter((a) => a.strength >= 2);
  return strong.length > 0 ? strong : [...all];
}

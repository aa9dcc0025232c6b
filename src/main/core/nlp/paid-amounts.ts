// Which of an utterance's amounts are items. Some are not, though readSpans keeps them: an amount
// taken back (打车30不对35, 三十六哦不是二十六), the far end of a range (一百到两百), a discount after
// a price when nothing was paid otherwise (满100减20), the price of what a refund gave back
// (六百的外套退了两百二: the refund is the item), and a total of the items just said
// (鸡蛋十二块牛奶八块一共二十). A total on its own (三个人吃饭一共花了一百八) is the item.
import type { AmountMention } from './amounts';
import {
  BOUGHT_BEFORE_PRICE,
  MEANT,
  NEXT_ITEM_BETWEEN,
  NOT_PAID,
  PAYING_VERBS,
  PRICE_MARKS,
  RANGE_JOINERS,
  REFUNDED_AFTER,
  REFUNDED_BEFORE,
  TAKEN_BACK,
  TAKING_BACK_FILLERS,
  TOTAL_VERBS,
  TOTAL_WORDS,
} from './lexicon/amounts';
import { ADDING_CONNECTIVES } from './lexicon/fillers';
import { REFUND_AFTER, REFUND_FEES } from './lexicon/money-flows';
import { anyOf } from './lexicon/words';
import { isPunctuationCode, type Span } from './normalize';

export interface PaidAmounts {
  /** One amount per item, in order. */
  paid: AmountMention[];
  /** The dropped amounts with the words that made them so (不对, 到, 一共): no words of any item. */
  notItems: Span[];
  /** Paid amounts said as a total (三个人吃饭一共花了一百八): the amount of all the words before it. */
  totals: Set<AmountMention>;
}

// 不对不对, 嗯不是不是: said twice, taken back once; fillers anywhere between.
const FILLER = anyOf(TAKING_BACK_FILLERS);
const TAKE_BACK = new RegExp(`^${FILLER}*(?:我?${anyOf(TAKEN_BACK)}了?${FILLER}*)+${anyOf(MEANT)}?$`);
// The longest words between two amounts that can still take the first back (，不好意思，我说错了，应该是).
const TAKE_BACK_LONGEST = 24;
const RANGE = new RegExp(`^${anyOf(RANGE_JOINERS)}$`);
// Looked for in the few characters before an amount: 加起来一共是 is the longest.
const TOTAL_BEFORE = new RegExp(`${anyOf(TOTAL_WORDS)}${anyOf(TOTAL_VERBS)}{0,2}$`);
const TOTAL_LOOKBACK = 9;
// A spoken total may round the sum (二十块五 and 八块 → 一共二十九): within 5 %, at least one fen.
const SUM_TOLERANCE = 0.05;

function withoutPunctuation(text: string): string {
  // Runs are copied whole: one slice per run, not one string per character.
  let out = '';
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isPunctuationCode(text.charCodeAt(i))) continue;
    out += text.slice(run, i);
    run = i + 1;
  }
  return run === 0 ? text : out + text.slice(run);
}

function sums(total: number, sum: number): boolean {
  return Math.abs(total - sum) <= Math.max(0.005, total * SUM_TOLERANCE);
}

/** True when some run of two or more of the last values (the items just said) sums to the total. */
function sumsTheLast(values: readonly number[], total: number): boolean {
  let sum = 0;
  for (let k = values.length - 1; k >= 0; k--) {
    sum += values[k]!;
    if (k <= values.length - 2 && sums(total, sum)) return true;
    if (sum > total * (1 + SUM_TOLERANCE)) return false;
  }
  return false;
}

// 不是30是35, 满100减20, 原价一百, 优惠了二十: before an amount, one that was denied or not paid.
const NOT_PAID_BEFORE = new RegExp(`${anyOf(NOT_PAID)}$`);

export function notPaid(text: string, amount: AmountMention): boolean {
  return NOT_PAID_BEFORE.test(text.slice(Math.max(0, amount.start - 3), amount.start));
}

/** 三十六哦不是二十六: the words between two amounts take the first back, so the second is meant. */
function takesBack(text: string, first: AmountMention, second: AmountMention): boolean {
  if (second.start - first.end > TAKE_BACK_LONGEST) return false;
  const between = withoutPunctuation(text.slice(first.end, second.start));
  // 是三十六不是二十六: a bare 不是 after an amount said with 是 sets it against the next one.
  if (between === '不是' && text[first.start - 1] === '是') return false;
  return TAKE_BACK.test(between);
}

/**
 * Amounts that were denied or not paid are dropped when another one remains. The 不是 of a
 * correction after an amount (三十六哦不是二十六) denies the amount before it, not the one after.
 */
export function withoutDenied(text: string, amounts: AmountMention[]): AmountMention[] {
  if (amounts.length < 2) return amounts;
  const kept = amounts.filter((a, i) => !notPaid(text, a) || (i > 0 && takesBack(text, amounts[i - 1]!, a)));
  return kept.length > 0 ? kept : amounts;
}

interface Spoken {
  amounts: AmountMention[];
  /** An amount said in place of one taken back → the one first said (退了两百二哦不是两百五). */
  firstSaid: Map<AmountMention, AmountMention>;
}

/** Drops amounts taken back, discounts after a price and the far ends of ranges. */
function spokenAmounts(text: string, amounts: readonly AmountMention[], notItems: Span[]): Spoken {
  const spoken: AmountMention[] = [];
  const firstSaid = new Map<AmountMention, AmountMention>();
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    const next = amounts[i + 1];
    if (next && takesBack(text, a, next)) {
      notItems.push({ start: a.start, end: next.start });
      firstSaid.set(next, firstSaid.get(a) ?? a);
      continue;
    }
    // 满100减20: when every amount is a discount or a price before one, the later ones are no items.
    if (spoken.length > 0 && !firstSaid.has(a) && notPaid(text, a)) {
      notItems.push(a);
      continue;
    }
    spoken.push(a);
    if (next && RANGE.test(text.slice(a.end, next.start))) {
      notItems.push({ start: a.end, end: next.end });
      i++;
    }
  }
  return { amounts: spoken, firstSaid };
}

const PRICE_MARK = new RegExp(`^${anyOf(PRICE_MARKS)}`);
// 买了六百的外套, 买了件六百的外套: a purchase told as an event.
const BOUGHT = new RegExp(`${anyOf(BOUGHT_BEFORE_PRICE)}[个件双台条只部套本张把支瓶盒份款]?$`);
// 花一千三买的吸尘器: the verb of the price goes with it.
const PRICE_VERB = new RegExp(`(?:${anyOf(PAYING_VERBS)}|花)$`);
const PUNCTUATION_RUN = /[，,。；;！!？?、…]*$/;
const REFUNDED_BEFORE_AMOUNT = new RegExp(`${anyOf(REFUNDED_BEFORE)}$`);
const REFUNDED_AFTER_AMOUNT = new RegExp(`^${anyOf(REFUNDED_AFTER)}`);
// As money-flow.ts reads a refund: 退款, 退了, 退货, 外套退， (not 退休金, 退税, 退货运费).
const REFUND = new RegExp(`退(?:${anyOf(REFUND_AFTER)}(?!${anyOf(REFUND_FEES)})|(?=[，,。；;！!？?]|$))`);
const NEXT_ITEM = new RegExp(`${anyOf(ADDING_CONNECTIVES)}|${anyOf(NEXT_ITEM_BETWEEN)}`);
const LOOKBACK = 6;

/** 六百的外套, 一千三买的吸尘器: where the price of a thing ends (its 的 included), else null. */
function priceEnd(text: string, a: AmountMention): number | null {
  const mark = PRICE_MARK.exec(text.slice(a.end, a.end + 5));
  if (!mark) return null;
  // 买了六百的外套 tells a purchase; 六百买的 is still a price.
  if (mark[0] === '的' && BOUGHT.test(text.slice(Math.max(0, a.start - LOOKBACK), a.start))) return null;
  return a.end + mark[0].length;
}

/** 退了两百二, 到账三百五, 两百二到账了: the amount (first said as `said`) is what a refund gave back. */
function refunded(text: string, a: AmountMention, said: AmountMention): boolean {
  const before = text.slice(Math.max(0, said.start - LOOKBACK), said.start).replace(PUNCTUATION_RUN, '');
  return REFUNDED_BEFORE_AMOUNT.test(before) || REFUNDED_AFTER_AMOUNT.test(text.slice(a.end, a.end + 3));
}

/**
 * Where the price ends when `price` is the price of what a refund gave back as `back`, else null:
 * `back` is no more than the price, said with refund words after it with no new item between, and
 * the words since `from` (the amount before) tell a refund.
 */
function refundedPriceEnd(text: string, price: AmountMention, back: AmountMention, from: number, said: AmountMention): number | null {
  if (back.value > price.value) return null;
  const end = priceEnd(text, price);
  if (end === null || priceEnd(text, back) !== null || NEXT_ITEM.test(text.slice(end, back.start))) return null;
  return refunded(text, back, said) && REFUND.test(text.slice(from, back.end)) ? end : null;
}

/**
 * 前天六百的外套退了两百二, 退了三百九的台灯，到账三百五: in a refund, the price of what went back
 * is no money moving; the item is the amount refunded.
 */
function withoutRefundedPrices(text: string, { amounts, firstSaid }: Spoken, notItems: Span[]): AmountMention[] {
  const kept: AmountMention[] = [];
  for (let i = 0; i < amounts.length; i++) {
    const price = amounts[i]!;
    const back = amounts[i + 1];
    const end = back ? refundedPriceEnd(text, price, back, amounts[i - 1]?.end ?? 0, firstSaid.get(back) ?? back) : null;
    if (end === null) {
      kept.push(price);
      continue;
    }
    const verb = PRICE_VERB.exec(text.slice(Math.max(0, price.start - 3), price.start));
    notItems.push({ start: price.start - (verb?.[0].length ?? 0), end });
  }
  return kept;
}

export function paidAmounts(text: string, amounts: readonly AmountMention[]): PaidAmounts {
  const notItems: Span[] = [];
  const spoken = withoutRefundedPrices(text, spokenAmounts(text, amounts, notItems), notItems);

  // Totals: a total of the items since the last total is dropped; one before any item may sum
  // those that follow (一共五十，午饭三十打车二十).
  const paid: AmountMention[] = [];
  const totals = new Set<AmountMention>();
  let since: number[] = [];
  // rest[i]: the sum of the amounts after the i-th.
  const rest: number[] = new Array<number>(spoken.length).fill(0);
  for (let i = spoken.length - 2; i >= 0; i--) rest[i] = rest[i + 1]! + spoken[i + 1]!.value;
  for (let i = 0; i < spoken.length; i++) {
    const a = spoken[i]!;
    const total = TOTAL_BEFORE.exec(text.slice(Math.max(0, a.start - TOTAL_LOOKBACK), a.start));
    if (total) {
      const ahead = since.length === 0 && spoken.length - i > 2 && sums(a.value, rest[i]!);
      if (sumsTheLast(since, a.value) || ahead) {
        notItems.push({ start: a.start - total[0].length, end: a.end });
        since = [];
        continue;
      }
      totals.add(a);
    }
    paid.push(a);
    if (!a.negative) since.push(a.value);
  }
  return { paid, notItems, totals };
}

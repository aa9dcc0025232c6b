// Which of an utterance's amounts are items. Some are not, though readSpans keeps them: an amount
// taken back (打车30不对35), the far end of a range (一百到两百), a discount after a price when
// nothing was paid otherwise (满100减20), and a total of the items just said
// (鸡蛋十二块牛奶八块一共二十). A total on its own (三个人吃饭一共花了一百八) is the item.
import type { AmountMention } from './amounts';
import { MEANT, RANGE_JOINERS, TAKEN_BACK, TOTAL_VERBS, TOTAL_WORDS } from './lexicon/amounts';
import { HESITATIONS } from './lexicon/fillers';
import { anyOf } from './lexicon/words';
import { isPunctuation, type Span } from './normalize';
import { notPaid } from './parse';

export interface PaidAmounts {
  /** One amount per item, in order. */
  paid: AmountMention[];
  /** The dropped amounts with the words that made them so (不对, 到, 一共): no words of any item. */
  notItems: Span[];
  /** Paid amounts said as a total (三个人吃饭一共花了一百八): the amount of all the words before it. */
  totals: Set<AmountMention>;
}

// 不对不对: said twice, taken back once.
const TAKE_BACK = new RegExp(`^${anyOf(HESITATIONS)}*(?:${anyOf(TAKEN_BACK)}[了啊呀]*)+${anyOf(MEANT)}?$`);
const RANGE = new RegExp(`^${anyOf(RANGE_JOINERS)}$`);
// Looked for in the few characters before an amount: 加起来一共是 is the longest.
const TOTAL_BEFORE = new RegExp(`${anyOf(TOTAL_WORDS)}${anyOf(TOTAL_VERBS)}{0,2}$`);
const TOTAL_LOOKBACK = 9;
// A spoken total may round the sum (二十块五 and 八块 → 一共二十九): within 5 %, at least one fen.
const SUM_TOLERANCE = 0.05;

function withoutPunctuation(text: string): string {
  let out = '';
  for (const ch of text) if (!isPunctuation(ch)) out += ch;
  return out;
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

export function paidAmounts(text: string, amounts: readonly AmountMention[]): PaidAmounts {
  const notItems: Span[] = [];
  // Taken back and ranges: decided by the words between two neighbouring amounts.
  const spoken: AmountMention[] = [];
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    const next = amounts[i + 1];
    const between = next ? text.slice(a.end, next.start) : '';
    if (next && TAKE_BACK.test(withoutPunctuation(between))) {
      notItems.push({ start: a.start, end: next.start });
      continue;
    }
    // 满100减20: when every amount is a discount or a price before one, the later ones are no items.
    if (spoken.length > 0 && notPaid(text, a)) {
      notItems.push(a);
      continue;
    }
    spoken.push(a);
    if (next && RANGE.test(between)) {
      notItems.push({ start: a.end, end: next.end });
      i++;
    }
  }

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

// Item references on the confirmation card: 第二笔, 第2笔, 第十笔, 最后一笔, 倒数第二笔, 头一笔,
// 中间那笔, and 第二三笔 (two items). ASR often hears 笔 as 比 or 币.
import { ORDINAL_MEASURES } from './lexicon/amounts';
import { MIDDLE_LEADS, MIDDLE_WORDS } from './lexicon/dialogue';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';
import { parseNumeral } from './numbers';

export interface OrdinalMention extends Span {
  /** 1-based position counted from the front, or from the back when `fromEnd`; 0 for the middle. */
  position: number;
  fromEnd: boolean;
  /** 中间那笔: the middle item, which only the card's size places. */
  middle: boolean;
}

const MEASURE = anyOf(ORDINAL_MEASURES);
// 中间那笔, 中间那个, 中间一笔, 中间的 (not 中间的两笔, a scope of several). 看电影中间的座位 is no
// item, so 中间 counts only at the start of a clause or after a word that may point at an item
// (把中间的, 删掉中间那笔): MIDDLE_LEADS holds the last characters of those words.
// The lead is checked after the word: a lookbehind first would cost every position of every text.
const MIDDLE_WORD = anyOf(MIDDLE_WORDS);
const MIDDLE = `(?<middle>${MIDDLE_WORD})(?<=(?:^|[^\\u4e00-\\u9fff]|${anyOf(MIDDLE_LEADS)})${MIDDLE_WORD})(?:的?(?:[那这]一?|一)?${MEASURE}|的(?![两二三四五六七八九十几\\d]))`;
const ORDINAL_PATTERN = new RegExp(
  `(?<back>倒数)?第(?<n>\\d{1,3}|[一二两三四五六七八九十百零]{1,4})${MEASURE}?|最后(?:一|那|这)?(?:一)?${MEASURE}|(?<head>头)一?${MEASURE}|${MIDDLE}`,
  'g',
);

const CHINESE_DIGITS = /^[一二两三四五六七八九]{2,3}$/;

export function findOrdinals(text: string): OrdinalMention[] {
  const found: OrdinalMention[] = [];
  ORDINAL_PATTERN.lastIndex = 0;
  for (let m = ORDINAL_PATTERN.exec(text); m !== null; m = ORDINAL_PATTERN.exec(text)) {
    const span = { start: m.index, end: m.index + m[0].length };
    const digits = m.groups?.n;
    if (m.groups?.middle !== undefined) {
      found.push({ start: span.start, end: span.end, position: 0, fromEnd: false, middle: true });
      continue;
    }
    if (digits === undefined) {
      found.push({ start: span.start, end: span.end, position: 1, fromEnd: m.groups?.head === undefined, middle: false });
      continue;
    }
    const fromEnd = m.groups!.back !== undefined;
    if (CHINESE_DIGITS.test(digits)) {
      // 第二三笔 is the second and the third item, not the 23rd: one mention per digit.
      let at = span.start + (fromEnd ? 3 : 1);
      for (let k = 0; k < digits.length; k++) {
        const start = k === 0 ? span.start : at;
        const end = k === digits.length - 1 ? span.end : at + 1;
        found.push({ start, end, position: parseNumeral(digits[k]!)!, fromEnd, middle: false });
        at += 1;
      }
      continue;
    }
    const n = parseNumeral(digits);
    if (n === null || !Number.isInteger(n) || n < 1) continue;
    found.push({ start: span.start, end: span.end, position: n, fromEnd, middle: false });
  }
  return found;
}

/**
 * 0-based index into a list of `size` items; may be outside 0..size-1. Null when the words name
 * no single item: 中间 of an even number of items (2 of 4 are equally "in the middle"), so the
 * speaker is asked rather than the wrong item changed.
 */
export function ordinalIndex(mention: OrdinalMention, size: number): number | null {
  if (mention.middle) return size % 2 === 1 ? (size - 1) / 2 : null;
  return mention.fromEnd ? size - mention.position : mention.position - 1;
}

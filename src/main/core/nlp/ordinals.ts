// Item references on the confirmation card: 第二笔, 第2笔, 第十笔, 最后一笔, 倒数第二笔, 头一笔,
// and 第二三笔 (two items). ASR often hears 笔 as 比 or 币.
import { ORDINAL_MEASURES } from './lexicon/amounts';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';
import { parseNumeral } from './numbers';

export interface OrdinalMention extends Span {
  /** 1-based position counted from the front, or from the back when `fromEnd`. */
  position: number;
  fromEnd: boolean;
}

const MEASURE = anyOf(ORDINAL_MEASURES);
const ORDINAL_PATTERN = new RegExp(
  `(?<back>倒数)?第(?<n>\\d{1,3}|[一二两三四五六七八九十百零]{1,4})${MEASURE}?|最后(?:一|那|这)?(?:一)?${MEASURE}|(?<head>头)一?${MEASURE}`,
  'g',
);

const CHINESE_DIGITS = /^[一二两三四五六七八九]{2,3}$/;

export function findOrdinals(text: string): OrdinalMention[] {
  const found: OrdinalMention[] = [];
  ORDINAL_PATTERN.lastIndex = 0;
  for (let m = ORDINAL_PATTERN.exec(text); m !== null; m = ORDINAL_PATTERN.exec(text)) {
    const span = { start: m.index, end: m.index + m[0].length };
    const digits = m.groups?.n;
    if (digits === undefined) {
      found.push({ ...span, position: 1, fromEnd: m.groups?.head === undefined });
      continue;
    }
    const fromEnd = m.groups!.back !== undefined;
    if (CHINESE_DIGITS.test(digits)) {
      // 第二三笔 is the second and the third item, not the 23rd: one mention per digit.
      let at = span.start + (fromEnd ? 3 : 1);
      for (let k = 0; k < digits.length; k++) {
        const start = k === 0 ? span.start : at;
        const end = k === digits.length - 1 ? span.end : at + 1;
        found.push({ start, end, position: parseNumeral(digits[k]!)!, fromEnd });
        at += 1;
      }
      continue;
    }
    const n = parseNumeral(digits);
    if (n === null || !Number.isInteger(n) || n < 1) continue;
    found.push({ ...span, position: n, fromEnd });
  }
  return found;
}

/** 0-based index into a list of `size` items; may be outside 0..size-1. */
export function ordinalIndex(mention: OrdinalMention, size: number): number {
  return mention.fromEnd ? size - mention.position : mention.position - 1;
}

// Item references on the confirmation card: 第二笔, 第2笔, 第十笔, 最后一笔, 倒数第二笔.
import type { Span } from './normalize';
import { parseNumeral } from './numbers';

export interface OrdinalMention extends Span {
  /** 1-based position counted from the front, or from the back when `fromEnd`. */
  position: number;
  fromEnd: boolean;
}

const ORDINAL_PATTERN =
  /(?<back>倒数)?第(?<n>\d{1,3}|[一二两三四五六七八九十百零]{1,4})(?:笔|个|条|项|单|次|行)?|最后(?:一|那|这)?(?:一)?(?:笔|个|条|项|单)/g;

export function findOrdinals(text: string): OrdinalMention[] {
  const found: OrdinalMention[] = [];
  ORDINAL_PATTERN.lastIndex = 0;
  for (let m = ORDINAL_PATTERN.exec(text); m !== null; m = ORDINAL_PATTERN.exec(text)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (m.groups?.n === undefined) {
      found.push({ ...span, position: 1, fromEnd: true });
      continue;
    }
    const n = parseNumeral(m.groups.n);
    if (n === null || !Number.isInteger(n) || n < 1) continue;
    found.push({ ...span, position: n, fromEnd: m.groups.back !== undefined });
  }
  return found;
}

/** 0-based index into a list of `size` items; may be outside 0..size-1. */
export function ordinalIndex(mention: OrdinalMention, size: number): number {
  return mention.fromEnd ? size - mention.position : mention.position - 1;
}

// List numbering said or typed before items: 1.午饭35 2.打车20, 一、早饭十块, (1)…, ①…. These
// numbers are no money; they also start a new item.
import type { Span } from './normalize';
import { parseNumeral } from './numbers';

export interface ListNumber extends Span {
  position: number;
}

// 1. 1、 1) (1) and 一、: a number right before a list mark, with no digit after it (1.5 is money).
const CANDIDATE = /(?<![\d.])(\d{1,2})[.、)）](?!\d)|(?<![一二三四五六七八九十])([一二三四五六七八九十]{1,2})、|[(（](\d{1,2})[)）]/g;
const CIRCLED = /[①-⑩]/g;

// The list starts at the start of the text or of a clause; later numbers may follow an amount (35元2.打车).
const CLAUSE_START = /^$|[，,。；;！!？?\s]$/;

/**
 * The list numbers in normalized text. A number counts only as part of a list 1, 2, 3 …, whose
 * first number opens a clause: 第2.5 or 买了3、4个 are no list.
 */
export function findListNumbers(text: string): ListNumber[] {
  const found: ListNumber[] = [];
  CIRCLED.lastIndex = 0;
  for (let m = CIRCLED.exec(text); m !== null; m = CIRCLED.exec(text)) {
    found.push({ start: m.index, end: m.index + 1, position: m[0].charCodeAt(0) - 0x245f });
  }
  if (found.length > 0) return found;
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const position = parseNumeral(m[1] ?? m[2] ?? m[3]!);
    if (position !== found.length + 1) continue;
    if (found.length === 0 && !CLAUSE_START.test(text.slice(Math.max(0, m.index - 1), m.index))) continue;
    found.push({ start: m.index, end: m.index + m[0].length, position });
  }
  return found;
}

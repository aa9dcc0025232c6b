// A person named where money moves to or from one: 小李, 老王, 张三, 王老师, 我哥, 表弟, 同事,
// 大学室友, 同事小李. Only the words right next to a lending or repaying verb are looked at, so a
// name needs no dictionary: a family name or 小/老/阿 and one or two characters is enough.
import {
  FAMILY_NAMES,
  KIN,
  KIN_SENIORITY,
  NAME_NUMERALS,
  NAME_PREFIXES,
  NOT_PEOPLE,
  NUMBERED_NAME_AFTER,
  NUMBERED_NAME_BEFORE,
  OWNERS,
  ROLE_MODIFIERS,
  ROLES,
} from './lexicon/money-flows';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';

const HAN = '[\\u4e00-\\u9fff]';
// 张三的, 小李了: a given name never takes these, which follow a name in a sentence.
const GIVEN = `(?:(?![的了钱还借给我你他她和跟把被在是那这])${HAN})`;
const NAME = `(?:${anyOf(NAME_PREFIXES)}${GIVEN}|${anyOf(FAMILY_NAMES)}${GIVEN}{1,2})`;
const ROLE = `(?:${anyOf(ROLE_MODIFIERS)}?${anyOf(ROLES)}${NAME}?)`;
const PERSON = new RegExp(`^(?:${anyOf(OWNERS)}?(?:${anyOf(KIN_SENIORITY)}?${anyOf(KIN)}|${ROLE})|${NAME})$`);
const NOT_PERSON = new RegExp(`^${anyOf(NOT_PEOPLE)}`);

/** The longest a person's words run: 我大学室友小李. */
const LONGEST = 8;

function isPerson(words: string): boolean {
  return PERSON.test(words) && !NOT_PERSON.test(words);
}

/** The person whose words start at `at` (the longest reading), or null. */
export function personAt(text: string, at: number): string | null {
  for (let end = Math.min(text.length, at + LONGEST); end > at; end--) {
    const words = text.slice(at, end);
    if (isPerson(words)) return words;
  }
  return null;
}

/** The person whose words end right before `end` (the longest reading), or null. */
export function personBefore(text: string, end: number): string | null {
  for (let start = Math.max(0, end - LONGEST); start < end; start++) {
    const words = text.slice(start, end);
    if (isPerson(words)) return words;
  }
  return null;
}

// 八毛五的: after a number, 毛 is a money unit, not a family name.
const NUMBERED_NAME = new RegExp(
  `(?<=${anyOf(NUMBERED_NAME_BEFORE)})${anyOf(FAMILY_NAMES)}${anyOf(NAME_NUMERALS)}|(?<![零〇一二两三四五六七八九十百千万\\d])${anyOf(FAMILY_NAMES)}${anyOf(NAME_NUMERALS)}(?=${anyOf(NUMBERED_NAME_AFTER)})`,
  'g',
);

// Most texts hold no family name right before a numeral: a scan by character code skips the search.
const FAMILY_CODES = new Uint8Array(0x10000);
for (const name of FAMILY_NAMES) if (name.length === 1) FAMILY_CODES[name.charCodeAt(0)] = 1;
const NUMERAL_CODES = new Uint8Array(0x10000);
for (const numeral of NAME_NUMERALS) NUMERAL_CODES[numeral.charCodeAt(0)] = 1;
const LONG_FAMILY_NAMES = FAMILY_NAMES.some((name) => name.length !== 1);

// The same pattern tried at one place: a name starts where a family name stands before a numeral.
const NUMBERED_NAME_AT = new RegExp(NUMBERED_NAME.source, 'y');

/** 借给张三五百, 李四还了我三百: names that hold a numeral, which must not be read as money. */
export function findNumberedNames(text: string): Span[] {
  if (LONG_FAMILY_NAMES) return [...text.matchAll(NUMBERED_NAME)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  // 周一 and 王五 both pass this test, but a text holds few such places: the pattern is tried
  // only there, not at every character.
  const found: Span[] = [];
  for (let i = 0; i + 1 < text.length; i++) {
    if (FAMILY_CODES[text.charCodeAt(i)] !== 1 || NUMERAL_CODES[text.charCodeAt(i + 1)] !== 1) continue;
    NUMBERED_NAME_AT.lastIndex = i;
    const m = NUMBERED_NAME_AT.exec(text);
    if (m === null) continue;
    found.push({ start: i, end: i + m[0].length });
    i += m[0].length - 1;
  }
  return found;
}

/**
 * The text with the numeral of each name replaced by a character of the same length that is no
 * number, for finding amounts: the positions stay those of the text, and 张三五百 still holds 五百.
 */
export function withoutNameNumerals(text: string, names: readonly Span[]): string {
  let out = text;
  for (const n of names) out = out.slice(0, n.end - 1) + '某' + out.slice(n.end);
  return out;
}

// A person named where money moves to or from one: 小李, 老王, 张三, 王老师, 我哥, 表弟, 同事,
// 大学室友, 同事小李. Only the words right next to a lending or repaying verb are looked at, so a
// name needs no dictionary: a family name or 小/老/阿 and one or two characters is enough.
import { FAMILY_NAMES, KIN, NAME_PREFIXES, NOT_PEOPLE, OWNERS, ROLE_MODIFIERS, ROLES } from './lexicon/money-flows';
import { anyOf } from './lexicon/words';

const HAN = '[\\u4e00-\\u9fff]';
const NAME = `(?:${anyOf(NAME_PREFIXES)}${HAN}|${anyOf(FAMILY_NAMES)}${HAN}{1,2})`;
const ROLE = `(?:${anyOf(ROLE_MODIFIERS)}?${anyOf(ROLES)}${NAME}?)`;
const PERSON = new RegExp(`^(?:${anyOf(OWNERS)}?(?:${anyOf(KIN)}|${ROLE})|${NAME})$`);
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

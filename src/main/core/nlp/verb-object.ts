// An item word split by the amount or a particle: 加了两百块钱的油 is 加油, 理了个三十的发 is 理发,
// 看了个五十的电影 is 看电影. The category tables hold the joined words; these find what splits them.
import { matchCategoryWord } from '../categories/index';
import { VERB_OBJECT_GAPS, VERBS_OF_OBJECTS } from './lexicon/categories';
import { anyOf } from './lexicon/words';
import type { Span } from './normalize';
import { hasStart, startTable } from './starts';

const HAN = '[\\u4e00-\\u9fff]';
const VERB_BEFORE = new RegExp(`${anyOf(VERBS_OF_OBJECTS)}(${anyOf(VERB_OBJECT_GAPS)}*)$`);
const OBJECT_AFTER = new RegExp(`^(的?)${HAN}`);
/** The longest a verb and its particles run before the amount (加了一个). */
const LOOKBACK = 4;
// Without an amount between them the gap needs a particle, so 打的 (a taxi) stays whole.
const PARTICLES = new RegExp(`(?<=${anyOf(VERBS_OF_OBJECTS)})${anyOf(VERB_OBJECT_GAPS)}+(?=${HAN})`, 'g');

// What stands right before the amount when a verb and its particles do: a verb, or a particle's end.
const VERB_OR_GAP_ENDS = startTable([...VERBS_OF_OBJECTS, ...VERB_OBJECT_GAPS].map((w) => w.at(-1)!));

/** 加了两百的油: the particles, the amount and 的 between a verb and its object, else null. */
export function verbObjectGap(text: string, amount: Span): Span | null {
  if (VERB_OR_GAP_ENDS[text.charCodeAt(amount.start - 1)] !== 1) return null;
  const verb = VERB_BEFORE.exec(text.slice(Math.max(0, amount.start - LOOKBACK), amount.start));
  const object = verb ? OBJECT_AFTER.exec(text.slice(amount.end, amount.end + 2)) : null;
  if (!verb || !object) return null;
  return { start: amount.start - verb[1]!.length, end: amount.end + object[1]!.length };
}

// Most item words hold no particle: the pattern, tried at every character, runs only where one is.
const GAP_STARTS = startTable(VERB_OBJECT_GAPS.map((w) => w[0]!));

/** 理了个发 → 理发: the words with the particles between a verb and its object cut. */
export function joinVerbObject(words: string): string {
  return hasStart(words, GAP_STARTS) ? words.replace(PARTICLES, '') : words;
}

/** The most characters of an object looked at after the amount (电影票). */
const LONGEST_OBJECT = 4;

/**
 * 加了两百的油洗车三十: where the object after the amount ends, so the next item starts there; null
 * when no item word is made of the verb and what follows.
 */
export function objectEnd(text: string, amount: Span): number | null {
  const gap = verbObjectGap(text, amount);
  if (!gap) return null;
  const word = matchCategoryWord(text[gap.start - 1]! + text.slice(gap.end, gap.end + LONGEST_OBJECT));
  return word && word.start === 0 && word.keyword.length > 1 ? gap.end + word.keyword.length - 1 : null;
}

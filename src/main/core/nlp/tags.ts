// Tags said with an entry: 打车三十五标签出差 → 出差, 标签是出差, 打上出差标签, #出差, and several
// at once (标签出差和报销 → 出差, 报销). A tag's words run to the end of the clause; when an amount
// comes right after them, the next item's words (吃饭 of 标签出差吃饭二十) end the tag.
import { matchCategoryWord } from '../categories/index';
import { ADDING_CONNECTIVES, SEQUENCE_CONNECTIVES } from './lexicon/fillers';
import { AFTER_TAG, NOT_TAG_AFTER, TAG_JOINERS, TAG_NAMING, TAG_NOUNS, TAG_VERBS } from './lexicon/tags';
import { anyOf } from './lexicon/words';
import { coverage, isPunctuation, type Span } from './normalize';

export interface TagMention extends Span {
  tags: string[];
}

/** The most characters the words of a tag mention run after its mark (出差和报销 and a few more). */
const LONGEST = 16;
/** How far before 标签 its verb may stand (打上出差和报销的标签). */
const VERB_WINDOW = 18;

// c#课程: a # glued to Latin letters or digits is part of a name.
const MARK = new RegExp(`(?<![a-z0-9])#|${anyOf(TAG_NOUNS)}(?!${anyOf(NOT_TAG_AFTER)})`, 'g');
const NAMING = new RegExp(`^${anyOf(TAG_NAMING)}`);
const VERB = new RegExp(anyOf(TAG_VERBS), 'g');
// What ends a tag's words besides punctuation and claimed spans: another mark, a connective.
const END = new RegExp(`^(?:#|${anyOf(TAG_NOUNS)}|${anyOf(ADDING_CONNECTIVES)}|${anyOf(SEQUENCE_CONNECTIVES)})`);
const JOINER = new RegExp(anyOf(TAG_JOINERS), 'g');
const PARTICLES = new RegExp(`${anyOf(AFTER_TAG)}+$`);

function tagsOf(words: string): string[] {
  const tags: string[] = [];
  for (const part of words.split(JOINER)) {
    const tag = part.replace(PARTICLES, '');
    if (tag !== '' && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** Where the words of a tag said after its mark end. */
function wordsEnd(text: string, covered: Uint8Array, from: number): number {
  const limit = Math.min(text.length, from + LONGEST);
  let at = from;
  for (; at < limit && !covered[at]; at++) {
    // 、 joins two tags; elsewhere punctuation ends them.
    if (text[at] === '、' && at > from && !covered[at + 1] && !isPunctuation(text[at + 1])) continue;
    if (isPunctuation(text[at]) || END.test(text.slice(at, at + 4))) break;
  }
  if (at >= text.length || !covered[at]) return at;
  // 标签出差吃饭二十: an amount follows, so the item it is paid for begins at its item word.
  const item = matchCategoryWord(text.slice(from + 1, at));
  return item ? from + 1 + item.start : at;
}

/** 打上出差标签: the tag before the noun, after a verb that stands within reach. */
function before(text: string, covered: Uint8Array, mark: RegExpExecArray): TagMention | null {
  const at = mark.index;
  const from = Math.max(0, at - VERB_WINDOW);
  let verb: RegExpExecArray | null = null;
  VERB.lastIndex = from;
  for (let m = VERB.exec(text); m !== null && m.index < at; m = VERB.exec(text)) verb = m;
  if (verb === null) return null;
  const start = verb.index + verb[0].length;
  for (let i = start; i < at; i++) if (covered[i] || isPunctuation(text[i])) return null;
  const tags = tagsOf(text.slice(start, at));
  return tags.length > 0 ? { start: verb.index, end: at + mark[0].length, tags } : null;
}

/**
 * Every tag mention in normalized text, in order. `claimed` are what other extractors found
 * (amounts, dates): no tag's words.
 */
export function findTags(text: string, claimed: readonly Span[]): TagMention[] {
  if (!text.includes('#') && !TAG_NOUNS.some((w) => text.includes(w))) return [];
  const covered = coverage(text.length, claimed);
  const found: TagMention[] = [];
  MARK.lastIndex = 0;
  for (let m = MARK.exec(text); m !== null; m = MARK.exec(text)) {
    if (covered[m.index] || (found.at(-1)?.end ?? 0) > m.index) continue;
    const noun = m[0] !== '#';
    const told = noun ? before(text, covered, m) : null;
    if (told) {
      found.push(told);
      continue;
    }
    let from = m.index + m[0].length;
    if (noun) from += NAMING.exec(text.slice(from, from + 1))?.[0].length ?? 0;
    const end = wordsEnd(text, covered, from);
    const tags = tagsOf(text.slice(from, end));
    if (tags.length > 0) found.push({ start: m.index, end, tags });
  }
  return found;
}

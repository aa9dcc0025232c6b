// Tags said with an entry: 打车三十五标签出差 → 出差, 标签是出差, 打上出差标签, #出差, and several
// at once (标签出差和报销 → 出差, 报销). Said aloud, a tag is also what an entry is filed under:
// 标记育儿, 算作团建, 记到团建里, 算在新房上, 算新房的. A tag's words run to the end of the clause;
// when an amount comes right after them, the next item's words (吃饭 of 标签出差吃饭二十) end the tag.
// What is filed into may be no tag: a category (记到餐饮里) keeps its words for the category, a
// day or an account (记到微信里) is no tag, and its filing words are still no words of the item.
import { PRESET_CATEGORIES } from '@shared/categories';
import { matchCategoryWord } from '../categories/index';
import { ACCOUNTS } from './lexicon/accounts';
import { ADDING_CONNECTIVES, SEQUENCE_CONNECTIVES } from './lexicon/fillers';
import { REIMBURSERS } from './lexicon/money-flows';
import {
  AFTER_TAG,
  APPRAISALS,
  DEGREE_WORDS,
  FILED_NOUNS,
  FILING_CLOSERS,
  FILING_VERBS,
  NOT_FILED_START,
  NOT_FILING_BEFORE,
  NOT_TAG_AFTER,
  NOT_TAG_ENDINGS,
  PRONOUNS,
  TAG_AS,
  TAG_JOINERS,
  TAG_NAMING,
  TAG_NOUNS,
  TAG_VERBS,
  THE_BOOK,
} from './lexicon/tags';
import { anyOf } from './lexicon/words';
import { coverage, isPunctuation, type Span } from './normalize';

export interface TagMention extends Span {
  /** Empty when what was filed into is no tag (记到微信里, 记到昨天): only the words are claimed. */
  tags: string[];
}

/** The most characters the words of a tag mention run after its mark (出差和报销 and a few more). */
const LONGEST = 16;
/** How far before 标签 its verb may stand (打上出差和报销的标签). */
const VERB_WINDOW = 18;
/** The most characters between 算 and 的 in 算新房的. */
const LONGEST_COUNTED = 8;

// c#课程: a # glued to Latin letters or digits is part of a name. Where two marks start at the same
// place the longer goes first (算作 and 算到 before 算).
const MARK = new RegExp(
  [
    `(?<hash>(?<![a-z0-9])#)`,
    `(?<noun>${anyOf(TAG_NOUNS)})(?!${anyOf(NOT_TAG_AFTER)})`,
    `(?<as>${anyOf(TAG_AS)})`,
    `(?<file>${anyOf(FILING_VERBS)})`,
    `(?<!${anyOf(NOT_FILING_BEFORE)})(?<count>算)`,
  ].join('|'),
  'g',
);
/** Characters one of the marks holds: text without any of them has no tag. */
const KEYS = ['#', '标', '记', '算', '计', '归', '划'];
const NAMING = new RegExp(`^${anyOf(TAG_NAMING)}`);
const VERB = new RegExp(anyOf(TAG_VERBS), 'g');
// What ends a tag's words besides punctuation and claimed spans: another mark, a connective.
const END = new RegExp(`^(?:#|${anyOf(TAG_NOUNS)}|${anyOf(ADDING_CONNECTIVES)}|${anyOf(SEQUENCE_CONNECTIVES)})`);
const JOINER = new RegExp(anyOf(TAG_JOINERS), 'g');
const PARTICLES = new RegExp(`${anyOf(AFTER_TAG)}+$`);
// 记到团建里去了吧: what may follow a filing before its clause ends.
const TRAILING = new RegExp(`^(?:去|来)?(?:${anyOf(AFTER_TAG.filter((w) => w !== '的'))})*`);
const CLOSER = new RegExp(`^${anyOf(FILING_CLOSERS)}`);
const FILED_NOUN = new RegExp(`^${anyOf(FILED_NOUNS)}`);
const NOUN_AT_END = new RegExp(`${anyOf(TAG_NOUNS)}$`);
const NOT_TAG_END = new RegExp(`${anyOf(NOT_TAG_ENDINGS)}$`);
const DEGREE = new RegExp(`^${anyOf(DEGREE_WORDS)}`);
const NOT_FILED = new Set(NOT_FILED_START);
const WHOSE = new RegExp(`^${anyOf(PRONOUNS)}`);
const APPRAISAL = new Set(APPRAISALS);
const PAYERS = new Set(REIMBURSERS);
const CATEGORY_NAMES = new Set(PRESET_CATEGORIES.map((c) => c.name));
const BOOK = new Set(THE_BOOK);

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

/** 标签出差, #出差, 算作团建: the tag's words after the mark. Only a filing (算作) may name a category or an account. */
function after(text: string, covered: Uint8Array, mark: RegExpExecArray, named: boolean): TagMention | null {
  let from = mark.index + mark[0].length;
  if (named) from += NAMING.exec(text.slice(from, from + 2))?.[0].length ?? 0;
  const end = wordsEnd(text, covered, from);
  if (!named && mark[0] !== '#') return filedUnder(mark.index, end, text.slice(from, end));
  const tags = tagsOf(text.slice(from, end));
  return tags.length > 0 ? { start: mark.index, end, tags } : null;
}

/**
 * The mention of what an entry is filed under, or null when its words name a category or whose
 * it is (记到我的账上): those words are left to what reads them.
 */
function filedUnder(start: number, end: number, words: string): TagMention | null {
  const name = words.replace(NOUN_AT_END, '');
  if (CATEGORY_NAMES.has(name) || NOT_TAG_END.test(name) || WHOSE.test(name)) return null;
  if (ACCOUNTS[name] !== undefined || BOOK.has(name)) return { start, end, tags: [] };
  const tags = tagsOf(name);
  return tags.length > 0 ? { start, end, tags } : null;
}

/**
 * Where a filing's clause ends when it ends at `at` (after 去了吧 and the like), else null. A
 * clause also ends where the words of the next priced item begin (算纪念日的打车二十).
 */
function clauseEnd(text: string, covered: Uint8Array, at: number): number | null {
  const end = at + TRAILING.exec(text.slice(at, at + 4))![0].length;
  if (end >= text.length || covered[end] || isPunctuation(text[end]) || END.test(text.slice(end, end + 4))) return end;
  let next = end;
  while (next < text.length && !covered[next] && !isPunctuation(text[next])) next++;
  return covered[next] && matchCategoryWord(text.slice(end, next))?.start === 0 ? end : null;
}

/** 记到团建里, 计入团建: the words up to a closing word that ends the clause. */
function filed(text: string, covered: Uint8Array, mark: RegExpExecArray): TagMention | null {
  const from = mark.index + mark[0].length;
  // 记到昨天, 记到微信里: a claimed span is filed into, and the filing words are no item's words.
  let k = from;
  while (k < text.length && covered[k]) k++;
  if (k > from) {
    const end = clauseEnd(text, covered, k + (CLOSER.exec(text.slice(k, k + 2))?.[0].length ?? 0));
    return end === null ? null : { start: mark.index, end, tags: [] };
  }
  const limit = Math.min(text.length, from + LONGEST);
  for (k = from + 1; k < limit && !covered[k - 1] && !isPunctuation(text[k - 1]); k++) {
    const closer = CLOSER.exec(text.slice(k, k + 2));
    const end = closer ? clauseEnd(text, covered, k + closer[0].length) : null;
    if (end !== null) return filedUnder(mark.index, end, text.slice(from, k));
  }
  return mark[0].endsWith('入') ? after(text, covered, mark, false) : null;
}

/**
 * 算新房的: what the entry counts as, unless it is counting (算了), whose treat (算我的, 算我们请的),
 * who pays it back (算公司的) or an appraisal (算便宜的).
 */
function countedAs(text: string, covered: Uint8Array, mark: RegExpExecArray): TagMention | null {
  const from = mark.index + mark[0].length;
  if (NOT_FILED.has(text[from] ?? '')) return null;
  const of = text.indexOf('的', from + 1);
  if (of < 0 || of - from > LONGEST_COUNTED) return null;
  for (let i = from; i < of; i++) if (covered[i] || isPunctuation(text[i])) return null;
  const words = text.slice(from, of);
  if (PAYERS.has(words) || APPRAISAL.has(words.replace(DEGREE, ''))) return null;
  const at = of + 1 + (FILED_NOUN.exec(text.slice(of + 1, of + 3))?.[0].length ?? 0);
  const end = clauseEnd(text, covered, at);
  return end === null ? null : filedUnder(mark.index, end, words);
}

function mentionAt(text: string, covered: Uint8Array, m: RegExpExecArray): TagMention | null {
  const g = m.groups!;
  if (g.noun) return before(text, covered, m) ?? after(text, covered, m, true);
  if (g.file) return filed(text, covered, m);
  if (g.count) return countedAs(text, covered, m);
  return after(text, covered, m, false);
}

/**
 * Every tag mention in normalized text, in order. `claimed` are what other extractors found
 * (amounts, dates, the account): no tag's words.
 */
export function findTags(text: string, claimed: readonly Span[]): TagMention[] {
  if (!KEYS.some((k) => text.includes(k))) return [];
  const covered = coverage(text.length, claimed);
  const found: TagMention[] = [];
  MARK.lastIndex = 0;
  for (let m = MARK.exec(text); m !== null; m = MARK.exec(text)) {
    if (covered[m.index] || (found.at(-1)?.end ?? 0) > m.index) continue;
    const mention = mentionAt(text, covered, m);
    if (mention) found.push(mention);
  }
  return found;
}

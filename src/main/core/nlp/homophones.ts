// A speech recognizer writes a word it knows badly as another of the same sound: 支付包 or 支付保
// for 支付宝, 威信 or 微性 for 微信, 外买 for 外卖. Spans of the text are matched against the words
// the parser knows — account names (built-in and the book's own), category words and names (the
// user's own too) — by toneless pinyin (pinyin-pro), with the sounds recognizers and speakers
// confuse taken as one: z/zh, c/ch, s/sh, n/l, in/ing, en/eng, an/ang. A character of the text
// counts with its common reading (了 is le, not the liao of 资料); a known word with any of its
// readings. A span is replaced by the word it sounds like, which has its length, so every span
// found later stays where it is. Only where the word fits, as a look-alike must not change:
// - words of two characters or more, of which the recognizer got one right (a span that shares
//   no character is another word that merely sounds alike), and no numeral changed;
// - an account only where the account patterns make it the payer (威信付的, not 很有威信);
// - a category word only where its stretch of the sentence (between punctuation and numerals)
//   names no category itself — unless that word is made of the misheard characters and the next
//   (点外买花了 is no 买花) — where no word of jieba's dictionary holds a character of the span
//   (花费 is a word, no 话费; so is the 工资 of 月工资), and where it changes no name (小李).
import { cut } from 'jieba-wasm';
import { polyphonic } from 'pinyin-pro';
import { CATEGORY_KEYWORDS, matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAccounts } from './accounts';
import { ACCOUNTS } from './lexicon/accounts';
import { NAME_PREFIXES } from './lexicon/money-flows';
import { isAsciiDigit, isPunctuation, maskSpans, sortInPlace, type Span } from './normalize';
import { parseNumeral } from './numbers';

/** What the book adds to the built-in words: its account names and the user's categories. */
export interface Vocabulary {
  accounts?: readonly string[];
  customCategories?: readonly CategoryRef[];
}

type Kind = 'account' | 'category';

interface Known {
  word: string;
  kind: Kind;
}

/** A trie over the fuzzy syllables (as numbers) of the known words. */
interface Node {
  next: Map<number, Node>;
  words: Known[];
}

interface Trie {
  root: Node;
  /** The first two syllables of every word, as pair(a, b): most places of a text stop at this test. */
  starts: Set<number>;
  /** The first syllables, by id: most places stop here before the pair is hashed. */
  firsts: Uint8Array;
  /** The words as written, by their first character's code. */
  written: Map<number, string[]>;
}

// Each fuzzy syllable gets a small number, so two characters' sounds make one number.
const syllableIds = new Map<string, number>();
const PAIR_BASE = 4096;

function pair(a: number, b: number): number {
  return a * PAIR_BASE + b;
}

function syllableId(syllable: string): number {
  let id = syllableIds.get(syllable);
  if (id === undefined) syllableIds.set(syllable, (id = syllableIds.size));
  return id;
}

const NONE: readonly number[] = [];

// The Han characters of the basic block: 一 (U+4E00) to U+9FFF.
const HAN_FIRST = 0x4e00;
const HAN_LAST = 0x9fff;
const UNKNOWN = -2;
// Each character's fuzzy syllables, filled as characters are met, so a parse costs array and Map
// lookups, not pinyin-pro calls: the common reading by character code (what the text says),
// and every reading of a polyphone (what a known word may be said as).
const heardIds = new Int16Array(HAN_LAST - HAN_FIRST + 1).fill(UNKNOWN);
const readings = new Map<number, readonly number[]>();

function isHan(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code >= HAN_FIRST && code <= HAN_LAST;
}

/** One key for the sounds a recognizer confuses: zh → z, n → l, ing → in, eng → en, ang → an. */
export function fuzzySyllable(syllable: string): string {
  return syllable
    .replace(/^([zcs])h/, '$1')
    .replace(/^n(?!g?$)/, 'l')
    .replace(/([aei])ng$/, '$1n');
}

const PINYIN = /^[a-zü]+$/;

/** Reads the Han characters of `text` not yet known, in one pinyin-pro call. */
function learn(text: string): void {
  let unknown: Set<number> | null = null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= HAN_FIRST && code <= HAN_LAST && heardIds[code - HAN_FIRST] === UNKNOWN) (unknown ??= new Set()).add(code);
  }
  if (unknown === null) return;
  const codes = [...unknown];
  const read = polyphonic(String.fromCharCode(...codes), { toneType: 'none', type: 'array' });
  codes.forEach((code, i) => {
    const ids = [...new Set((read[i] ?? []).filter((r) => PINYIN.test(r)).map((r) => syllableId(fuzzySyllable(r))))];
    readings.set(code, ids);
    heardIds[code - HAN_FIRST] = ids[0] ?? -1;
  });
}

/** Every reading: a known word may be said with any of them (银行 is yin hang). */
function readingsOf(ch: string): readonly number[] {
  if (!isHan(ch)) return NONE;
  learn(ch);
  return readings.get(ch.charCodeAt(0)) ?? NONE;
}

/** The common reading only: what the recognizer heard when it wrote 了 was le, not liao; -1 for no Han. */
function heardAs(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (!(code >= HAN_FIRST && code <= HAN_LAST)) return -1;
  const id = heardIds[code - HAN_FIRST]!;
  if (id !== UNKNOWN) return id;
  learn(text[at]!);
  return heardIds[code - HAN_FIRST]!;
}

function newNode(): Node {
  return { next: new Map(), words: [] };
}

function buildTrie(words: readonly Known[]): Trie {
  learn(words.map((w) => w.word).join(''));
  const trie: Trie = { root: newNode(), starts: new Set(), firsts: new Uint8Array(PAIR_BASE), written: new Map() };
  for (const known of words) {
    const first = known.word.charCodeAt(0);
    trie.written.set(first, [...(trie.written.get(first) ?? []), known.word]);
    for (const a of readingsOf(known.word[0]!)) {
      trie.firsts[a] = 1;
      for (const b of readingsOf(known.word[1]!)) trie.starts.add(pair(a, b));
    }
    let level = [trie.root];
    for (const ch of known.word) {
      const next: Node[] = [];
      for (const node of level) {
        for (const id of readingsOf(ch)) {
          let child = node.next.get(id);
          if (!child) node.next.set(id, (child = newNode()));
          if (!next.includes(child)) next.push(child);
        }
      }
      level = next;
    }
    for (const node of level) node.words.push(known);
  }
  return trie;
}

/** Single characters never count: too many sound alike. */
function hearable(word: string): boolean {
  return word.length >= 2 && [...word].every(isHan);
}

let builtIn: Trie | null = null;

/** Built on first use: reading the words takes pinyin-pro some milliseconds, once. */
function builtInTrie(): Trie {
  if (builtIn) return builtIn;
  const words: Known[] = Object.keys(ACCOUNTS)
    .filter(hearable)
    .map((word) => ({ word, kind: 'account' as const }));
  const seen = new Set<string>();
  for (const { word } of CATEGORY_KEYWORDS) {
    if (hearable(word) && !seen.has(word)) words.push({ word, kind: 'category' });
    seen.add(word);
  }
  return (builtIn = buildTrie(words));
}

// The book's words change rarely: the trie of the last ones is kept.
let own: { key: string; trie: Trie | null } | null = null;

function ownTrie({ accounts = [], customCategories = [] }: Vocabulary): Trie | null {
  if (accounts.length === 0 && customCategories.length === 0) return null;
  const key = `${accounts.join('\u0000')}\u0001${customCategories.map((c) => c.name).join('\u0000')}`;
  if (own?.key === key) return own.trie;
  const words: Known[] = [
    ...accounts.filter(hearable).map((word) => ({ word, kind: 'account' as const })),
    ...customCategories
      .map((c) => c.name)
      .filter(hearable)
      .map((word) => ({ word, kind: 'category' as const })),
  ];
  own = { key, trie: words.length > 0 ? buildTrie(words) : null };
  return own.trie;
}

interface Hit {
  end: number;
  known: Known;
}

/** The known words of `trie` that sound like the text from `start`, added to `hits`. */
function soundsAt(text: string, start: number, trie: Trie, hits: Hit[]): void {
  // The text is read by one sound a character, so it walks a single path of the trie.
  let node = trie.root.next.get(heardAs(text, start));
  for (let j = start + 1; j < text.length && node !== undefined; j++) {
    node = node.next.get(heardAs(text, j));
    if (node !== undefined) for (const known of node.words) hits.push({ end: j + 1, known });
  }
}

/** The recognizer got one character right, and changed no numeral (十 is no 食). */
function misheard(span: string, word: string): boolean {
  let same = false;
  for (let k = 0; k < span.length; k++) {
    if (span[k] === word[k]) same = true;
    else if (isNumeral(span[k]!)) return false;
  }
  return same;
}

function isNumeral(ch: string): boolean {
  return isAsciiDigit(ch) || parseNumeral(ch) !== null;
}

/** The stretch of the sentence a span stands in: between punctuation and numerals. */
function stretchOf(text: string, start: number, end: number): Span {
  let from = start;
  while (from > 0 && !isBoundary(text[from - 1]!)) from--;
  let to = end;
  while (to < text.length && !isBoundary(text[to]!)) to++;
  return { start: from, end: to };
}

function isBoundary(ch: string): boolean {
  return isPunctuation(ch) || isNumeral(ch);
}

/**
 * The stretch names no category of its own, or only one made partly of the span's characters and
 * the next (点外买花了: 买花). The payer's name (用信用卡) is no category word here.
 */
function noCategoryBesides(text: string, span: Span, stretch: Span, vocabulary: Vocabulary): boolean {
  const payers = findAccounts(text, vocabulary.accounts).map((a) => ({ start: a.start - stretch.start, end: a.end - stretch.start }));
  const literal = matchCategoryWord(maskSpans(text.slice(stretch.start, stretch.end), payers, '，'), vocabulary.customCategories);
  if (!literal) return true;
  const start = stretch.start + literal.start;
  const end = start + literal.keyword.length;
  const overlaps = start < span.end && end > span.start;
  const inside = start >= span.start && end <= span.end;
  const around = start <= span.start && end >= span.end;
  return overlaps && !inside && !around;
}

/**
 * No word of jieba's dictionary holds a character of the span: 外买 cuts into 外 / 买, while 花费
 * is a word (no 话费) and so are the 工资 of 月工资 and the 纸巾 of 包纸巾.
 */
function strayCharacters(text: string, span: Span, stretch: Span): boolean {
  let at = stretch.start;
  for (const token of cut(text.slice(stretch.start, stretch.end), false)) {
    const end = at + token.length;
    if (token.length > 1 && at < span.end && end > span.start) return false;
    at = end;
  }
  return true;
}

const NAME_PREFIX = new Set(NAME_PREFIXES);

/** A changed character is the given name after 小/老/阿 (还小李钱 is no 礼钱). */
function changesName(text: string, span: Span, word: string): boolean {
  for (let k = span.start; k < span.end; k++) {
    if (text[k] !== word[k - span.start] && NAME_PREFIX.has(text[k - 1] ?? '')) return true;
  }
  return false;
}

// How far from a span its checks look: the words that make a name the payer (用的, 付的, 从…扣的)
// and a category word of the same clause stand this close, and a long text costs no more per span.
const REACH = 8;

function fits(text: string, start: number, { end, known }: Hit, vocabulary: Vocabulary): boolean {
  if (!misheard(text.slice(start, end), known.word)) return false;
  const from = Math.max(0, start - REACH);
  const near = text.slice(from, Math.min(text.length, end + REACH));
  const span = { start: start - from, end: end - from };
  if (known.kind === 'account') {
    const heard = near.slice(0, span.start) + known.word + near.slice(span.end);
    return findAccounts(heard, vocabulary.accounts).some((a) => a.name.start === span.start && a.name.end === span.end);
  }
  if (changesName(near, span, known.word)) return false;
  const stretch = stretchOf(near, span.start, span.end);
  return noCategoryBesides(near, span, stretch, vocabulary) && strayCharacters(near, span, stretch);
}

function startsWord(tries: readonly Trie[], here: number, after: number): boolean {
  for (const trie of tries) if (trie.firsts[here] === 1 && trie.starts.has(pair(here, after))) return true;
  return false;
}

/**
 * Builds the sound tables and loads jieba's dictionary now (about a second, once a process), so
 * the first utterance that needs them does not wait: the app calls it once it is idle.
 */
export function prepareHomophones(): void {
  builtInTrie();
  cut('外卖', false);
}

/**
 * A known word written at `at`. It also sounds like itself (every character's common reading is
 * one of its readings), so it is among the words heard there and makes the place no mishearing:
 * the common case is settled before the sounds are walked.
 */
function writtenAt(tries: readonly Trie[], text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  for (const trie of tries) {
    const bucket = trie.written.get(code);
    if (bucket) for (const word of bucket) if (text.startsWith(word, at)) return true;
  }
  return false;
}

function saidAsItself(text: string, at: number): boolean {
  for (const h of hits) if (h.end - at === h.known.word.length && text.startsWith(h.known.word, at)) return true;
  return false;
}

// Reused by every position and call: most positions that start a known word find it said as itself.
const hits: Hit[] = [];

/** The text with each misheard account or category word replaced by the word it sounds like. */
export function hearHomophones(text: string, vocabulary: Vocabulary = {}): string {
  if (text.length < 2) return text;
  learn(text);
  const tries = [ownTrie(vocabulary), builtInTrie()].filter((t) => t !== null);
  let heard = text;
  let after = heardAs(heard, 0);
  for (let i = 0; i < heard.length - 1; i++) {
    const here = after;
    after = heardAs(heard, i + 1);
    if (here < 0 || after < 0 || !startsWord(tries, here, after) || writtenAt(tries, heard, i)) continue;
    hits.length = 0;
    for (const trie of tries) soundsAt(heard, i, trie, hits);
    // Longest first; a word said as itself here is no mishearing of another.
    sortInPlace(hits, (h) => -h.end);
    if (hits.length === 0 || saidAsItself(heard, i)) continue;
    const hit = hits.find((h) => fits(heard, i, h, vocabulary));
    if (!hit) continue;
    heard = heard.slice(0, i) + hit.known.word + heard.slice(hit.end);
    i = hit.end - 1;
    after = heardAs(heard, i + 1);
  }
  return heard;
}

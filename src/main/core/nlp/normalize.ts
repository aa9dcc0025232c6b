// Speech and typed text arrive with full-width digits, mixed punctuation and stray spaces.
// Every extractor works on one canonical form so positions line up between them.

const FULL_WIDTH_OFFSET = 0xfee0;

// Chinese punctuation stays full-width. It is left out of the classes below, so a sentence of
// Chinese with commas needs no work at all.
const KEEP_FULL_WIDTH = '，；：！？（）';
const CHANGED_FULL_WIDTH = fullWidthClassWithout(KEEP_FULL_WIDTH);
// Everything normalizeText may change; text without any of it is returned as is.
const NEEDS_WORK = new RegExp(`[${CHANGED_FULL_WIDTH}\\u3000A-Z\\s\\ufeff]`);
const WORK = new RegExp(`[${CHANGED_FULL_WIDTH}\\u3000\\s\\ufeff]+|[A-Z]+`, 'g');

/** A character class body of the full-width ASCII forms (U+FF01–FF5E) but the kept ones. */
function fullWidthClassWithout(kept: string): string {
  const codes = new Set([...kept].map((c) => c.charCodeAt(0)));
  let body = '';
  for (let code = 0xff01; code <= 0xff5e; code++) if (!codes.has(code)) body += `\\u${code.toString(16)}`;
  return body;
}

/** Full-width ASCII → half-width, lower-case Latin, whitespace removed (kept as a separator between digits). */
export function normalizeText(input: string): string {
  if (!NEEDS_WORK.test(input)) return input;
  return input.replace(WORK, (run, offset: number) => {
    const first = run.charCodeAt(0);
    if (first >= 0x41 && first <= 0x5a) return run.toLowerCase();
    let out = '';
    let space = false;
    for (const ch of run) {
      const code = ch.codePointAt(0)!;
      if (code >= 0xff01 && code <= 0xff5e) {
        const half = String.fromCodePoint(code - FULL_WIDTH_OFFSET);
        out += half >= 'A' && half <= 'Z' ? half.toLowerCase() : half;
      } else space = true;
    }
    // A space between two digits separates two numbers (1 000 is not read as 1000).
    if (space && out === '' && isAsciiDigit(input[offset - 1]) && isAsciiDigit(input[offset + run.length])) return '，';
    return out;
  });
}

export function isAsciiDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

export function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

/** isAsciiLetter by character code (NaN past either end is no letter). */
export function isAsciiLetterCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

// A table by character code: every extractor asks this of most characters it reads.
const PUNCTUATION = new Uint8Array(0x10000);
for (const ch of ',.;:!?，。、；：！？…—-~～·()（）[]【】「」『』"\'“”‘’《》<>/\\|') PUNCTUATION[ch.charCodeAt(0)] = 1;

export function isPunctuation(ch: string | undefined): boolean {
  return ch !== undefined && ch.length === 1 && PUNCTUATION[ch.charCodeAt(0)] === 1;
}

/** isPunctuation by character code: reading text[i] makes a string of each CJK character. */
export function isPunctuationCode(code: number): boolean {
  return PUNCTUATION[code] === 1;
}

/** A half-open [start, end) range of the normalized text claimed by one extractor. */
export interface Span {
  start: number;
  end: number;
}

/** Marks the characters covered by spans, so overlap tests stay linear on long input. */
export function coverage(length: number, spans: readonly Span[]): Uint8Array {
  const covered = new Uint8Array(length);
  // A plain loop: TypedArray fill costs more to call than these few characters cost to set.
  for (const s of spans) for (let i = Math.max(0, s.start), end = Math.min(length, s.end); i < end; i++) covered[i] = 1;
  return covered;
}

/**
 * coverage() in one buffer that every fill reuses (a typed array costs more to make than to
 * fill): for one owner whose look is over before its next fill. Read it only below `length`.
 */
export class CoverageBuffer {
  private buffer = new Uint8Array(256);

  fill(length: number, spans: readonly Span[]): Uint8Array {
    if (this.buffer.length < length) this.buffer = new Uint8Array(length * 2);
    else for (let i = 0; i < length; i++) this.buffer[i] = 0;
    const covered = this.buffer;
    for (const s of spans) for (let i = Math.max(0, s.start), end = Math.min(length, s.end); i < end; i++) covered[i] = 1;
    return covered;
  }
}

export function isCovered(covered: Uint8Array, span: Span): boolean {
  for (let i = span.start; i < span.end; i++) if (covered[i]) return true;
  return false;
}

/** The text with the given spans cut out. */
export function cutSpans(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  const sorted = inPosition(spans);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start > at) out += text.slice(at, s.start);
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

/** The text with every character of the spans replaced by `mask`, so positions stay put. */
export function maskSpans(text: string, spans: readonly Span[], mask: string): string {
  if (spans.length === 0) return text;
  // Whole runs are copied: one slice per run, not one string per character.
  const sorted = inPosition(spans);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    const start = Math.max(at, s.start);
    const end = Math.min(text.length, s.end);
    if (end <= start) continue;
    out += text.slice(at, start) + mask.repeat(end - start);
    at = end;
  }
  return at === 0 ? text : out + text.slice(at);
}

// Spans mostly come in order: sorting a copy on every call was the parse's largest allocation.
function inOrder(spans: readonly Span[]): boolean {
  for (let i = 1; i < spans.length; i++) if (spans[i - 1]!.start > spans[i]!.start) return false;
  return true;
}

/**
 * Sorts a short list in place by `key`, stably. The lists of one utterance hold a few dozen
 * entries at most, and Array.prototype.sort allocates a work array on every call.
 */
export function sortInPlace<T>(list: T[], key: (item: T) => number): T[] {
  for (let i = 1; i < list.length; i++) {
    const item = list[i]!;
    const k = key(item);
    let j = i - 1;
    for (; j >= 0 && key(list[j]!) > k; j--) list[j + 1] = list[j]!;
    list[j + 1] = item;
  }
  return list;
}

const startOf = (s: Span): number => s.start;

/** The spans by position: the same list when already in order, else a sorted copy. */
export function inPosition(spans: readonly Span[]): readonly Span[] {
  return inOrder(spans) ? spans : sortInPlace([...spans], startOf);
}

// Speech and typed text arrive with full-width digits, mixed punctuation and stray spaces.
// Every extractor works on one canonical form so positions line up between them.

const FULL_WIDTH_OFFSET = 0xfee0;

/** Full-width ASCII → half-width, lower-case Latin, whitespace removed (kept as a separator between digits). */
export function normalizeText(input: string): string {
  let out = '';
  let pendingSpace = false;
  for (const ch of input) {
    const code = ch.codePointAt(0)!;
    let c = ch;
    if (code >= 0xff01 && code <= 0xff5e && !'，；：！？（）'.includes(ch)) c = String.fromCodePoint(code - FULL_WIDTH_OFFSET);
    else if (ch === '\u3000') c = ' ';
    if (isSpace(c)) {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && out.length > 0 && isAsciiDigit(out[out.length - 1]!) && isAsciiDigit(c)) out += '，';
    pendingSpace = false;
    out += c >= 'A' && c <= 'Z' ? c.toLowerCase() : c;
  }
  return out;
}

const SPACES = new Set([...' \t\n\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff']);

function isSpace(ch: string): boolean {
  return SPACES.has(ch);
}

export function isAsciiDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

export function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

const PUNCTUATION = new Set([...',.;:!?，。、；：！？…—-~～·()（）[]【】「」『』"\'“”‘’《》<>/\\|']);

export function isPunctuation(ch: string | undefined): boolean {
  return ch !== undefined && PUNCTUATION.has(ch);
}

/** A half-open [start, end) range of the normalized text claimed by one extractor. */
export interface Span {
  start: number;
  end: number;
}

/** Marks the characters covered by spans, so overlap tests stay linear on long input. */
export function coverage(length: number, spans: readonly Span[]): Uint8Array {
  const covered = new Uint8Array(length);
  for (const s of spans) covered.fill(1, Math.max(0, s.start), Math.min(length, s.end));
  return covered;
}

export function isCovered(covered: Uint8Array, span: Span): boolean {
  for (let i = span.start; i < span.end; i++) if (covered[i]) return true;
  return false;
}

/** The text with the given spans cut out. */
export function cutSpans(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start > at) out += text.slice(at, s.start);
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

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
    if (/\s/.test(c)) {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && out.length > 0 && isAsciiDigit(out[out.length - 1]!) && isAsciiDigit(c)) out += '，';
    pendingSpace = false;
    out += c >= 'A' && c <= 'Z' ? c.toLowerCase() : c;
  }
  return out;
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

export function overlaps(a: Span, spans: readonly Span[]): boolean {
  return spans.some((s) => a.start < s.end && s.start < a.end);
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

// The words of an item without amount, date and filler: 昨天打车花了28块5 → 打车.
import { FILLERS_ANYWHERE, FILLERS_LEADING, FILLERS_TRAILING, LONE_LEFTOVERS } from './lexicon/fillers';
import { cutSpans, isAsciiDigit, isPunctuation, type Span } from './normalize';

// Longest first, so 支付了 goes before 付了 would leave 支.
const LEADING = [...FILLERS_LEADING].sort((a, b) => b.length - a.length);
const TRAILING = [...FILLERS_TRAILING].sort((a, b) => b.length - a.length);
const LONE = new Set(LONE_LEFTOVERS);

function stripEdges(text: string, trailing = true): string {
  let s = text;
  for (let changed = true; changed && s.length > 0;) {
    changed = false;
    for (const w of LEADING) {
      if (s.startsWith(w) && s.length > w.length) {
        s = s.slice(w.length);
        changed = true;
      }
    }
    if (!trailing) continue;
    for (const w of TRAILING) {
      // A one-character particle stays when it is half of a two-character word (打的).
      if (s.endsWith(w) && s.length > w.length && (w.length > 1 || s.length > 2)) {
        s = s.slice(0, -w.length);
        changed = true;
      }
    }
  }
  return s;
}

// 交了两千五的房租 → 交了的房租 once the amount is cut: the paying verb belongs to the amount.
const PAID_OF = /^[交付花充缴给买]了的(?=.)/;

export function describe(text: string, claimed: readonly Span[]): string {
  // Edge words go first so a filler never fuses with the item (帮我记一下午饭 is not 下午).
  let s = stripEdges(cutSpans(text, claimed), false).replace(PAID_OF, '');
  for (const w of FILLERS_ANYWHERE) if (s.includes(w)) s = s.split(w).join('');
  // Keep the words, drop punctuation and symbols left between them.
  // A point between digits (1.5斤) is part of a number, not punctuation.
  let words = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const decimal = ch === '.' && isAsciiDigit(s[i - 1]) && isAsciiDigit(s[i + 1]);
    if (decimal || (!isPunctuation(ch) && ch !== '¥' && ch !== '￥' && ch !== '$')) words += ch;
  }
  const out = stripEdges(words);
  return LONE.has(out) ? '' : out;
}

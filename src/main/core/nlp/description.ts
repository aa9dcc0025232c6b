// The words of an item without amount, date and filler: 昨天打车花了28块5 → 打车. A note keeps the
// thing, not the talk: the words of its money's flow (借给小李, 退了, 可以报销, 报销到账) and which
// entry is meant (那笔) are left out too, as are the rule, tags, account and corrections that
// other extractors claim.
import { FILLERS_ANYWHERE, FILLERS_LEADING, FILLERS_TRAILING, LONE_LEFTOVERS } from './lexicon/fillers';
import { ADVANCED_FOR, NOT_REIMBURSABLE, REFUND_TRAILING, REIMBURSABLE, REIMBURSED, REIMBURSEMENT_NOUNS, REIMBURSERS } from './lexicon/money-flows';
import {
  ADVANCE_VERBS,
  DEBT_WORDS,
  ENTRY_REFERENCES,
  LATER,
  REFUND_ADVERBS,
  REFUND_WORDS,
  REFUNDERS,
  REIMBURSED_VERBS,
  REIMBURSER_MARKS,
} from './lexicon/notes';
import { anyOf } from './lexicon/words';
import { MASK, type MoneyFlowReading } from './money-flow';
import { cutSpans, isPunctuationCode, type Span } from './normalize';
import { hasStart, startTable } from './starts';

/** Words by the code of the character they start (or end) with, longest first, so 支付了 goes before 付了. */
function byEdge(list: readonly string[], edge: (w: string) => number): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const w of [...list].sort((a, b) => b.length - a.length)) {
    const bucket = map.get(edge(w)) ?? [];
    bucket.push(w);
    map.set(edge(w), bucket);
  }
  return map;
}

// By character code: s[0] would make a new string of a CJK character on every look.
const LEADING = byEdge(FILLERS_LEADING, (w) => w.charCodeAt(0));
const TRAILING = byEdge(FILLERS_TRAILING, (w) => w.charCodeAt(w.length - 1));
// Most notes start and end with no filler's edge: a table settles them before the Map is asked.
const LEADING_STARTS = startTable(FILLERS_LEADING.map((w) => w[0]!));
const TRAILING_ENDS = startTable(FILLERS_TRAILING.map((w) => w.at(-1)!));
const LONE = new Set(LONE_LEFTOVERS);
const LONE_LONGEST = Math.max(...LONE_LEFTOVERS.map((w) => w.length));
// One pass for the words cut wherever they stand; the list's order decides at each position.
const ANYWHERE = new RegExp(anyOf(FILLERS_ANYWHERE), 'g');
const ANYWHERE_STARTS = startTable(FILLERS_ANYWHERE.map((w) => w[0]!));

// Edge words are looked up by the edge character: the lists are read only where one can match.
function leadingWord(s: string): string | null {
  const code = s.charCodeAt(0);
  const bucket = LEADING_STARTS[code] === 1 ? LEADING.get(code) : undefined;
  if (bucket) for (const w of bucket) if (s.length > w.length && s.startsWith(w)) return w;
  return null;
}

// A one-character particle stays when it is half of a two-character word (打的).
function trailingWord(s: string): string | null {
  const code = s.charCodeAt(s.length - 1);
  const bucket = TRAILING_ENDS[code] === 1 ? TRAILING.get(code) : undefined;
  if (bucket) for (const w of bucket) if (s.length > w.length && (w.length > 1 || s.length > 2) && s.endsWith(w)) return w;
  return null;
}

function stripEdges(text: string, trailing = true): string {
  let s = text;
  for (let changed = true; changed && s.length > 0;) {
    changed = false;
    const lead = leadingWord(s);
    if (lead) {
      s = s.slice(lead.length);
      changed = true;
    }
    if (!trailing || s.length === 0) continue;
    const tail = trailingWord(s);
    if (tail) {
      s = s.slice(0, -tail.length);
      changed = true;
    }
  }
  return s;
}

// 交了两千五的房租 → 交了的房租 once the amount is cut: the paying verb belongs to the amount.
const PAID_OF = /^[交付花充缴给买]了的(?=.)/;
const LE = '了'.charCodeAt(0);
const REFERENCE = new RegExp(anyOf(ENTRY_REFERENCES), 'g');
// 抢红包抢了八十八, 打车打了三十: the verb said again before the amount is the amount's.
function verbAgain(words: string): boolean {
  const first = words.charCodeAt(0);
  return words.length >= 3 && first >= 0x4e00 && first <= 0x9fff && words.charCodeAt(words.length - 1) === first;
}

const DOT = 0x2e;
const YEN = 0xa5;
const FULL_YEN = 0xffe5;
const DOLLAR = 0x24;

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

export function describe(text: string, claimed: readonly Span[]): string {
  // Edge words go first so a filler never fuses with the item (帮我记一下午饭 is not 下午).
  let s = stripEdges(cutSpans(text, claimed), false);
  if (s.charCodeAt(1) === LE) s = s.replace(PAID_OF, '');
  if (hasStart(s, ANYWHERE_STARTS)) s = s.replace(ANYWHERE, '');
  if (s.includes('笔')) s = s.replace(REFERENCE, '');
  // Keep the words, drop punctuation and symbols left between them.
  // A point between digits (1.5斤) is part of a number, not punctuation.
  // Runs of kept characters are copied whole: most notes drop nothing here.
  let words = '';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const decimal = code === DOT && isDigitCode(s.charCodeAt(i - 1)) && isDigitCode(s.charCodeAt(i + 1));
    if (decimal || (!isPunctuationCode(code) && code !== YEN && code !== FULL_YEN && code !== DOLLAR)) continue;
    words += s.slice(run, i);
    run = i + 1;
  }
  const out = stripEdges(run === 0 ? s : words + s.slice(run));
  // No hash is taken of a note longer than every lone leftover.
  if (out.length <= LONE_LONGEST && LONE.has(out)) return '';
  return verbAgain(out) ? out.slice(0, -1) : out;
}

// 退烧药退了: a bare 退 is the refund's only where its words end, not inside a thing.
const REFUND_TALK = new RegExp(
  `(?:${anyOf(REFUNDERS)})?(?:${anyOf(REFUND_ADVERBS)})*(?:${anyOf(REFUND_WORDS)}|退(?=${MASK}|$))(?:${anyOf(REFUND_TRAILING)})?`,
  'g',
);
const REIMBURSED_TALK = new RegExp(
  `${anyOf(REIMBURSERS)}${anyOf(REIMBURSER_MARKS)}|${anyOf(REIMBURSED)}|${anyOf(REIMBURSED_VERBS)}|${anyOf(REFUND_TRAILING)}`,
  'g',
);
// 回头找公司报销, 不能报销, 帮公司垫付了: whether, when and why an expense is paid back (报销单 is a thing).
const REIMBURSABLE_TALK = new RegExp(
  [
    `(?:${anyOf(LATER)})?(?!${anyOf(REIMBURSEMENT_NOUNS)})(?:${anyOf(NOT_REIMBURSABLE)}|${anyOf(REIMBURSABLE)}|报销)`,
    `${anyOf(ADVANCED_FOR)}${anyOf(REIMBURSERS)}${anyOf(ADVANCE_VERBS)}`,
  ].join('|'),
  'g',
);
const DEBT_TALK = new RegExp(anyOf(DEBT_WORDS), 'g');
const DEBTS = new Set(['lend', 'borrow', 'repay', 'collect']);

function spansOf(re: RegExp, text: string, into: Span[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) into.push({ start: m.index, end: m.index + m[0].length });
}

/**
 * The words of an item's money flow in `masked` (the item's text with what is no word of it
 * masked, as money-flow.ts reads it): no words of its note. A debt keeps only what the money
 * was for (借给小李五百交学费 → 交学费): the person is the counterparty.
 */
export function flowTalk(masked: string, reading: MoneyFlowReading): Span[] {
  const talk: Span[] = [];
  // A reading without a flow says whether the expense is paid back (可以报销, 不能报销).
  if (reading.flow === null) spansOf(REIMBURSABLE_TALK, masked, talk);
  if (reading.flow === 'refund') spansOf(REFUND_TALK, masked, talk);
  if (reading.flow === 'reimbursement') spansOf(REIMBURSED_TALK, masked, talk);
  if (reading.flow !== null && DEBTS.has(reading.flow)) {
    const person = reading.counterparty ?? '';
    for (let at = person ? masked.indexOf(person) : -1; at >= 0; at = masked.indexOf(person, at + 1))
      talk.push({ start: at, end: at + person.length });
    spansOf(DEBT_TALK, masked, talk);
  }
  return talk;
}

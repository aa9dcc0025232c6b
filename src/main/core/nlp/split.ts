// One utterance → its items, in the order spoken: 吃饭花了60，打车30 → 吃饭 60, 打车 30.
//
// The spans of the whole text are read once (parse.ts readSpans). The text is then cut into
// pieces at separators (punctuation, connectives such as 还有/然后, list numbers) and, where ASR
// wrote no punctuation, right after each paid amount (加油二百五洗车二十五). Each piece holds at
// most one paid amount (paid-amounts.ts has dropped ranges, amounts taken back and totals of the
// items before). Pieces without an amount then join a neighbour: a date or filler joins the next
// piece, a bare amount (花了30) the words before it; words without an amount (打车) are an item
// of their own only after 还有/另外, between two items, last after 然后/再 (打车二十三然后坐地铁:
// what was done next, its amount not said), before an amount said for each
// (午饭和晚饭都是35) or with 也是 (晚饭也是: the amount before), else context of a neighbour.
// A day said once holds for the items after it. When one item is left, the answer is exactly
// today's single parse (parse.ts firstItem).
import type { ZonedNow } from '@shared/time';
import type { CategoryRef } from '../categories/index';
import type { AccountMention } from './accounts';
import type { AmountMention } from './amounts';
import { firstDate, type DateMention } from './dates';
import { describe } from './description';
import { PAYING_VERBS } from './lexicon/amounts';
import {
  ADDING_CONNECTIVES,
  AFTER_AMOUNT,
  ALL_ITEMS,
  ALSO_BEFORE,
  EACH_AMOUNT,
  FILLERS_LEADING,
  FILLERS_TRAILING,
  HESITATIONS,
  JOINERS_AFTER_AMOUNT,
  PART_JOINERS,
  SAME_AMOUNT,
  SEQUENCE_CONNECTIVES,
} from './lexicon/fillers';
import { anyOf } from './lexicon/words';
import { CoverageBuffer, sortInPlace, type Span } from './normalize';
import { reimbursableMarkAt } from './money-flow';
import { paidAmounts, type PaidAmounts } from './paid-amounts';
import type { TagMention } from './tags';
import { objectEnd } from './verb-object';
import { buildItem, firstItem, readItem, readSpans, withPayingVerb, type ParsedItem, type UtteranceSpans } from './parse';

export interface SplitUtterance {
  items: ParsedItem[];
  /** More than `max` items were said; `items` holds the first `max`. */
  truncated: boolean;
}

/** What opens a piece, weakest first. Words without an amount after a strong one are an item. */
const LEAD = { start: 0, cut: 1, part: 2, punct: 2, sequence: 3, adding: 4, numbering: 4 } as const;
type Lead = keyof typeof LEAD;
const STRONG = LEAD.adding;

interface Piece {
  start: number;
  end: number;
  lead: Lead;
  amount: AmountMention | null;
  words: boolean;
  /** 晚饭也是: the amount of the item before. */
  same: boolean;
  /** 周二也一样: the item before again, on another day. */
  copy: boolean;
  /** 都是昨天: a day and 都 only, said of every item. */
  forAll: boolean;
  /** 午饭和晚饭都是35: words without an amount that take the amount said after them. */
  shares: AmountMention | null;
  /** Words without an amount that were found to be an item. */
  item: boolean;
}

// ASCII . separates only where it is no decimal point (1.5 is inside a number span anyway).
// Captures by number (1 punctuation, 2 adding, 3 sequence): a break is found at every comma, and
// named groups would build an object for each.
const BREAK = new RegExp(`([，,。；;！!？?、…]|\\.(?!\\d))|(${anyOf(ADDING_CONNECTIVES)})|(${anyOf(SEQUENCE_CONNECTIVES)})`, 'g');
const PARTICLES = new Set(AFTER_AMOUNT);
const JOINER = new RegExp(`^(?:${anyOf(JOINERS_AFTER_AMOUNT)}|还(?=${anyOf(ALSO_BEFORE)}))`);
const SAME_AT_END = new RegExp(`(${anyOf(SAME_AMOUNT)})[的啊吧了呀呢]*[，,。；;！!？?、…]*$`);
const SAME_BEFORE_AMOUNT = new RegExp(`(${anyOf(SAME_AMOUNT)})${anyOf(PAYING_VERBS)}?$`);
const ALL_MARK = new RegExp(anyOf(ALL_ITEMS));

interface Claims {
  spans: Span[];
  covered: Uint8Array;
}

function claim(claims: Claims, span: Span): void {
  claims.spans.push(span);
  for (let i = span.start; i < span.end; i++) claims.covered[i] = 1;
}

/** The piece's characters that no extractor claimed. */
function unclaimed(text: string, covered: Uint8Array, start: number, end: number): string {
  // Runs are copied whole: one slice per run, not one string per character.
  let out = '';
  let run = start;
  for (let i = start; i < end; i++) {
    if (!covered[i]) continue;
    if (i > run) out += text.slice(run, i);
    run = i + 1;
  }
  return run === start ? text.slice(start, end) : out + text.slice(run, end);
}

function sameMention(a: readonly AmountMention[], b: readonly AmountMention[]): boolean {
  return a.length === b.length && a.every((m, i) => m.start === b[i]!.start && m.end === b[i]!.end);
}

interface Break {
  at: number;
  lead: Lead;
}

const atOf = (b: Break): number => b.at;

/** Separators that stand outside every claimed span; connectives are claimed as no item's words. */
function findBreaks(text: string, claims: Claims, numbers: readonly Span[]): Break[] {
  const breaks: Break[] = numbers.map((n) => ({ at: n.start, lead: 'numbering' as const }));
  BREAK.lastIndex = 0;
  for (let m = BREAK.exec(text); m !== null; m = BREAK.exec(text)) {
    const end = m.index + m[0].length;
    if (claims.covered[m.index] || claims.covered[end - 1]) continue;
    const lead: Lead = m[1] ? 'punct' : m[2] ? 'adding' : 'sequence';
    if (lead !== 'punct') claim(claims, { start: m.index, end });
    breaks.push({ at: m.index, lead });
  }
  return sortInPlace(breaks, atOf);
}

const EACH_BEFORE = new RegExp(`${anyOf(EACH_AMOUNT)}(?:${anyOf(PAYING_VERBS)})?$`);
const PART_JOINER = new RegExp(anyOf(PART_JOINERS), 'g');

/**
 * 午饭和晚饭都是35: amounts said once for each of several items, and the joiners between those
 * items, which separate them like a comma.
 */
function findEachAmounts(text: string, paid: readonly AmountMention[], breaks: Break[], claims: Claims): Set<AmountMention> {
  const each = new Set<AmountMention>();
  const parts: Break[] = [];
  for (let i = 0; i < paid.length; i++) {
    const a = paid[i]!;
    const marker = EACH_BEFORE.exec(text.slice(Math.max(0, a.start - 5), a.start));
    if (!marker) continue;
    each.add(a);
    const markerStart = a.start - marker[0].length;
    claim(claims, { start: markerStart, end: a.start });
    // The items sharing it stand after the last separator and the amount before.
    const from = Math.max(breaks[firstFrom(breaks, a.start, (b) => b.at) - 1]?.at ?? 0, paid[i - 1]?.end ?? 0);
    PART_JOINER.lastIndex = from;
    for (let m = PART_JOINER.exec(text); m !== null && m.index < markerStart; m = PART_JOINER.exec(text)) {
      if (claims.covered[m.index]) continue;
      claim(claims, { start: m.index, end: m.index + m[0].length });
      parts.push({ at: m.index, lead: 'part' });
    }
  }
  if (parts.length > 0) breaks.push(...parts);
  sortInPlace(breaks, atOf);
  return each;
}

/** Where one item ends and the next begins when no separator stands between their amounts. */
function cutAfter(
  text: string,
  amount: AmountMention,
  limit: number,
  claims: Claims,
  tags: readonly TagMention[],
  accounts: readonly AccountMention[],
): number {
  // 加了两百的油洗车三十: the object of the verb before the amount comes after it.
  let at = Math.min(limit, objectEnd(text, amount) ?? amount.end);
  while (at < limit && PARTICLES.has(text[at]!)) at++;
  // 打车八十可以报销吃饭三十, 打车八十标签出差吃饭三十: whether it is paid back and its tags are
  // said after the amount they are said of.
  at = Math.min(limit, at + reimbursableMarkAt(text, at));
  const tag = tags.find((t) => t.start === at);
  if (tag) at = Math.min(limit, tag.end);
  // 午饭三十用的微信打车二十刷的信用卡: an account told after its item belongs to it.
  const account = accounts.find((a) => a.after && a.start === at);
  if (account) at = Math.min(limit, account.end);
  const joiner = JOINER.exec(text.slice(at, Math.min(limit, at + 2)));
  if (joiner) claim(claims, { start: at, end: at + joiner[0].length });
  return at;
}

// 呃, 那个: a filler said on its own is left whole by describe, which only strips it off words.
const FILLER_ONLY = new Set([...FILLERS_LEADING, ...FILLERS_TRAILING, ...HESITATIONS]);
const LONGEST_FILLER = Math.max(...[...FILLER_ONLY].map((w) => w.length));

/**
 * 花了30打车花了20吃饭, 一百零八块的外卖三十块的奶茶: items said amount first. When the item has no
 * words before its amount and the next amount also comes first (after its paying verb, or before
 * 的), the words between belong to the item before: the cut goes before the next amount's verb.
 */
function amountFirst(text: string, a: AmountMention, next: AmountMention, itemStart: number, claims: Claims): number | null {
  if (hasWords(text, claims, itemStart, a.start)) return null;
  const verb = withPayingVerb(text, next).start;
  if (verb === next.start && text[next.end] !== '的') return null;
  return verb > a.end && hasWords(text, claims, a.end, verb) ? verb : null;
}

function hasWords(text: string, claims: Claims, start: number, end: number): boolean {
  const words = describe(unclaimed(text, claims.covered, start, end), []);
  return words !== '' && (words.length > LONGEST_FILLER || !FILLER_ONLY.has(words));
}

/**
 * Cuts with no separator: between two paid amounts, and after the last one when the words after
 * it take its amount again (午饭35晚饭也是).
 */
function findCuts(
  text: string,
  paid: readonly AmountMention[],
  { dates, tags, accounts }: Pick<UtteranceSpans, 'dates' | 'tags' | 'accounts'>,
  breaks: readonly Break[],
  claims: Claims,
): Break[] {
  const cuts: Break[] = [];
  let b = 0;
  for (let i = 0; i < paid.length; i++) {
    const a = paid[i]!;
    while (b < breaks.length && breaks[b]!.at < a.end) b++;
    const nextBreak = b < breaks.length ? breaks[b]!.at : text.length;
    const next = paid[i + 1];
    if (next && next.start <= nextBreak) {
      const itemStart = Math.max(cuts.at(-1)?.at ?? 0, breaks[b - 1]?.at ?? 0);
      cuts.push({ at: amountFirst(text, a, next, itemStart, claims) ?? cutAfter(text, a, next.start, claims, tags, accounts), lead: 'cut' });
      continue;
    }
    const tail = text.slice(a.end, nextBreak);
    const same = SAME_AT_END.exec(tail);
    if (same) {
      const at = cutAfter(text, a, nextBreak, claims, tags, accounts);
      if (hasWords(text, claims, at, nextBreak - same[0].length)) cuts.push({ at, lead: 'cut' });
    } else if (ALL_MARK.test(tail) && hasDate(dates, a.end, nextBreak)) {
      // 午饭35晚饭40都是昨天: the day after the last amount is said of every item.
      cuts.push({ at: cutAfter(text, a, nextBreak, claims, tags, accounts), lead: 'cut' });
    }
  }
  return cuts;
}

/** Index of the first item whose position is at or after `at` (items in order of position). */
function firstFrom<T>(list: readonly T[], at: number, position: (item: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (position(list[mid]!) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hasDate(dates: readonly DateMention[], start: number, end: number): boolean {
  const d = dates[firstFrom(dates, start, (x) => x.start)];
  return d !== undefined && d.end <= end;
}

/** The pieces between bounds `from` … `to` − 1 (piece k ends at bound k; the last at the text end). */
function toPieces(
  text: string,
  bounds: readonly Break[],
  paid: readonly AmountMention[],
  dates: readonly DateMention[],
  claims: Claims,
  from: number,
  to: number,
): Piece[] {
  const pieces: Piece[] = [];
  for (let k = from; k < to; k++) {
    const start = k === 0 ? 0 : bounds[k - 1]!.at;
    const end = k < bounds.length ? bounds[k]!.at : text.length;
    if (end <= start) continue;
    const lead: Lead = k === 0 ? 'start' : bounds[k - 1]!.lead;
    const next = paid[firstFrom(paid, start, (x) => x.start)];
    const amount = next !== undefined && next.start < end ? next : null;
    let same = false;
    let forAll = false;
    if (amount === null) {
      const m = SAME_AT_END.exec(text.slice(start, end));
      if (m) {
        same = true;
        claim(claims, { start: start + m.index, end: start + m.index + m[1]!.length });
      }
      const all = ALL_MARK.exec(text.slice(start, end));
      if (all && hasDate(dates, start, end)) {
        forAll = true;
        claim(claims, { start: start + all.index, end: start + all.index + all[0].length });
      }
    }
    const words = hasWords(text, claims, start, end);
    const copy = same && !words && hasDate(dates, start, end);
    pieces.push({ start, end, lead, amount, words, same, copy, forAll, shares: null, item: false });
  }
  return pieces;
}

function absorb(into: Piece, from: Piece): void {
  into.start = Math.min(into.start, from.start);
  into.end = Math.max(into.end, from.end);
  if (LEAD[from.lead] > LEAD[into.lead] && from.start <= into.start) into.lead = from.lead;
}

/** Joins the pieces that are no item of their own to a neighbour; what is left are the items. */
function joinPieces(
  pieces: Piece[],
  lastPaid: number,
  totals: ReadonlySet<AmountMention>,
  each: ReadonlySet<AmountMention>,
  text: string,
  customCategories: readonly CategoryRef[],
): Piece[] {
  // A date, filler or number list mark alone opens the next piece (昨天，打车30).
  const list: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (p.amount === null && !p.words && !p.copy) {
      const next = pieces[i + 1];
      if (next) absorb(next, p);
      else if (list.length > 0) absorb(list.at(-1)!, p);
      else list.push(p);
    } else list.push(p);
  }
  // A bare amount (花了30) belongs to the words before it (打车，花了30), else the words after it.
  const joined: Piece[] = [];
  for (let i = 0; i < list.length; i++) {
    const p = list[i]!;
    const prev = joined.at(-1);
    const next = list[i + 1];
    if (p.amount !== null && !p.words) {
      if (prev && prev.amount === null && !prev.same && LEAD[p.lead] < STRONG) {
        absorb(prev, p);
        prev.amount = p.amount;
        continue;
      }
      if (next && next.amount === null && !next.same && LEAD[next.lead] < STRONG) {
        absorb(p, next);
        p.words = true;
        i++;
      }
    }
    joined.push(p);
  }
  // 午饭、晚饭和夜宵都是35: each of the words before an amount said for each takes it.
  for (let i = joined.length - 2; i >= 0; i--) {
    const next = joined[i + 1]!;
    if (joined[i]!.amount === null) joined[i]!.shares = next.amount && each.has(next.amount) ? next.amount : next.shares;
  }
  // Words without an amount: an item after 还有/另外, between two items, last after 然后/再 (打车
  // 二十三然后坐地铁), sharing an amount said for each, or taking the amount before (晚饭也是);
  // else they join a neighbour.
  const items: Piece[] = [];
  for (let i = 0; i < joined.length; i++) {
    const p = joined[i]!;
    if (p.amount !== null) {
      items.push(p);
      continue;
    }
    const prev = items.at(-1);
    const next = joined[i + 1];
    const named = () => readItem(text.slice(p.start, p.end), customCategories).category !== null;
    const strong = LEAD[p.lead] >= STRONG || (next !== undefined && LEAD[next.lead] >= STRONG);
    const between = prev !== undefined && p.end <= lastPaid;
    const last = next === undefined && prev?.amount != null && LEAD[p.lead] >= LEAD.sequence;
    // 打车还有吃饭一共花了八十: a total right after the words is their amount too.
    const totalled = next?.amount != null && totals.has(next.amount);
    if ((p.same && prev?.amount) || ((strong || between || last || p.shares) && !totalled && named())) {
      p.item = true;
      items.push(p);
    } else if (prev) absorb(prev, p);
    else if (next) absorb(next, p);
    else items.push(p);
  }
  return items;
}

// Pieces looked at first: enough for ten items with fillers and dates between them. Only when
// they hold fewer items are the rest looked at too, so a long utterance costs what ten items do.
const FIRST_LOOK = 64;

/** The pieces that are items, in order; more than `max` only when more were said. */
function itemPieces(
  text: string,
  bounds: readonly Break[],
  { paid, totals, each }: Pick<PaidAmounts, 'paid' | 'totals'> & { each: ReadonlySet<AmountMention> },
  dates: readonly DateMention[],
  claims: Claims,
  customCategories: readonly CategoryRef[],
  max: number,
): Piece[] {
  // Without an amount, only words after 还有/另外 (or a list number) can be items of their own.
  if (paid.length === 0 && !bounds.some((b) => LEAD[b.lead] >= STRONG)) return [];
  const lastPaid = paid.at(-1)?.start ?? -1;
  const count = bounds.length + 1;
  const join = (to: number) => joinPieces(toPieces(text, bounds, paid, dates, claims, 0, to), lastPaid, totals, each, text, customCategories);
  if (count > FIRST_LOOK) {
    const first = join(FIRST_LOOK);
    // Items before the last one found are settled: later pieces only ever join the last one.
    if (first.length > max + 1) return first.slice(0, -1);
  }
  return join(count);
}

// One utterance is split at a time, start to end: its claim marks reuse one buffer.
const COVERED = new CoverageBuffer();

/** Every claim of the utterance: what is no item's words, wherever it stands. */
function baseClaims(spans: UtteranceSpans, mentioned: readonly AmountMention[], extra: readonly Span[], accounts: readonly AccountMention[]): Claims {
  const all: Span[] = [...spans.claimed, ...mentioned, ...extra, ...accounts];
  return { spans: all, covered: COVERED.fill(spans.text.length, all) };
}

export function splitUtterance(
  rawText: string,
  now: ZonedNow,
  customCategories: readonly CategoryRef[],
  max: number,
  accountNames: readonly string[] = [],
): SplitUtterance {
  const spans = readSpans(rawText, now, { customCategories, accounts: accountNames }, true);
  const { text, numbers, mentioned, amounts } = spans;
  const spoken = paidAmounts(text, amounts);
  const { paid, notItems } = spoken;
  const { accounts } = spans;
  const claims = baseClaims(spans, mentioned, [...numbers, ...notItems, ...paid.map((a) => withPayingVerb(text, a))], accounts);

  const breaks = findBreaks(text, claims, numbers);
  const each = findEachAmounts(text, paid, breaks, claims);
  const cuts = findCuts(text, paid, spans, breaks, claims);
  const bounds = cuts.length === 0 ? breaks : sortInPlace([...breaks, ...cuts], atOf);
  const pieces = itemPieces(text, bounds, { paid, totals: spoken.totals, each }, spans.dates, claims, customCategories, max);

  if (pieces.length <= 1) {
    // One item: today's single parse, unless amounts it would have read were found to be no items.
    if (sameMention(paid, spans.amounts)) {
      const { item } = firstItem(spans, customCategories);
      return { items: item ? [item] : [], truncated: false };
    }
    const draft = {
      start: 0,
      end: text.length,
      amount: paid[0] ?? null,
      claimed: claims.spans,
      account: spans.account,
      date: firstDate(spans.dates),
      recurrences: spans.recurrences,
      tags: spans.tags,
    };
    const item = buildItem(text, draft, customCategories);
    return { items: item ? [item] : [], truncated: false };
  }
  const last = toPieces(text, bounds, paid, spans.dates, claims, bounds.length, bounds.length + 1)[0];
  const forAll = last ? dateForAll(last, spans.dates) : null;
  return buildItems(text, pieces, spans, claims, accounts, forAll, customCategories, max);
}

function buildItems(
  text: string,
  pieces: readonly Piece[],
  spans: UtteranceSpans,
  claims: Claims,
  accounts: readonly AccountMention[],
  forAll: string | null,
  customCategories: readonly CategoryRef[],
  max: number,
): SplitUtterance {
  for (const p of pieces) {
    // 晚饭也是三十: the 也是 is no word of the item.
    if (p.amount === null) continue;
    const same = SAME_BEFORE_AMOUNT.exec(text.slice(Math.max(p.start, p.amount.start - 8), p.amount.start));
    if (same) claims.spans.push({ start: p.amount.start - same[0].length, end: p.amount.start - same[0].length + same[1]!.length });
  }
  const items: ParsedItem[] = [];
  let carried: string | null = null;
  let d = 0;
  for (const p of pieces) {
    // A day said once holds for the items after it, until another day is said.
    while (d < spans.dates.length && spans.dates[d]!.start < p.start) d++;
    const own = [];
    for (let k = d; k < spans.dates.length && spans.dates[k]!.start < p.end; k++) own.push(spans.dates[k]!);
    const date: string | null = own.length > 0 ? firstDate(own) : (forAll ?? carried);
    // 每月五号交房租然后打车二十: the day of a rule is no day of the items after it.
    if (own.some((m) => !spans.recurrences.some((r) => m.start >= r.start && m.end <= r.end))) carried = date;
    const account = accounts.find((a) => a.start >= p.start && a.end <= p.end) ?? null;
    const prev = items.at(-1);
    const item = p.copy
      ? prev
        ? Object.assign({}, prev, { date })
        : null
      : buildItem(
          text,
          { start: p.start, end: p.end, amount: p.amount, claimed: claims.spans, account, date, recurrences: spans.recurrences, tags: spans.tags },
          customCategories,
        );
    if (!item) continue;
    if (p.same && p.amount === null) item.amount = prev?.amount ?? null;
    if (p.shares && p.amount === null && !p.shares.negative) item.amount = p.shares.value;
    if (items.length === max) return { items, truncated: true };
    items.push(item);
  }
  return { items, truncated: false };
}

/** 午饭35，晚饭40，都是昨天: a last piece of a day and 都 alone names the day of every item. */
function dateForAll(last: Piece, dates: readonly DateMention[]): string | null {
  if (!last.forAll || last.words) return null;
  return firstDate(dates.filter((d) => d.start >= last.start && d.end <= last.end));
}

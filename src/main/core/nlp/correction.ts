// Offline fallback of /api/v1/llm/correct-transaction: the same answer shape from local rules.
// Targets by ordinal (第三笔), by item words (外卖那笔), by scope (都改成), or the only item;
// fields: amount, set or moved by a difference (都加10块, 多算了3块), type (是X不是Y), category, date,
// description; 还有一笔… appends.
import {
  MAX_BATCH_ITEMS,
  type BatchItem,
  type CorrectionItem,
  type CorrectionResult,
  type TransactionType,
  type UpdatedFields,
} from '@shared/domain';
import type { ZonedNow } from '@shared/time';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAmounts, moneyMentions, unsigned } from './amounts';
import { findDates, firstDate } from './dates';
import { describe } from './description';
import { classifyIntent } from './intent';
import { COUNT_MEASURES } from './lexicon/amounts';
import {
  ALL_ITEMS,
  AMBIGUOUS_PAYMENT_VERBS,
  AMOUNT_ADD_VERBS,
  AMOUNT_SUBTRACT_VERBS,
  APPEND_COUNTS,
  APPEND_LEAD,
  APPEND_VERBS,
  CHANGE_VERBS,
  CHANGE_WORDS,
  CLAUSE_FIELDS,
  CLAUSE_JOINERS,
  CLAUSE_VERBS,
  DESCRIPTION_FIELDS,
  ESTIMATE_WORDS,
  FIELD_NAMES_IN_REFERENCE,
  FIELD_WORDS,
  MISCOUNT_VERBS,
  MONEY_BACK,
  NEGATIONS,
  NO_WORDS,
  ONE_ITEM,
  ORDINAL_JOINERS,
  PRICE_DOWN,
  PRICE_UP,
  RAISE_VERBS,
  REFERENCE_JOINERS,
  REFERENCE_LEADING_FILLERS,
  REFERENCE_SUFFIXES,
  REFERENCE_TRAILING_FILLERS,
  SHI_CONJUNCTIONS,
  SHORT_APPEND_VERBS,
  SPENDING_VERBS,
} from './lexicon/corrections';
import { TYPE_NAMES } from './lexicon/transaction-types';
import { anyOf } from './lexicon/words';
import { normalizeText, type Span } from './normalize';
import { findOrdinals, ordinalIndex, type OrdinalMention } from './ordinals';
import { parseNumeral } from './numbers';
import { parseUtterance } from './parse';
import { readTypeWords } from './transaction-type';

export interface CorrectionOptions {
  now: ZonedNow;
  customCategories?: CategoryRef[];
}

const UNCLEAR: CorrectionResult = { intent: 'unclear', corrections: [], confidence: 0 };

// A spoken correction is one short sentence (an utterance is at most some seconds of speech);
// text far longer is no correction these rules can resolve, and reading it costs milliseconds.
const MAX_CORRECTION_CHARS = 500;

// 补/加 alone start words too (补牙, 加油), so they need a count after them.
const APPEND_VERB = `(?<verb>${anyOf(APPEND_VERBS)})(?<count>${anyOf(APPEND_COUNTS)})?`;
const SHORT_APPEND_VERB = `${anyOf(SHORT_APPEND_VERBS)}(?<must>${anyOf(ONE_ITEM)})`;
const APPEND_PREFIX = new RegExp(`^${anyOf(APPEND_LEAD)}*(?:${APPEND_VERB}|${SHORT_APPEND_VERB})(?:是)?`);
const RAISES = new Set(RAISE_VERBS);

const CHANGE_VERB = new RegExp(`(?<=${anyOf(DESCRIPTION_FIELDS)})(?:写|叫|填)(?:成|为|作)?|改名(?:叫|为|成)?|${anyOf(CHANGE_VERBS)}`, 'g');

const CLASS_SUFFIX = /类(?:别|的)?$/;

// Left over from 改一下 / 改成这样吧: no description.
const NOTHING_SAID = new RegExp(`^${anyOf(NO_WORDS)}+$`);

type FieldHint = keyof typeof FIELD_WORDS | null;

const HINTS = Object.entries(FIELD_WORDS).map(([hint, list]) => [new RegExp(anyOf(list)), hint as FieldHint] as const);

const SCOPE_ALL = new RegExp(anyOf(ALL_ITEMS));
// 前两笔 / 后三笔 / 中间两笔: the first, last or middle N items.
const SCOPE_EDGE = new RegExp(`(?<side>前|后|最后|中间的?)(?<n>[一二两三四五六七八九十]|\\d{1,2})${anyOf(COUNT_MEASURES)}`);
const REF_JOINER = new RegExp(anyOf(REFERENCE_JOINERS));
const REF_SUFFIX = new RegExp(`(?:的)?${anyOf(REFERENCE_SUFFIXES)}$`);
const FILLER_EDGE = new RegExp(`^${anyOf(REFERENCE_LEADING_FILLERS)}+|${anyOf(REFERENCE_TRAILING_FILLERS)}+$`, 'g');

interface Verb {
  start: number;
  end: number;
}

const CONJUNCTION_BEFORE_SHI = new Set(SHI_CONJUNCTIONS);

/** The first change verb that is not the 是 of 不是. */
function findVerb(text: string): Verb | null {
  CHANGE_VERB.lastIndex = 0;
  for (let m = CHANGE_VERB.exec(text); m !== null; m = CHANGE_VERB.exec(text)) {
    if ((m[0] === '是' || m[0] === '为') && text[m.index - 1] === '不') continue;
    // 就是, 但是, 还是 …: a conjunction, not 'it is'.
    if (m[0] === '是' && CONJUNCTION_BEFORE_SHI.has(text[m.index - 1] ?? '')) continue;
    if (m[0] === '为' && text[m.index - 1] === '因') continue;
    return { start: m.index, end: m.index + m[0].length };
  }
  return null;
}

function isNegatedAt(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 2), at);
  return NEGATIONS.some((word) => before.endsWith(word));
}

/** The type the words assert: 收入不是支出 → INCOME; only 不是收入 → the other of the current. */
function readType(text: string, current: TransactionType | null): TransactionType | null {
  const positive = new Set<TransactionType>();
  const negative = new Set<TransactionType>();
  for (const { word, type } of TYPE_NAMES) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
      (isNegatedAt(text, at) ? negative : positive).add(type);
    }
  }
  if (positive.size === 1) return [...positive][0]!;
  if (positive.size === 0 && negative.size === 1) {
    const denied = [...negative][0]!;
    if (denied === current && denied !== 'TRANSFER') return denied === 'INCOME' ? 'EXPENSE' : 'INCOME';
  }
  return null;
}

/**
 * What the words right before an amount make of it: 'set' the new amount (改成35), add it (+1:
 * 加10块, 少算了3块, 贵了3块) or take it off (-1: 减5块, 多记了10, 便宜了5块), or 'unclear' when
 * a speaker may mean either way (多付了5块). The choices, in this order:
 * - 记多了 / 记贵了 / 多记了 / 多算了 / 多收了 / 多扣了 / 多加了: the card counted too much (−);
 *   少… the same: too little (+). 多算了 is 'charged too much' or 'recorded too much' alike (−).
 * - 多花了 / 少花了: the speaker spent more / less than the card says (+ / −).
 * - 多付了 / 多给了 / 多交了 (and 少…): 'paid more than the card says' (+) or 'overpaid' (−): unclear.
 * - 多了10 / 少了10 after the item: the card is too high / too low (− / +), as 多记了.
 * - 贵了3块 / 涨了 (+), 便宜了5块 / 优惠了 / 降了 / 退了5块 / 返现 (−): what it really cost,
 *   against the card.
 * - 加 / 加上 / 再加 / 多加 (add … extra: +, where 多加了 is too much added: −), 减 / 扣掉 (−); the
 *   longer verbs may have the thing added between them and the amount (加上运费8块, 加个运费8块),
 *   加 alone may not (加油200, 加运费8块 set the amount).
 * - 多 / 少 right before the amount: that much more / less (都多10块, 每一笔少5块); 差不多四十 and
 *   至少30 only estimate, so those words are cut first.
 * - 加到50 / 减到30 name the new amount: 'set'.
 */
type AmountChange = 'set' | 'unclear' | 1 | -1;

// A few words before the amount, cut at the last punctuation: 贵了，30 sets 30.
const CHANGE_WINDOW = 8;
const UP_TO_LAST_BREAK = /^.*[,，;；。、!！?？]/s;
const HAN_WORDS = '[\\u4e00-\\u9fff]{0,4}';
const MISCOUNT = anyOf(MISCOUNT_VERBS);
const longer = (list: readonly string[]) => anyOf(list.filter((w) => w.length > 1));
const shorter = (list: readonly string[]) => anyOf(list.filter((w) => w.length === 1));
const TRAILING_ESTIMATE = new RegExp(`${anyOf(ESTIMATE_WORDS)}$`);

const AMOUNT_CHANGES: readonly (readonly [RegExp, AmountChange])[] = [
  [new RegExp(`${MISCOUNT}(?:多了|${anyOf(PRICE_UP)})$`), -1],
  [new RegExp(`${MISCOUNT}(?:少了|${anyOf(PRICE_DOWN)})$`), 1],
  [new RegExp(`多(?:${MISCOUNT}了?|加了)$`), -1],
  [new RegExp(`少(?:${MISCOUNT}|加)了?$`), 1],
  [new RegExp(`多${anyOf(SPENDING_VERBS)}了?$`), 1],
  [new RegExp(`少${anyOf(SPENDING_VERBS)}了?$`), -1],
  [new RegExp(`[多少]${anyOf(AMBIGUOUS_PAYMENT_VERBS)}了?$`), 'unclear'],
  [/多了$/, -1],
  [/少了$/, 1],
  [new RegExp(`${anyOf(PRICE_UP)}$`), 1],
  [new RegExp(`${anyOf(PRICE_DOWN)}$`), -1],
  [new RegExp(`${anyOf(MONEY_BACK)}$`), -1],
  [new RegExp(`(?:${longer(AMOUNT_ADD_VERBS)}${HAN_WORDS}|${shorter(AMOUNT_ADD_VERBS)})$`), 1],
  [new RegExp(`(?:${longer(AMOUNT_SUBTRACT_VERBS)}${HAN_WORDS}|${shorter(AMOUNT_SUBTRACT_VERBS)})$`), -1],
  [/多$/, 1],
  [/少$/, -1],
];

function amountChange(text: string, at: number): AmountChange {
  const before = text
    .slice(Math.max(0, at - CHANGE_WINDOW), at)
    .replace(UP_TO_LAST_BREAK, '')
    .replace(TRAILING_ESTIMATE, '');
  return AMOUNT_CHANGES.find(([pattern]) => pattern.test(before))?.[1] ?? 'set';
}

/** Whether the first amount of a clause changes the item's amount by a difference. */
function changesByDifference(clause: string): boolean {
  const amount = unsigned(moneyMentions(findAmounts(clause)))[0];
  return amount !== undefined && amountChange(clause, amount.start) !== 'set';
}

/** The item's amount moved by `sign` × `by`, to the fen; null when nothing to move or not above 0. */
function shiftAmount(current: number | null, sign: 1 | -1, by: number): number | null {
  if (current === null) return null;
  const next = Math.round((current + sign * by) * 100) / 100;
  return next > 0 ? next : null;
}

function hintOf(text: string): FieldHint {
  for (const [pattern, hint] of HINTS) if (pattern.test(text)) return hint;
  return null;
}

function stripTypeWords(text: string): string {
  let s = text;
  for (const { word } of TYPE_NAMES) s = s.split(word).join('');
  return s.replace(/不是|而不是/g, '');
}

// 金额改成85，日期改成昨天: a clause that opens with another field's name is its own change.
const FIELD_NAME = anyOf(CLAUSE_FIELDS);
const NEXT_FIELD_CLAUSE = new RegExp(
  `[,，;；、]+${anyOf(CLAUSE_JOINERS)}?(?=${FIELD_NAME})|(?<=.)${anyOf(CLAUSE_JOINERS)}?(?=${FIELD_NAME}${anyOf(CLAUSE_VERBS)})`,
  'g',
);

/** Fields of a segment that may name several fields, one clause each. */
function readAllFields(segment: string, item: BatchItem | undefined, options: CorrectionOptions): UpdatedFields {
  const split = segment.split(NEXT_FIELD_CLAUSE);
  if (split.length === 1) return readFields(segment, item, options);
  // 话费那笔分类改成其他: words without a change of their own belong to the next clause.
  const clauses: string[] = [];
  let carry = '';
  split.forEach((clause, k) => {
    // 第二笔加5块，日期改成昨天: a change by a difference needs no verb of its own.
    if (k < split.length - 1 && !findVerb(clause) && !changesByDifference(clause)) carry += clause;
    else {
      clauses.push(carry + clause);
      carry = '';
    }
  });
  const fields: UpdatedFields = {};
  for (const clause of clauses) {
    for (const [key, value] of Object.entries(readFields(clause, item, options))) {
      if (!(key in fields)) (fields as Record<string, unknown>)[key] = value;
    }
  }
  return fields;
}

/** Fields one correction segment asks for; `head` is the text before the verb (hints, target). */
function readFields(segment: string, item: BatchItem | undefined, options: CorrectionOptions): UpdatedFields {
  const verb = findVerb(segment);
  const head = verb ? segment.slice(0, verb.start) : '';
  const value = verb ? segment.slice(verb.end) : segment;
  const hint = hintOf(head) ?? (verb ? null : hintOf(segment));
  const fields: UpdatedFields = {};

  // Before the verb a type word may just name the item (收入那笔改成9000): only a change counts.
  const headType = verb ? readType(segment.slice(0, verb.start), item?.type ?? null) : null;
  const type = readType(value, item?.type ?? null) ?? (headType !== item?.type ? headType : null);
  if (type && hint !== 'date' && hint !== 'description') fields.type = type;
  // 是我给侄子的红包: a red packet's direction sets the type and its category together.
  const packet = !type && hint === null && value.includes('红包') ? readTypeWords(value) : null;
  if (packet?.type && packet.type !== item?.type) {
    fields.type = packet.type;
    if (packet.category) fields.category = packet.category;
  }

  const dates = findDates(value, options.now);
  const date = firstDate(dates);
  if (date && (hint === null || hint === 'date')) fields.date = date;

  const ordinals = findOrdinals(value);
  const claimed: Span[] = [...dates, ...ordinals];
  if (hint === null || hint === 'amount') {
    const amounts = unsigned(moneyMentions(findAmounts(value, claimed))).filter((a) => !isNegatedAt(value, a.start));
    if (amounts[0]) {
      const change = amountChange(value, amounts[0].start);
      if (change === 'set') fields.amount = amounts[0].value;
      else {
        // 加上运费8块, 第二笔贵了3块: the words around a difference name no category or description.
        const shifted = change === 'unclear' ? null : shiftAmount(item?.amount ?? null, change, amounts[0].value);
        if (shifted !== null) fields.amount = shifted;
        return fields;
      }
      claimed.push(amounts[0]);
    }
  }

  // 是打车不是吃饭: the denied words after 不是 are not the new item.
  const denial = value.search(/而?不是/);
  const kept = denial > 0 ? value.slice(0, denial) : value;
  const words = stripTypeWords(
    describe(
      kept,
      claimed.filter((c) => c.end <= kept.length),
    ),
  ).replace(NOTHING_SAID, '');
  if (hint === 'description') {
    if (words) fields.description = words;
    return fields;
  }
  if ((hint === null || hint === 'category') && words) {
    const custom = options.customCategories ?? [];
    // Once the type is said, a category of the other type is not what was meant (红包 after 我发的).
    const category = fields.category
      ? null
      : matchCategoryWord(words, custom, (c) => c.type !== 'TRANSFER' && (!fields.type || c.type === fields.type));
    if (category) {
      fields.category = category.name;
      if (!fields.type && item?.type && category.type !== item.type && category.name !== '其他') fields.type = category.type;
      // A lone verb left over (是昨天吃的 → 吃) describes nothing; 吃饭类 names the category.
      const namesClass = CLASS_SUFFIX.test(words);
      if (!category.byName && !namesClass && hint === null && verb && words.length > 1) fields.description = words;
    } else if (hint === 'category') {
      fields.category = words;
    } else if (verb && hint === null && Object.keys(fields).length === 0 && /[\u4e00-\u9fff]/.test(words)) {
      fields.description = words;
    }
  }
  return fields;
}

interface ItemScore {
  index: number;
  score: number;
}

/**
 * Which pending item the words before the verb point at (外卖那笔, 工资的, 60那笔): its index,
 * 'ambiguous' when several fit equally, null when the words name none.
 */
function matchReference(ref: string, pending: readonly BatchItem[], options: CorrectionOptions, minScore = 1): number | 'ambiguous' | null {
  const words = ref.replace(REF_SUFFIX, '').replace(FILLER_EDGE, '').replace(REF_SUFFIX, '');
  if (!words) return null;
  const category = matchCategoryWord(words, options.customCategories ?? []);
  const amount = moneyMentions(findAmounts(words))[0]?.value;
  // 收入那笔 / 支出的: the type names the item when nothing else does.
  const typeNamed = TYPE_NAMES.find((t) => words === t.word || words === `${t.word}的`)?.type;
  const scores: ItemScore[] = pending.map((item, index) => {
    let score = 0;
    const desc = item.description ?? '';
    if (desc && desc === words) score += 4;
    else if (desc && (desc.includes(words) || words.includes(desc))) score += 3;
    if (item.category && (item.category === words || words.includes(item.category))) score += 2;
    else if (category && item.category === category.name) score += 2;
    if (amount !== undefined && item.amount === amount) score += 2;
    if (typeNamed !== undefined && item.type === typeNamed) score += 1;
    return { index, score };
  });
  const best = Math.max(...scores.map((s) => s.score));
  if (best < minScore) return null;
  const top = scores.filter((s) => s.score === best);
  return top.length === 1 ? top[0]!.index : 'ambiguous';
}

/**
 * The words that may name the item: those before the change verb, or without a verb those before
 * the first new value (打车其实花了35 → 打车其实花了).
 */
function referenceWords(segment: string, options: CorrectionOptions): { words: string; verb: boolean } {
  const verb = findVerb(segment);
  if (verb) return { words: segment.slice(0, verb.start), verb: true };
  const dates = findDates(segment, options.now);
  const values = [...dates, ...findAmounts(segment, [...dates, ...findOrdinals(segment)])];
  const first = Math.min(segment.length, ...values.map((v) => v.start));
  return { words: segment.slice(0, first), verb: false };
}

// Without a change verb only the item's own words name it (打车其实花了35); a category alone
// (停车十块 next to 打车) is more likely new content than a reference.
const DESCRIPTION_SCORE = 3;

/** The items a scope names; none for 中间两笔 of 5, which no speaker can mean exactly. */
function edgeScope(edge: RegExpExecArray, size: number): number[] {
  const n = Math.min(size, parseNumeral(edge.groups!.n!) ?? 0);
  const side = edge.groups!.side!;
  const from = side === '前' ? 0 : side.startsWith('中间') ? (size - n) / 2 : size - n;
  return Number.isInteger(from) ? Array.from({ length: n }, (_, i) => from + i) : [];
}

/** 奶茶和电影都改成昨天: several references joined by 和/跟/、, each naming one item. */
function jointReferences(head: string, pending: readonly BatchItem[], options: CorrectionOptions): number[] | null {
  const parts = head.split(REF_JOINER);
  if (parts.length < 2) return null;
  const found: number[] = [];
  for (const part of parts) {
    const index = matchReference(part.replace(SCOPE_ALL, ''), pending, options);
    if (typeof index !== 'number' || found.includes(index)) return null;
    found.push(index);
  }
  return found;
}

const DENIED_WINDOW = 12;

/** 35不是30 / 是购物不是餐饮: the value the speaker denies names the one item that holds it. */
function deniedReference(segment: string, pending: readonly BatchItem[], options: CorrectionOptions): number | null {
  const matches = new Set<number>();
  for (const a of moneyMentions(findAmounts(segment, findDates(segment, options.now)))) {
    if (!isNegatedAt(segment, a.start)) continue;
    pending.forEach((item, i) => item.amount === a.value && matches.add(i));
  }
  for (let at = segment.indexOf('不是'); at >= 0; at = segment.indexOf('不是', at + 2)) {
    // Only a word right after 不是 counts, so a short window keeps long input linear.
    const category = matchCategoryWord(segment.slice(at + 2, at + 2 + DENIED_WINDOW), options.customCategories ?? []);
    if (category?.start === 0) pending.forEach((item, i) => item.category === category.name && matches.add(i));
  }
  return matches.size === 1 ? [...matches][0]! : null;
}

// 还有第二笔改成30, 另外打车那笔是25: after 还有/另外 comes a change of a pending item, not a new one.
const CHANGES_PENDING = new RegExp(anyOf(CHANGE_WORDS));

function changesPending(rest: string, pending: readonly BatchItem[], options: CorrectionOptions): boolean {
  if (findOrdinals(rest).length > 0 || CHANGES_PENDING.test(rest)) return true;
  const verb = findVerb(rest);
  return verb !== null && typeof matchReference(rest.slice(0, verb.start), pending, options) === 'number';
}

function appendFromText(text: string, pending: readonly BatchItem[], options: CorrectionOptions): CorrectionResult | null {
  const prefix = APPEND_PREFIX.exec(text);
  if (!prefix || prefix[0].length === 0) return null;
  const rest = text.slice(prefix[0].length);
  const groups = prefix.groups ?? {};
  // 还有一笔… names a new item outright; without the count it may be a change of a pending one.
  if (!groups.count && !groups.must && changesPending(rest, pending, options)) return null;
  const { item } = parseUtterance(rest, options.now, options.customCategories ?? []);
  if (!item || (item.amount === null && item.category === null)) return null;
  if (RAISES.has(groups.verb ?? '') && !groups.count && item.category === null && item.description === '') return null;
  const fields: UpdatedFields = { type: item.type };
  if (item.amount !== null) fields.amount = item.amount;
  if (item.category !== null) fields.category = item.category;
  if (item.description) fields.description = item.description;
  if (item.date !== null) fields.date = item.date;
  return { intent: 'append', corrections: [{ index: -1, updatedFields: fields }], confidence: 0.8 };
}

interface Segment {
  text: string;
  ordinal: OrdinalMention | null;
}

/** One segment per ordinal (第一笔改成50，第二笔改成30); text before the first joins it. */
function splitByOrdinal(text: string): Segment[] {
  const ordinals = findOrdinals(text);
  if (ordinals.length === 0) return [{ text, ordinal: null }];
  return ordinals.map((o, k) => {
    const from = k === 0 ? 0 : o.start;
    const to = ordinals[k + 1]?.start ?? text.length;
    const segment = text.slice(from, o.start) + text.slice(o.end, to);
    return { text: segment, ordinal: o };
  });
}

const ONLY_JOINERS = new RegExp(`^${anyOf(ORDINAL_JOINERS)}*$`);
const FIELD_NAMES = new RegExp(anyOf(FIELD_NAMES_IN_REFERENCE), 'g');

export function correctLocal(rawText: string, pending: readonly BatchItem[], options: CorrectionOptions): CorrectionResult {
  const text = normalizeText(rawText);
  if (text.length > MAX_CORRECTION_CHARS) return UNCLEAR;
  const append = appendFromText(text, pending, options);
  if (append) return append;
  if (pending.length === 0) return UNCLEAR;

  const layer1 = classifyIntent(text, pending.length);
  if (layer1.intent === 'confirm') return { intent: 'confirm', corrections: [], confidence: 0.9 };
  if (layer1.intent === 'cancel') return { intent: 'cancel', corrections: [], confidence: 0.9 };
  if (layer1.intent !== 'correction' && layer1.intent !== 'newInput') return UNCLEAR;

  const corrections: CorrectionItem[] = [];
  const segments = splitByOrdinal(text);
  // A batch never holds more than MAX_BATCH_ITEMS drafts; more item references is not a correction.
  if (segments.length > MAX_BATCH_ITEMS) return UNCLEAR;
  // 第一笔和第二笔都改成昨天: an ordinal with nothing after it shares the next segment's change.
  for (let k = segments.length - 2; k >= 0; k--) {
    const own = segments[k]!;
    if (own.ordinal && ONLY_JOINERS.test(own.text)) own.text = segments[k + 1]!.text;
  }
  for (const segment of segments) {
    let targets: number[];
    if (segment.ordinal) {
      const index = ordinalIndex(segment.ordinal, pending.length);
      if (index === null || index < 0 || index >= pending.length) return UNCLEAR;
      targets = [index];
    } else {
      const { words: head, verb } = referenceWords(segment.text, options);
      const ref = matchReference(head.replace(FIELD_NAMES, ''), pending, options, verb ? 1 : DESCRIPTION_SCORE);
      const edge = SCOPE_EDGE.exec(head);
      const several = edge === null ? jointReferences(head, pending, options) : null;
      if (ref === 'ambiguous' && !edge && !several) return UNCLEAR;
      const denied = ref === null ? deniedReference(segment.text, pending, options) : null;
      if (edge) targets = edgeScope(edge, pending.length);
      else if (several !== null) targets = several;
      else if (typeof ref === 'number') targets = [ref];
      else if (denied !== null) targets = [denied];
      else if (SCOPE_ALL.test(head)) targets = pending.map((_, i) => i);
      else if (pending.length === 1) targets = [0];
      else return UNCLEAR;
    }
    for (const index of targets) {
      const fields = readAllFields(segment.text, pending[index], options);
      if (Object.keys(fields).length === 0) continue;
      const existing = corrections.find((c) => c.index === index);
      if (existing) Object.assign(existing.updatedFields, fields);
      else corrections.push({ index, updatedFields: fields });
    }
  }
  if (corrections.length === 0) return UNCLEAR;
  return { intent: 'correction', corrections, confidence: 0.8 };
}

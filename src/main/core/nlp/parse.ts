// One item of an utterance: its amount, type, category, description, date and account. The spans
// of the whole utterance are read once (readSpans); buildItem turns one stretch of it into an item.
// firstItem is the single-item parse (the first item of the text), which corrections use and
// split.ts keeps for every utterance that holds one item.
import { moneyFlowFields, type MoneyFlow, type ParseResult, type Recurrence, type TransactionType } from '@shared/domain';
import { OTHER_CATEGORY } from '@shared/categories';
import type { ZonedNow } from '@shared/time';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAccounts, type AccountMention } from './accounts';
import { findAmounts, moneyMentions, type AmountMention } from './amounts';
import { findDates, firstDate, type DateMention } from './dates';
import { describe, flowTalk } from './description';
import { hearHomophones, type Vocabulary } from './homophones';
import { FLOWER_BEFORE, PAYING_VERBS } from './lexicon/amounts';
import { ITEM_SEPARATORS } from './lexicon/fillers';
import { anyOf } from './lexicon/words';
import { MASK, readMoneyFlow, type MoneyFlowReading } from './money-flow';
import { cutSpans, isPunctuation, maskSpans, normalizeText, sortInPlace, type Span } from './normalize';
import { findListNumbers, type ListNumber } from './numbering';
import { findOrdinals } from './ordinals';
import { paidAmounts, withoutDenied } from './paid-amounts';
import { findNumberedNames, withoutNameNumerals } from './people';
import { findRecurrences, rulesInScope, type RecurrenceMention } from './recurrence';
import { startTable } from './starts';
import { findTags, type TagMention } from './tags';
import { readTypeWords } from './transaction-type';
import { joinVerbObject, verbObjectGap } from './verb-object';

export interface ParsedItem {
  amount: number | null;
  account: string | null;
  type: TransactionType;
  category: string | null;
  description: string;
  date: string | null;
  /** Present only when the item says so (money-flow.ts). */
  flow?: MoneyFlow;
  counterparty?: string;
  reimbursable?: boolean;
  /** Present only when the item says so (recurrence.ts, tags.ts). */
  recurrence?: Recurrence;
  tags?: string[];
}

export interface ParsedUtterance {
  /** The first item, or null when the text holds neither an amount nor any words. */
  item: ParsedItem | null;
}

/** Where the first item ends: the first separator after its amount, else right after it. */
function firstItemEnd(text: string, first: AmountMention, second: AmountMention): number {
  for (let i = first.end; i < second.start; i++) {
    if (isPunctuation(text[i])) return i;
    for (const w of ITEM_SEPARATORS) if (text.startsWith(w, i)) return i;
  }
  return first.end;
}

// 花三十块买了本书, 午饭吃了三十: the verb right before the amount belongs to it, not to the item.
const PAYING_VERB = new RegExp(`(?:${anyOf(PAYING_VERBS)}|(?<!${anyOf(FLOWER_BEFORE)})花)$`);

// A paying verb ends right before its amount: only its last characters can stand there.
const PAYING_VERB_ENDS = startTable([...PAYING_VERBS.map((w) => w.at(-1)!), '花']);

export function withPayingVerb(text: string, amount: AmountMention): Span {
  if (PAYING_VERB_ENDS[text.charCodeAt(amount.start - 1)] !== 1) return amount;
  const verb = PAYING_VERB.exec(text.slice(Math.max(0, amount.start - 3), amount.start));
  return verb ? { start: amount.start - verb[0].length, end: amount.end } : amount;
}

/** Type and category of one item's words. */
export function readItem(itemWords: string, customCategories: readonly CategoryRef[]): { type: TransactionType; category: string | null } {
  const typeWords = readTypeWords(itemWords);
  const words = joinVerbObject(itemWords);
  if (typeWords.type === 'TRANSFER') return { type: 'TRANSFER', category: typeWords.category };
  if (typeWords.type !== null) {
    if (typeWords.category) return { type: typeWords.type, category: typeWords.category };
    const match = matchCategoryWord(words, customCategories, (c) => c.type === typeWords.type);
    return { type: typeWords.type, category: match?.name ?? null };
  }
  // Income 其他 words (基金, 理财) say where income came from, not that money came in: 买基金 is spending.
  const any = matchCategoryWord(words, customCategories, (c) => c.type !== 'TRANSFER' && !(c.type === 'INCOME' && c.name === OTHER_CATEGORY));
  if (any) return { type: any.type, category: any.name };
  return { type: 'EXPENSE', category: null };
}

// The preset a transfer's words imply (transaction-type.ts reads 还钱, 借给 as 转账 too).
const TRANSFER_CATEGORY = '转账';

/** Type and category of an item whose words say where its money goes (借给小李, 退款, 可以报销). */
function readFlowItem(reading: MoneyFlowReading, customCategories: readonly CategoryRef[]): { type: TransactionType; category: string | null } {
  const wanted = reading.type;
  if (wanted === 'TRANSFER') return { type: 'TRANSFER', category: TRANSFER_CATEGORY };
  const read = readItem(reading.words, customCategories);
  if (wanted === null || read.type === wanted) return read;
  // 那件衣服退了: the words name what was bought, but the money came back.
  const match = matchCategoryWord(reading.words, customCategories, (c) => c.type === wanted);
  return { type: wanted, category: match?.name ?? null };
}

/** What an utterance holds before it is cut into items: every extractor runs once on the whole text. */
export interface UtteranceSpans {
  /** The normalized text all spans point into. */
  text: string;
  dates: DateMention[];
  /** Dates, ordinals, repeating rules and tags: no money and no item's words. */
  claimed: Span[];
  recurrences: RecurrenceMention[];
  tags: TagMention[];
  /** Names that hold a numeral (张三): no money, but words of their item. */
  names: Span[];
  /** Every money mention, paid or not. */
  mentioned: AmountMention[];
  /** The mentions that were paid (denied and not-paid ones dropped), in order. */
  amounts: AmountMention[];
  /** The first paying account named, and every one in order (each item may name its own). */
  account: AccountMention | null;
  accounts: AccountMention[];
  /** The numbers of a numbered list (also in `claimed`); read only when asked for. */
  numbers: ListNumber[];
}

/**
 * `numbered`: the utterance may be a numbered list (1.房租3000 2.水电200), whose numbers are
 * claimed before the money is read, so they are never amounts.
 */
export function readSpans(rawText: string, now: ZonedNow, vocabulary: Vocabulary = {}, numbered = false): UtteranceSpans {
  // A recognizer's 支付包 is 支付宝: every span below points into the text as it was meant.
  const text = hearHomophones(normalizeText(rawText), vocabulary);
  const recurrences = findRecurrences(text);
  // 每周一次, 每周五十块: the 周一, 周五 of a rule that fixes no day names no day.
  const dates = findDates(text, now).filter((d) => !recurrences.some((r) => d.start < r.end && d.end > r.start && !fixesDay(r)));
  const numbers = numbered ? findListNumbers(text) : [];
  const claimed: Span[] = [...dates, ...findOrdinals(text), ...recurrences, ...numbers];
  const names = findNumberedNames(text);
  const mentioned = moneyMentions(findAmounts(withoutNameNumerals(text, names), claimed));
  const accounts = findAccounts(text, vocabulary.accounts);
  const account = accounts[0] ?? null;
  const tags = findTags(text, [...claimed, ...mentioned, ...(account ? [account] : [])]);
  claimed.push(...tags);
  // A signed amount (打车-5元) still ends its item, but no payment is negative: that item has no amount.
  const amounts = withoutDenied(text, mentioned);
  // A rule that repeats none of the money (每天都加班到很晚，今天打车七十四) tells a habit: no item's words.
  const { rules, habits } = rulesInScope(text, recurrences, { amounts, dates, claimed: [...claimed, ...mentioned] });
  claimed.push(...habits);
  return { text, dates, claimed, recurrences: rules, tags, names, mentioned, amounts, account, accounts, numbers };
}

function fixesDay({ recurrence }: RecurrenceMention): boolean {
  return recurrence.day !== undefined || recurrence.month !== undefined;
}

/** One item's place in the utterance and what the whole utterance says about it. */
export interface ItemDraft {
  /** The item's words: text.slice(start, end). */
  start: number;
  end: number;
  amount: AmountMention | null;
  /** Spans that are no words of the item (dates, other amounts, connectives); those outside start..end are ignored. */
  claimed: readonly Span[];
  account: AccountMention | null;
  date: string | null;
  /** The utterance's rules and tags; an item takes those said inside it. */
  recurrences: readonly RecurrenceMention[];
  tags: readonly TagMention[];
}

function overlaps(s: Span, start: number, end: number): boolean {
  return s.start < end && s.end > start;
}

function shifted(spans: readonly Span[], by: number): Span[] {
  return by === 0 ? [...spans] : spans.map((s) => ({ start: s.start - by, end: s.end - by }));
}

/** The item a draft describes, or null when it has neither an amount nor any words. */
export function buildItem(text: string, draft: ItemDraft, customCategories: readonly CategoryRef[]): ParsedItem | null {
  const { start, end, amount, account } = draft;
  const itemText = text.slice(start, end);
  const itemSpans: Span[] = [];
  for (const s of draft.claimed) if (overlaps(s, start, end)) itemSpans.push(s);
  if (amount) {
    const paying = withPayingVerb(text, amount);
    if (overlaps(paying, start, end)) itemSpans.push(paying);
  }
  if (account && overlaps(account, start, end)) itemSpans.push(account);
  // In order once here, so the cuts and masks below need no sorted copies.
  sortInPlace(itemSpans, (s) => s.start);
  // 加了两百的油 is 加油: what splits verb and object is no word of the item.
  const joint = amount && overlaps(amount, start, end) ? verbObjectGap(text, amount) : null;
  const inItem = shifted(itemSpans, start);
  const notText = joint ? [...inItem, { start: joint.start - start, end: joint.end - start }] : inItem;
  const words = describe(itemText, notText);
  const value = amount && !amount.negative ? amount.value : null;
  if (value === null && words === '') return null;

  const recurrence = draft.recurrences.find((r) => overlaps(r, start, end))?.recurrence;
  const tagged = draft.tags.length === 0 ? [] : draft.tags.filter((t) => overlaps(t, start, end));
  const tags = tagged.length === 0 ? undefined : [...new Set(tagged.flatMap((t) => t.tags))];
  // The paying account is not what was bought (刷信用卡买衣服 is 购物, not 账单), nor is a tag (标签聚餐).
  const inside = account !== null && account.start >= start && account.end <= end;
  const notWords = [...(inside ? [account] : []), ...tagged];
  const itemWords = cutSpans(itemText, shifted(joint ? [...notWords, joint] : notWords, start));
  const masked = maskSpans(itemText, inItem, MASK);
  const flow = readMoneyFlow(masked, customCategories);
  // The note keeps the thing: 借给小李, 退了, 可以报销 are said by the flow.
  const description = flow ? describe(itemText, [...notText, ...flowTalk(masked, flow)]) : words;
  const { type, category } = flow ? readFlowItem(flow, customCategories) : readItem(itemWords, customCategories);
  // Optional fields are set only when said; no spread, since this runs once an item.
  const item: ParsedItem = { amount: value, account: account?.account ?? null, type, category, description, date: draft.date };
  if (flow) Object.assign(item, moneyFlowFields(flow));
  if (recurrence) item.recurrence = { ...recurrence };
  if (tags) item.tags = tags;
  return item;
}

/** The single-item parse of spans: the first item, up to where a second amount's item begins. */
export function firstItem(spans: UtteranceSpans, customCategories: readonly CategoryRef[] = []): ParsedUtterance {
  const { text, dates, claimed, mentioned } = spans;
  const denied = mentioned.filter((a) => !spans.amounts.includes(a));
  // 打车三十不对三十五, 六百的外套退了两百二: an amount taken back or a refund's price is no item's amount.
  const { paid: amounts, notItems } = paidAmounts(text, spans.amounts);
  const end = amounts.length >= 2 ? firstItemEnd(text, amounts[0]!, amounts[1]!) : text.length;
  const date = firstDate(dates.filter((d) => d.start < end)) ?? firstDate(dates);
  const draft: ItemDraft = {
    start: 0,
    end,
    amount: amounts[0] ?? null,
    claimed: [...claimed, ...denied, ...notItems],
    account: spans.account,
    date,
    recurrences: spans.recurrences,
    tags: spans.tags,
  };
  return { item: buildItem(text, draft, customCategories) };
}

export function parseUtterance(rawText: string, now: ZonedNow, customCategories: readonly CategoryRef[] = []): ParsedUtterance {
  return firstItem(readSpans(rawText, now, { customCategories }), customCategories);
}

export function toParseResult(item: ParsedItem): ParseResult {
  const known = (item.amount !== null ? 2 : 0) + (item.category !== null ? 1 : 0);
  const result: ParseResult = {
    amount: item.amount,
    type: item.type,
    category: item.category,
    description: item.description,
    date: item.date,
    account: item.account,
    confidence: [0.3, 0.5, 0.75, 0.9][known]!,
    source: 'local',
  };
  // Each optional field only when said, set in place: this runs once an item.
  if (item.flow || item.counterparty || item.reimbursable) Object.assign(result, moneyFlowFields(item));
  if (item.recurrence) result.recurrence = { ...item.recurrence };
  if (item.tags && item.tags.length > 0) result.tags = [...item.tags];
  return result;
}

/** The optional rule and tags of an item, each present only when said. */
export function spokenFields(source: { recurrence?: Recurrence; tags?: readonly string[] }): Pick<ParseResult, 'recurrence' | 'tags'> {
  return {
    ...(source.recurrence ? { recurrence: { ...source.recurrence } } : {}),
    ...(source.tags && source.tags.length > 0 ? { tags: [...source.tags] } : {}),
  };
}

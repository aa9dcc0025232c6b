// Offline parse of one utterance into at most one transaction (the spec's offline rule), with a
// flag when the utterance held several items so the caller can say so.
import type { ParseResult, TransactionType } from '@shared/domain';
import { OTHER_CATEGORY } from '@shared/categories';
import type { ZonedNow } from '@shared/time';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import { findAccount } from './accounts';
import { findAmounts, moneyMentions, type AmountMention } from './amounts';
import { findDates, firstDate } from './dates';
import { describe } from './description';
import { FLOWER_BEFORE, NOT_PAID, PAYING_VERBS } from './lexicon/amounts';
import { ITEM_SEPARATORS } from './lexicon/fillers';
import { anyOf } from './lexicon/words';
import { cutSpans, isPunctuation, normalizeText, type Span } from './normalize';
import { findOrdinals } from './ordinals';
import { readTypeWords } from './transaction-type';

export interface ParsedItem {
  amount: number | null;
  account: string | null;
  type: TransactionType;
  category: string | null;
  description: string;
  date: string | null;
}

export interface ParsedUtterance {
  item: ParsedItem | null;
  multipleDetected: boolean;
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

function withPayingVerb(text: string, amount: AmountMention): Span {
  const verb = PAYING_VERB.exec(text.slice(Math.max(0, amount.start - 3), amount.start));
  return verb ? { start: amount.start - verb[0].length, end: amount.end } : amount;
}

// 不是30是35: an amount the speaker denies; 满100减20, 原价一百, 优惠了二十: amounts that were not paid.
const NOT_PAID_BEFORE = new RegExp(`${anyOf(NOT_PAID)}$`);

/** Amounts that were denied or not paid are dropped when another one remains. */
function withoutDenied(text: string, amounts: AmountMention[]): AmountMention[] {
  if (amounts.length < 2) return amounts;
  const kept = amounts.filter((a) => !NOT_PAID_BEFORE.test(text.slice(Math.max(0, a.start - 3), a.start)));
  return kept.length > 0 ? kept : amounts;
}

/** Type and category of one item's words. */
export function readItem(words: string, customCategories: readonly CategoryRef[]): { type: TransactionType; category: string | null } {
  const typeWords = readTypeWords(words);
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

export function parseUtterance(rawText: string, now: ZonedNow, customCategories: readonly CategoryRef[] = []): ParsedUtterance {
  const text = normalizeText(rawText);
  const dates = findDates(text, now);
  const ordinals = findOrdinals(text);
  const claimed: Span[] = [...dates, ...ordinals];
  const mentioned = moneyMentions(findAmounts(text, claimed));
  // A signed amount (打车-5元) still ends its item, but no payment is negative: that item has no amount.
  const amounts = withoutDenied(text, mentioned);
  const denied = mentioned.filter((a) => !amounts.includes(a));
  const multipleDetected = amounts.length >= 2;
  const end = multipleDetected ? firstItemEnd(text, amounts[0]!, amounts[1]!) : text.length;
  const itemText = text.slice(0, end);
  const account = findAccount(text);
  const itemSpans: Span[] = [...claimed, ...denied, ...(amounts[0] ? [withPayingVerb(text, amounts[0])] : []), ...(account ? [account] : [])].filter(
    (s) => s.start < end,
  );
  const description = describe(itemText, itemSpans);
  const amount = amounts[0] && !amounts[0].negative ? amounts[0].value : null;
  if (amount === null && description === '') return { item: null, multipleDetected: false };

  // The paying account is not what was bought (刷信用卡买衣服 is 购物, not 账单).
  const itemWords = account && account.end <= end ? cutSpans(itemText, [account]) : itemText;
  const { type, category } = readItem(itemWords, customCategories);
  const itemDates = dates.filter((d) => d.start < end);
  const date = firstDate(itemDates) ?? firstDate(dates);
  return { item: { amount, account: account?.account ?? null, type, category, description, date }, multipleDetected };
}

export function toParseResult(item: ParsedItem): ParseResult {
  const known = (item.amount !== null ? 2 : 0) + (item.category !== null ? 1 : 0);
  return {
    amount: item.amount,
    type: item.type,
    category: item.category,
    description: item.description,
    date: item.date,
    account: item.account,
    confidence: [0.3, 0.5, 0.75, 0.9][known]!,
    source: 'local',
  };
}

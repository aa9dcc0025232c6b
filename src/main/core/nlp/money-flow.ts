// What one item says about where its money goes beyond spending and earning: lent to or
// borrowed from a person (借给小李, 跟我哥借了), paid back by the user or to the user (还了我哥,
// 小李还了我), money back for something bought (那件衣服退了), money that settles advanced
// expenses (报销到账, 公司把差旅费报了), or an expense to be paid back (打车八十可以报销).
// It reads the item's words with its amount, date and account already masked (MASK), so a
// person's words end where the amount begins (借给小李一千 → 小李).
import type { MoneyFlow, TransactionType } from '@shared/domain';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import {
  ACTS_FOR_PERSON,
  BORROWED_THINGS,
  FROM_PERSON,
  NOT_REIMBURSABLE,
  NOT_REIMBURSED_AFTER,
  PERSON_PLACE,
  REFUND_AFTER,
  REFUND_FEES,
  REFUND_TRAILING,
  REIMBURSABLE,
  REIMBURSED,
  REIMBURSEMENT_NOUNS,
  REIMBURSERS,
} from './lexicon/money-flows';
import { anyOf } from './lexicon/words';
import { personAt, personBefore } from './people';

/** Stands in for what is no word of the item (its amount, date, account): a separator to every rule here. */
export const MASK = '，';

export interface MoneyFlowReading {
  flow: MoneyFlow | null;
  counterparty: string | null;
  reimbursable: boolean;
  /** The type the flow decides; null leaves it to the item's words. */
  type: TransactionType | null;
  /** The item's words without the flow's own words, for its category. */
  words: string;
}

interface Debt {
  flow: MoneyFlow;
  counterparty: string | null;
}

const REIMBURSED_WORDS = new RegExp(anyOf(REIMBURSED));
// 公司把差旅费报了, 差旅费报了: someone who pays back, or a fee, before 报了 (报了个班 is no money back).
const REIMBURSED_BY = new RegExp(`(?:${anyOf(REIMBURSERS)}[^${MASK}]{0,8}|[费款])报(?:销)?了(?!${anyOf(NOT_REIMBURSED_AFTER)})`);
const NOT_REIMBURSABLE_WORDS = new RegExp(anyOf(NOT_REIMBURSABLE));
const REIMBURSABLE_WORDS = new RegExp(`${anyOf(REIMBURSABLE)}(?!${anyOf(NOT_REIMBURSED_AFTER)})`);
const MARK_AT = new RegExp(`^(?:${anyOf(NOT_REIMBURSABLE)}|${anyOf(REIMBURSABLE)}(?!${anyOf(NOT_REIMBURSED_AFTER)}))`);

/** How long the words at `at` that say whether an expense is paid back (可以报销, 不能报销) run, else 0. */
export function reimbursableMarkAt(text: string, at: number): number {
  return MARK_AT.exec(text.slice(at, at + 8))?.[0].length ?? 0;
}
const REIMBURSEMENT_NOUN = new RegExp(anyOf(REIMBURSEMENT_NOUNS), 'g');
const REIMBURSE = /报销/;
const REFUND = new RegExp(`退(?:${anyOf(REFUND_AFTER)}(?!${anyOf(REFUND_FEES)})|(?=${MASK}|$))(?:${anyOf(REFUND_TRAILING)})?`);

function cut(text: string, m: RegExpExecArray): string {
  return text.slice(0, m.index) + MASK + text.slice(m.index + m[0].length);
}

/** Null when the item says nothing of the kind. */
export function readMoneyFlow(text: string, customCategories: readonly CategoryRef[] = []): MoneyFlowReading | null {
  // 报销单打印五块: nouns about reimbursing are spending like any other.
  const words = text.replace(REIMBURSEMENT_NOUN, MASK);
  const none = { flow: null, counterparty: null, reimbursable: false };
  if (words.includes('报')) {
    const reimbursed = REIMBURSED_WORDS.exec(words) ?? REIMBURSED_BY.exec(words);
    if (reimbursed) return { ...none, flow: 'reimbursement', type: 'INCOME', words: cut(words, reimbursed) };
    const notReimbursable = NOT_REIMBURSABLE_WORDS.exec(words);
    if (notReimbursable) return { ...none, type: 'EXPENSE', words: cut(words, notReimbursable) };
    const reimbursable = REIMBURSABLE_WORDS.exec(words);
    if (reimbursable) return { ...none, reimbursable: true, type: 'EXPENSE', words: cut(words, reimbursable) };
    // 报销八百 is money back; 打车八十报销 names what was spent, so it is to be paid back.
    const bare = REIMBURSE.exec(words);
    if (bare) {
      const rest = cut(words, bare);
      const spent = matchCategoryWord(rest, customCategories, (c) => c.type === 'EXPENSE') !== null;
      return spent ? { ...none, reimbursable: true, type: 'EXPENSE', words: rest } : { ...none, flow: 'reimbursement', type: 'INCOME', words: rest };
    }
  }
  const refund = REFUND.exec(words);
  if (refund) return { ...none, flow: 'refund', type: 'INCOME', words: cut(words, refund) };
  const debt = readDebt(words);
  if (debt) return { ...debt, reimbursable: false, type: 'TRANSFER', words };
  if (words !== text) return { ...none, type: null, words };
  return null;
}

// The verbs of a debt, each tried where it stands; a person next to it says who.
const LEND_TO = /借给了?/g;
const LEND_THEN_TO = new RegExp(`借(?:了|出)?(?:钱|${MASK})+给`, 'g');
const LENT_OUT = /借出(?:去)?/;
const BORROWED_FROM_OF = /借了?([^，]{1,8}?)的/g;
// 跟小李借车, 从图书馆借书: things borrowed are no debt of money.
const NOT_MONEY = `(?!${anyOf(BORROWED_THINGS)})`;
const BORROW_FROM = new RegExp(`${anyOf(FROM_PERSON)}([^${MASK}]{1,8}?)(?:${anyOf(PERSON_PLACE)})?借(?:了|来|到)?${NOT_MONEY}`, 'g');
const BORROWED = new RegExp(`借(?:入|来|到)${NOT_MONEY}`);
const LEND_BY_GIVING = /给([^，]{1,8}?)借了?/g;
const BORROWED_BY = new RegExp(`借(走|了|去)?${NOT_MONEY}`, 'g');
// 借了小李的车: the person's thing, not money.
const THING_OF = new RegExp(`^的${anyOf(BORROWED_THINGS)}`);
const ACTS_FOR = new RegExp(`^${anyOf(ACTS_FOR_PERSON)}`);
const REPAY_BY_GIVING = /给([^，]{1,8}?)还/g;
const PAY_BACK = /还/g;
const COLLECTED = /(?:收回|要回)了?/g;

// 跟他借了: a pronoun says that it was a debt, not with whom.
const PRONOUN = /^(?:他|她|它)们?$/;
// 跟银行借了: between 跟 and 借 anything short but a pronoun names who lent.
const LENDER = /^[\u4e00-\u9fff]{1,6}$/;
/** Before a person, these make the person the one acted on (给小李还了), not the one acting. */
const OBJECT_MARKS = new Set([...'给跟向找问对替帮和']);
// 小李把钱还我了, 小李把五百还我了: what was handed back stands between the payer and 还.
const HANDED_OVER = new RegExp(`把(?:钱|${MASK}+)?$`);
/** After 还, the words that make the one before it the payer: 小李还了我, 小李还钱了, 小李还的. */
const PAID_BACK_AFTER = new RegExp(`^(?:了|给|钱|款|的|回来|${MASK}|$)`);

function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) yield m;
}

/** The person right before `end` who does the action (小李还了我), not one it is done to (给小李还). */
function subjectBefore(text: string, end: number): string | null {
  const person = personBefore(text, end);
  if (person === null) return null;
  const before = text[end - person.length - 1];
  return before !== undefined && OBJECT_MARKS.has(before) ? null : person;
}

/** 我 right at `at`, unless it begins a person (我哥). */
function meAt(text: string, at: number): boolean {
  return text[at] === '我' && personAt(text, at) === null;
}

function lender(slot: string): string | null {
  if (PRONOUN.test(slot)) return null;
  return personAt(slot, 0) === slot || LENDER.test(slot) ? slot : null;
}

function readDebt(text: string): Debt | null {
  if (!text.includes('借') && !text.includes('还') && !/收回|要回/.test(text)) return null;
  // 还了借小李的五百, 借同事的钱还了: paying back what was borrowed from someone.
  if (text.includes('还')) {
    for (const m of matches(BORROWED_FROM_OF, text)) {
      const person = personAt(m[1]!, 0);
      if (person === m[1]) return { flow: 'repay', counterparty: person };
    }
  }
  // 借给小李 lends; 小李借给我 borrows.
  for (const m of [...matches(LEND_TO, text), ...matches(LEND_THEN_TO, text)]) {
    const at = m.index + m[0].length;
    if (meAt(text, at)) return { flow: 'borrow', counterparty: subjectBefore(text, m.index) };
    return { flow: 'lend', counterparty: personAt(text, at) };
  }
  // 跟我哥借了 borrows; 小李跟我借了 lends.
  for (const m of matches(BORROW_FROM, text)) {
    const slot = m[1]!;
    if (slot === '我') return { flow: 'lend', counterparty: subjectBefore(text, m.index) };
    return { flow: 'borrow', counterparty: lender(slot) };
  }
  for (const m of matches(LEND_BY_GIVING, text)) {
    const person = personAt(m[1]!, 0);
    if (person === m[1]) return { flow: 'lend', counterparty: person };
  }
  if (LENT_OUT.test(text)) return { flow: 'lend', counterparty: null };
  if (BORROWED.test(text)) return { flow: 'borrow', counterparty: null };
  for (const m of matches(BORROWED_BY, text)) {
    const at = m.index + m[0].length;
    // 小李借走了五百, 小李借了我五百: he borrowed from the user; 小李借我五百: he lent to the user.
    const subject = subjectBefore(text, m.index);
    if (subject !== null && (m[1] !== undefined || !meAt(text, at))) return { flow: 'lend', counterparty: subject };
    if (subject !== null) return { flow: 'borrow', counterparty: subject };
    // 借小李一千 lends; 借了朋友两千 borrows.
    const person = personAt(text, at);
    if (person !== null && !THING_OF.test(text.slice(at + person.length))) return { flow: m[1] === '了' ? 'borrow' : 'lend', counterparty: person };
  }
  for (const m of matches(REPAY_BY_GIVING, text)) {
    const person = personAt(m[1]!, 0);
    if (person === m[1]) return { flow: 'repay', counterparty: person };
  }
  for (const m of matches(PAY_BACK, text)) {
    const debt = readPayBack(text, m.index);
    if (debt) return debt;
  }
  for (const m of matches(COLLECTED, text)) return { flow: 'collect', counterparty: personAt(text, m.index + m[0].length) };
  return null;
}

/** 还 at `at`: 小李还了我 / 小李把钱还了 collect; 还了我哥 / 还给小李 / 还钱给老王 repay. */
function readPayBack(text: string, at: number): Debt | null {
  const payerEnd = at - (HANDED_OVER.exec(text.slice(Math.max(0, at - 6), at))?.[0].length ?? 0);
  const payer = subjectBefore(text, payerEnd);
  const after = text.slice(at + 1);
  if (payer !== null && (PAID_BACK_AFTER.test(after) || meAt(after, /^(?:了|给)?/.exec(after)![0].length))) {
    return { flow: 'collect', counterparty: payer };
  }
  const object = /^(?:了给|给了|了|给)?/.exec(after)![0];
  const person = personAt(text, at + 1 + object.length);
  if (person !== null) {
    const next = at + 1 + object.length + person.length;
    return ACTS_FOR.test(text.slice(next)) ? null : { flow: 'repay', counterparty: person };
  }
  // 还钱给小张, 还了一千给小李: the person after the money.
  const later = new RegExp(`^(?:钱|款)?了?${MASK}*给`).exec(after);
  if (later) {
    const to = personAt(text, at + 1 + later[0].length);
    if (to !== null) return { flow: 'repay', counterparty: to };
  }
  return null;
}

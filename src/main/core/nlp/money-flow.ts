// What one item says about where its money goes beyond spending and earning: lent to or
// borrowed from a person (借给小李, 跟我哥借了), paid back by the user or to the user (还了我哥,
// 小李还了我), money back for something bought (那件衣服退了), money that settles advanced
// expenses (报销到账, 公司把差旅费报了), or an expense to be paid back (打车八十可以报销, 帮公司垫付了).
// A debt may be named as a thing and then settled: 欠阿峰的六百还了, 把借给堂弟的两千收回来了.
// It reads the item's words with its amount, date and account already masked (MASK), so a
// person's words end where the amount begins (借给小李一千 → 小李).
import type { MoneyFlow, TransactionType } from '@shared/domain';
import { matchCategoryWord, type CategoryRef } from '../categories/index';
import {
  ACTS_FOR_PERSON,
  ADVANCE_AFTER,
  ADVANCE_FIRST,
  ADVANCED_FOR,
  BORROWED_THINGS,
  COLLECTING_VERBS,
  FROM_PERSON,
  NOT_DONE_BEFORE,
  NOT_REIMBURSABLE,
  NOT_REIMBURSED_AFTER,
  OWNERS,
  PAID_OFF_AFTER,
  PERSON_PLACE,
  REFUND_AFTER,
  REFUND_FEES,
  REFUND_TRAILING,
  REIMBURSABLE,
  REIMBURSED,
  REIMBURSED_AFTER,
  REIMBURSED_FEES,
  REIMBURSEMENT_NOUNS,
  REIMBURSERS,
  SETTLED_BY_USER,
  SETTLED_TO_USER,
  SETTLING_VERBS,
  THING_MEASURES,
} from './lexicon/money-flows';
import { anyOf } from './lexicon/words';
import { personAt, personBefore } from './people';
import { hasStart, startTable } from './starts';

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
// 公司把差旅费报了, 出差费报下来了: someone who pays back, or a fee, before 报了 (报了个班 is no money back).
const REIMBURSED_BY = new RegExp(
  `(?:${anyOf(REIMBURSERS)}[^${MASK}]{0,8}|${anyOf(REIMBURSED_FEES)})报(?:销)?(?:${anyOf(REIMBURSED_AFTER)})(?!${anyOf(NOT_REIMBURSED_AFTER)})`,
);
const NOT_REIMBURSABLE_WORDS = new RegExp(anyOf(NOT_REIMBURSABLE));
const REIMBURSABLE_WORDS = new RegExp(`${anyOf(REIMBURSABLE)}(?!${anyOf(NOT_REIMBURSED_AFTER)})`);
const MARK_AT = new RegExp(`^(?:${anyOf(NOT_REIMBURSABLE)}|${anyOf(REIMBURSABLE)}(?!${anyOf(NOT_REIMBURSED_AFTER)}))`);

/** How long the words at `at` that say whether an expense is paid back (可以报销, 不能报销) run, else 0. */
export function reimbursableMarkAt(text: string, at: number): number {
  return MARK_AT.exec(text.slice(at, at + 8))?.[0].length ?? 0;
}
const REIMBURSEMENT_NOUN = new RegExp(anyOf(REIMBURSEMENT_NOUNS), 'g');
const NOUN_STARTS = startTable(REIMBURSEMENT_NOUNS.map((w) => w[0]!));
const REIMBURSE = /报销/;
// 帮公司垫付了, 替单位先垫了: an expense paid first for whoever is named, who pays it back.
const ADVANCED_FOR_SOMEONE = new RegExp(
  `(?:${anyOf(ADVANCED_FOR)})([^${MASK}]{1,6}?)(?:${anyOf(ADVANCE_FIRST)})?垫(?:${anyOf(ADVANCE_AFTER)})?了?(?!子)`,
  'g',
);
// 垫付了, 先垫了, 我垫了: paid first with no one named (鼠标垫, 垫子 are no money).
const ADVANCED = new RegExp(
  `(?:${anyOf(ADVANCE_FIRST)})?垫(?:${anyOf(ADVANCE_AFTER)})了?|(?:${anyOf(ADVANCE_FIRST)})垫了?(?!子)|(?<=^|我|${MASK})垫了`,
);
const REIMBURSER = new RegExp(`^(?:${anyOf(OWNERS)})?(?:${anyOf(REIMBURSERS)})$`);
const REFUND = new RegExp(`退(?:${anyOf(REFUND_AFTER)}(?!${anyOf(REFUND_FEES)})|(?=${MASK}|$))(?:${anyOf(REFUND_TRAILING)})?`);

function cut(text: string, m: RegExpExecArray): string {
  return text.slice(0, m.index) + MASK + text.slice(m.index + m[0].length);
}

// Fields named, never `{ ...base, more }`: on Node 20 that literal costs about a microsecond.
function reading(flow: MoneyFlow | null, reimbursable: boolean, type: TransactionType | null, words: string): MoneyFlowReading {
  return { flow, counterparty: null, reimbursable, type, words };
}

/** Null when the item says nothing of the kind. */
export function readMoneyFlow(text: string, customCategories: readonly CategoryRef[] = []): MoneyFlowReading | null {
  // 报销单打印五块: nouns about reimbursing are spending like any other.
  const words = hasStart(text, NOUN_STARTS) ? text.replace(REIMBURSEMENT_NOUN, MASK) : text;
  if (words.includes('报')) {
    const reimbursed = REIMBURSED_WORDS.exec(words) ?? REIMBURSED_BY.exec(words);
    if (reimbursed) return reading('reimbursement', false, 'INCOME', cut(words, reimbursed));
    const notReimbursable = NOT_REIMBURSABLE_WORDS.exec(words);
    if (notReimbursable) return reading(null, false, 'EXPENSE', cut(words, notReimbursable));
    const reimbursable = REIMBURSABLE_WORDS.exec(words);
    if (reimbursable) return reading(null, true, 'EXPENSE', cut(words, reimbursable));
    // 报销八百 is money back; 打车八十报销 names what was spent, so it is to be paid back.
    const bare = REIMBURSE.exec(words);
    if (bare) {
      const rest = cut(words, bare);
      const spent = matchCategoryWord(rest, customCategories, (c) => c.type === 'EXPENSE') !== null;
      return spent ? reading(null, true, 'EXPENSE', rest) : reading('reimbursement', false, 'INCOME', rest);
    }
  }
  if (words.includes('垫')) {
    const advanced = readAdvanced(words);
    if (advanced) return advanced;
  }
  const refund = REFUND.exec(words);
  if (refund) return reading('refund', false, 'INCOME', cut(words, refund));
  const debt = readDebt(words);
  if (debt) return { flow: debt.flow, counterparty: debt.counterparty, reimbursable: false, type: 'TRANSFER', words };
  // 跟朋友借了辆车加油三百: borrowing a thing moves no money, so 借了 says nothing of the type.
  const thing = words.includes('借') ? BORROWED_THING.exec(words) : null;
  if (thing) return reading(null, false, null, cut(words, thing));
  if (words !== text) return reading(null, false, null, words);
  return null;
}

/** 帮公司垫付了 is to be paid back by the company; 帮小李垫了 lends to 小李. */
function readAdvanced(words: string): MoneyFlowReading | null {
  for (const m of matches(ADVANCED_FOR_SOMEONE, words)) {
    const whom = m[1]!;
    if (REIMBURSER.test(whom)) return { flow: null, counterparty: null, reimbursable: true, type: 'EXPENSE', words: cut(words, m) };
    if (personAt(whom, 0) === whom) return { flow: 'lend', counterparty: whom, reimbursable: false, type: 'TRANSFER', words };
  }
  const advanced = ADVANCED.exec(words);
  return advanced ? { flow: null, counterparty: null, reimbursable: true, type: 'EXPENSE', words: cut(words, advanced) } : null;
}

// The verbs of a debt, each tried where it stands; a person next to it says who.
const LEND_TO = /借给了?/g;
const LEND_THEN_TO = new RegExp(`借(?:了|出)?(?:钱|${MASK})+给`, 'g');
const LENT_OUT = /借出(?:去)?/;
// 跟小李借车, 从图书馆借书, 跟邻居借了把梯子: things borrowed are no debt of money (借了个五百 is).
const THING = `(?:${anyOf(BORROWED_THINGS)}|[一两二三四五六七八九十几\\d]{0,3}(?:${anyOf(THING_MEASURES)})(?!${MASK}|钱|$))`;
// The verb's own ending is skipped inside, so no shorter reading of the verb (借 of 借了) gets past.
const NOT_MONEY = `(?!(?:了|来|到|走|去|入|出)?${THING})`;
// 借了小李的车, 借给小李一把伞: after the person, a thing.
const THING_OF = new RegExp(`^的?${THING}`);
const BORROWED_THING = new RegExp(`借(?:了|来|到|走|给)?(?=[^${MASK}]{0,8}?${THING})`);
const BORROW_FROM = new RegExp(`${anyOf(FROM_PERSON)}([^${MASK}]{1,8}?)(?:${anyOf(PERSON_PLACE)})?借(?:了|来|到)?${NOT_MONEY}`, 'g');
const BORROWED = new RegExp(`借(?:入|来|到)${NOT_MONEY}`);
const LEND_BY_GIVING = /给([^，]{1,8}?)借了?/g;
const BORROWED_BY = new RegExp(`借(走|了|去)?${NOT_MONEY}`, 'g');
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
  if (!DEBT_WORD.test(text)) return null;
  const settled = readSettledDebt(text);
  if (settled) return settled;
  // 借给小李 lends; 小李借给我 borrows; 借给小李一把伞 lends no money.
  for (const m of [...matches(LEND_TO, text), ...matches(LEND_THEN_TO, text)]) {
    const at = m.index + m[0].length;
    if (meAt(text, at)) return { flow: 'borrow', counterparty: subjectBefore(text, m.index) };
    const person = personAt(text, at);
    if (person !== null && THING_OF.test(text.slice(at + person.length))) continue;
    return { flow: 'lend', counterparty: person };
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

/** A debt named as a thing (欠小李的, 借给堂弟的): who it is with, whether the user owes it, where its words end. */
interface DebtClause {
  counterparty: string | null;
  userOwes: boolean;
  start: number;
  end: number;
}

const COLLECTING = anyOf(COLLECTING_VERBS);
const DEBT_WORD = new RegExp(`[借还欠]|${COLLECTING}`);
// 欠小李的, 欠了二叔那; 小李欠我的 is owed to the user.
const OWED_CLAUSE = new RegExp(`欠了?([^${MASK}]{1,8}?)(?:的|那)`, 'g');
// 借给堂弟的, 借出去的.
const LENT_CLAUSE = new RegExp(`借(?:出去?)?给了?([^${MASK}]{1,8}?)(?:的|那)|借出去?(?:的|那)`, 'g');
// 跟小李借的, 借老郑的.
const BORROWED_CLAUSE = new RegExp(
  `(?:${anyOf(FROM_PERSON)})([^${MASK}]{1,8}?)(?:${anyOf(PERSON_PLACE)})?借(?:了|来|到)?的|借了?(?![给出])([^${MASK}]{1,8}?)(?:的|那)`,
  'g',
);
// 借的钱, 小李借走的五百: borrowed, by whoever stands before it.
const BORROWED_BY_CLAUSE = new RegExp(`借(?:来|到|走|去)?的(?=钱|款|${MASK})`, 'g');
const PRONOUN_BEFORE = /(?:他|她)们?$/;
// 我把…, 把…: the user acts on what follows.
const USER_ACTS = /(?:^|我|，)把$/;
// 小李的钱还了, 小李那五百还我了: whose money, right before it.
const OWNED_MONEY = new RegExp(`(?:的|那)(?=钱|款|${MASK})`, 'g');
const CLAUSE_VERBS = new Set([...'欠借给']);
const NOT_DONE = `(?<!${anyOf(NOT_DONE_BEFORE)})`;
// 还了, 还清, 还我, but not 还没, 还在 (still).
const PAID_OFF = `还(?=${anyOf(PAID_OFF_AFTER)}|${MASK}|$)`;
const PAID_BACK = new RegExp(`${NOT_DONE}(?:${PAID_OFF}|${COLLECTING})`);
const SETTLED_AFTER = new RegExp(`${NOT_DONE}(?:${PAID_OFF}|${COLLECTING}|${anyOf(SETTLING_VERBS)})`);
// 还了欠小李的, 收回借给小李的: the verb before the debt (我还欠小李的 is "still owe", no money).
const SETTLED_BEFORE = new RegExp(`(?:(?:还|${COLLECTING})(?:清|上|完)?了|${COLLECTING})$`);
// 他还我了, 转给我了, 收回来了: back to the user; 转给他了, 我还了: the user paid.
const TO_USER = new RegExp(`${anyOf(SETTLED_TO_USER)}|(?<!给)(?:他|她)们?[^${MASK}]{0,2}还`);
const BY_USER = new RegExp(anyOf(SETTLED_BY_USER));

/** Who a clause names: a person, null for 他 or no one, undefined when its words are no one who can owe (信用卡). */
function named(slot: string | undefined): string | null | undefined {
  if (slot === undefined || PRONOUN.test(slot)) return null;
  return personAt(slot, 0) === slot ? slot : undefined;
}

/** Who stands before `at` as the one who owes (小李欠我的, 他把欠我的, 小李借的): a person, null for 他, else undefined. */
function debtorBefore(text: string, at: number): string | null | undefined {
  const end = at - (text[at - 1] === '把' ? 1 : 0);
  const subject = subjectBefore(text, end);
  if (subject !== null) return subject;
  return PRONOUN_BEFORE.test(text.slice(0, end)) ? null : undefined;
}

function clause(m: RegExpExecArray, counterparty: string | null, userOwes: boolean): DebtClause {
  return { counterparty, userOwes, start: m.index, end: m.index + m[0].length };
}

function* debtClauses(text: string): Generator<DebtClause> {
  for (const m of matches(OWED_CLAUSE, text)) {
    const toUser = m[1] === '我';
    const who = toUser ? (debtorBefore(text, m.index) ?? null) : named(m[1]);
    if (who !== undefined) yield clause(m, who, !toUser);
  }
  for (const m of matches(LENT_CLAUSE, text)) {
    const who = named(m[1]);
    if (who !== undefined) yield clause(m, who, false);
  }
  for (const m of matches(BORROWED_CLAUSE, text)) {
    // 我把小陈借我的三百还了: what 小陈 lent the user, who pays it back. Without 把 or 我 before
    // it, 小陈借我的 may as well be what 小陈 borrowed from the user: no reading.
    if (m[2] === '我') {
      const lender = debtorBefore(text, m.index);
      if (lender && USER_ACTS.test(text.slice(0, m.index - lender.length))) yield clause(m, lender, true);
      continue;
    }
    const who = named(m[1] ?? m[2]);
    if (who !== undefined) yield clause(m, who, true);
  }
  // 借的钱还了 repays; 小李借的钱还了 collects.
  for (const m of matches(BORROWED_BY_CLAUSE, text)) {
    const debtor = debtorBefore(text, m.index);
    yield clause(m, debtor ?? null, debtor === undefined);
  }
}

/** 欠小李的五百还了 repays 小李; 借给堂弟的两千收回来了 and 借老郑的钱他还我了 collect. */
function readSettledDebt(text: string): Debt | null {
  for (const debt of debtClauses(text)) {
    const after = text.slice(debt.end);
    if (THING_OF.test(after)) continue;
    const verb = SETTLED_AFTER.exec(after);
    const tail = verb ? after.slice(verb.index) : SETTLED_BEFORE.exec(text.slice(0, debt.start))?.[0];
    if (tail !== undefined) return { flow: settledFlow(tail, debt.userOwes), counterparty: debt.counterparty };
  }
  if (!PAID_BACK.test(text)) return null;
  for (const m of matches(OWNED_MONEY, text)) {
    const owner = personBefore(text, m.index);
    if (owner === null || CLAUSE_VERBS.has(text[m.index - owner.length - 1] ?? '')) continue;
    const verb = PAID_BACK.exec(text.slice(m.index + 1));
    if (verb) return { flow: settledFlow(text.slice(m.index + 1 + verb.index), true), counterparty: owner };
  }
  return null;
}

/** Which way a settled debt went: words that send it to the user or from the user, else who owed it. */
function settledFlow(words: string, userOwes: boolean): MoneyFlow {
  if (TO_USER.test(words)) return 'collect';
  if (BY_USER.test(words)) return 'repay';
  return userOwes ? 'repay' : 'collect';
}

const MONEY_THEN_TO = new RegExp(`^(?:钱|款)?了?${MASK}*给`);

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
  const later = MONEY_THEN_TO.exec(after);
  if (later) {
    const to = personAt(text, at + 1 + later[0].length);
    if (to !== null) return { flow: 'repay', counterparty: to };
  }
  return null;
}

// EXPENSE, INCOME or TRANSFER from the words of one item. Red packets go by direction:
// 收到/抢到红包 is income (红包), 发红包/给…红包 is an expense (人情往来).
import type { TransactionType } from '@shared/domain';
import { BENEFITS, INCOME_WORDS, NOT_SALE_AFTER, NOT_SALE_BEFORE, PAID_IN, TRANSFER_WORDS } from './lexicon/transaction-types';
import { anyOf } from './lexicon/words';

export interface TypeReading {
  type: TransactionType | null;
  /** A category the type words already imply (红包, 人情往来, 转账). */
  category: string | null;
}

const RED_PACKET_OUT =
  /发(?:了|个|一个|出)*(?:[^，,。；;]{0,4})红包|给[^，,。；;]{0,8}红包|包(?:了)?(?:个|一个)?红包|送(?:了)?(?:个|一个)?红包|随(?:了)?(?:个|一个)?红包|红包发/;
const RED_PACKET_IN =
  /给我(?:发|包)[^，,。；;]{0,4}红包|发给我[^，,。；;]{0,4}红包|红包发给我|收(?:到|了)?[^，,。；;]{0,4}红包|抢(?:到|了)?[^，,。；;]{0,4}红包|领(?:到|了)?[^，,。；;]{0,4}红包|得(?:到|了)[^，,。；;]{0,4}红包|红包(?:收|到账|进账)/;
const INCOMING_TRANSFER = /(?:收到|收了|到账|进账)[^，,。；;]{0,8}转账|转账[^，,。；;]{0,4}(?:到账|进账)/;
// 给他打了500, 给妈转, 取了两千现金: transfer verbs with the person or the money between.
const TRANSFER = new RegExp(
  `${anyOf(TRANSFER_WORDS)}|给[^，,。；;]{1,6}打了?(?=[0-9零一二两三四五六七八九十])|给[^，,。；;]{1,6}转|取[了出]?[^，,。；;]{0,4}现金`,
);
// 养老金打到卡上了 is income, though its money comes by transfer; 交养老金 is spending.
const BENEFIT = new RegExp(`(?<!${anyOf(PAID_IN)})(?:${anyOf(BENEFITS)})(?![^，,。；;]{0,2}(?:${anyOf(PAID_IN)}))`);
// The last characters of the benefit words: a text with none of them skips the regex above.
const BENEFIT_ENDS = new RegExp(`[${[...new Set(BENEFITS.map((w) => w.at(-1)))].join('')}]`);
const INCOME = new RegExp(`${anyOf(INCOME_WORDS)}|(?<!${anyOf(NOT_SALE_BEFORE)})卖(?!${anyOf(NOT_SALE_AFTER)})`);

/** Reads the type words only; a null type means "decide from the category, else EXPENSE". */
export function readTypeWords(text: string): TypeReading {
  if (text.includes('红包')) {
    if (RED_PACKET_IN.test(text)) return { type: 'INCOME', category: '红包' };
    if (RED_PACKET_OUT.test(text)) return { type: 'EXPENSE', category: '人情往来' };
  }
  if (INCOMING_TRANSFER.test(text) || (BENEFIT_ENDS.test(text) && BENEFIT.test(text))) return { type: 'INCOME', category: null };
  if (TRANSFER.test(text)) return { type: 'TRANSFER', category: '转账' };
  if (INCOME.test(text)) return { type: 'INCOME', category: null };
  return { type: null, category: null };
}

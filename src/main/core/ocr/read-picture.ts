// What a picture is and which drafts it holds, from the lines the recognizer read off it. Pure:
// no electron, no native module, no I/O; a few milliseconds a picture (the first one of the
// process also loads jieba's dictionary for the categories, about half a second).
//
// Conservative by design: a picture is read as a payment only when it carries the marks of one
// kind of page (an app's labels, an order's 实付款, a bank SMS's 尾号…元, a till's 合计 and 收银);
// a chat where people talk about money, or any other text, gives no draft. The kinds are tried
// most specific first: an invoice or an SMS names itself; a taxi's 里程 and 上车 are on no app's
// page; 云闪付 names itself on pages laid out like WeChat's; an app's 账单详情 of a 淘宝 purchase
// is the app's, not the shop's order page.
import { DEFAULT_ACCOUNT, PRESET_CATEGORIES } from '@shared/categories';
import type { ZonedNow } from '@shared/time';
import type { Categorizer } from '../ledger/bills/bill-categories';
import { createWordCategorizer } from '../ledger/bills/words';
import { ACCOUNTS } from '../nlp/lexicon/accounts';
import { readAlipay, readUnionpay, readWechat } from './read-apps';
import type { PictureContext } from './read-draft';
import { readOrder } from './read-orders';
import { rowsOf, type Row } from './read-rows';
import { readBankSms } from './read-sms';
import { readInvoice, readTaxi } from './read-tickets';
import { readReceipt } from './receipt';
import type { OcrLine, PictureReading } from './types';

export type { PictureContext } from './read-draft';

type Reader = (rows: readonly Row[], context: PictureContext) => PictureReading | null;

const READERS: readonly Reader[] = [readInvoice, readBankSms, readTaxi, readUnionpay, readWechat, readAlipay, readOrder, readReceipt];

export function readPicture(lines: readonly OcrLine[], context: PictureContext): PictureReading {
  const rows = rowsOf(lines);
  if (rows.length > 0) {
    for (const read of READERS) {
      const reading = read(rows, context);
      if (reading) return reading;
    }
  }
  return { kind: null, drafts: [], notes: [] };
}

/** The categories a new book shows, no merchant memory, and the accounts speech knows (for the CLI and tests). */
export function presetPictureContext(now: ZonedNow): PictureContext {
  const categories = PRESET_CATEGORIES.filter((c) => !c.hidden).map((c, i) => ({ id: i + 1, name: c.name, type: c.type, sortOrder: i }));
  const categorize: Categorizer = { categories, memory: new Map(), words: createWordCategorizer(categories) };
  const accounts = [...new Set([DEFAULT_ACCOUNT, ...Object.values(ACCOUNTS)])];
  return { now, categorize, accounts, receiptLines: 'items' };
}

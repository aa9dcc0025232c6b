// What a page reader found, made into a draft the way a bill's line becomes a row: the same
// category choice (the user's memory of the merchant first, then the bill's own category, then
// the words of item, merchant and note), and the book's account for the way it was paid.
import { fenToYuan } from '@shared/money';
import { localDate, type ZonedNow } from '@shared/time';
import { chooseCategory, type Categorizer } from '../ledger/bills/bill-categories';
import type { BillFormat, BillLine } from '../ledger/bills/layouts';
import { accountFor } from './pay-account';
import type { When } from './read-rows';
import type { PictureDraft } from './types';

export interface PictureContext {
  now: ZonedNow;
  /** Categories, merchant memory and the word categorizer, as bill imports use them. */
  categorize: Categorizer;
  /** The book's usable account names (for 支付方式 → account). */
  accounts: readonly string[];
  /** A receipt: one draft per item line, or one for what was paid. */
  receiptLines: 'items' | 'total';
}

/** Where the money went: spent, came in, came back for a purchase, or went to a person. */
export type Direction = 'out' | 'in' | 'refund' | 'transfer';

export interface Found {
  amountFen: number | null;
  direction: Direction;
  /** The shop or person as the picture writes it. */
  merchant: string | null;
  /** What was bought (商品说明, an order's dishes, a receipt's line). */
  item?: string;
  /** The page's own category (Alipay's 账单分类). */
  billCategory?: string;
  /** The kind of trade, as bills name it (转账, 微信红包, 网购): see bill-categories.ts. */
  billKind?: string;
  note?: string;
  /** The ledger row's text; default: the merchant without its branch, else the item. */
  description?: string;
  when: When | null;
  /** 支付方式 as written. */
  payMethod?: string | null;
  /** The app whose 余额 the page means. */
  wallet?: '微信' | '支付宝' | null;
  counterparty?: string;
  /** The bill layout whose merchant memory this page shares (a food platform's is its shop). */
  format?: BillFormat;
}

/** A branch, a detail in brackets: 「瑞幸咖啡(望京店)」 is 瑞幸咖啡 on the ledger row. */
const ASIDE = /\s*[(（][^()（）]*[)）]\s*/g;
const COMPANY = /(股份有限公司|有限责任公司|有限公司|分公司)$/;

/** What a ledger row calls a shop: without its branch and its company form. */
export function shortName(name: string): string {
  const short = name.replace(ASIDE, '').replace(COMPANY, '').replace(ASIDE, '').trim();
  return (short || name).slice(0, 40);
}

export function draftOf(found: Found, context: PictureContext): PictureDraft {
  const when = found.when ?? { date: localDate(context.now), time: null };
  const merchant = found.merchant?.trim() || null;
  const description = (found.description ?? (merchant ? shortName(merchant) : (found.item ?? ''))).trim().slice(0, 200);
  const account = accountFor(found.payMethod ?? null, context.accounts, found.wallet ?? null);
  const draft: PictureDraft = {
    amount: found.amountFen === null ? null : fenToYuan(found.amountFen),
    type: 'EXPENSE',
    category: '',
    date: when.date,
    time: when.time,
    description,
    account,
    merchant,
  };
  if (found.direction === 'transfer') {
    const transfer = context.categorize.categories.filter((c) => c.type === 'TRANSFER');
    draft.type = 'TRANSFER';
    draft.category = (transfer.find((c) => c.name === '转账') ?? transfer[0])?.name ?? '转账';
    if (found.counterparty) draft.counterparty = found.counterparty;
    return draft;
  }
  const line = billLine(found, when);
  const format = found.format ?? 'wechat';
  if (found.direction === 'refund') {
    // A refund counts against what it returns: the category of the purchase, as a spoken one.
    draft.type = 'INCOME';
    draft.flow = 'refund';
    draft.category = chooseCategory(line, 'EXPENSE', format, context.categorize);
    return draft;
  }
  draft.type = found.direction === 'in' ? 'INCOME' : 'EXPENSE';
  draft.category = chooseCategory(line, draft.type, format, context.categorize);
  return draft;
}

function billLine(found: Found, when: When): BillLine {
  return {
    line: 0,
    date: when.date,
    time: when.time ?? '',
    direction: found.direction === 'in' || found.direction === 'refund' ? 'in' : 'out',
    amountFen: found.amountFen ?? 0,
    statedRefundFen: 0,
    fullyRefunded: false,
    merchant: found.merchant ?? '',
    item: found.item ?? '',
    category: found.billCategory ?? '',
    kind: found.billKind ?? '',
    status: '',
    orderNo: '',
    merchantOrderNo: '',
    note: found.note ?? '',
    feeFen: 0,
  };
}

// A bill's lines → the rows the ledger gets. Refunds are never income, and each is counted
// once: a refund line is matched to the purchase it returns (by order number, by the item it
// names, by the merchant, and by what the purchase says was refunded), a purchase refunded in
// full is left out with its refunds (net zero), and a partial refund becomes a refund row
// linked to its purchase — whether the bill says it in a column, in a status, inside the
// amount cell or on a line of its own, or in more than one of these.
import { createHash } from 'node:crypto';
import { SKIP_REASONS, type SkipReason, type SkippedLines } from '@shared/ipc/ledger';
import type { TransactionType } from '@shared/domain';
import type { ImportRow } from '../types';
import { chooseCategory, type Categorizer } from './bill-categories';
import { classify, returnedInFull } from './classify';
import type { Pacer } from '../pace';
import { merchantOf, type BillFormat, type BillLine } from './layouts';

export const BILL_ACCOUNTS: Record<BillFormat, string> = { alipay: '支付宝', wechat: '微信', jd: '京东', meituan: '美团' };

export interface BillRows {
  rows: ImportRow[];
  skipped: SkippedLines[];
  refunds: { count: number; fen: number };
}

interface Purchase {
  line: BillLine;
  closed: boolean;
  /** What the purchase line itself says was refunded. */
  statedFen: number;
  refunds: BillLine[];
  refundedFen: number;
}

const stamp = (l: BillLine) => `${l.date} ${l.time}`;
/** The text of an item a refund names: 「退款-JEEP 卫衣」 and 「JEEP 卫衣 等多件」 name the same thing. */
const itemText = (s: string) =>
  s
    .replace(/^退款[-－:：\s]*/, '')
    .replace(/\s*等多件$/, '')
    .trim();

export async function billRows(format: BillFormat, lines: readonly BillLine[], categorize: Categorizer, pace: Pacer): Promise<BillRows> {
  const skipped = new Map<SkipReason, SkippedLines>();
  const skip = (reason: SkipReason, l: BillLine) => {
    const s = skipped.get(reason) ?? { reason, count: 0, fen: 0 };
    s.count++;
    s.fen += l.amountFen;
    skipped.set(reason, s);
  };
  const purchases: Purchase[] = [];
  const incomes: BillLine[] = [];
  const refundLines: BillLine[] = [];
  const fees: BillLine[] = [];
  for (const l of lines) {
    await pace();
    const role = classify(l);
    if (l.feeFen > 0) fees.push(l);
    if (role.role === 'skip') skip(role.reason, l);
    else if (role.role === 'income') incomes.push(l);
    else if (role.role === 'refund') refundLines.push(l);
    else {
      const full = returnedInFull(l, role.closed);
      purchases.push({
        line: l,
        closed: role.closed,
        statedFen: full ? l.amountFen : Math.min(l.statedRefundFen, l.amountFen),
        refunds: [],
        refundedFen: 0,
      });
    }
  }
  const unique = uniqueOrders(purchases);
  const unmatched = await matchRefunds(purchases, refundLines, format, unique, pace);

  const account = BILL_ACCOUNTS[format];
  const ids = new BillIds(format, unique);
  const rows: ImportRow[] = [];
  let refundCount = 0;
  let refundFen = 0;
  const describe = (l: BillLine) => [l.merchant, l.item].filter(Boolean).join(' ').slice(0, 200);
  const base = (l: BillLine, type: TransactionType, category: string): ImportRow => {
    const merchant = merchantOf(l, format);
    return {
      line: l.line,
      date: l.date,
      time: l.time,
      type,
      category,
      amountFen: l.amountFen,
      account,
      description: describe(l),
      ...(merchant ? { merchant } : {}),
    };
  };

  for (const p of purchases) {
    await pace();
    const l = p.line;
    // A closed trade moved no money unless the bill says it refunded some (old Alipay's 成功退款).
    if (p.closed && p.refunds.length === 0 && l.statedRefundFen === 0 && !l.fullyRefunded) {
      skip('closed', l);
      continue;
    }
    const returned = Math.min(l.amountFen, Math.max(p.statedFen, p.refundedFen));
    if (returned >= l.amountFen) {
      skip('refunded', l);
      for (const r of p.refunds) skip('refunded', r);
      refundCount += 1;
      refundFen += l.amountFen;
      continue;
    }
    const category = chooseCategory(l, 'EXPENSE', format, categorize);
    const purchase: ImportRow = { ...base(l, 'EXPENSE', category), id: ids.of(l) };
    rows.push(purchase);
    if (returned === 0) continue;
    refundCount += 1;
    refundFen += returned;
    for (const r of p.refunds) rows.push({ ...base(r, 'EXPENSE', category), flow: 'refund', refundOf: purchase.id });
    // What the purchase says was refunded beyond the refund lines the bill has.
    const rest = p.statedFen - p.refundedFen;
    if (rest > 0) {
      rows.push({
        ...base(l, 'EXPENSE', category),
        amountFen: rest,
        description: `退款 ${describe(l)}`.slice(0, 200),
        flow: 'refund',
        refundOf: purchase.id,
      });
    }
  }
  for (const r of unmatched) {
    // A refund of a purchase outside this bill: linked to it when an earlier import brought it in.
    const row: ImportRow = { ...base(r, 'EXPENSE', chooseCategory(r, 'EXPENSE', format, categorize)), flow: 'refund' };
    const of = ids.ofOrder(r.orderNo.split('_')[0] ?? '');
    if (of) row.refundOf = of;
    rows.push(row);
    refundCount += 1;
    refundFen += r.amountFen;
  }
  for (const l of incomes) {
    await pace();
    rows.push(base(l, 'INCOME', chooseCategory(l, 'INCOME', format, categorize)));
  }
  for (const l of fees) {
    rows.push({
      ...base(l, 'EXPENSE', chooseCategory({ ...l, category: '手续费', kind: '', item: '手续费', merchant: '' }, 'EXPENSE', format, categorize)),
      amountFen: l.feeFen,
      description: ['服务费', l.kind, describe(l)].filter(Boolean).join(' ').slice(0, 200),
    });
  }
  rows.sort((a, b) => a.line - b.line);
  return { rows, skipped: SKIP_REASONS.flatMap((r) => skipped.get(r) ?? []), refunds: { count: refundCount, fen: refundFen } };
}

/**
 * Gives each refund line to the purchase it most likely returns, oldest refunds first. A
 * purchase takes refunds up to what it says was refunded (all of it when it was refunded in
 * full or closed), or up to its amount when it says nothing. Evidence: the same order number
 * (Alipay's refund is the order number and a suffix), the item the refund names, the
 * merchant, a purchase that says it expects a refund, and an amount that settles it exactly.
 * A purchase with none of the first four is never a candidate, so only those are looked at:
 * the ones indexed by order number, item and merchant, and the few that expect a refund.
 */
async function matchRefunds(
  purchases: Purchase[],
  refundLines: readonly BillLine[],
  format: BillFormat,
  unique: (orderNo: string) => boolean,
  pace: Pacer,
): Promise<BillLine[]> {
  const facts = new Map<Purchase, { stamp: string; text: string; merchant: string }>();
  const byOrder = new Map<string, Purchase[]>();
  const byText = new Map<string, Purchase[]>();
  const byMerchant = new Map<string, Purchase[]>();
  const expecting: Purchase[] = [];
  const push = (index: Map<string, Purchase[]>, key: string, p: Purchase) => {
    if (!key) return;
    const list = index.get(key);
    if (list) list.push(p);
    else index.set(key, [p]);
  };
  for (const p of purchases) {
    const f = { stamp: stamp(p.line), text: itemText(p.line.item), merchant: merchantOf(p.line, format) };
    facts.set(p, f);
    push(byOrder, p.line.orderNo, p);
    push(byText, f.text, p);
    push(byMerchant, f.merchant, p);
    if (p.statedFen > 0) expecting.push(p);
  }
  const unmatched: BillLine[] = [];
  const byTime = [...refundLines].sort((a, b) => stamp(a).localeCompare(stamp(b)) || a.line - b.line);
  for (const r of byTime) {
    await pace();
    const when = stamp(r);
    const text = itemText(r.item);
    const merchant = merchantOf(r, format);
    const candidates = new Set([
      ...(byOrder.get(r.orderNo) ?? []),
      ...(byOrder.get(r.orderNo.split('_')[0]!) ?? []),
      ...(byText.get(text) ?? []),
      ...(merchant ? (byMerchant.get(merchant) ?? []) : []),
      ...expecting,
    ]);
    let best: Purchase | undefined;
    let bestStamp = '';
    let bestScore = 1;
    for (const p of candidates) {
      const l = p.line;
      const f = facts.get(p)!;
      if (f.stamp > when) continue;
      const cap = p.statedFen > 0 ? p.statedFen : l.amountFen;
      const left = cap - p.refundedFen;
      if (left < r.amountFen) continue;
      let score = 0;
      if (unique(l.orderNo) && (r.orderNo === l.orderNo || r.orderNo.startsWith(`${l.orderNo}_`))) score += 8;
      if (text.length >= 2 && f.text.length >= 2 && (f.text.includes(text) || text.includes(f.text))) score += 4;
      if (merchant && f.merchant === merchant) score += 2;
      if (p.statedFen > 0) score += 2;
      if (left === r.amountFen) score += 1;
      // Ties go to the latest purchase: a refund follows the trade it returns.
      if (score > bestScore || (score === bestScore && best && f.stamp >= bestStamp)) {
        best = p;
        bestStamp = f.stamp;
        bestScore = score;
      }
    }
    if (best) {
      best.refunds.push(r);
      best.refundedFen += r.amountFen;
    } else {
      unmatched.push(r);
    }
  }
  return unmatched;
}

/** Whether an order number belongs to exactly one purchase of the bill (anonymized or odd bills repeat them). */
function uniqueOrders(purchases: readonly Purchase[]): (orderNo: string) => boolean {
  const count = new Map<string, number>();
  for (const p of purchases) if (p.line.orderNo) count.set(p.line.orderNo, (count.get(p.line.orderNo) ?? 0) + 1);
  return (orderNo) => count.get(orderNo) === 1;
}

/**
 * Ids for a bill's purchases that derive from the bill, so a refund in a later bill can link
 * to its purchase imported earlier: from the order number where the bill's is unique, else
 * from the line's content. Re-importing the same bill derives the same ids.
 */
class BillIds {
  private readonly used = new Set<string>();

  constructor(
    private readonly format: BillFormat,
    private readonly unique: (orderNo: string) => boolean,
  ) {}

  of(l: BillLine): string {
    const key = this.unique(l.orderNo) ? `order:${l.orderNo}` : `line:${stamp(l)}:${l.amountFen}:${l.merchant}:${l.item}`;
    let id = uuidOf(`${this.format}:${key}`);
    for (let n = 2; this.used.has(id); n++) id = uuidOf(`${this.format}:${key}#${n}`);
    this.used.add(id);
    return id;
  }

  /** The id a purchase of this order number got (or gets) when its bill was imported. */
  ofOrder(orderNo: string): string | undefined {
    return orderNo ? uuidOf(`${this.format}:order:${orderNo}`) : undefined;
  }
}

function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

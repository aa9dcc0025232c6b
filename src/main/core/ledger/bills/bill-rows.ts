// A bill's lines → the rows the ledger gets. Refunds are never income, and each is counted
// once: a refund line is matched to the purchase it returns (by order number, by the item it
// names, by the merchant, and by what the purchase says was refunded) — in this bill, or in
// the ledger when an earlier bill brought the purchase in. A purchase refunded in full, or a
// closed trade, is left out with its refunds (net zero); a partial refund becomes a refund
// row linked to its purchase; a refund whose purchase is nowhere yet waits for it (待关联),
// counted only once the purchase arrives — whether the bill says it in a column, in a status,
// inside the amount cell or on a line of its own, or in more than one of these.
//
// Every row's id is its identity in the bill: the bill's order number where it has a usable
// one, else the line's time to the minute, amount, counterparty and direction. A re-saved copy
// (seconds dropped, CSV ↔ .xlsx, GBK ↔ UTF-8) or an overlapping bill derives the same ids, so
// the ledger knows which lines it has — whatever the user has since changed on them.
import { createHash } from 'node:crypto';
import { SKIP_REASONS, type SkipReason, type SkippedLines } from '@shared/ipc/ledger';
import type { TransactionType } from '@shared/domain';
import type { ImportRow } from '../types';
import { chooseCategory, type Categorizer } from './bill-categories';
import { classify, returnedInFull } from './classify';
import type { Pacer } from '../pace';
import { merchantOf, type BillFormat, type BillLine } from './layouts';
import type { LedgerPurchase, RefundLedger, WaitingRefund } from './table';

export const BILL_ACCOUNTS: Record<BillFormat, string> = { alipay: '支付宝', wechat: '微信', jd: '京东', meituan: '美团' };

export interface BillRows {
  rows: ImportRow[];
  /** Every line of the bill's table. */
  lines: number;
  /** Lines left out, by reason (a line that writes a row — a withdrawal's fee — is not among them). */
  skipped: SkippedLines[];
  /** Lines that cancel out: purchases refunded in full or closed, and their refund lines; fen: the purchases'. */
  netted: { count: number; fen: number };
  /** Refunds in the ledger that waited for a purchase of this bill. */
  links: { refundId: string; purchaseId: string; fen: number }[];
}

interface Purchase {
  line: BillLine;
  closed: boolean;
  /** What the purchase line itself says was refunded. */
  statedFen: number;
  refunds: BillLine[];
  refundedFen: number;
}

/** What a refund is matched on, from a bill line or a ledger row. */
interface RefundFacts {
  stamp: string;
  amountFen: number;
  orderNo: string;
  merchantOrderNo: string;
  text: string;
  merchant: string;
}

/** What a purchase offers a refund, from a bill line or a ledger row. */
interface PurchaseFacts {
  stamp: string;
  /** The order number when it names this purchase alone. */
  orderNo: string;
  merchantOrderNo: string;
  text: string;
  merchant: string;
  /** What it says was refunded (0: says nothing). */
  statedFen: number;
  /** How much more it can take back. */
  leftFen: number;
}

const stamp = (l: BillLine) => `${l.date} ${l.time}`;
/** The text of an item a refund names: 「退款-JEEP 卫衣」 and 「JEEP 卫衣 等多件」 name the same thing. */
const itemText = (s: string) =>
  s
    .replace(/^退款[-－:：\s]*/, '')
    .replace(/\s*等多件$/, '')
    .trim();
/** The item a ledger row names: its description without the merchant it starts with (see describe). */
const rowItem = (r: { description: string; merchant: string }) => itemText(r.merchant ? r.description.replace(r.merchant, '') : r.description);
/** An order number as bills write them; Excel's 4.20000E+27 or a '/' placeholder is none. */
const usable = (no: string) => (/^[0-9A-Za-z][0-9A-Za-z_-]{5,}$/.test(no) ? no : '');

export async function billRows(
  format: BillFormat,
  lines: readonly BillLine[],
  categorize: Categorizer,
  pace: Pacer,
  ledger?: RefundLedger,
): Promise<BillRows> {
  /** Lines that write nothing, and why: a line that writes a row is counted by its rows instead. */
  const fate = new Map<number, { reason: SkipReason | 'netted'; fen: number }>();
  const purchases: Purchase[] = [];
  const incomes: BillLine[] = [];
  const refundLines: BillLine[] = [];
  const fees: BillLine[] = [];
  for (const l of lines) {
    await pace();
    const role = classify(l);
    if (l.feeFen > 0) fees.push(l);
    if (role.role === 'skip') fate.set(l.line, { reason: role.reason, fen: l.amountFen });
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
  const unique = uniqueOrders(purchases.map((p) => p.line));
  const ids = new BillIds(format);
  const unmatched = await matchRefunds(purchases, refundLines, format, unique, pace);

  const account = BILL_ACCOUNTS[format];
  const rows: ImportRow[] = [];
  let nettedFen = 0;
  const net = (l: BillLine) => fate.set(l.line, { reason: 'netted', fen: l.amountFen });
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
  // Refunds an earlier bill brought in before their purchase: few, often none.
  const waiting = ledger?.waiting(account) ?? [];
  /** Purchases this bill writes and what they can still take back, for those refunds. */
  const written: { p: Purchase; id: string; leftFen: number }[] = [];

  for (const p of purchases) {
    await pace();
    const l = p.line;
    const key = ids.purchase(l, unique);
    // A closed trade moved no money unless the bill says it refunded some (old Alipay's 成功退款).
    if (p.closed && p.refunds.length === 0 && l.statedRefundFen === 0 && !l.fullyRefunded) {
      fate.set(l.line, { reason: 'closed', fen: l.amountFen });
      continue;
    }
    const returned = Math.min(l.amountFen, Math.max(p.statedFen, p.refundedFen));
    if (returned >= l.amountFen) {
      net(l);
      for (const r of p.refunds) net(r);
      nettedFen += l.amountFen;
      continue;
    }
    const category = chooseCategory(l, 'EXPENSE', format, categorize);
    const purchase: ImportRow = { ...base(l, 'EXPENSE', category), id: key };
    rows.push(purchase);
    if (waiting.length > 0) written.push({ p, id: key, leftFen: l.amountFen - returned });
    for (const r of p.refunds) rows.push({ ...base(r, 'EXPENSE', category), id: ids.refund(r), flow: 'refund', refundOf: key });
    // What the purchase says was refunded beyond the refund lines the bill has.
    const rest = p.statedFen - p.refundedFen;
    if (rest > 0) {
      rows.push({
        ...base(l, 'EXPENSE', category),
        id: ids.derived('stated-refund', key),
        amountFen: rest,
        description: `退款 ${describe(l)}`.slice(0, 200),
        flow: 'refund',
        refundOf: key,
      });
    }
  }

  const outside = ledger ? await ledgerMatches(unmatched, ledger.purchases(account, ...window(unmatched)), format, ids, pace) : new Map();
  for (const r of unmatched) {
    // A refund of a purchase outside this bill: linked to it when an earlier import brought it
    // in; otherwise it waits for its purchase, under the id an Alipay purchase of its order
    // number will have, or an id no row has.
    const id = ids.refund(r);
    const of = outside.get(r) ?? ids.ofOrder(usable(r.orderNo.split('_')[0] ?? '')) ?? ids.derived('awaiting', id);
    rows.push({ ...base(r, 'EXPENSE', chooseCategory(r, 'EXPENSE', format, categorize)), id, flow: 'refund', refundOf: of });
  }
  for (const l of incomes) {
    await pace();
    rows.push({ ...base(l, 'INCOME', chooseCategory(l, 'INCOME', format, categorize)), id: ids.line(l, 'income') });
  }
  for (const l of fees) {
    rows.push({
      ...base(l, 'EXPENSE', chooseCategory({ ...l, category: '手续费', kind: '', item: '手续费', merchant: '' }, 'EXPENSE', format, categorize)),
      id: ids.line(l, 'fee'),
      amountFen: l.feeFen,
      description: ['服务费', l.kind, describe(l)].filter(Boolean).join(' ').slice(0, 200),
    });
  }
  const links = waiting.length > 0 ? await waitingLinks(waiting, written, format, pace) : [];
  rows.sort((a, b) => a.line - b.line);

  // Each line counted once: by its rows when it writes any, else by why it writes none.
  const withRows = new Set(rows.map((r) => r.line));
  const skipped = new Map<SkipReason, SkippedLines>();
  let nettedCount = 0;
  for (const [line, f] of fate) {
    if (withRows.has(line)) continue;
    if (f.reason === 'netted') {
      nettedCount++;
      continue;
    }
    const s = skipped.get(f.reason) ?? { reason: f.reason, count: 0, fen: 0 };
    s.count++;
    s.fen += f.fen;
    skipped.set(f.reason, s);
  }
  return {
    rows,
    lines: lines.length,
    skipped: SKIP_REASONS.flatMap((r) => skipped.get(r) ?? []),
    netted: { count: nettedCount, fen: nettedFen },
    links,
  };
}

/** The days a refund's purchase may lie in: up to a year before the earliest refund. */
function window(refunds: readonly BillLine[]): [string, string] {
  const days = refunds.map((r) => r.date).sort();
  const first = new Date(`${days[0] ?? '1970-01-01'}T00:00:00Z`);
  first.setUTCDate(first.getUTCDate() - 366);
  return [first.toISOString().slice(0, 10), days.at(-1) ?? '1970-01-01'];
}

/**
 * How well a purchase explains a refund; above 1 it may be its purchase. Evidence: the same
 * order number (Alipay's refund is the order number and a suffix) or merchant order number,
 * the item the refund names, the merchant, a purchase that says it expects a refund, and an
 * amount that settles it exactly. A purchase that cannot take the refund back scores 0.
 */
function score(r: RefundFacts, p: PurchaseFacts): number {
  if (p.stamp > r.stamp || p.leftFen < r.amountFen) return 0;
  let score = 0;
  const sameOrder = p.orderNo && r.orderNo.startsWith(p.orderNo) && (r.orderNo.length === p.orderNo.length || r.orderNo[p.orderNo.length] === '_');
  if (sameOrder) score += 8;
  else if (p.merchantOrderNo && r.merchantOrderNo === p.merchantOrderNo) score += 8;
  if (r.text.length >= 2 && p.text.length >= 2 && (p.text.includes(r.text) || r.text.includes(p.text))) score += 4;
  if (r.merchant && p.merchant === r.merchant) score += 2;
  if (p.statedFen > 0) score += 2;
  if (p.leftFen === r.amountFen) score += 1;
  return score;
}

const refundFacts = (r: BillLine, format: BillFormat): RefundFacts => ({
  stamp: stamp(r),
  amountFen: r.amountFen,
  orderNo: usable(r.orderNo),
  merchantOrderNo: usable(r.merchantOrderNo),
  text: itemText(r.item),
  merchant: merchantOf(r, format),
});

/**
 * Gives each refund line to the purchase of the bill it most likely returns, oldest refunds
 * first. A purchase takes refunds up to what it says was refunded (all of it when it was
 * refunded in full or closed), or up to its amount when it says nothing. A purchase with no
 * order number, item, merchant or stated refund in common is never a candidate, so only those
 * are looked at: the ones indexed by order number, item and merchant, and the few that expect
 * a refund. Returns the refunds no purchase of the bill takes.
 */
async function matchRefunds(
  purchases: Purchase[],
  refundLines: readonly BillLine[],
  format: BillFormat,
  unique: (orderNo: string) => boolean,
  pace: Pacer,
): Promise<BillLine[]> {
  const facts = new Map<Purchase, PurchaseFacts>();
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
    const l = p.line;
    const f: PurchaseFacts = {
      stamp: stamp(l),
      orderNo: unique(l.orderNo) ? usable(l.orderNo) : '',
      merchantOrderNo: usable(l.merchantOrderNo),
      text: itemText(l.item),
      merchant: merchantOf(l, format),
      // A closed trade expects its money back, but only a refund that names it is its refund.
      statedFen: p.closed ? 0 : p.statedFen,
      leftFen: 0,
    };
    facts.set(p, f);
    push(byOrder, l.orderNo, p);
    push(byOrder, f.merchantOrderNo, p);
    push(byText, f.text, p);
    push(byMerchant, f.merchant, p);
    if (f.statedFen > 0) expecting.push(p);
  }
  const unmatched: BillLine[] = [];
  const byTime = [...refundLines].sort((a, b) => stamp(a).localeCompare(stamp(b)) || a.line - b.line);
  for (const r of byTime) {
    await pace();
    const rf = refundFacts(r, format);
    const candidates = new Set([
      ...(byOrder.get(r.orderNo) ?? []),
      ...(byOrder.get(r.orderNo.split('_')[0]!) ?? []),
      ...(rf.merchantOrderNo ? (byOrder.get(rf.merchantOrderNo) ?? []) : []),
      ...(byText.get(rf.text) ?? []),
      ...(rf.merchant ? (byMerchant.get(rf.merchant) ?? []) : []),
      ...expecting,
    ]);
    let best: Purchase | undefined;
    let bestStamp = '';
    let bestScore = 1;
    for (const p of candidates) {
      const f = facts.get(p)!;
      f.leftFen = (p.statedFen > 0 ? p.statedFen : p.line.amountFen) - p.refundedFen;
      const s = score(rf, f);
      // Ties go to the latest purchase: a refund follows the trade it returns.
      if (s > bestScore || (s === bestScore && best && f.stamp >= bestStamp)) {
        best = p;
        bestStamp = f.stamp;
        bestScore = s;
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

/** The ledger's purchase each refund of `refunds` returns, where an earlier import brought it in. */
async function ledgerMatches(
  refunds: readonly BillLine[],
  held: readonly LedgerPurchase[],
  format: BillFormat,
  ids: BillIds,
  pace: Pacer,
): Promise<Map<BillLine, string>> {
  const left = new Map(held.map((p) => [p.id, p.amountFen - p.refundedFen]));
  const found = new Map<BillLine, string>();
  for (const r of [...refunds].sort((a, b) => stamp(a).localeCompare(stamp(b)))) {
    await pace();
    const rf = refundFacts(r, format);
    const predicted = ids.ofOrder(usable(r.orderNo.split('_')[0] ?? ''));
    let best: LedgerPurchase | undefined;
    let bestScore = 1;
    for (const p of held) {
      const s = score(rf, {
        stamp: p.stamp,
        orderNo: '',
        merchantOrderNo: '',
        text: rowItem(p),
        merchant: p.merchant,
        statedFen: 0,
        leftFen: left.get(p.id)!,
      });
      const total = s > 0 && p.id === predicted ? s + 8 : s;
      if (total > bestScore || (total === bestScore && best && p.stamp >= best.stamp)) {
        best = p;
        bestScore = total;
      }
    }
    if (best) {
      found.set(r, best.id);
      left.set(best.id, left.get(best.id)! - r.amountFen);
    }
  }
  return found;
}

/** Refunds in the ledger still waiting for their purchase, given to the purchases this bill writes. */
async function waitingLinks(
  waiting: readonly WaitingRefund[],
  written: { p: Purchase; id: string; leftFen: number }[],
  format: BillFormat,
  pace: Pacer,
): Promise<{ refundId: string; purchaseId: string; fen: number }[]> {
  const byId = new Map(written.map((w) => [w.id, w]));
  const links: { refundId: string; purchaseId: string; fen: number }[] = [];
  const open = [];
  // A refund waiting under the id this bill gives its purchase finds it by that id alone.
  for (const r of waiting) {
    const own = byId.get(r.refundOf);
    if (own) own.leftFen -= r.amountFen;
    else open.push(r);
  }
  for (const r of open.sort((a, b) => a.stamp.localeCompare(b.stamp))) {
    await pace();
    const rf: RefundFacts = {
      stamp: r.stamp,
      amountFen: r.amountFen,
      orderNo: '',
      merchantOrderNo: '',
      text: rowItem(r),
      merchant: r.merchant,
    };
    let best: (typeof written)[number] | undefined;
    let bestScore = 1;
    for (const w of written) {
      const l = w.p.line;
      const s = score(rf, {
        stamp: stamp(l),
        orderNo: '',
        merchantOrderNo: '',
        text: itemText(l.item),
        merchant: merchantOf(l, format),
        statedFen: 0,
        leftFen: w.leftFen,
      });
      if (s > bestScore || (s === bestScore && best && stamp(l) >= stamp(best.p.line))) {
        best = w;
        bestScore = s;
      }
    }
    if (best) {
      best.leftFen -= r.amountFen;
      links.push({ refundId: r.id, purchaseId: best.id, fen: r.amountFen });
    }
  }
  return links;
}

/** Whether an order number belongs to exactly one purchase of the bill (anonymized or odd bills repeat them). */
function uniqueOrders(lines: readonly BillLine[]): (orderNo: string) => boolean {
  const count = new Map<string, number>();
  for (const l of lines) if (l.orderNo) count.set(l.orderNo, (count.get(l.orderNo) ?? 0) + 1);
  return (orderNo) => count.get(orderNo) === 1 && usable(orderNo) !== '';
}

/**
 * Row ids derived from the bill, so any copy of it gives the same ids: from the order number
 * where the bill's names one trade, else from the line's time to the minute, amount,
 * counterparty and direction (twins in one minute: #2, #3 in the bill's order). A purchase's
 * id from its order number is also what a refund in a later bill links to.
 */
class BillIds {
  private readonly used = new Set<string>();

  constructor(private readonly format: BillFormat) {}

  purchase(l: BillLine, unique: (orderNo: string) => boolean): string {
    return unique(l.orderNo) ? this.take(`order:${l.orderNo}`) : this.line(l, 'out');
  }

  refund(l: BillLine): string {
    return usable(l.orderNo) ? this.take(`refund:${l.orderNo}`) : this.line(l, 'refund');
  }

  line(l: BillLine, direction: 'out' | 'in' | 'refund' | 'income' | 'fee'): string {
    const key = `line:${l.date} ${l.time.slice(0, 5)}:${l.amountFen}:${l.merchant || l.item}:${direction}`;
    return this.take(direction === 'income' && usable(l.orderNo) ? `income:${l.orderNo}` : key);
  }

  /** A row the bill implies from another (a refund a purchase states), or a link to none. */
  derived(kind: 'stated-refund' | 'awaiting', of: string): string {
    return this.take(`${kind}:${of}`);
  }

  /** The id a purchase of this order number got (or gets) when its bill was imported. */
  ofOrder(orderNo: string): string | undefined {
    return orderNo ? uuidOf(`${this.format}:order:${orderNo}`) : undefined;
  }

  private take(key: string): string {
    let id = uuidOf(`${this.format}:${key}`);
    for (let n = 2; this.used.has(id); n++) id = uuidOf(`${this.format}:${key}#${n}`);
    this.used.add(id);
    return id;
  }
}

function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// The bill layouts we read, recognised by their header row (never by the file's name), and
// each data row mapped onto one shape: BillLine. Every layout is one its issuer exports today
// or did before; a user re-saving the file in Excel or WPS changes cells (dates without
// seconds, ids without their tab, numbers without ¥), never the header.
import type { ImportFormat } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { isCalendarDate } from '@shared/time';
import { ImportError } from '../import-error';
import type { Pacer } from '../pace';
import type { TableRow } from './table';

export type BillFormat = Exclude<ImportFormat, 'suikouji'>;

/** One data row of a bill, whatever its layout. Text fields are trimmed; '/' means empty. */
export interface BillLine {
  line: number;
  date: string;
  time: string;
  /** 收/支: money out, money in, or neither (不计收支, 中性交易, '/'). */
  direction: 'out' | 'in' | 'neutral';
  amountFen: number;
  /** A refund the line itself states: a refund column, 已退款(￥5.00), 131.77(已退款89.84). */
  statedRefundFen: number;
  /** The line says its trade was refunded in full (已全额退款). */
  fullyRefunded: boolean;
  merchant: string;
  item: string;
  /** The bill's own category (Alipay's and JD's 交易分类); '' when it has none. */
  category: string;
  /** The kind of trade (WeChat's and Meituan's 交易类型, old Alipay's 类型). */
  kind: string;
  status: string;
  orderNo: string;
  merchantOrderNo: string;
  note: string;
  /** A fee the bill charged on top (old Alipay's 服务费 column, WeChat's 服务费¥0.10 note). */
  feeFen: number;
}

interface Layout {
  format: BillFormat;
  /** Columns that together say the header is this layout's. */
  signature: readonly string[];
  columns: {
    time: readonly string[];
    direction: readonly string[];
    amount: readonly string[];
    merchant?: readonly string[];
    item?: readonly string[];
    category?: readonly string[];
    kind?: readonly string[];
    status?: readonly string[];
    orderNo?: readonly string[];
    merchantOrderNo?: readonly string[];
    note?: readonly string[];
    refund?: readonly string[];
    fee?: readonly string[];
  };
}

// Most specific first: the old Alipay web export also has 交易对方 and 收/支.
const LAYOUTS: readonly Layout[] = [
  {
    format: 'meituan',
    signature: ['交易创建时间', '交易类型', '订单标题', '收/支', '实付金额'],
    columns: {
      time: ['交易成功时间', '交易创建时间'],
      direction: ['收/支'],
      amount: ['实付金额'],
      item: ['订单标题'],
      kind: ['交易类型'],
      orderNo: ['交易单号'],
      merchantOrderNo: ['商家单号'],
      note: ['备注'],
    },
  },
  {
    format: 'jd',
    signature: ['交易时间', '商户名称', '交易说明', '金额', '收/支', '交易订单号'],
    columns: {
      time: ['交易时间'],
      direction: ['收/支'],
      amount: ['金额'],
      merchant: ['商户名称'],
      item: ['交易说明'],
      category: ['交易分类'],
      status: ['交易状态'],
      orderNo: ['交易订单号'],
      merchantOrderNo: ['商家订单号'],
      note: ['备注'],
    },
  },
  {
    format: 'wechat',
    signature: ['交易时间', '交易类型', '交易对方', '收/支', '当前状态'],
    columns: {
      time: ['交易时间'],
      direction: ['收/支'],
      amount: ['金额(元)', '金额（元）', '金额'],
      merchant: ['交易对方'],
      item: ['商品'],
      kind: ['交易类型'],
      status: ['当前状态'],
      orderNo: ['交易单号'],
      merchantOrderNo: ['商户单号'],
      note: ['备注'],
    },
  },
  {
    // The web 交易记录明细查询 of before 2020.
    format: 'alipay',
    signature: ['交易号', '交易创建时间', '交易对方', '收/支', '交易状态'],
    columns: {
      time: ['付款时间', '交易创建时间'],
      direction: ['收/支'],
      amount: ['金额（元）', '金额(元)', '金额'],
      merchant: ['交易对方'],
      item: ['商品名称'],
      kind: ['类型'],
      status: ['交易状态'],
      orderNo: ['交易号'],
      merchantOrderNo: ['商家订单号'],
      note: ['备注'],
      refund: ['成功退款（元）', '成功退款(元)'],
      fee: ['服务费（元）', '服务费(元)'],
    },
  },
  {
    // The app export: 2021's with 收/支 first and today's 电子客户回单 have the same columns in another order.
    format: 'alipay',
    signature: ['交易时间', '交易分类', '交易对方', '商品说明', '收/支', '交易状态'],
    columns: {
      time: ['交易时间'],
      direction: ['收/支'],
      amount: ['金额', '金额（元）', '金额(元)'],
      merchant: ['交易对方'],
      item: ['商品说明'],
      category: ['交易分类'],
      status: ['交易状态'],
      orderNo: ['交易订单号'],
      merchantOrderNo: ['商家订单号'],
      note: ['备注'],
    },
  },
];

/** Names of a platform rather than a shop: every order there would share one memory. */
const GENERIC_MERCHANT = /平台商户$|^京东外部商户$|^美团商家$|^美团$/;

/** The merchant a category memory is keyed by, or '' where the bill names only a platform. */
export function merchantOf(l: BillLine, format: BillFormat): string {
  const name = format === 'meituan' ? l.item.replace(/(代金券)?-?\d{6,}$/, '') : l.merchant.replace(/-退款$/, '');
  return GENERIC_MERCHANT.test(name) ? '' : name.slice(0, 50);
}

/** Columns that mark a bank's or card's statement rather than a payment app's bill. */
const BANK_BALANCE = /^(本次余额|账户余额|联机余额|余额|交易后余额|可用余额|balance)$/i;
const BANK_COLUMNS =
  /^(记账日期?|银行记账日|交易日期?|摘要|借方发生额|贷方发生额|借方金额|贷方金额|对方户名|对方账号|交易金额|收入金额|支出金额|存入|支取|卡号[末后]四位|入账金额|交易摘要|交易描述|交易说明|交易币种\/金额|入账币种\/金额|transaction date|posting date|post date|billing amount|card #|credit \/ debit)$/i;

/** How far down a bill's header may be: the preambles are about 25 lines. */
const HEADER_SEARCH = 60;

export interface FoundLayout {
  layout: Layout;
  headerAt: number;
}

const clean = (cell: string | undefined): string => (cell ?? '').replace(/^[\s\t"'=]+|[\s\t"']+$/g, '');

/** The bill layout of a table, or null when none matches. Throws for a bank statement. */
export function findLayout(table: readonly TableRow[]): FoundLayout | null {
  const limit = Math.min(table.length, HEADER_SEARCH);
  for (let i = 0; i < limit; i++) {
    const names = new Set(table[i]!.cells.map(clean));
    const layout = LAYOUTS.find((l) => l.signature.every((s) => names.has(s)));
    if (layout) return { layout, headerAt: i };
  }
  for (let i = 0; i < limit; i++) {
    const names = table[i]!.cells.map(clean);
    const bank = names.filter((n) => BANK_COLUMNS.test(n)).length;
    if ((names.some((n) => BANK_BALANCE.test(n)) && bank >= 1) || bank >= 3) {
      throw new ImportError(table[i]!.line, '这是银行流水，暂不支持。请导入支付宝、微信支付、京东或美团导出的账单，或随口记导出的 CSV/Excel');
    }
  }
  return null;
}

/** The data rows of a bill, each mapped to a BillLine; the footer and blank rows end it. */
export async function readLines({ layout, headerAt }: FoundLayout, table: readonly TableRow[], pace: Pacer): Promise<BillLine[]> {
  const header = table[headerAt]!.cells.map(clean);
  const index = (names: readonly string[] | undefined) => (names ? header.findIndex((h) => names.includes(h)) : -1);
  const col = Object.fromEntries(Object.entries(layout.columns).map(([key, names]) => [key, index(names)])) as Record<
    keyof Layout['columns'],
    number
  >;
  for (const key of ['time', 'direction', 'amount'] as const) {
    if (col[key] < 0) throw new ImportError(table[headerAt]!.line, `账单缺少「${layout.columns[key][0]}」列`);
  }
  const width = header.filter((h) => h !== '').length;
  const lines: BillLine[] = [];
  for (const row of table.slice(headerAt + 1)) {
    await pace();
    const cell = (i: number) => {
      if (i < 0) return '';
      const text = clean(row.cells[i]);
      return text === '/' ? '' : text;
    };
    const filled = row.cells.filter((c) => clean(c) !== '').length;
    if (filled === 0) continue;
    // Bills end with a footer of dashes and notes, in the first column alone.
    if (filled <= 2 && (row.cells.length < width - 1 || row.cells.slice(1).every((c) => clean(c) === ''))) break;
    if (row.cells.length < width - 1) throw new ImportError(row.line, `应有${header.length}列，实际${row.cells.length}列`);
    lines.push(toLine(row.line, cell, col, layout.format));
  }
  return lines;
}

function toLine(line: number, cell: (i: number) => string, col: Record<keyof Layout['columns'], number>, format: BillFormat): BillLine {
  const { date, time } = parseWhen(cell(col.time), line);
  const amountText = cell(col.amount);
  const amount = parseAmountCell(amountText, line);
  const status = cell(col.status);
  const note = cell(col.note);
  let statedRefundFen = amount.refundFen;
  const refundCell = cell(col.refund);
  if (refundCell) statedRefundFen = Math.max(statedRefundFen, parseMoney(refundCell, line, '退款金额', true));
  const inStatus = /已?退款[(（]?\s*[¥￥]?\s*(\d[\d,]*(?:\.\d{1,2})?)/.exec(status);
  if (inStatus) statedRefundFen = Math.max(statedRefundFen, parseMoney(inStatus[1]!, line, '退款金额', true));
  let feeFen = cell(col.fee) ? parseMoney(cell(col.fee), line, '服务费', true) : 0;
  const noteFee = /(?:服务费|手续费)\s*[:：]?\s*[¥￥]?\s*(\d[\d,]*(?:\.\d{1,2})?)/.exec(note);
  if (noteFee && feeFen === 0) feeFen = parseMoney(noteFee[1]!, line, '服务费', true);
  const directionText = cell(col.direction);
  return {
    line,
    date,
    time,
    direction: directionText === '支出' ? 'out' : directionText === '收入' ? 'in' : 'neutral',
    amountFen: amount.fen,
    statedRefundFen,
    fullyRefunded: amount.full || /全额退款/.test(status),
    merchant: cell(col.merchant),
    item: format === 'meituan' ? cell(col.item).replace(/\s*订单详情$/, '') : cell(col.item),
    category: cell(col.category),
    kind: cell(col.kind),
    status,
    orderNo: cell(col.orderNo),
    merchantOrderNo: cell(col.merchantOrderNo),
    note,
    feeFen,
  };
}

const MONEY = /^[¥￥]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?$/;

/** Yuan text → fen; accepts 35, 35.5, ¥35.00, 1,234.50. Zero only where `zeroOk`. */
function parseMoney(text: string, line: number, what: string, zeroOk = false): number {
  const m = MONEY.exec(text.trim());
  if (!m) throw new ImportError(line, `${what}「${text}」无效`);
  const yuan = Number(`${m[1]!.replace(/,/g, '')}${m[2] ?? ''}`);
  if (yuan > MAX_AMOUNT_YUAN) throw new ImportError(line, `${what}超过上限（1亿元）`);
  if (yuan === 0 && !zeroOk) return 0;
  return yuanToFen(yuan);
}

/** JD writes refunds into the amount cell: 131.77(已退款89.84), 468.32(已全额退款). */
function parseAmountCell(text: string, line: number): { fen: number; refundFen: number; full: boolean } {
  const m = /^(.*?)\s*[(（]\s*(已全额退款|已退款\s*[¥￥]?\s*([\d.,]+))\s*[)）]$/.exec(text);
  if (!m) return { fen: parseMoney(text, line, '金额', true), refundFen: 0, full: false };
  const fen = parseMoney(m[1]!, line, '金额', true);
  if (m[2] === '已全额退款') return { fen, refundFen: fen, full: true };
  return { fen, refundFen: parseMoney(m[3]!, line, '金额', true), full: false };
}

/** `2024-01-05 12:30:00`, `2024/1/5 12:30` (a re-saved file), with a tab or a stray space. */
function parseWhen(text: string, line: number): { date: string; time: string } {
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  const date = m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : '';
  if (!m || !isCalendarDate(date) || Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) {
    throw new ImportError(line, `交易时间「${text}」无效`);
  }
  return { date, time: `${(m[4] ?? '00').padStart(2, '0')}:${m[5] ?? '00'}:${m[6] ?? '00'}` };
}

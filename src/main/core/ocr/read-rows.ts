// A picture's recognised lines as rows of a page, and the money, dates and labelled values
// on them. The recognizer gives one box per run of text: a label and its value on the right
// come as one line 「支付方式 招商银行信用卡（0001)」 or as two boxes at the same height; a
// screenshot photographed or rotated a degree or two puts the right-hand box lower or higher
// than its label. Its text mixes full- and half-width forms (￥ （ ： ０), drops spaces inside
// dates, reads ¥ as 羊, Y or 半, O for 0 and l for 1, and sometimes loses a leading minus.
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { formatYmd, isCalendarDate, localDate, type ZonedNow } from '@shared/time';
import type { OcrLine } from './types';

/** One row of the page: its boxes left to right, joined by a space. */
export interface Row {
  text: string;
  /** The boxes' texts, left to right. */
  parts: string[];
  /** The tallest box's height: the page's big amount is written the largest. */
  height: number;
}

/** Full-width forms as ASCII, ￥ as ¥, dashes as '-', runs of spaces as one. */
export function normalizeText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xff01 && code <= 0xff5e) out += String.fromCodePoint(code - 0xfee0);
    else if (code === 0x3000) out += ' ';
    else if (ch === '￥') out += '¥';
    else if (ch === '—' || ch === '–' || ch === '−') out += '-';
    else out += ch;
  }
  return out.replace(/\s+/g, ' ').trim();
}

interface Placed {
  text: string;
  x: number;
  cx: number;
  cy: number;
  height: number;
  right: number;
  top: number;
  bottom: number;
}

/** The steepest slope a row of a straightened page may have (about 6°). */
const MAX_SKEW = 0.1;

/**
 * The page's rows. Boxes whose centres lie within half a line of each other, once the page's
 * tilt is taken out, are one row. The tilt is the median slope between boxes side by side
 * whose heights overlap: on a straight page those are a label and its value, at slope 0.
 */
export function rowsOf(lines: readonly OcrLine[]): Row[] {
  const placed: Placed[] = lines
    .map((l) => ({
      text: normalizeText(l.text),
      x: l.box.x,
      cx: l.box.x + l.box.width / 2,
      cy: l.box.y + l.box.height / 2,
      height: Math.max(1, l.box.height),
      right: l.box.x + l.box.width,
      top: l.box.y,
      bottom: l.box.y + l.box.height,
    }))
    .filter((p) => p.text !== '');
  const slopes: number[] = [];
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      const [a, b] = placed[i]!.x <= placed[j]!.x ? [placed[i]!, placed[j]!] : [placed[j]!, placed[i]!];
      if (a.right > b.x || a.bottom <= b.top || b.bottom <= a.top) continue;
      const slope = (b.cy - a.cy) / (b.cx - a.cx);
      if (Math.abs(slope) <= MAX_SKEW) slopes.push(slope);
    }
  }
  const skew = median(slopes);
  const level = placed.map((p) => ({ ...p, cy: p.cy - p.cx * skew })).sort((a, b) => a.cy - b.cy || a.x - b.x);
  const rows: Placed[][] = [];
  for (const p of level) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    if (row && anchor && Math.abs(anchor.cy - p.cy) < Math.min(anchor.height, p.height) / 2) row.push(p);
    else rows.push([p]);
  }
  return rows.map((row) => {
    const parts = row.sort((a, b) => a.x - b.x).map((p) => p.text);
    return { text: parts.join(' '), parts, height: Math.max(...row.map((p) => p.height)) };
  });
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// ---- money ---------------------------------------------------------------------------

/** How the recognizer writes ¥: itself, or a character of the same shape. */
const YUAN_SIGN = '(?:¥|羊|Y|半|RMB|CNY)';
const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:[.,](\d{1,2}))?`;
/** An amount in a text: a sign, ¥, the number and 元, each optional. */
const AMOUNT = new RegExp(String.raw`([-+])?\s*(${YUAN_SIGN})?\s*([-+])?\s*${NUMBER}(?![\d.])\s*(元)?`, 'g');
/** A row that is an amount and nothing else (the page's big figure). */
const AMOUNT_ONLY = new RegExp(String.raw`^([-+])?\s*(${YUAN_SIGN})?\s*([-+])?\s*${NUMBER}\s*(元)?$`);

export interface Money {
  fen: number;
  /** The sign written before it, when one was read (the recognizer drops it sometimes). */
  sign: '-' | '+' | null;
  /** Written as money: with ¥, 元 or two decimals; a bare integer may be a count or a code. */
  marked: boolean;
}

/** O read for 0 and l, I or | for 1 in a run of figures that holds a digit (2O.5O, 2987654321l1). */
function fixDigits(text: string): string {
  return text.replace(/[\dOoIl|][\dOoIl|,.]*/g, (run, at: number) => {
    // A letter of a word (Apple, NFC, ml) stays what it is.
    if (!/\d/.test(run) || /[A-Za-z]/.test(text[at - 1] ?? '') || /[A-Za-z]/.test(text[at + run.length] ?? '')) return run;
    return run.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1');
  });
}

function moneyOf(m: RegExpExecArray): Money | null {
  const [, sign1, mark, sign2, whole, decimals, yuan] = m;
  const units = Number(whole!.replace(/,/g, ''));
  if (!Number.isFinite(units) || units > MAX_AMOUNT_YUAN) return null;
  // A comma before one or two digits is the recognizer's reading of the decimal point.
  const fen = units * 100 + (decimals ? Number(decimals.padEnd(2, '0')) : 0);
  const sign = (sign1 ?? sign2) as '-' | '+' | undefined;
  return { fen, sign: sign ?? null, marked: Boolean(mark || yuan || decimals?.length === 2) };
}

/** The row's text when it is an amount alone: ¥23.90, -23.90, 羊23.90, 128.00元. */
export function amountOnly(text: string): Money | null {
  const m = AMOUNT_ONLY.exec(fixDigits(normalizeText(text).replace(/\s+/g, '')));
  if (!m) return null;
  const money = moneyOf(m);
  return money && (money.marked || money.sign !== null) ? money : null;
}

/** The amounts written as money in a text, in order. */
export function amountsIn(text: string): Money[] {
  const found: Money[] = [];
  const fixed = fixDigits(normalizeText(text));
  for (const m of fixed.matchAll(AMOUNT)) {
    // Part of a longer run of letters or digits (an order number, a plate) is no amount.
    const before = m.index > 0 ? fixed[m.index - 1] : '';
    if (before && /[\dA-Za-z]/.test(before)) continue;
    const money = moneyOf(m);
    if (money?.marked) found.push(money);
  }
  return found;
}

// ---- labelled values ---------------------------------------------------------------

/** Every label a value follows on the pages we read: a row starting with one is no value. */
const LABELS =
  /^(支付方式|付款方式|支付时间|付款时间|创建时间|交易时间|下单时间|成交时间|发货时间|退款时间|转账时间|收款时间|开票日期|商户单号|商家订单号|交易单号|订单号|订单编号|支付宝交易号|转账单号|商品说明|商品|商户全称|商户名称|收款方|收单机构|账单分类|对方账户|转账说明|转账备注|退回账户|退款方式|退款说明|当前状态|交易类型|付款卡|实付款|实付|配送费|打包费|包装费|商品总价|商品总额|运费|优惠|合计|总计|小计|价税合计|销售方|购买方|名称|发票号码|车号|里程|上车|下车|单价|金额|日期|时间|备注)/;

/** True when a row starts with a label of any page we read. */
export function isLabelRow(text: string): boolean {
  return LABELS.test(text);
}

/**
 * The value of the first row that starts with one of `labels` (a regex alternation): the
 * rest of that row, or the next row when the value sits on its own line below the label.
 */
export function valueOf(rows: readonly Row[], labels: string): string | null {
  const label = new RegExp(`^(?:${labels})\\s*[:：]?\\s*(.*)$`);
  for (let i = 0; i < rows.length; i++) {
    const m = label.exec(rows[i]!.text);
    if (!m) continue;
    const rest = m[1]!.trim();
    if (rest !== '') return rest;
    const next = rows[i + 1]?.text;
    if (next !== undefined && !isLabelRow(next)) return next;
  }
  return null;
}

/** The index of the first row that starts with one of `labels`, or -1. */
export function rowIndexOf(rows: readonly Row[], labels: string): number {
  const label = new RegExp(`^(?:${labels})`);
  return rows.findIndex((r) => label.test(r.text));
}

/**
 * The amount written as money after the first of `labels` (in that order) found on a row —
 * anywhere in it (「共2件 已优惠¥5 实付¥27」) — or alone on the row below. Null when none.
 */
export function amountOf(rows: readonly Row[], labels: string): Money | null {
  for (const label of labels.split('|')) {
    const re = new RegExp(`(?:${label})\\s*[:：]?`);
    for (let i = 0; i < rows.length; i++) {
      const text = rows[i]!.text;
      const m = re.exec(text);
      if (!m) continue;
      const here = amountsIn(text.slice(m.index + m[0].length));
      if (here.length > 0) return here[0]!;
      const next = rows[i + 1]?.text;
      if (next !== undefined && !isLabelRow(next)) {
        const below = amountOnly(next) ?? amountsIn(next)[0];
        if (below) return below;
      }
    }
  }
  return null;
}

// ---- dates and times -----------------------------------------------------------------

export interface When {
  date: string;
  /** HH:MM:SS; seconds 00 when the picture shows none. */
  time: string | null;
}

/** Spaces the recognizer puts or drops around a date's separators, taken out. */
function tight(text: string): string {
  return text.replace(/\s*([-/.:年月日])\s*/g, '$1');
}

const FULL_DATE = /(?<!\d)(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?\s*(?:(\d{1,2}):(\d{2})(?::(\d{2}))?)?/;
const MONTH_DAY = /(?<!\d)(\d{1,2})月(\d{1,2})日\s*(?:(\d{1,2}):(\d{2})(?::(\d{2}))?)?/;
const DASHED_MONTH_DAY = /(?<![\d-])(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d-])/;
const TIME = /(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?(?!\d)/;

const pad = (n: number) => String(n).padStart(2, '0');

function clock(h?: string, m?: string, s?: string): string | null {
  if (h === undefined || m === undefined) return null;
  const [hh, mm, ss] = [Number(h), Number(m), Number(s ?? 0)];
  return hh <= 23 && mm <= 59 && ss <= 59 ? `${pad(hh)}:${pad(mm)}:${pad(ss)}` : null;
}

/** A month and day without a year: this year's, or last year's when that day is still to come. */
export function dayOfYearless(month: number, day: number, now: ZonedNow): string | null {
  const today = localDate(now);
  const year = Number(today.slice(0, 4));
  const date = formatYmd(year, month, day);
  if (!isCalendarDate(date)) {
    // 2月29日 of a year that has none: the last year that had it.
    const before = formatYmd(year - 1, month, day);
    return isCalendarDate(before) ? before : null;
  }
  return date > today ? formatYmd(year - 1, month, day) : date;
}

/** The first date (with its time when written next to it) in a text, or null. */
export function whenIn(text: string, now: ZonedNow): When | null {
  const t = tight(normalizeText(text));
  const full = FULL_DATE.exec(t);
  if (full) {
    const date = formatYmd(Number(full[1]), Number(full[2]), Number(full[3]));
    // 「日期 2026-11-24 时间 20:01:33」: the time further along the same row.
    if (isCalendarDate(date)) return { date, time: clock(full[4], full[5], full[6]) ?? timeIn(t.slice(full.index + full[0].length)) };
  }
  const md = MONTH_DAY.exec(t) ?? DASHED_MONTH_DAY.exec(t);
  if (md) {
    const date = dayOfYearless(Number(md[1]), Number(md[2]), now);
    if (date) return { date, time: clock(md[3], md[4], md[5]) };
  }
  return null;
}

/** A time of day alone in a text (a receipt's 时间 18:42, a taxi's 上车 12:03). */
export function timeIn(text: string): string | null {
  const m = TIME.exec(tight(text));
  return m ? clock(m[1], m[2], m[3]) : null;
}

/**
 * The page's date and time: the value of the first of `labels` that has one, else the first
 * date anywhere on the page; a date without a time takes the time of a 时间 row. Null when
 * the page shows no date (the phone's clock in the status bar is no date).
 */
export function whenOnPage(rows: readonly Row[], labels: string, now: ZonedNow): When | null {
  let found: When | null = null;
  for (const label of labels.split('|')) {
    const value = valueOf(rows, label);
    found = value === null ? null : whenIn(value, now);
    if (found) break;
  }
  if (!found) {
    for (const row of rows) {
      found = whenIn(row.text, now);
      if (found) break;
    }
  }
  if (found && found.time === null) {
    const value = valueOf(rows, '时间|交易时间|上车时间|上车');
    const time = value === null ? null : timeIn(value);
    if (time) found = { ...found, time };
  }
  return found;
}

/** Letters and CJK characters: a row with none is a number, a mark or an icon's reading. */
export function hasWords(text: string): boolean {
  return /[\p{Script=Han}A-Za-z]/u.test(text);
}

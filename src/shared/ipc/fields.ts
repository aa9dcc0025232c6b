import { z } from 'zod';
import { MAX_AMOUNT_YUAN } from '../money';
import { isCalendarDate, isCalendarMonth } from '../time';

// The field rules every command schema shares, written once: a value that passes here is one
// the ledger can store and compute with, so nothing valid at the boundary fails later inside
// (2026-02-30 at confirm, 9999-12-31 in a trend loop, 0.001 yuan on save).

/** A real calendar day, YYYY-MM-DD, in the years 0001–9999 (2026-02-30 and 2026-13-01 are not). */
export const calendarDate = z.string().max(10, '应为 YYYY-MM-DD 格式的日期').refine(isCalendarDate, '应为真实存在的日期（YYYY-MM-DD，0001–9999 年）');

/** A real month, YYYY-MM, 01–12, in the years 0001–9999. */
export const monthString = z.string().max(7, '应为 YYYY-MM 格式的月份').refine(isCalendarMonth, '应为真实存在的月份（YYYY-MM，01–12 月）');

/**
 * The last day a period may end on: a period's trend is walked day by day up to the day
 * after its end, and 9999-12-31 has no next day in the calendar the app keeps.
 */
export const LAST_PERIOD_DAY = '9999-12-30';

/** True when yuan is a whole number of fen (at most two decimals, float noise aside). */
export function hasFenPrecision(yuan: number): boolean {
  // The same toFixed(4) step as yuanToFen: 19.99 * 100 is 1998.9999999999998. A sliver
  // below a hundredth of a fen (1e-7 yuan) is no whole fen either, though it rounds to 0.
  const fen = Number((yuan * 100).toFixed(4));
  return Number.isInteger(fen) && (fen !== 0 || yuan === 0);
}

/** An amount in yuan the ledger can save: > 0, at most two decimals, ≤ MAX_AMOUNT_YUAN. */
export const yuanAmount = z
  .number()
  .gt(0, '金额必须大于0')
  .max(MAX_AMOUNT_YUAN, '金额超过上限（1亿元）')
  .refine(hasFenPrecision, '金额最多两位小数（精确到分）');

/** An amount in integer fen the ledger can save: 1 fen up to MAX_AMOUNT_YUAN. */
export const fenAmount = z
  .number()
  .int('金额应为整数（分）')
  .min(1, '金额必须大于0')
  .max(MAX_AMOUNT_YUAN * 100, '金额超过上限（1亿元）');

/** A fen bound of a filter: 0 up to MAX_AMOUNT_YUAN. */
export const fenBound = z
  .number()
  .int('金额应为整数（分）')
  .min(0, '金额不能为负')
  .max(MAX_AMOUNT_YUAN * 100, '金额超过上限（1亿元）');

/**
 * Text a spreadsheet would run as a formula when it opens a CSV cell that starts with it
 * (OWASP, CSV injection): = + - @, their full-width and small forms, the minus sign, and tab
 * or CR; also after leading spaces or line breaks, which Excel and WPS skip.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\u00a0\u3000\ufeff\u200b]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66\u2212])/;

/** True when a spreadsheet would read text as a formula (see FORMULA_START). */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/**
 * A category or account name: 1–20 characters after trimming, and none that starts like a
 * formula (it would be written into every CSV export of the ledger).
 */
export const ledgerName = z
  .string()
  .trim()
  .min(1, '名称不能为空')
  .max(20, '名称最多20个字')
  .refine((name) => !startsLikeFormula(name), '名称不能以 = + - @ 等符号开头');

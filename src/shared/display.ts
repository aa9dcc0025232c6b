// How money, dates and times look on every screen, chart, card, log line and export preview.
// One module, so a household reads the same ¥1,234.56 and 11月28日 everywhere; spoken text
// ("60元", see money.ts formatYuan) is a different register and stays apart.

const MONEY = new Intl.NumberFormat('zh-CN', {
  style: 'currency',
  currency: 'CNY',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** U+2212: a real minus sign, as wide as the plus, never mistaken for a dash. */
export const MINUS = '\u2212';

export interface MoneyOptions {
  /** 'always' writes + before a positive amount (a person's balance, a signed history row). */
  sign?: 'auto' | 'always';
}

/** Integer fen as the screens write money: ¥1,234.56, −¥500.00, ¥0.00. */
export function formatMoney(fen: number, options: MoneyOptions = {}): string {
  if (!Number.isFinite(fen)) return '—';
  const text = MONEY.format(Math.abs(fen) / 100);
  if (fen < 0) return `${MINUS}${text}`;
  return options.sign === 'always' && fen > 0 ? `+${text}` : text;
}

/** Yuan (a draft's amount as understood, maybe fractional) in the same form as formatMoney. */
export function formatMoneyYuan(yuan: number, options: MoneyOptions = {}): string {
  return formatMoney(Math.round(yuan * 100), options);
}

/** The days between two YYYY-MM-DD calendar dates (to − from). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * A calendar day (YYYY-MM-DD) by its distance from `today`: 今天, 昨天, 11月28日 in this year,
 * 2025年11月28日 otherwise. Anything that is not a date is shown as it came.
 */
export function formatDate(date: string, today: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return date;
  const gap = /^\d{4}-\d{2}-\d{2}/.test(today) ? daysBetween(date.slice(0, 10), today.slice(0, 10)) : NaN;
  if (gap === 0) return '今天';
  if (gap === 1) return '昨天';
  const monthDay = `${Number(m[2])}月${Number(m[3])}日`;
  return today.slice(0, 4) === m[1] ? monthDay : `${m[1]}年${monthDay}`;
}

/** A day written in full, whatever today is: 2026年11月28日 (a period's bounds, an export's range). */
export function formatFullDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return m ? `${m[1]}年${Number(m[2])}月${Number(m[3])}日` : date;
}

/** A month (YYYY-MM…) as 2026年11月. */
export function formatMonth(month: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(month);
  return m ? `${m[1]}年${Number(m[2])}月` : month;
}

/** A clock time on the 24-hour dial: 13:36 (from HH:MM[:SS] or an ISO date-time as written). */
export function formatTime(time: string): string {
  const m = /(?:^|T)(\d{2}):(\d{2})/.exec(time);
  return m ? `${m[1]}:${m[2]}` : time;
}

/** A zoned ISO instant (2026-11-28T13:36:00+08:00) in its own zone's wall clock: 今天 13:36. */
export function formatDateTime(iso: string, today: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m?.[1] && m[2] ? `${formatDate(m[1], today)} ${m[2]}` : iso;
}

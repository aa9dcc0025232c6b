import { yuanToFen } from '@shared/money';
import { formatDate, formatFullDate, formatMonth } from '../format';

// Calendar ranges for the 明细 filters and the 统计 periods, in the window's local time.
// Weeks start on Monday, as Chinese calendars do.

export type RangeKind = 'today' | 'week' | 'month' | 'year' | 'custom';
export type StatsPeriod = 'week' | 'month' | 'year';

export interface DayRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function ymdOf(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function parse(ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

function lastDayOfMonth(y: number, m0: number): number {
  return new Date(y, m0 + 1, 0).getDate();
}

/** The period containing `anchor` (YYYY-MM-DD). */
export function periodRange(period: StatsPeriod, anchor: string): DayRange {
  const d = parse(anchor);
  if (period === 'year') return { from: `${d.getFullYear()}-01-01`, to: `${d.getFullYear()}-12-31` };
  if (period === 'month') {
    const ym = `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
    return { from: `${ym}-01`, to: `${ym}-${pad(lastDayOfMonth(d.getFullYear(), d.getMonth()))}` };
  }
  const mondayOffset = (d.getDay() + 6) % 7;
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate() - mondayOffset);
  const sunday = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 6);
  return { from: ymdOf(monday), to: ymdOf(sunday) };
}

/** The anchor moved by `delta` whole periods (month steps clamp to the month's last day). */
export function shiftPeriod(period: StatsPeriod, anchor: string, delta: number): string {
  const d = parse(anchor);
  if (period === 'week') return ymdOf(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 7 * delta));
  if (period === 'year') return `${d.getFullYear() + delta}-01-01`;
  const first = new Date(d.getFullYear(), d.getMonth() + delta, 1);
  return ymdOf(first);
}

/** 2026年, 2026年2月, or a week as 2026年2月16日 – 2月22日 (the year again only when it changes). */
export function periodLabel(period: StatsPeriod, anchor: string): string {
  const { from, to } = periodRange(period, anchor);
  if (period === 'year') return `${from.slice(0, 4)}年`;
  if (period === 'month') return formatMonth(from);
  // Dated from its Monday, six days before it: never 今天/昨天, and 2月22日 in Monday's year.
  return `${formatFullDate(from)} – ${formatDate(to, from)}`;
}

/** The 明细 quick ranges; `custom` keeps whatever the user typed. */
export function rangeFor(kind: Exclude<RangeKind, 'custom'>, today: Date): DayRange {
  const t = ymdOf(today);
  if (kind === 'today') return { from: t, to: t };
  return periodRange(kind, t);
}

/** Yuan text typed by the user → fen, or null when empty; throws on anything else. */
export function parseYuanInput(text: string): number | null {
  const clean = text.trim();
  if (clean === '') return null;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) throw new Error('金额应为数字，最多两位小数');
  return yuanToFen(Number(clean));
}

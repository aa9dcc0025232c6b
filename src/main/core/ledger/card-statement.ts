import { daysBetween } from '@shared/display';
import { addDays, formatYmd } from '@shared/time';

// The dates of a credit card's bill, as Chinese banks keep them. Pure: the SQL that sums the
// money lives in ./accounts.ts.
//
// - 账单日 S: each month's statement closes at the END of its S-th day; in a month shorter
//   than S it closes on the month's last day (账单日 31 closes on 2月28日, 4月30日).
// - A statement period runs from the day after the previous statement date through the
//   statement date, both included. On the statement day itself the period is still open.
// - 还款日 D: the first D-th day (clamped the same way) strictly after the statement date:
//   账单日 5 / 还款日 23 is due the same month, 账单日 25 / 还款日 10 the next month.

/** The `day`-th of a month, or the month's last day when it has fewer days. */
export function clampedDay(year: number, month: number, day: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return formatYmd(year, month, Math.min(day, last));
}

function shiftMonth(year: number, month: number, by: number): [number, number] {
  const index = year * 12 + (month - 1) + by;
  return [Math.floor(index / 12), (index % 12) + 1];
}

function ym(date: string): [number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
}

/** The statement dates around `today`: the last two that have closed and the one still open. */
export interface StatementDates {
  /** The statement before `latest`: the day after it opens the period `latest` closes. */
  previous: string;
  /** The latest statement date before today (closed: today is past its end). */
  latest: string;
  /** The first statement date on or after today: the end of the period still open. */
  next: string;
}

export function statementDates(today: string, statementDay: number): StatementDates {
  const [y, m] = ym(today);
  const thisMonth = clampedDay(y, m, statementDay);
  // This month's statement has closed only once its day is over.
  const back = thisMonth < today ? 0 : 1;
  const at = (by: number) => {
    const [yy, mm] = shiftMonth(y, m, by);
    return clampedDay(yy, mm, statementDay);
  };
  return { previous: at(-back - 1), latest: at(-back), next: at(-back + 1) };
}

/** The due date of the bill that closes on `statementDate`: the first `dueDay` strictly after it. */
export function dueDateAfter(statementDate: string, dueDay: number): string {
  const [y, m] = ym(statementDate);
  const sameMonth = clampedDay(y, m, dueDay);
  if (sameMonth > statementDate) return sameMonth;
  const [ny, nm] = shiftMonth(y, m, 1);
  return clampedDay(ny, nm, dueDay);
}

/** The period a bill covers, both days included. */
export interface BillPeriod {
  from: string;
  to: string;
  /** false: no statement has closed since the card's first activity; the period is the open one. */
  closed: boolean;
}

/**
 * The bill to show on `today`: the latest closed period, or, while the card has no closed
 * statement yet (its first activity, a row or its creation, came after the latest statement
 * date), the period still open.
 */
export function billPeriod(today: string, statementDay: number, firstActivity: string): BillPeriod {
  const dates = statementDates(today, statementDay);
  if (firstActivity > dates.latest) return { from: addDays(dates.latest, 1), to: dates.next, closed: false };
  return { from: addDays(dates.previous, 1), to: dates.latest, closed: true };
}

/** Days from today to the due date: 0 today, negative once it has passed. */
export function daysUntil(today: string, due: string): number {
  return daysBetween(today, due);
}

import { describe, expect, it } from 'vitest';
import { billPeriod, clampedDay, dueDateAfter, statementDates } from './card-statement';

describe('a credit card statement’s dates', () => {
  it.each([
    // today, 账单日 → previous, latest (closed), next (open)
    ['2026-11-10', 5, '2026-10-05', '2026-11-05', '2026-12-05'],
    // On the statement day itself the period is still open: it closes at the end of the day.
    ['2026-11-05', 5, '2026-09-05', '2026-10-05', '2026-11-05'],
    ['2026-11-06', 5, '2026-10-05', '2026-11-05', '2026-12-05'],
    // Across the year end, both ways.
    ['2027-01-02', 25, '2026-11-25', '2026-12-25', '2027-01-25'],
    ['2026-12-26', 25, '2026-11-25', '2026-12-25', '2027-01-25'],
    ['2027-01-03', 5, '2026-11-05', '2026-12-05', '2027-01-05'],
    // 账单日 31 closes on the last day of shorter months.
    ['2026-03-01', 31, '2026-01-31', '2026-02-28', '2026-03-31'],
    ['2026-02-28', 31, '2025-12-31', '2026-01-31', '2026-02-28'],
    ['2028-03-10', 30, '2028-01-30', '2028-02-29', '2028-03-30'],
    ['2026-05-01', 31, '2026-03-31', '2026-04-30', '2026-05-31'],
  ])('on %s with 账单日 %i: previous %s, latest %s, next %s', (today, day, previous, latest, next) => {
    expect(statementDates(today, day)).toEqual({ previous, latest, next });
  });

  it.each([
    ['2026-11-05', 23, '2026-11-23'],
    ['2026-11-25', 10, '2026-12-10'],
    ['2026-12-25', 10, '2027-01-10'],
    // Due on the statement day's number: a month later, never the same day.
    ['2026-11-05', 5, '2026-12-05'],
    ['2026-01-31', 31, '2026-02-28'],
    ['2026-02-05', 30, '2026-02-28'],
    ['2026-01-20', 31, '2026-01-31'],
  ])('a bill closing %s with 还款日 %i is due %s', (statement, dueDay, due) => {
    expect(dueDateAfter(statement, dueDay)).toBe(due);
  });

  it('bills the latest closed period, or the open one before the card’s first statement date', () => {
    expect(billPeriod('2026-11-10', 5, '2026-01-01')).toEqual({ from: '2026-10-06', to: '2026-11-05', closed: true });
    // A card whose first activity was on the latest statement date has that statement.
    expect(billPeriod('2026-11-10', 5, '2026-11-05')).toEqual({ from: '2026-10-06', to: '2026-11-05', closed: true });
    expect(billPeriod('2026-11-10', 5, '2026-11-06')).toEqual({ from: '2026-11-06', to: '2026-12-05', closed: false });
    expect(billPeriod('2027-01-02', 31, '2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31', closed: true });
    expect(billPeriod('2027-01-02', 31, '2027-01-01')).toEqual({ from: '2027-01-01', to: '2027-01-31', closed: false });
  });

  it('clamps a day to its month', () => {
    expect([clampedDay(2026, 2, 31), clampedDay(2028, 2, 31), clampedDay(2026, 4, 31), clampedDay(2026, 12, 31)]).toEqual([
      '2026-02-28',
      '2028-02-29',
      '2026-04-30',
      '2026-12-31',
    ]);
  });
});

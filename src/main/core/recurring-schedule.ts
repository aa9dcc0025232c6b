// When the app looks for recurring entries that fell due, and how it tells of new offers.
import { formatMoney } from '@shared/display';
import type { RecurringDraft } from '@shared/recurrence';
import { monthDayText, type ZonedNow } from '@shared/time';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Until the next recurring check: an hour, or a second past the coming local midnight when
 * that is sooner (the margin lands the check on the new day, not on the stroke of the old).
 */
export function msToNextCheck(now: ZonedNow): number {
  const local = now.epochMs + now.offsetMinutes * 60_000;
  const toMidnight = DAY_MS - (((local % DAY_MS) + DAY_MS) % DAY_MS);
  return Math.min(HOUR_MS, toMidnight + 1000);
}

/** 「房租 ¥3,000.00（3月5日）到期」, or 「3 笔周期记账到期」 for several. */
export function offersText(drafts: readonly RecurringDraft[]): string {
  if (drafts.length > 1) return `${drafts.length} 笔周期记账到期`;
  const [d] = drafts;
  return `${d!.description || d!.category} ${formatMoney(d!.amountFen)}（${monthDayText(d!.date)}）到期`;
}

// A reply that is only an amount (「第1笔打车多少钱？」 — 「二十八块吧」): the amount, or null when
// the reply says anything else, so 打车28 or 改成28 go to the parser or the correction rules.
import type { ZonedNow } from '@shared/time';
import { findAmounts } from './amounts';
import { findDates } from './dates';
import { AMOUNT_REPLY_WORDS } from './lexicon/amounts';
import { anyOf } from './lexicon/words';
import { cutSpans, isPunctuation, normalizeText } from './normalize';
import { findOrdinals } from './ordinals';

const ONLY_FILLERS = new RegExp(`^${anyOf(AMOUNT_REPLY_WORDS)}*$`);
// Dates only need to be found, not resolved: any fixed day will do.
const ANY_DAY: ZonedNow = { epochMs: 0, offsetMinutes: 0 };

export function readAmountReply(rawText: string): number | null {
  const text = normalizeText(rawText);
  // 28号 and 第二笔 name a day or an item, not an amount.
  const amounts = findAmounts(text, [...findDates(text, ANY_DAY), ...findOrdinals(text)]);
  if (amounts.length !== 1 || amounts[0]!.negative) return null;
  let rest = '';
  for (const ch of cutSpans(text, amounts)) if (!isPunctuation(ch)) rest += ch;
  return ONLY_FILLERS.test(rest) ? amounts[0]!.value : null;
}

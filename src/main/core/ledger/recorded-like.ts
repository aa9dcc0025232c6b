// 「可能已记过」: a picture's payment that the book may hold already (imported from the bill,
// typed earlier, read off another screenshot of it). The same amount and type, at the same
// minute give or take two (else on the same day), for the same merchant (the bill's merchant
// of an imported row, else its description). A note on the card, never a block: the user
// decides.
import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import { formatMoney } from '@shared/display';
import { monthDayText } from '@shared/time';

/** What a picture's draft says of the payment. */
export interface PaymentSeen {
  amountFen: number;
  type: TransactionType;
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM:SS, or null when the picture shows no time. */
  time: string | null;
  merchant: string | null;
  /** The user's offset from UTC, in minutes, for the picture's wall-clock time. */
  offsetMinutes: number;
}

export interface RecordedRow {
  id: string;
  date: string;
  /** HH:MM of the row. */
  time: string;
  /** What the row is known by: its merchant, else its description, else its category. */
  name: string;
  amountFen: number;
}

export const SAME_PAYMENT_WINDOW_MS = 2 * 60_000;

interface Candidate {
  id: string;
  occurredAt: string;
  date: string;
  amountFen: number;
  description: string;
  merchant: string | null;
  category: string;
}

/** The book's row this payment may be, or null. Only spending and income are looked at. */
export function findRecorded(db: Database.Database, seen: PaymentSeen): RecordedRow | null {
  if (seen.type === 'TRANSFER' || !(seen.amountFen > 0)) return null;
  const name = normalized(seen.merchant ?? '');
  const merchant = name.length >= 2 ? name : '';
  // A payment known by its amount and day alone is too common to be called the same.
  if (!merchant && !seen.time) return null;
  const columns = `SELECT t.id, t.occurred_at AS occurredAt, t.occurred_date AS date, t.amount_fen AS amountFen, t.description,
      m.merchant, c.name AS category
    FROM transactions t LEFT JOIN imported_merchants m ON m.transaction_id = t.id JOIN categories c ON c.id = t.category_id`;
  let candidates: Candidate[];
  if (seen.time) {
    const ms = Date.parse(`${seen.date}T${seen.time}${offsetText(seen.offsetMinutes)}`);
    if (Number.isNaN(ms)) return null;
    // The day index narrows to the days the window touches; the amount and instant do the rest.
    candidates = db
      .prepare(
        `${columns} WHERE t.occurred_date BETWEEN date(?, '-1 day') AND date(?, '+1 day')
           AND t.amount_fen = ? AND t.type = ? AND t.occurred_ms BETWEEN ? AND ? ORDER BY abs(t.occurred_ms - ?)`,
      )
      .all(seen.date, seen.date, seen.amountFen, seen.type, ms - SAME_PAYMENT_WINDOW_MS, ms + SAME_PAYMENT_WINDOW_MS, ms) as Candidate[];
  } else {
    candidates = db
      .prepare(`${columns} WHERE t.occurred_date = ? AND t.amount_fen = ? AND t.type = ? ORDER BY t.occurred_ms`)
      .all(seen.date, seen.amountFen, seen.type) as Candidate[];
  }
  const found = candidates.find((c) => !merchant || sameMerchant(merchant, c));
  if (!found) return null;
  return {
    id: found.id,
    date: found.date,
    time: found.occurredAt.slice(11, 16),
    name: found.merchant || found.description || found.category,
    amountFen: found.amountFen,
  };
}

/** The card's line: 「可能已记过：11月27日 12:03 瑞幸咖啡 ¥23.90」. */
export function recordedText(row: RecordedRow): string {
  return `可能已记过：${monthDayText(row.date)} ${row.time} ${row.name} ${formatMoney(row.amountFen)}`;
}

/**
 * One name holds the other: 「瑞幸咖啡」 and the bill's 「瑞幸咖啡（国贸店）」, or a typed
 * 「瑞幸」. A row with no merchant and no description says nothing either way.
 */
function sameMerchant(merchant: string, row: Candidate): boolean {
  return [row.merchant ?? '', row.description].some((text) => {
    const name = normalized(text);
    return name.length >= 2 && (name.includes(merchant) || merchant.includes(name));
  });
}

/** Case, spaces, punctuation and the shop's branch in brackets do not tell two merchants apart. */
function normalized(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[(（][^)）]*[)）]/g, '')
    .replace(/[\s\p{P}\p{S}]+/gu, '');
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

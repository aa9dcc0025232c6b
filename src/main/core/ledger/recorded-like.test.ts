// 「可能已记过」 against a real SQLite ledger: rows imported from a bill (with their merchant),
// typed, and saved from speech; each case of recorded-like.cases.json is a payment seen on a
// picture and the row it should (or should not) find.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { billRow, entry, item, NOW } from '../../../../test/support/ledger-fixtures';
import { openLedger } from './index';
import { recordedText, type PaymentSeen } from './recorded-like';

interface Case {
  name: string;
  seen: Omit<PaymentSeen, 'offsetMinutes'>;
  /** The card's line, or null when no row is this payment. */
  expected: string | null;
}

const cases = JSON.parse(readFileSync(join(__dirname, 'testdata', 'recorded-like.cases.json'), 'utf8')) as Case[];

function book() {
  const ledger = openLedger({ path: ':memory:', now: () => NOW });
  // A bill's row: 瑞幸咖啡（国贸店） 23.90 on 2026-02-16 at 12:04:10.
  ledger.importRows([
    billRow({ amountFen: 2390, date: '2026-02-16', time: '12:04:10', merchant: '瑞幸咖啡（国贸店）', description: '生椰拿铁', account: '钱包' }),
    // Another merchant, same amount and minute.
    billRow({ line: 3, amountFen: 2390, date: '2026-02-16', time: '12:03:50', merchant: '全家便利店', description: '饭团', account: '钱包' }),
    billRow({
      line: 4,
      amountFen: 500000,
      date: '2026-02-10',
      time: '09:00:00',
      type: 'INCOME',
      category: '工资',
      merchant: '某某科技有限公司',
      description: '工资',
    }),
  ]);
  // Typed with the form: 永辉超市 128.00 on 2026-02-15 at 18:30.
  ledger.addTransaction(entry({ amountFen: 12800, date: '2026-02-15', time: '18:30', category: '购物', note: '永辉超市' }));
  // Said: 「昨天滴滴打车35」 (a spoken row has the save's time of day).
  ledger.saveBatch([item({ amount: 35, category: '交通', description: '滴滴打车', date: '2026-02-16' })], { now: NOW });
  return ledger;
}

describe('「可能已记过」', () => {
  const ledger = book();
  it.each(cases)('$name', ({ seen, expected }) => {
    const found = ledger.recordedLike({ ...seen, offsetMinutes: 480 });
    expect(found ? recordedText(found) : null).toBe(expected);
  });
});

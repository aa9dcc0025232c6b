import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toZonedNow, type ZonedNow } from '@shared/time';
import { LedgerHistory, openLedger, type Ledger } from './index';
import { billRow, entry, item, rentRule } from '../../../../test/support/ledger-fixtures';

// 记账人 on a real ledger file: every way a row is made on this computer records its name,
// a renamed computer records the new one from then on, and nothing rewrites a row's recorder
// (an edit, an undo, a reopen).

let dir: string;
let path: string;
let ledger: Ledger;
let now: ZonedNow;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-recorded-by-'));
  path = join(dir, 'ledger.db');
  now = toZonedNow('2026-03-01T09:30:00+08:00');
  ledger = openLedger({ path, now: () => now, recordedBy: '小王的电脑' });
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const recorderOf = (id: string) => ledger.database.prepare('SELECT recorded_by FROM transactions WHERE id = ?').pluck().get(id);

describe('记账人', () => {
  it('a voice save, a form entry, a loan and its write-off, an import and recurring entries all carry this computer’s name', () => {
    const history = new LedgerHistory(ledger);
    const [spoken, lent] = history.saveBatch([
      item({ description: '午饭' }),
      item({ amount: 500, type: 'TRANSFER', category: null, flow: 'lend', counterparty: '小李' }),
    ]);
    const typed = history.addTransaction(entry({ note: '早饭' }));
    const person = ledger.findPerson('小李')!;
    const writtenOff = history.writeOff(person.id, 100_00);
    const imported = ledger.importRows([billRow({ description: '超市' })]).ids;
    ledger.addRecurringRule(rentRule());
    const { saved } = history.catchUpRecurring(now);
    ledger.addRecurringRule(rentRule({ start: '2026-03-01', mode: 'draft', description: '物业费', category: '住房', amountFen: 200_00 }));
    now = toZonedNow('2026-03-05T10:00:00+08:00');
    const later = history.catchUpRecurring(now);
    const confirmed = history.confirmRecurringDraft(later.drafts[0]!);

    // Rent on 1月5日 and 2月5日, then 3月5日 with the 物业费 offer confirmed.
    const made = [spoken!, lent!, typed, writtenOff].map((r) => r.id).concat(imported, saved, later.saved, [confirmed.id]);
    expect(made).toHaveLength(4 + 1 + 2 + 1 + 1);
    for (const id of made) {
      expect(recorderOf(id), id).toBe('小王的电脑');
      expect(ledger.getTransaction(id)!.recordedBy).toBe('小王的电脑');
    }
    expect(ledger.list({ limit: 100 }).rows.map((r) => r.recordedBy)).toEqual(made.map(() => '小王的电脑'));
  });

  it('a renamed computer records its new name from then on; earlier rows, edits and undo keep theirs', () => {
    const history = new LedgerHistory(ledger);
    const [before] = history.saveBatch([item({ description: '改名前' })]);
    ledger.recordedBy = '  书房电脑 ';
    expect(ledger.recordedBy).toBe('书房电脑');
    const [after] = history.saveBatch([item({ description: '改名后' })]);
    expect([recorderOf(before!.id), recorderOf(after!.id)]).toEqual(['小王的电脑', '书房电脑']);

    // An edit on the renamed computer does not make it the recorder.
    history.updateTransaction(before!.id, { description: '改名前（改过）', amountFen: 7000 });
    expect(ledger.getTransaction(before!.id)!.recordedBy).toBe('小王的电脑');
    // A delete taken back puts the row back as it was, its recorder too.
    history.deleteTransactions([before!.id]);
    expect(ledger.getTransaction(before!.id)).toBeUndefined();
    history.undo();
    expect(ledger.getTransaction(before!.id)).toMatchObject({ description: '改名前（改过）', recordedBy: '小王的电脑' });
  });

  it('rows from before 记账人 was kept read without one, and a ledger with no name records none', () => {
    const [old] = ledger.saveBatch([item({ description: '旧账' })]);
    ledger.database.prepare('UPDATE transactions SET recorded_by = NULL WHERE id = ?').run(old!.id);
    expect(ledger.getTransaction(old!.id)).not.toHaveProperty('recordedBy');

    ledger.recordedBy = null;
    const [nameless] = ledger.saveBatch([item({ description: '没名字' })]);
    expect(recorderOf(nameless!.id)).toBeNull();
    expect(ledger.getTransaction(nameless!.id)).not.toHaveProperty('recordedBy');
    ledger.recordedBy = '   ';
    expect(ledger.recordedBy).toBeNull();
  });

  it('the name is in the file: reopened, the rows still say who recorded them', () => {
    const [row] = ledger.saveBatch([item({ description: '午饭' })]);
    ledger.close();
    ledger = openLedger({ path, now: () => now });
    expect(ledger.getTransaction(row!.id)!.recordedBy).toBe('小王的电脑');
    expect(ledger.recordedBy).toBeNull();
  });
});

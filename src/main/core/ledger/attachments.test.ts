// Pictures kept with entries, in a ledger file's folder: written with the save that names them,
// all or nothing; put back by redo; swept once nothing links to them; never journalled for sync.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { item, NOW } from '../../../../test/support/ledger-fixtures';
import { LedgerHistory, LedgerValidationError, openLedger, type Ledger } from './index';
import type { KeptPicture } from './attachments';

const JPEG: KeptPicture = { id: 'pic-1', bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), format: 'jpeg', text: '永辉超市\n合计 52.30' };

let dir: string;
let ledger: Ledger;
const files = () => readdirSync(join(dir, 'attachments')).sort();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-attachments-'));
  ledger = openLedger({ path: join(dir, 'ledger.db'), now: () => NOW });
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('attachments', () => {
  it('one picture is kept with every entry read off it; an entry of another card has none', () => {
    const rows = ledger.saveBatch([item({ amount: 12, picture: 'pic-1' }), item({ amount: 40.3, picture: 'pic-1' }), item({ amount: 5 })], {
      now: NOW,
      pictures: [JPEG, { ...JPEG, id: 'unused' }],
    });
    expect(rows.map((r) => r.attachment)).toEqual([{ id: 'pic-1', mime: 'image/jpeg' }, { id: 'pic-1', mime: 'image/jpeg' }, undefined]);
    expect(files()).toEqual(['pic-1.jpg']);
    expect(ledger.attachment(rows[1]!.id)?.text).toBe('永辉超市\n合计 52.30');
    expect(ledger.search('吃饭').filter((r) => r.attachment)).toHaveLength(2);
    expect(ledger.database.prepare("SELECT COUNT(*) FROM sync_rows WHERE tbl LIKE '%attachments'").pluck().get()).toBe(0);
  });

  it('a save that fails writes no row of it; the file it wrote first is swept at the next open', () => {
    expect(() =>
      ledger.saveBatch([item({ amount: 12, picture: 'pic-1' }), item({ amount: -1, picture: 'pic-1' })], { now: NOW, pictures: [JPEG] }),
    ).toThrow(LedgerValidationError);
    expect(ledger.count()).toBe(0);
    expect(ledger.database.prepare('SELECT COUNT(*) FROM attachments').pluck().get()).toBe(0);
    writeFileSync(join(dir, 'attachments', 'stray.jpg.1234.tmp'), 'x');
    expect(ledger.sweepAttachments()).toEqual({ rows: 0, files: 2 });
    expect(files()).toEqual([]);
  });

  it('an undone save that is redone finds its picture; a deleted entry’s picture goes with the sweep', () => {
    const history = new LedgerHistory(ledger);
    const [row] = history.saveBatch([item({ picture: 'pic-1' })], { now: NOW, pictures: [JPEG] });
    history.undo();
    history.redo();
    expect(ledger.list({}).rows[0]?.attachment).toEqual({ id: 'pic-1', mime: 'image/jpeg' });
    expect(ledger.sweepAttachments()).toEqual({ rows: 0, files: 0 });
    ledger.deleteTransaction(row!.id);
    expect(ledger.sweepAttachments()).toEqual({ rows: 2, files: 1 });
    expect(files()).toEqual([]);
    expect(ledger.attachment(row!.id)).toBeNull();
  });
});

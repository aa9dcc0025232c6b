// The voice card kept between sessions: beside the transactions, in the same file, saved
// with them atomically, and read back only when it is well-formed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DraftBatch } from '@shared/draft-batch';
import type { DraftBatchDto, ParseResult } from '@shared/domain';
import { readDrafts } from './drafts';
import { openLedger, type Ledger } from './index';
import { item, NOW } from '../../../../test/support/ledger-fixtures';

let dir: string;
let path: string;
let ledger: Ledger;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-drafts-'));
  path = join(dir, 'ledger.db');
  ledger = openLedger({ path, now: () => NOW });
});

afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const draft = (over: Partial<ParseResult> = {}): ParseResult => ({ ...item({ date: null, ...over }), confidence: 0.9, source: 'local' });

function card(...results: ParseResult[]): DraftBatchDto {
  return DraftBatch.fromResults(results, '2026-02-17T12:00:00+08:00').toDto();
}

describe('Ledger drafts', () => {
  it('a kept card survives closing and reopening the file (an app restart), amounts missing included', () => {
    const kept = DraftBatch.fromDto(card(draft({ amount: null, description: '打车', category: '交通' }), draft({ amount: 35 })))
      .confirmItem(1)
      .toDto();
    ledger.keepDrafts(kept);
    ledger.close();
    ledger = openLedger({ path, now: () => NOW });
    expect(ledger.keptDrafts()).toEqual(kept);
    expect(ledger.count()).toBe(0);
  });

  it('null, or a card whose items are all cancelled, clears it', () => {
    ledger.keepDrafts(card(draft()));
    ledger.keepDrafts(null);
    expect(ledger.keptDrafts()).toBeNull();
    ledger.keepDrafts(DraftBatch.fromDto(card(draft())).cancelAll().toDto());
    expect(ledger.keptDrafts()).toBeNull();
  });

  it('a save clears the card in the same transaction; a failed save leaves it as it was', () => {
    const kept = card(draft({ amount: 60 }), draft({ amount: 30 }));
    ledger.keepDrafts(kept);
    expect(() => ledger.saveBatch([draft({ amount: 60 }), draft({ amount: 0 })], { drafts: null })).toThrow();
    expect(ledger.keptDrafts()).toEqual(kept);
    expect(ledger.count()).toBe(0);
    ledger.saveBatch([draft({ amount: 60 }), draft({ amount: 30 })], { drafts: null });
    expect(ledger.keptDrafts()).toBeNull();
    expect(ledger.count()).toBe(2);
  });

  it('a damaged or foreign stored card is not shown', () => {
    const write = (json: string) => ledger.database.prepare('INSERT OR REPLACE INTO drafts (id, batch, updated_at) VALUES (1, ?, ?)').run(json, 'x');
    for (const bad of [
      '{',
      '[]',
      '{"items":[],"createdAt":"x"}',
      JSON.stringify({ items: [{ index: 0, status: 'pending', result: { amount: -5 } }], createdAt: 'x' }),
    ]) {
      write(bad);
      expect(ledger.keptDrafts(), bad).toBeNull();
    }
  });
});

describe('a kept card with money flows', () => {
  it('keeps flow, person and reimbursable, and drops only a value it does not know', () => {
    const kept = card(draft({ type: 'TRANSFER', flow: 'lend', counterparty: '小李' }), draft({ reimbursable: true }));
    const read = readDrafts(JSON.stringify(kept));
    expect(read?.items.map((i) => i.result)).toMatchObject([{ flow: 'lend', counterparty: '小李' }, { reimbursable: true }]);
    const odd = readDrafts(JSON.stringify(card(draft({ flow: 'steal' as never, counterparty: '' }))));
    expect(odd?.items[0]?.result.flow).toBeUndefined();
    expect(odd?.items[0]?.result.counterparty).toBeUndefined();
  });
});

describe('a kept card with a repeating rule and tags', () => {
  it('keeps the rule and the tags, and drops a rule it cannot read without losing the draft', () => {
    const kept = card(draft({ recurrence: { every: 'month', day: 5 }, tags: ['房租', '固定'] }), draft({ recurrence: { every: 'week', day: 5 } }));
    const read = readDrafts(JSON.stringify(kept));
    expect(read?.items.map((i) => [i.result.recurrence, i.result.tags])).toEqual([
      [{ every: 'month', day: 5 }, ['房租', '固定']],
      [{ every: 'week', day: 5 }, undefined],
    ]);
    const odd = readDrafts(JSON.stringify(card(draft({ recurrence: { every: 'fortnight' } as never, tags: [''] }))));
    expect(odd?.items).toHaveLength(1);
    expect(odd?.items[0]?.result.recurrence).toBeUndefined();
    expect(odd?.items[0]?.result.tags).toBeUndefined();
  });
});

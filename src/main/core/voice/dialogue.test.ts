// The dialogue's decisions as a table: every line of testdata/dialogue.jsonl is a card (or
// none), an input (words, with what Layer 1 makes of them and what Understanding answers, or
// a card action) and what must follow: the new card, the sentences, the events, the effect.
// The local NLP and the ledger's category placement are the real ones.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DraftBatch } from '@shared/draft-batch';
import { moneyFlowFields, type DraftStatus, type ParseResult, type TransactionType } from '@shared/domain';
import { openLedger } from '../ledger/index';
import { classifyIntent } from '../nlp/index';
import { cardEvent, step, type DialogueEnv, type DialogueInput, type DialogueState, type DraftAction, type Effect, type Step } from './dialogue';
import type { CorrectionOutcome, ParseOutcome } from './ports';

/** A draft as the table writes it: what matters to the case, the rest defaulted. */
interface ItemRow extends Partial<Omit<ParseResult, 'type'>> {
  type?: TransactionType | null;
  status?: DraftStatus;
}

interface DialogueCase {
  name: string;
  batch: ItemRow[] | null;
  /** The last thing said was 「还需要修改吗？」. */
  asked?: boolean;
  offlineNoticed?: boolean;
  /** 「再加一笔」 was said: the next words are new items. */
  addingMore?: boolean;
  online?: boolean;
  text?: string;
  /** What Layer 1 makes of the words (checked, so a case cannot silently test another path). */
  intent?: string;
  parse?: Partial<Omit<ParseOutcome, 'results'>> & { results: ItemRow[] };
  correct?: Omit<CorrectionOutcome, 'source'> & { source?: CorrectionOutcome['source'] };
  action?: DraftAction;
  expect: {
    /** "same" for the very card the case started with, null for none, else the items' fields that matter. */
    batch: 'same' | null | Partial<ItemRow>[];
    say: string[];
    /** Event types in order (errors as error:code), the card's own event included. */
    events: string[];
    effect: Record<string, unknown>;
    asked?: boolean;
    offlineNoticed?: boolean;
    addingMore?: boolean;
  };
}

const cases: DialogueCase[] = readFileSync(new URL('./testdata/dialogue.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as DialogueCase);

const NOW = { epochMs: Date.parse('2026-02-17T04:00:00Z'), offsetMinutes: 480 };
const ledger = openLedger({ path: ':memory:', now: () => NOW });
afterAll(() => ledger.close());

function result(row: ItemRow): ParseResult {
  return {
    amount: row.amount ?? null,
    type: row.type ?? 'EXPENSE',
    category: row.category ?? null,
    description: row.description ?? '',
    date: row.date ?? null,
    account: row.account ?? null,
    confidence: row.confidence ?? 0.9,
    source: row.source ?? 'llm',
    ...moneyFlowFields(row),
  };
}

function batchOf(rows: ItemRow[] | null): DraftBatch | null {
  if (!rows) return null;
  const items = rows.map((row, index) => ({ index, status: row.status ?? 'pending', result: result(row) }));
  return DraftBatch.fromDto({ items, createdAt: '2026-02-17T12:00:00+08:00' });
}

function itemsOf(batch: DraftBatch): Partial<ItemRow>[] {
  return batch.items.map((item) => ({ status: item.status, ...item.result }));
}

function effectOf(effect: Effect): Record<string, unknown> {
  switch (effect.kind) {
    case 'save':
      return { kind: 'save', confirmed: effect.resolved.confirmedItems.map((item) => item.index) };
    case 'query': {
      const { from, to, type, category } = effect.query;
      return { kind: 'query', from, to, type, category };
    }
    case 'budget':
      return { kind: 'budget', ...effect.query };
    default:
      return { kind: effect.kind };
  }
}

function eventsOf(before: DraftBatch | null, taken: Step): string[] {
  const card = cardEvent(before, taken);
  return [...(card ? [card] : []), ...taken.events].map((event) => (event.type === 'error' ? `error:${event.code}` : event.type));
}

/** One input through the dialogue, with Understanding's answer when the step asks for it. */
function play(c: DialogueCase) {
  const start: DialogueState = {
    batch: batchOf(c.batch),
    askedForMoreChanges: c.asked ?? false,
    offlineNoticed: c.offlineNoticed ?? false,
    addingMore: c.addingMore ?? false,
  };
  const env: DialogueEnv = { now: NOW, online: c.online ?? true, customCategories: [], place: (name, type) => ledger.placeCategory(name, type) };
  const input: DialogueInput = c.action ? { action: c.action } : { text: c.text ?? '' };
  const first = step(start, input, env);
  const said = [...first.sentences];
  const events = eventsOf(start.batch, first);
  let last = first;
  if (c.parse || c.correct) {
    expect(first.effect.kind, 'the step does not ask Understanding').toBe(c.parse ? 'parse' : 'correct');
    const text = c.text ?? '';
    const answered: DialogueInput = c.parse
      ? { text, parsed: { source: 'llm', truncated: false, ...c.parse, results: c.parse.results.map(result) } }
      : { text, corrected: { source: 'llm', ...c.correct! } };
    last = step(first, answered, env);
    said.push(...last.sentences);
    events.push(...eventsOf(first.batch, last));
  }
  return { start, last, said, events };
}

describe('dialogue table (testdata/dialogue.jsonl)', () => {
  it('has a case for every kind of input, each with its own name', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    if (c.intent !== undefined) expect(classifyIntent(c.text ?? '', c.batch?.length ?? 0).intent, 'Layer 1').toBe(c.intent);
    const { start, last, said, events } = play(c);
    const expected = c.expect;
    if (expected.batch === 'same') expect(last.batch).toBe(start.batch);
    else if (expected.batch === null) expect(last.batch).toBeNull();
    else expect(itemsOf(last.batch!)).toMatchObject(expected.batch);
    expect(said).toEqual(expected.say);
    expect(events).toEqual(expected.events);
    expect(effectOf(last.effect)).toMatchObject(expected.effect);
    expect(last.askedForMoreChanges).toBe(expected.asked ?? false);
    expect(last.offlineNoticed).toBe(expected.offlineNoticed ?? start.offlineNoticed);
    expect(last.addingMore).toBe(expected.addingMore ?? false);
  });
});

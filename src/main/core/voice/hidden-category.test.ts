// Issue 43: a voice entry was filed into a category the user had hidden (酒店 → 旅行), which
// 记一笔 then cannot offer. Whole sessions — the real local NLP or a scripted LLM answer, the
// real ledger in :memory: — show that a hidden category reaches neither the card nor the ledger.
import { afterEach, describe, expect, it } from 'vitest';
import type { ParseResult, TransactionType } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { FakeClock } from '@shared/clock';
import { openLedger, type Ledger } from '../ledger/index';
import { VoiceOrchestrator } from './orchestrator';
import { createUnderstanding } from '../llm/index';
import { RecordingTts, ScriptedAsr, ScriptedLlm } from '../../../../test/support/voice-doubles';

const ledgers: Ledger[] = [];
afterEach(() => {
  for (const l of ledgers.splice(0)) l.close();
});

function session(online: boolean) {
  const clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
  const now = () => ({ epochMs: clock.now(), offsetMinutes: 480 });
  const ledger = openLedger({ path: ':memory:', now });
  ledgers.push(ledger);
  const llm = new ScriptedLlm();
  const events: VoiceEvent[] = [];
  const orch = new VoiceOrchestrator({
    mode: 'keyboard',
    emit: (event) => events.push(event),
    tts: new RecordingTts(clock, 0),
    understanding: createUnderstanding(
      online ? { mode: 'gateway', gatewayUrl: 'http://gateway.test', fetch: llm.fetch, clock } : { mode: 'offline', clock },
    ),
    ledger,
    clock,
    now,
    // As the app does: the user's own shown categories help place words.
    context: () => ({
      customCategories: ledger
        .listCategories()
        .filter((c) => !c.preset && !c.hidden)
        .map(({ name, type }) => ({ name, type })),
    }),
    createAsrClient: ({ shouldReconnect }) => new ScriptedAsr(shouldReconnect, true),
  });
  const hiddenNames = () => new Set(ledger.listCategories().flatMap((c) => (c.hidden ? [c.name] : [])));
  /** Every category any card of the session showed. */
  const cardCategories = () =>
    events.flatMap((e) => ((e.type === 'finalText' || e.type === 'draftBatchUpdated') && e.batch ? e.batch.items.map((i) => i.result.category) : []));
  const said = () => events.flatMap((e) => (e.type === 'ttsSpoken' ? [e.text] : []));
  const idOf = (name: string, type: TransactionType = 'EXPENSE') => ledger.listCategories().find((c) => c.name === name && c.type === type)!.id;
  const begin = async () => {
    await orch.start();
    await clock.advance(0);
  };
  return { begin, ledger, llm, orch, cardCategories, hiddenNames, said, idOf, rows: () => ledger.list({}).rows };
}

const llmItem = (amount: number, category: string, description: string): ParseResult => ({
  amount,
  type: 'EXPENSE',
  category,
  description,
  date: null,
  account: null,
  confidence: 0.9,
  source: 'llm',
});

describe('a voice entry never lands in a hidden category', () => {
  it('offline: 住酒店 (the lexicon says 旅行, hidden) is carded and saved under a shown category', async () => {
    const t = session(false);
    await t.begin();
    await t.orch.processTextInput('住酒店花了三百');
    const carded = t.orch.batch!.items[0]!.result;
    expect(carded.amount).toBe(300);
    expect(carded.category).toBe('其他');
    await t.orch.processTextInput('确认');
    expect(t.rows().map((r) => [r.amountFen, r.category])).toEqual([[30000, '其他']]);
    expect(t.cardCategories().filter((c) => c && t.hiddenNames().has(c))).toEqual([]);
  });

  it('the LLM naming a hidden sub-category the user made: the card and the save use its shown parent', async () => {
    const t = session(true);
    await t.begin();
    const snack = t.ledger.addCategory('夜宵', 'EXPENSE', t.idOf('餐饮'));
    t.ledger.setCategoryHidden(snack.id, true);
    t.llm.script({ parse: [llmItem(45, '夜宵', '撸串'), llmItem(600, '旅行', '酒店')] });
    await t.orch.processTextInput('撸串四十五，酒店六百');
    expect(t.orch.batch!.items.map((i) => i.result.category)).toEqual(['餐饮', '其他']);
    expect(t.said().at(-1)).toContain('餐饮');
    await t.orch.processTextInput('确认');
    expect(
      t
        .rows()
        .map((r) => r.category)
        .sort(),
    ).toEqual(['其他', '餐饮']);
    expect(t.cardCategories().filter((c) => c && t.hiddenNames().has(c))).toEqual([]);
  });

  it('a correction naming a hidden category keeps the card on a shown one', async () => {
    const t = session(true);
    await t.begin();
    t.llm.script(
      { parse: [llmItem(80, '交通', '打车')] },
      { correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { category: '旅行' } }], confidence: 0.9 } },
    );
    await t.orch.processTextInput('打车八十');
    await t.orch.processTextInput('改成旅行');
    expect(t.orch.batch!.items[0]!.result.category).not.toBe('旅行');
    await t.orch.processTextInput('确认');
    expect(t.rows().map((r) => r.category)).not.toContain('旅行');
  });

  it('a budget set on a hidden category is still the one a budget question about it names', async () => {
    const t = session(false);
    t.ledger.setBudgets('2026-02', [{ categoryId: t.idOf('旅行'), amountFen: 200000 }]);
    await t.begin();
    await t.orch.processTextInput('旅行预算还剩多少');
    expect(t.said().at(-1)).toBe('本月旅行预算2000元，已用0元，还剩2000元。');
  });

  it('once the user shows 旅行 again, 住酒店 goes there', async () => {
    const t = session(false);
    t.ledger.setCategoryHidden(t.idOf('旅行'), false);
    await t.begin();
    await t.orch.processTextInput('住酒店花了三百');
    expect(t.orch.batch!.items[0]!.result.category).toBe('旅行');
  });
});

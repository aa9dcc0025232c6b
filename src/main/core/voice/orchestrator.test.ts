// One test per scenario of the three voice specs: events in (FakeClock, scripted mic/ASR/LLM),
// events, state and spoken text out, with the real ledger in :memory: and the real local NLP.
import { afterEach, describe, expect, it } from 'vitest';
import type { ParseResult, TransactionType, VoiceMode } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { FakeClock } from '@shared/clock';
import type { BudgetAlert } from '@shared/ipc/ledger';
import { LedgerHistory, openLedger, type Ledger } from '../ledger/index';
import { VoiceOrchestrator, type OrchestratorOptions } from './orchestrator';
import type { LedgerPort } from './ports';
import { PHRASES } from './templates';
import { AsrFailure } from '../asr/errors';
import { createUnderstanding } from '../llm/index';
import { classifyIntent } from '../nlp/index';
import { RecordingTts, ScriptedAsr, ScriptedLlm, ScriptedVoiceInput } from '../../../../test/support/voice-doubles';

function r(amount: number | null, type: TransactionType, category: string | null, description = ''): ParseResult {
  return { amount, type, category, description, date: null, account: null, confidence: 0.9, source: 'llm' };
}

const FOUR = [r(60, 'EXPENSE', '餐饮', '吃饭'), r(60, 'EXPENSE', '洗浴', '洗脚'), r(30, 'INCOME', '红包', '抢红包'), r(90, 'INCOME', '工资', '工资')];
const FOUR_TEXT = '吃饭花了60，洗脚花了60，抢红包抢了30，工资收到90';

const ledgers: Ledger[] = [];
afterEach(() => {
  for (const l of ledgers.splice(0)) l.close();
});

interface SetupOptions {
  mode?: VoiceMode;
  online?: boolean;
  ttsMs?: number;
  ledgerPort?: (ledger: Ledger) => LedgerPort;
  asrAutoConnect?: boolean;
  noAudio?: boolean;
}

function setup(options: SetupOptions = {}) {
  const clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
  const now = () => ({ epochMs: clock.now(), offsetMinutes: 480 });
  const ledger = openLedger({ path: ':memory:', now });
  ledgers.push(ledger);
  const tts = new RecordingTts(clock, options.ttsMs ?? 0);
  const llm = new ScriptedLlm();
  const online = options.online ?? true;
  const understanding = createUnderstanding(
    online ? { mode: 'gateway', gatewayUrl: 'http://gateway.test', fetch: llm.fetch, clock } : { mode: 'offline', clock },
  );
  const input = new ScriptedVoiceInput();
  const asrs: ScriptedAsr[] = [];
  const events: VoiceEvent[] = [];
  const config: OrchestratorOptions = {
    mode: options.mode ?? 'keyboard',
    emit: (event) => events.push(event),
    tts,
    understanding,
    ledger: options.ledgerPort ? options.ledgerPort(ledger) : ledger,
    clock,
    now,
    ...(options.noAudio ? {} : { createVoiceInput: () => input }),
    createAsrClient: ({ shouldReconnect }) => {
      const asr = new ScriptedAsr(shouldReconnect, options.asrAutoConnect ?? true);
      asrs.push(asr);
      return asr;
    },
  };
  const orch = new VoiceOrchestrator(config);
  const rows = () => ledger.list({}).rows;
  const types = () => events.map((e) => e.type);
  /** What the orchestrator said, in order (ttsSpoken events; the speaker plays them in turn). */
  const said = () => events.flatMap((e) => (e.type === 'ttsSpoken' ? [e.text] : []));
  const last = () => said().at(-1);
  const spokenSince = (mark: number) => said().slice(mark);
  /** Lets queued speech finish (instant speaker) so VAD is listened to again. */
  const settle = () => clock.advance(0);
  const begin = async () => {
    await orch.start();
    await settle();
  };
  return { begin, clock, ledger, tts, llm, input, asrs, events, orch, rows, types, said, last, spokenSince, settle };
}

/** The real ledger as the voice port, counting saveBatch calls by their sizes. */
function counting(saves: number[]): (ledger: Ledger) => LedgerPort {
  return (ledger) => ({
    saveBatch: (results, o) => {
      saves.push(results.length);
      return ledger.saveBatch(results, o);
    },
    deleteTransactions: (ids) => ledger.deleteTransactions(ids),
    totals: (q) => ledger.totals(q),
    placeCategory: (name, type) => ledger.placeCategory(name, type),
    getMany: (ids) => ledger.getMany(ids),
    keepDrafts: (batch) => ledger.keepDrafts(batch),
    keptDrafts: () => ledger.keptDrafts(),
    budgetStatus: (month) => ledger.budgetStatus(month),
  });
}

/** Starts a keyboard session and parses the four-item example through the (scripted) LLM. */
async function withFour(options: SetupOptions = {}) {
  const t = setup(options);
  await t.begin();
  t.llm.script({ parse: FOUR });
  await t.orch.processTextInput(FOUR_TEXT);
  return t;
}

describe('parse → DraftBatch (voice-batch-transaction)', () => {
  it('多笔识别: four items become a pending batch, finalText carries it, itemised read-back', async () => {
    const t = await withFour();
    expect(t.orch.state).toBe('confirming');
    const final = t.events.find((e) => e.type === 'finalText');
    expect(final).toMatchObject({ type: 'finalText', text: FOUR_TEXT });
    expect(final?.type === 'finalText' && final.batch.items.map((i) => [i.index, i.status, i.result.amount])).toEqual([
      [0, 'pending', 60],
      [1, 'pending', 60],
      [2, 'pending', 30],
      [3, 'pending', 90],
    ]);
    // The design's example says 洗浴, a category this ledger lacks: the item's words place it.
    expect(t.last()).toBe(
      '识别到4笔交易：第1笔，支出60元，餐饮；第2笔，支出60元，娱乐；第3笔，收入30元，红包；第4笔，收入90元，工资。请确认或修改。',
    );
  });

  it('多笔全部确认: 「确认」 is Layer 1 (no LLM call) and saves all four in one saveBatch, then clears', async () => {
    const saves: number[] = [];
    const t = await withFour({ ledgerPort: counting(saves) });
    await t.orch.processTextInput('确认');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(saves).toEqual([4]);
    expect(t.rows()).toHaveLength(4);
    expect(t.orch.batch).toBeNull();
    expect(t.orch.state).toBe('listening');
    expect(t.last()).toBe('已保存4笔交易。');
    const saved = t.events.find((e) => e.type === 'saved');
    expect(saved?.type === 'saved' && saved.transactions.map((row) => row.amountFen)).toEqual([6000, 6000, 3000, 9000]);
    expect(t.events.at(-3)).toEqual({ type: 'draftBatchUpdated', batch: null });
  });

  it('a category the ledger lacks (the model says 洗浴, 饮品) is read back as the one the save files it under', async () => {
    const t = await withFour();
    expect(t.orch.batch?.items.map((i) => i.result.category)).toEqual(['餐饮', '娱乐', '红包', '工资']);
    expect(t.last()).toContain('第2笔，支出60元，娱乐；');
    t.llm.script(
      {
        correct: {
          intent: 'append',
          corrections: [{ index: -1, updatedFields: { amount: 15, category: '饮品', type: 'EXPENSE', description: '奶茶' } }],
          confidence: 0.9,
        },
      },
      // A name the ledger lacks falls back to what the item's own words say (吃饭 → 餐饮): no change.
      { correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { category: '某某' } }], confidence: 0.9 } },
    );
    await t.orch.processTextInput('还有一笔奶茶15');
    expect(t.last()).toBe('已追加第5笔，支出15元，餐饮。现在共5笔，请确认或修改。');
    await t.orch.processTextInput('第一笔算某某');
    expect(t.last()).toBe(PHRASES.unclear);
    await t.orch.processTextInput('确认');
    // What was read back is exactly what the ledger holds.
    expect(
      t
        .rows()
        .map((row) => [row.description, row.category])
        .sort(),
    ).toEqual(
      [
        ['吃饭', '餐饮'],
        ['洗脚', '娱乐'],
        ['抢红包', '红包'],
        ['工资', '工资'],
        ['奶茶', '餐饮'],
      ].sort(),
    );
  });

  it('a category the user renamed (餐饮 → 吃喝) is the ledger own name and is kept as the model says it', async () => {
    const t = setup();
    const meals = t.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    t.ledger.renameCategory(meals.id, '吃喝');
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '吃喝', '吃饭')] });
    await t.orch.processTextInput('吃饭60');
    expect(t.last()).toBe('记录支出60元，吃喝，确认吗？');
    await t.orch.processTextInput('确认');
    expect(t.rows().map((row) => row.category)).toEqual(['吃喝']);
  });

  it('单笔: one item reads back in the single form and the same confirm flow saves it', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.processTextInput('午饭35块');
    expect(t.last()).toBe('记录支出35元，餐饮，确认吗？');
    await t.orch.processTextInput('确认');
    expect(t.rows().map((row) => [row.amountFen, row.category])).toEqual([[3500, '餐饮']]);
    expect(t.last()).toBe('已保存1笔交易。');
  });

  it('超过10笔: keeps the first ten and says so before the read-back', async () => {
    const t = setup();
    await t.begin();
    const ten = Array.from({ length: 10 }, (_, i) => r(i + 1, 'EXPENSE', '餐饮', `第${i}`));
    t.llm.script({ parse: ten, truncated: true });
    await t.orch.processTextInput('十二笔');
    expect(t.orch.batch?.size).toBe(10);
    expect(t.last()).toBe(`${PHRASES.truncated}识别到10笔交易，共55元支出、0元收入。请查看详情后确认。`);
  });

  it('离线多笔: the local parser gives every item, no 「仅支持单笔」, and more than ten says the same notice as the LLM path', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭花了60，打车30');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([60, 30]);
    expect(t.last()).toBe('识别到2笔交易：第1笔，支出60元，餐饮；第2笔，支出30元，交通。请确认或修改。');
    await t.orch.processTextInput('取消');
    const twelve = Array.from({ length: 12 }, (_, i) => `打车${i + 11}`).join('，');
    await t.orch.processTextInput(twelve);
    expect(t.orch.batch?.size).toBe(10);
    expect(t.last()?.startsWith(PHRASES.truncated)).toBe(true);
  });

  it('nothing understood: stays LISTENING and asks again', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('今天天气不错');
    expect(t.orch.state).toBe('listening');
    expect(t.orch.batch).toBeNull();
    expect(t.last()).toBe(PHRASES.nothingParsed);
  });
});

describe('CONFIRMING Layer 1 (voice-correction-dialogue 混合意图分流)', () => {
  it('逐条确认 「确认第二笔」 confirms index 1 without the LLM', async () => {
    const t = await withFour();
    await t.orch.processTextInput('确认第二笔');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(t.orch.batch?.items.map((i) => i.status)).toEqual(['pending', 'confirmed', 'pending', 'pending']);
    expect(t.orch.state).toBe('confirming');
    expect(t.last()).toBe('已确认第2笔。剩余3笔待确认。');
  });

  it('多笔逐条取消 「删掉第二笔」 cancels index 1, keeps CONFIRMING and names what was dropped', async () => {
    const t = await withFour();
    await t.orch.processTextInput('删掉第二笔');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(t.orch.batch?.items.map((i) => i.status)).toEqual(['pending', 'cancelled', 'pending', 'pending']);
    expect(t.orch.state).toBe('confirming');
    expect(t.last()).toBe('已取消第2笔（洗脚60元）。剩余3笔待确认。');
    expect(t.rows()).toHaveLength(0);
  });

  it('多笔混合完成: confirm 1 and 3, cancel 2 and 4 → auto-saves exactly the confirmed two', async () => {
    const t = await withFour();
    await t.orch.processTextInput('确认第一笔');
    await t.orch.processTextInput('确认第三笔');
    await t.orch.processTextInput('删掉第二笔');
    expect(t.rows()).toHaveLength(0);
    await t.orch.processTextInput('删掉第四笔');
    expect(
      t
        .rows()
        .map((row) => [row.description, row.amountFen])
        .sort(),
    ).toEqual([
      ['吃饭', 6000],
      ['抢红包', 3000],
    ]);
    expect(t.orch.batch).toBeNull();
    expect(t.orch.state).toBe('listening');
    expect(t.last()).toBe('已保存2笔交易。');
  });

  it('取消最后一笔且无 confirmed: 「已取消。」 and nothing saved', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.processTextInput('午饭35块');
    await t.orch.processTextInput('删掉第一笔');
    expect(t.orch.batch).toBeNull();
    expect(t.last()).toBe('已取消。');
    expect(t.rows()).toHaveLength(0);
  });

  it('全部确认 「全部确认」 confirms every pending item (a cancelled one stays out)', async () => {
    const t = await withFour();
    await t.orch.processTextInput('删掉第四笔');
    await t.orch.processTextInput('全部确认');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(t.rows()).toHaveLength(3);
    expect(t.last()).toBe('已保存3笔交易。');
  });

  it('取消当前记录 「不要了」: clears the batch, back to LISTENING, no LLM call', async () => {
    const t = await withFour();
    await t.orch.processTextInput('不要了');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(t.orch.batch).toBeNull();
    expect(t.orch.state).toBe('listening');
    expect(t.last()).toBe('已取消。');
    expect(t.rows()).toHaveLength(0);
  });

  it('an ordinal beyond the batch is refused without touching it', async () => {
    const t = await withFour();
    await t.orch.processTextInput('删掉第七笔');
    expect(t.orch.batch?.pendingCount).toBe(4);
    expect(t.last()).toBe('没有第7笔，现在共4笔。');
  });
});

describe('CONFIRMING Layer 2 (LLM correction)', () => {
  it('多笔定点纠正 「第三笔改为支出」: filler first, batch context sent, index 2 updated, still CONFIRMING', async () => {
    const t = await withFour();
    const mark = t.said().length;
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 2, updatedFields: { type: 'EXPENSE' } }], confidence: 0.9 } });
    await t.orch.processTextInput('第三笔改为支出');
    expect(t.llm.correctRequests[0]?.correctionText).toBe('第三笔改为支出');
    expect(t.llm.correctRequests[0]?.currentBatch.map((i) => i.index)).toEqual([0, 1, 2, 3]);
    expect(t.orch.batch?.items[2]?.result.type).toBe('EXPENSE');
    expect(t.orch.batch?.pendingCount).toBe(4);
    expect(t.orch.state).toBe('confirming');
    // A red packet given away is filed where the ledger keeps gifts (人情往来), not left as 红包.
    expect(t.spokenSince(mark)).toEqual([PHRASES.correcting, '已将第3笔修改为支出30元，人情往来。还需要修改吗？']);
    const updated = t.events.filter((e) => e.type === 'draftBatchUpdated').at(-1);
    expect(updated?.type === 'draftBatchUpdated' && updated.batch?.items[2]?.result.type).toBe('EXPENSE');
  });

  it('纠正时排除 cancelled items: 4 items, #2 cancelled, 「第二笔改成100」 → LLM index 1 maps back to original index 2', async () => {
    const t = await withFour();
    await t.orch.processTextInput('删掉第二笔');
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 1, updatedFields: { amount: 100 } }], confidence: 0.9 } });
    await t.orch.processTextInput('第二笔改成100');
    expect(t.llm.correctRequests[0]?.currentBatch.map((i) => [i.index, i.description])).toEqual([
      [0, '吃饭'],
      [1, '抢红包'],
      [2, '工资'],
    ]);
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([60, 60, 100, 90]);
    expect(t.last()).toBe('已将第3笔修改为收入100元，红包。还需要修改吗？');
  });

  it('LLM 二次判定为确认: words Layer 1 cannot place go to the LLM, whose confirm saves all', async () => {
    const t = await withFour();
    const words = '行吧就按你说的记上';
    expect(classifyIntent(words, 4).intent).toMatch(/^(correction|newInput|filler)$/);
    t.llm.script({ correct: { intent: 'confirm', corrections: [], confidence: 0.85 } });
    await t.orch.processTextInput(words);
    expect(t.llm.correctRequests).toHaveLength(1);
    expect(t.rows()).toHaveLength(4);
    expect(t.orch.state).toBe('listening');
    expect(t.last()).toBe('已保存4笔交易。');
  });

  it('LLM intent cancel → the batch is dropped', async () => {
    const t = await withFour();
    t.llm.script({ correct: { intent: 'cancel', corrections: [], confidence: 0.9 } });
    await t.orch.processTextInput('算了这些都别记了');
    expect(t.orch.batch).toBeNull();
    expect(t.last()).toBe('已取消。');
  });

  it('纠正失败保持原结果: unclear → batch unchanged, 「没听清要改什么，请再说一次」, CONFIRMING', async () => {
    const t = await withFour();
    const before = t.orch.batch;
    t.llm.script({ correct: { intent: 'unclear', corrections: [], confidence: 0.3 } });
    await t.orch.processTextInput('好像不太对');
    expect(t.orch.batch).toBe(before);
    expect(t.orch.state).toBe('confirming');
    expect(t.last()).toBe('没听清要改什么，请再说一次');
  });

  it('低 confidence 回退到 unclear: 0.55 ignores the corrections', async () => {
    const t = await withFour();
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 1 } }], confidence: 0.55 } });
    await t.orch.processTextInput('第一笔好像是一块');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(60);
    expect(t.last()).toBe('没听清要改什么，请再说一次');
  });

  it('定位模糊: a change that names no item of several asks 「不确定要修改哪笔，请说具体第几笔」, batch unchanged', async () => {
    const t = await withFour();
    const before = t.orch.batch;
    t.llm.script({ offline: true });
    await t.orch.processTextInput('改成50');
    expect(t.orch.batch).toBe(before);
    expect(t.last()).toBe(`${PHRASES.offlineCorrection}不确定要修改哪笔，请说具体第几笔`);
    // A model that cannot place it (and asks nothing) gets the same question.
    const online = await withFour();
    online.llm.script({ correct: { intent: 'unclear', corrections: [], confidence: 0.3 } });
    await online.orch.processTextInput('金额改成50');
    expect(online.last()).toBe('不确定要修改哪笔，请说具体第几笔');
    // With one item there is nothing to choose: words without a change stay 「没听清」.
    const single = setup({ online: false });
    await single.begin();
    await single.orch.processTextInput('午饭35块');
    await single.orch.processTextInput('好像不太对');
    expect(single.last()).toBe(`${PHRASES.offlineCorrection}${PHRASES.unclear}`);
  });

  it('a correction that changes nothing is not read back as 「已将第N笔修改为…」 (「删掉奶茶」 offline set 餐饮 on 餐饮)', async () => {
    const t = await withFour();
    const before = t.orch.batch;
    t.llm.script({ offline: true });
    await t.orch.processTextInput('删掉吃饭');
    expect(t.orch.batch?.items.map((i) => i.result)).toEqual(before?.items.map((i) => i.result));
    expect(t.last()).toBe(`${PHRASES.offlineCorrection}${PHRASES.unclear}`);
    // One real change among no-ops is read back alone.
    t.llm.script({
      correct: {
        intent: 'correction',
        corrections: [
          { index: 0, updatedFields: { category: '餐饮', amount: 60 } },
          { index: 3, updatedFields: { amount: 95 } },
        ],
        confidence: 0.9,
      },
    });
    await t.orch.processTextInput('工资是95');
    expect(t.last()).toBe('已将第4笔修改为收入95元，工资。还需要修改吗？');
  });

  it('a date correction reads the new day back', async () => {
    const t = await withFour();
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 1, updatedFields: { date: '2026-02-16' } }], confidence: 0.9 } });
    await t.orch.processTextInput('洗脚那笔是昨天');
    expect(t.last()).toBe('已将第2笔修改为支出60元，娱乐，2月16日。还需要修改吗？');
  });

  it('「没有了」 answering a correction read-back (「还需要修改吗？」, or 「确认吗？」 for one item) means no more changes: the drafts are saved, the session goes on', async () => {
    for (const answer of ['没有了', '没了', '没有', '不需要了', '没有了。']) {
      const t = setup({ online: false });
      await t.begin();
      await t.orch.processTextInput('午饭35块');
      await t.orch.processTextInput('改成40');
      expect(t.last()).toMatch(/确认吗？$/);
      await t.orch.processTextInput(answer);
      expect([answer, t.rows().map((row) => row.amountFen)]).toEqual([answer, [4000]]);
      expect(t.orch.state).toBe('listening');
      expect(t.last()).toBe('已保存1笔交易。');
      // Asked nothing, 「没有了」 is the exit word again.
      await t.orch.processTextInput('没有了');
      expect(t.events.some((e) => e.type === 'exitSession')).toBe(true);
    }
    // Without the question it still ends the session (and drops unconfirmed drafts, spec clear point 4).
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('午饭35块');
    await t.orch.processTextInput('没有了');
    expect(t.rows()).toHaveLength(0);
    expect(t.events.some((e) => e.type === 'exitSession')).toBe(true);
  });

  it('a clarifying question from the model is spoken and the batch stays', async () => {
    const t = await withFour();
    t.llm.script({ correct: { intent: 'unclear', corrections: [], confidence: 0.8, message: '不确定要修改哪笔，请说具体第几笔' } });
    await t.orch.processTextInput('改成50');
    expect(t.last()).toBe('不确定要修改哪笔，请说具体第几笔');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([60, 60, 30, 90]);
  });

  it('语音纠正通过 LLM 修改草稿 「改为收入」 (single item): filler, LLM, updated card, read-back, still CONFIRMING', async () => {
    const t = setup();
    await t.begin();
    t.llm.script(
      { parse: [r(60, 'EXPENSE', '红包', '红包')] },
      { correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'INCOME' } }], confidence: 0.92 } },
    );
    await t.orch.processTextInput('红包收了60');
    const mark = t.said().length;
    await t.orch.processTextInput('改为收入');
    expect(classifyIntent('改为收入', 1).intent).toBe('correction');
    expect(t.llm.correctRequests[0]).toMatchObject({ correctionText: '改为收入', currentBatch: [{ index: 0, amount: 60, type: 'EXPENSE' }] });
    expect(t.spokenSince(mark)).toEqual([PHRASES.correcting, '已修改为收入60元，红包，确认吗？']);
    expect(t.events.at(-2)).toMatchObject({ type: 'draftBatchUpdated', batch: { items: [{ result: { type: 'INCOME' } }] } });
    expect(t.orch.state).toBe('confirming');
  });

  it('自然语言纠正 and 描述词定位: Layer 1 passes 「红包那笔应该是收入不是支出啊」 to the LLM, which finds the item', async () => {
    const t = await withFour();
    await t.orch.act({ action: 'editItem', index: 2, fields: { type: 'EXPENSE' } });
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 2, updatedFields: { type: 'INCOME' } }], confidence: 0.88 } });
    await t.orch.processTextInput('红包那笔应该是收入不是支出啊');
    expect(t.llm.correctRequests).toHaveLength(1);
    expect(t.orch.batch?.items[2]?.result.type).toBe('INCOME');
  });

  it('request failure: the local rules answer, and what they cannot place leaves the batch unchanged', async () => {
    const t = await withFour();
    const before = t.orch.batch;
    t.llm.script({ offline: true });
    await t.orch.processTextInput('好像哪里不太对');
    expect(t.orch.batch).toBe(before);
    expect(t.last()).toMatch(/没听清要改什么，请再说一次$/);
    expect(t.orch.state).toBe('confirming');
  });

  it('a gateway that refuses the key is reported once (llm_unavailable, opens settings) while the local rules carry on', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ status: 401, error: 'unauthorized' }, { status: 401, error: 'unauthorized' }, { status: 429, error: 'rate_limit_exceeded' });
    await t.orch.processTextInput('午饭35块');
    expect(t.orch.batch?.items[0]?.result).toMatchObject({ amount: 35, source: 'local' });
    await t.orch.processTextInput('改成50');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(50);
    await t.orch.processTextInput('改成收入');
    const errors = t.events.filter((e) => e.type === 'error');
    expect(errors).toEqual([
      { type: 'error', code: 'llm_unavailable', message: '智能解析服务拒绝了密钥（HTTP 401），已改用本地规则' },
      { type: 'error', code: 'llm_busy', message: '智能解析服务繁忙（HTTP 429），暂时改用本地规则' },
    ]);
    // Not offline: the spoken offline notices stay out of it.
    expect(t.said().some((text) => text.includes('当前离线'))).toBe(false);
    await t.orch.processTextInput('取消');
    t.llm.script({ status: 401, error: 'unauthorized' });
    await t.orch.processTextInput('吃饭花了60，打车30');
    // The local rules find both items; no 「仅支持单笔」 any more.
    expect(t.last()).toBe('识别到2笔交易：第1笔，支出60元，餐饮；第2笔，支出30元，交通。请确认或修改。');
  });

  it('LLM 纠正超时降级: after 3 s the local rules apply 「改为收入」', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] }, { hang: true });
    await t.orch.processTextInput('吃饭60');
    const mark = t.said().length;
    const done = t.orch.processTextInput('改为收入');
    await t.settle();
    // The filler is spoken before the request goes out, not after the answer.
    expect(t.llm.correctRequests).toHaveLength(1);
    expect(t.spokenSince(mark)).toEqual([PHRASES.correcting]);
    await t.clock.advance(2999);
    expect(t.orch.batch?.items[0]?.result.type).toBe('EXPENSE');
    await t.clock.advance(1);
    await done;
    expect(t.orch.batch?.items[0]?.result.type).toBe('INCOME');
    expect(t.spokenSince(mark)[0]).toBe(PHRASES.correcting);
    expect(t.last()).toMatch(/^已修改为收入60元，.+，确认吗？$/);
  });

  it('离线复杂纠正: offline, 「那个应该是收入不是支出」 sets the type from the keywords', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭60');
    await t.orch.processTextInput('那个应该是收入不是支出');
    expect(t.orch.batch?.items[0]?.result.type).toBe('INCOME');
  });

  it('离线类型修正: offline, 「改为收入」 goes to the local rules and the offline notice is spoken once', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭60');
    await t.orch.processTextInput('改为收入');
    expect(t.orch.batch?.items[0]?.result.type).toBe('INCOME');
    expect(t.last()?.startsWith(`${PHRASES.offlineCorrection}已修改为收入60元`)).toBe(true);
    await t.orch.processTextInput('金额改成100');
    expect(t.orch.batch?.items[0]?.result).toMatchObject({ type: 'INCOME', amount: 100 });
    expect(t.last()?.startsWith('已修改为收入100元')).toBe(true);
  });

  it('a type flip re-files the category for the new type instead of reading back 「收入…，餐饮」', async () => {
    const t = await withFour();
    t.llm.script({ correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'INCOME' } }], confidence: 0.9 } });
    await t.orch.processTextInput('第一笔是收入');
    expect(t.orch.batch?.items[0]?.result).toMatchObject({ type: 'INCOME', category: '其他' });
    expect(t.last()).toBe('已将第1笔修改为收入60元，其他。还需要修改吗？');
    // A red packet has a counterpart in the other direction: as an expense it is 人情往来.
    await t.orch.act({ action: 'editItem', index: 2, fields: { type: 'EXPENSE' } });
    expect(t.orch.batch?.items[2]?.result).toMatchObject({ type: 'EXPENSE', category: '人情往来' });
    // A category the new type has is kept, and one named with the flip wins.
    await t.orch.act({ action: 'editItem', index: 3, fields: { type: 'EXPENSE', category: '住房' } });
    expect(t.orch.batch?.items[3]?.result).toMatchObject({ type: 'EXPENSE', category: '住房' });
    await t.orch.processTextInput('确认');
    expect(
      t
        .rows()
        .map((row) => [row.type, row.category])
        .sort(),
    ).toEqual(
      // 洗浴 is the model's word, not a ledger category: the draft already said 娱乐.
      [
        ['EXPENSE', '人情往来'],
        ['EXPENSE', '住房'],
        ['EXPENSE', '娱乐'],
        ['INCOME', '其他'],
      ].sort(),
    );
  });

  it('a filler (「嗯」) while the card is shown neither calls the LLM nor changes anything', async () => {
    const t = await withFour();
    const before = t.orch.batch;
    const mark = t.said().length;
    await t.orch.processTextInput('嗯');
    await t.orch.processTextInput('……');
    expect(t.llm.correctRequests).toHaveLength(0);
    expect(t.spokenSince(mark)).toEqual([]);
    expect(t.orch.batch).toBe(before);
    expect(t.orch.state).toBe('confirming');
  });

  it('多次纠正累积: two corrections both show in the batch, and it is never cleared', async () => {
    const t = await withFour();
    t.llm.script(
      { correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'INCOME' } }], confidence: 0.9 } },
      { correct: { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 100 } }], confidence: 0.9 } },
    );
    await t.orch.processTextInput('第一笔改为收入');
    await t.orch.processTextInput('金额改成100');
    expect(t.orch.batch?.items[0]?.result).toMatchObject({ type: 'INCOME', amount: 100 });
    expect(t.events.filter((e) => e.type === 'draftBatchUpdated' && e.batch === null)).toHaveLength(0);
  });

  it('整体纠正: several corrections at once are all applied and read back', async () => {
    const t = setup();
    await t.begin();
    t.llm.script(
      { parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车')] },
      {
        correct: {
          intent: 'correction',
          corrections: [
            { index: 0, updatedFields: { amount: 70 } },
            { index: 1, updatedFields: { amount: 40 } },
          ],
          confidence: 0.9,
        },
      },
    );
    await t.orch.processTextInput('吃饭花了60，打车30');
    await t.orch.processTextInput('金额都加10块');
    expect(t.last()).toBe('已将第1笔修改为支出70元，餐饮。已将第2笔修改为支出40元，交通。还需要修改吗？');
  });

  it('CONFIRMING 态追加新笔: 「还有一笔奶茶15」 appends item 3 and reads it back', async () => {
    const t = setup();
    await t.begin();
    t.llm.script(
      { parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车')] },
      {
        correct: {
          intent: 'append',
          corrections: [{ index: -1, updatedFields: { amount: 15, category: '饮品', type: 'EXPENSE', description: '奶茶' } }],
          confidence: 0.9,
        },
      },
    );
    await t.orch.processTextInput('吃饭60、打车30');
    await t.orch.processTextInput('还有一笔奶茶15');
    expect(t.orch.batch?.items.map((i) => [i.index, i.status, i.result.description])).toEqual([
      [0, 'pending', '吃饭'],
      [1, 'pending', '打车'],
      [2, 'pending', '奶茶'],
    ]);
    // 饮品 is the model's word; the ledger has 餐饮 for a milk tea, and that is what is read back.
    expect(t.last()).toBe('已追加第3笔，支出15元，餐饮。现在共3笔，请确认或修改。');
    await t.orch.processTextInput('确认');
    expect(t.rows()).toHaveLength(3);
  });

  it('追加超限拒绝: with 10 drafts an append is refused with 「已达上限，请先确认当前交易」', async () => {
    const t = setup();
    await t.begin();
    const ten = Array.from({ length: 10 }, (_, i) => r(i + 1, 'EXPENSE', '餐饮', `第${i}`));
    t.llm.script(
      { parse: ten },
      {
        correct: {
          intent: 'append',
          corrections: [{ index: -1, updatedFields: { amount: 15, type: 'EXPENSE', description: '奶茶' } }],
          confidence: 0.9,
        },
      },
    );
    await t.orch.processTextInput('今天买了十样东西');
    await t.orch.processTextInput('还有一笔奶茶15');
    expect(t.orch.batch?.size).toBe(10);
    expect(t.last()).toBe('已达上限，请先确认当前交易');
  });

  it('input arriving while a correction is in flight is queued and applied to the updated batch', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车')] }, { hang: true });
    await t.orch.processTextInput('吃饭60，打车30');
    const slow = t.orch.processTextInput('第一笔改成50');
    const next = t.orch.processTextInput('确认第二笔');
    await t.clock.advance(1000);
    // Still waiting for the correction: the ordinal command has not been applied yet.
    expect(t.orch.batch?.items.map((i) => i.status)).toEqual(['pending', 'pending']);
    await t.clock.advance(2000);
    await Promise.all([slow, next]);
    expect(t.orch.batch?.items.map((i) => [i.status, i.result.amount])).toEqual([
      ['pending', 50],
      ['confirmed', 30],
    ]);
  });
});

describe('commit, continue, exit', () => {
  it('「继续记账」 with items pending keeps the card, says 请说, and the next words are added to it', async () => {
    const t = await withFour();
    await t.orch.processTextInput('确认第一笔');
    await t.orch.processTextInput('继续记账');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.batch?.size).toBe(4);
    expect(t.orch.state).toBe('confirming');
    expect(t.last()).toBe(PHRASES.goOn);
    expect(t.said().some((text) => text.includes('记好了'))).toBe(false);
    t.llm.script({ parse: [r(15, 'EXPENSE', '餐饮', '奶茶')] });
    await t.orch.processTextInput('奶茶15');
    expect(t.orch.batch?.items.map((i) => [i.status, i.result.amount])).toEqual([
      ['confirmed', 60],
      ['pending', 60],
      ['pending', 30],
      ['pending', 90],
      ['pending', 15],
    ]);
    expect(t.last()).toBe('已追加第5笔，支出15元，餐饮。现在共5笔，请确认或修改。');
  });

  it('批量保存失败回滚: a bad item saves nothing, drafts stay as they were, the error is spoken', async () => {
    const t = setup();
    await t.begin();
    // A model's amount of 0 is on the card (the user may fix it) but no amount the ledger takes.
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(0, 'EXPENSE', '交通', '打车')] });
    await t.orch.processTextInput('吃饭60，打车');
    const before = t.orch.batch;
    await t.orch.processTextInput('确认');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.batch).toBe(before);
    expect(t.orch.batch?.pendingCount).toBe(2);
    expect(t.orch.state).toBe('confirming');
    expect(t.events.filter((e) => e.type === 'error').at(-1)).toMatchObject({ code: 'save_failed' });
    expect(t.last()).toMatch(/^保存失败，第2笔.+。请修改后再确认。$/);
  });

  it('a save failure names the bad item by the number on the card, not its place among the confirmed ones', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({
      parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(0, 'EXPENSE', '交通', '零'), r(30, 'EXPENSE', '交通', '打车'), r(0, 'EXPENSE', '购物', '买书')],
    });
    await t.orch.processTextInput('吃饭60，零，打车30，买书');
    await t.orch.processTextInput('删掉第二笔');
    await t.orch.processTextInput('确认');
    expect(t.rows()).toHaveLength(0);
    // The zero 买书 is the 3rd item sent to the ledger, but 第4笔 on the card and in the read-back.
    expect(t.events.filter((e) => e.type === 'error').at(-1)).toMatchObject({
      code: 'save_failed',
      message: expect.stringMatching(/^保存失败：第4笔/),
    });
    expect(t.last()).toMatch(/^保存失败，第4笔.+。请修改后再确认。$/);
  });

  it('用户主动退出: summary spoken, exitSession(summary), audio released, later VAD never reaches ASR', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.processTextInput('午饭35');
    await t.orch.processTextInput('确认');
    await t.orch.processTextInput('退出');
    expect(t.last()).toBe('本次记了1笔，支出35元。再见！');
    expect(t.events.at(-1)).toEqual({ type: 'exitSession', summary: { savedCount: 1, expenseFen: 3500, incomeFen: 0, transferFen: 0 } });
    expect(t.orch.state).toBe('idle');
    expect(t.orch.ended).toBe(true);
    expect(t.input.running).toBe(false);
    expect(t.input.listenerCount).toBe(0);
    t.input.speechStart();
    t.input.frame();
    expect(t.asrs).toHaveLength(0);
    const count = t.events.length;
    await t.orch.processTextInput('午饭35');
    expect(t.events.length).toBe(count);
  });

  it('exit while confirming drops the drafts (clear point 4) and saves nothing', async () => {
    const t = await withFour();
    await t.orch.processTextInput('退出');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.batch).toBeNull();
    expect(t.events.filter((e) => e.type === 'exitSession')).toHaveLength(1);
  });

  it('undo 「撤销」 removes the rows of the last save and restores them as drafts', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车')] });
    await t.orch.processTextInput('吃饭60打车30');
    await t.orch.processTextInput('确认');
    expect(t.rows()).toHaveLength(2);
    await t.orch.processTextInput('撤销');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.state).toBe('confirming');
    expect(t.orch.batch?.items.map((i) => [i.status, i.result.description])).toEqual([
      ['pending', '吃饭'],
      ['pending', '打车'],
    ]);
    expect(t.last()).toBe('已撤销刚才保存的2笔交易，请确认或修改。识别到2笔交易：第1笔，支出60元，餐饮；第2笔，支出30元，交通。请确认或修改。');
    expect(t.orch.summary.savedCount).toBe(0);
    await t.orch.act({ action: 'cancelItem', index: 1 });
    await t.orch.act({ action: 'confirmAll' });
    expect(t.rows().map((row) => row.description)).toEqual(['吃饭']);
    await t.orch.act({ action: 'undo' });
    await t.orch.act({ action: 'undo' });
    expect(t.last()).toBe(PHRASES.undoWhileConfirming);
  });

  it('undo after the ledger page changed the saved rows brings back what is there now, never a deleted row', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车')] });
    await t.orch.processTextInput('吃饭60打车30');
    await t.orch.processTextInput('确认');
    const [meal, taxi] = t.rows().sort((a, b) => a.description.localeCompare(b.description, 'zh'));
    // Meanwhile, on the ledger page: the taxi is deleted and the meal corrected to 65.
    t.ledger.deleteTransaction(taxi!.id);
    t.ledger.updateTransaction(meal!.id, { amountFen: 6500 });
    await t.orch.processTextInput('撤销');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.batch?.items.map((i) => [i.result.description, i.result.amount])).toEqual([['吃饭', 65]]);
    expect(t.last()).toBe('已撤销刚才保存的1笔交易，请确认或修改。记录支出65元，餐饮，确认吗？');
    expect(t.orch.summary).toMatchObject({ savedCount: 0, expenseFen: 0 });
    await t.orch.processTextInput('确认');
    expect(t.rows().map((row) => [row.description, row.amountFen])).toEqual([['吃饭', 6500]]);
    expect(t.orch.summary).toMatchObject({ savedCount: 1, expenseFen: 6500 });
  });

  it('a fix of an item with no card (「第一笔改成50」) says nothing is pending instead of drafting 「改成」 50', async () => {
    const t = setup({ online: false });
    await t.begin();
    for (const text of ['第一笔改成50', '最后一笔改成收入', '那笔应该是30']) {
      await t.orch.processTextInput(text);
      expect([text, t.last()]).toEqual([text, PHRASES.nothingPending]);
    }
    expect(t.orch.batch).toBeNull();
    expect(t.orch.state).toBe('listening');
    // An ordinary new item still parses.
    await t.orch.processTextInput('打车其实花了35');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(35);
  });

  it('「撤销」 on a shown card cancels it; 「撤销刚才的保存」 keeps it; with no card both undo the last save', async () => {
    const t = setup();
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] }, { parse: [r(30, 'EXPENSE', '交通', '打车')] });
    await t.orch.processTextInput('吃饭60');
    await t.orch.processTextInput('确认');
    await t.orch.processTextInput('打车30');
    await t.orch.processTextInput('撤销刚才的保存');
    expect(t.last()).toBe(PHRASES.undoWhileConfirming);
    expect(t.orch.batch?.items.map((i) => i.result.description)).toEqual(['打车']);
    await t.orch.processTextInput('撤销');
    expect(t.last()).toBe(PHRASES.cancelled);
    expect([t.orch.batch, t.orch.state]).toEqual([null, 'listening']);
    expect(t.rows().map((row) => row.description)).toEqual(['吃饭']);
    await t.orch.processTextInput('撤销刚才的保存');
    expect(t.rows()).toHaveLength(0);
    expect(t.orch.batch?.items.map((i) => i.result.description)).toEqual(['吃饭']);
    await t.orch.processTextInput('确认');
    await t.orch.processTextInput('撤销');
    expect(t.rows()).toHaveLength(0);
    expect(t.last()).toBe('已撤销刚才保存的1笔交易，请确认或修改。记录支出60元，餐饮，确认吗？');
  });

  it('undo with nothing saved says so', async () => {
    const t = setup();
    await t.begin();
    await t.orch.act({ action: 'undo' });
    expect(t.last()).toBe(PHRASES.nothingToUndo);
  });

  it('a spoken query is answered from the ledger and the state does not change', async () => {
    const t = setup();
    await t.begin();
    t.ledger.saveBatch([r(60, 'EXPENSE', '餐饮', '吃饭'), r(30.5, 'EXPENSE', '交通', '打车'), r(100, 'INCOME', '工资', '')]);
    await t.orch.processTextInput('这个月花了多少');
    expect(t.orch.state).toBe('listening');
    expect(t.last()).toBe('这个月支出共90.50元，2笔。');
  });

  it('UI actions: editItem is a correction of that item; confirmItem/cancelItem by index', async () => {
    const t = await withFour();
    await t.orch.act({ action: 'editItem', index: 1, fields: { amount: 45, category: '其他' } });
    expect(t.orch.batch?.items[1]?.result).toMatchObject({ amount: 45, category: '其他' });
    expect(t.last()).toBe('已将第2笔修改为支出45元，其他。还需要修改吗？');
    await t.orch.act({ action: 'confirmItem', index: 1 });
    await t.orch.act({ action: 'cancelAll' });
    expect(t.rows().map((row) => row.amountFen)).toEqual([4500]);
  });

  it('UI actions: a transfer to a person read off a picture is turned into money lent and back, and saved as a loan', async () => {
    const t = setup();
    await t.begin();
    const transfer: ParseResult = { ...r(500, 'TRANSFER', '转账', '转账给李明'), counterparty: '李明', source: 'local', confidence: 1 };
    const picture = { id: 'p1', bytes: new Uint8Array(), format: 'png' as const, text: '' };
    expect(await t.orch.processPicture({ results: [transfer], notes: [], name: '转账.png', picture })).toBe('shown');
    await t.orch.act({ action: 'editItem', index: 0, fields: { lend: false } });
    expect(t.orch.batch?.items[0]?.result).not.toHaveProperty('flow');
    await t.orch.act({ action: 'editItem', index: 0, fields: { lend: true } });
    expect(t.orch.batch?.items[0]?.result).toMatchObject({ type: 'TRANSFER', flow: 'lend', counterparty: '李明' });
    expect(t.last()).toBe('已修改为借给李明500元，确认吗？');
    await t.orch.act({ action: 'confirmAll' });
    expect(t.rows()).toMatchObject([{ amountFen: 50000, type: 'TRANSFER', flow: 'lend', person: '李明' }]);
  });
});

describe('timing and TTS coordination', () => {
  it('欢迎语: the welcome is spoken when listening starts', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    expect(t.input.startCalls).toBe(1);
    expect(t.said()[0]).toBe(PHRASES.welcome);
    expect(t.events.slice(0, 2)).toEqual([
      { type: 'stateChanged', state: 'listening' },
      { type: 'ttsSpoken', text: PHRASES.welcome },
    ]);
  });

  it('idle: warning at 2 min 30 s, timeout at 3 min → sessionTimeout with summary, card off the screen but kept, audio released', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] });
    await t.orch.processTextInput('吃饭60');
    await t.clock.advance(149_999);
    expect(t.said()).not.toContain(PHRASES.idleWarning);
    await t.clock.advance(1);
    expect(t.last()).toBe(PHRASES.idleWarning);
    await t.clock.advance(29_999);
    expect(t.types()).not.toContain('sessionTimeout');
    await t.clock.advance(1);
    expect(t.events.at(-1)).toEqual({
      type: 'sessionTimeout',
      summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0, unconfirmed: [expect.objectContaining({ amount: 60 })] },
    });
    expect(t.orch.batch).toBeNull();
    expect(t.input.running).toBe(false);
    expect(t.last()).toBe(`${PHRASES.timedOut}本次没有记账。还有1笔未确认，下次开始记账时继续确认。再见！`);
  });

  it('activity restarts the idle countdown', async () => {
    const t = setup();
    await t.begin();
    await t.clock.advance(140_000);
    await t.orch.processTextInput('这个月花了多少');
    await t.clock.advance(140_000);
    expect(t.said()).not.toContain(PHRASES.idleWarning);
    await t.clock.advance(10_000);
    expect(t.last()).toBe(PHRASES.idleWarning);
  });

  it('确认播报抑制 VAD: speechStart while TTS speaks is ignored, capture keeps running, state unchanged', async () => {
    const t = setup({ mode: 'auto', ttsMs: 2000 });
    await t.begin();
    expect(t.orch.isTtsSpeaking).toBe(true);
    expect(t.input.vadPaused).toBe(true);
    t.input.speechStart();
    expect(t.asrs).toHaveLength(0);
    expect(t.orch.state).toBe('listening');
    expect(t.orch.ignoredSpeechStarts).toBe(1);
    expect(t.input.running).toBe(true);
    await t.clock.advance(2000);
    expect(t.orch.isTtsSpeaking).toBe(false);
    expect(t.input.vadPaused).toBe(false);
    t.input.speechStart();
    expect(t.asrs).toHaveLength(1);
    expect(t.orch.state).toBe('recognizing');
  });

  it('TTS 播报失败不影响流程: a throwing speaker resets the flag and the dialogue goes on', async () => {
    const t = setup({ mode: 'auto' });
    t.tts.failing = true;
    await t.begin();
    await t.clock.advance(0);
    expect(t.orch.isTtsSpeaking).toBe(false);
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] });
    await t.orch.processTextInput('吃饭60');
    await t.orch.processTextInput('确认');
    expect(t.rows()).toHaveLength(1);
    await t.settle();
    t.input.speechStart();
    expect(t.orch.state).toBe('recognizing');
  });

  it('Delegate 安全: after dispose no event is emitted, even from late ASR and LLM answers', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.input.speechStart();
    const asr = t.asrs[0]!;
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] }, { hang: true });
    await t.orch.processTextInput('吃饭60');
    const pending = t.orch.processTextInput('改成收入');
    await t.orch.dispose();
    const count = t.events.length;
    asr.final('午饭35');
    asr.fail({ code: 'server_error', message: 'late' });
    t.input.speechStart();
    await t.clock.advance(5000);
    await pending;
    expect(t.events.length).toBe(count);
    expect(t.input.running).toBe(false);
    expect(asr.closed).toBe(true);
  });
});

describe('audio pipeline (auto, pushToTalk, keyboard)', () => {
  it('自动模式完整流程: VAD start → ASR with pre-roll → partial → end → commit → final → drafts', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    t.input.speechStart();
    const asr = t.asrs[0]!;
    expect(t.orch.state).toBe('recognizing');
    await t.settle();
    expect(asr.audio[0]).toBe(t.input.preRollAudio);
    t.input.frame(480);
    t.input.frame(480);
    asr.partial('午饭');
    t.input.speechEnd();
    expect(asr.commits).toBe(1);
    expect(asr.samplesSent).toBe(8000 + 960);
    asr.final('午饭35块');
    await t.orch.processTextInput('');
    expect(asr.closed).toBe(true);
    expect(t.orch.state).toBe('confirming');
    expect(t.types()).toEqual(expect.arrayContaining(['speechDetected', 'partialText', 'finalText']));
    const seq = t.events.filter((e) => e.type === 'stateChanged').map((e) => e.type === 'stateChanged' && e.state);
    // RECOGNIZING lasts until the words are understood, then straight to CONFIRMING.
    expect(seq).toEqual(['listening', 'recognizing', 'confirming']);
    expect(t.orch.batch?.items[0]?.result.amount).toBe(35);
  });

  it('while the words of an utterance are being understood the state stays RECOGNIZING and the VAD starts nothing new', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.llm.script({ hang: true });
    t.input.speechStart();
    await t.settle();
    t.input.speechEnd();
    t.asrs[0]!.final('午饭35块');
    await t.settle();
    expect(t.orch.state).toBe('recognizing');
    t.input.speechStart();
    await t.settle();
    expect(t.asrs).toHaveLength(1);
    // The LLM never answers: after the 5 s parse limit the local rules make the draft.
    await t.clock.advance(5000);
    await t.orch.idle();
    expect(t.orch.state).toBe('confirming');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(35);
  });

  it('audio that arrives before the socket is open is buffered, then sent in order', async () => {
    const t = setup({ mode: 'auto', asrAutoConnect: false });
    await t.begin();
    t.input.speechStart();
    t.input.frame(100, 1);
    t.input.frame(100, 2);
    t.input.speechEnd();
    const asr = t.asrs[0]!;
    expect(asr.audio).toHaveLength(0);
    asr.finishConnect();
    await t.clock.advance(0);
    expect(asr.audio.map((a) => a[0])).toEqual([7, 1, 2]);
    expect(asr.commits).toBe(1);
  });

  it('an engine that refuses its model says so, not 「检查网络」 (its own code reaches the window); a plain failure stays connect_failed', async () => {
    const t = setup({ mode: 'auto', asrAutoConnect: false });
    await t.begin();
    t.input.speechStart();
    t.asrs[0]!.finishConnect(new AsrFailure('model_refused', '语音模型无法加载：Protobuf parsing failed.'));
    await t.settle();
    t.input.speechStart();
    t.asrs[1]!.finishConnect(new Error('socket hang up'));
    await t.settle();
    expect(t.events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', code: 'model_refused', message: '语音模型无法加载，请在设置中重新下载或换一个模型' },
      { type: 'error', code: 'connect_failed', message: '语音识别连接失败，请检查网络后重试' },
    ]);
  });

  it('push-to-talk: an engine that fails to start reports its own code on release', async () => {
    const t = setup({ mode: 'pushToTalk', asrAutoConnect: false });
    await t.begin();
    await t.orch.pushToTalk('down');
    await t.clock.advance(700);
    t.asrs[0]!.finishConnect(new AsrFailure('engine_failed', 'recognizer exited'));
    await t.settle();
    await t.orch.pushToTalk('up');
    await t.settle();
    expect(t.events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', code: 'engine_failed', message: '本地语音识别出错，请再说一次，或改用键盘输入' },
    ]);
  });

  it('ASR reconnect is allowed only while RECOGNIZING; a failure reports and drops back to LISTENING', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.input.speechStart();
    const asr = t.asrs[0]!;
    expect(asr.shouldReconnect()).toBe(true);
    asr.fail({ code: 'reconnect_failed', message: '3 attempts failed' });
    expect(t.orch.state).toBe('listening');
    expect(asr.shouldReconnect()).toBe(false);
    expect(t.events.filter((e) => e.type === 'error').at(-1)).toEqual({
      type: 'error',
      code: 'reconnect_failed',
      message: '语音识别连接失败，请检查网络后重试',
    });
  });

  it('an utterance in CONFIRMING returns to CONFIRMING and is handled as a correction', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.llm.script({ parse: [r(60, 'EXPENSE', '餐饮', '吃饭')] });
    await t.orch.processTextInput('吃饭60');
    t.input.speechStart();
    expect(t.orch.state).toBe('recognizing');
    t.input.speechEnd();
    t.asrs[0]!.final('确认');
    await t.orch.processTextInput('');
    expect(t.rows()).toHaveLength(1);
    expect(t.orch.state).toBe('listening');
  });

  it('no final text within 8 s → error, back to the previous state', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    t.input.speechStart();
    t.input.speechEnd();
    await t.clock.advance(7999);
    expect(t.orch.state).toBe('recognizing');
    await t.clock.advance(1);
    expect(t.orch.state).toBe('listening');
    expect(t.events.at(-1)).toMatchObject({ type: 'error', code: 'no_result' });
  });

  it('按住说话: a hold under 600 ms sends nothing and reports tooShort', async () => {
    const t = setup({ mode: 'pushToTalk' });
    await t.begin();
    t.input.speechStart();
    expect(t.asrs).toHaveLength(0);
    await t.orch.pushToTalk('down');
    t.input.frame();
    await t.clock.advance(599);
    await t.orch.pushToTalk('up');
    const asr = t.asrs[0]!;
    expect(asr.samplesSent).toBe(0);
    expect(asr.commits).toBe(0);
    expect(asr.closed).toBe(true);
    expect(t.events.at(-1)).toMatchObject({ type: 'error', code: 'tooShort' });
    expect(t.orch.state).toBe('listening');
  });

  it('按住说话: a long hold streams audio, commits on release and parses the final text', async () => {
    const t = setup({ mode: 'pushToTalk' });
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.pushToTalk('down');
    expect(t.tts.stops).toBe(1);
    t.input.frame(480);
    await t.clock.advance(600);
    t.input.frame(480);
    await t.clock.advance(400);
    await t.orch.pushToTalk('up');
    const asr = t.asrs[0]!;
    expect(asr.samplesSent).toBe(960);
    expect(asr.commits).toBe(1);
    asr.final('午饭35');
    await t.settle();
    await t.orch.idle();
    expect(t.orch.state).toBe('confirming');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(35);
  });

  it('a press-to-start hotkey (endOnSilence): the end of speech releases it, like letting go of the key', async () => {
    const t = setup({ mode: 'pushToTalk' });
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.pushToTalk('down', { endOnSilence: true });
    t.input.speechStart();
    t.input.frame(480);
    await t.clock.advance(700);
    t.input.frame(480);
    t.input.speechEnd();
    await t.settle();
    const asr = t.asrs[0]!;
    expect(asr.commits).toBe(1);
    asr.final('午饭35');
    await t.settle();
    await t.orch.idle();
    expect(t.orch.state).toBe('confirming');
    expect(t.orch.batch?.items[0]?.result.amount).toBe(35);
    // An ordinary held key ignores the VAD: only its release commits.
    const held = setup({ mode: 'pushToTalk' });
    await held.begin();
    await held.orch.pushToTalk('down');
    held.input.frame(480);
    await held.clock.advance(700);
    held.input.speechEnd();
    await held.settle();
    expect(held.asrs[0]?.commits ?? 0).toBe(0);
    expect(held.orch.state).toBe('recognizing');
  });

  it('按住说话: no final text within 8 s of the release → no_result, back to LISTENING', async () => {
    const t = setup({ mode: 'pushToTalk' });
    await t.begin();
    await t.orch.pushToTalk('down');
    await t.clock.advance(1000);
    await t.orch.pushToTalk('up');
    expect(t.asrs[0]!.commits).toBe(1);
    await t.clock.advance(7999);
    expect(t.orch.state).toBe('recognizing');
    await t.clock.advance(1);
    expect(t.orch.state).toBe('listening');
    expect(t.events.at(-1)).toMatchObject({ type: 'error', code: 'no_result' });
    expect(t.asrs[0]!.closed).toBe(true);
  });

  it('键盘输入模式 never opens the microphone', async () => {
    const t = setup({ mode: 'keyboard' });
    await t.begin();
    t.llm.script({ parse: [r(35, 'EXPENSE', '餐饮', '午饭')] });
    await t.orch.processTextInput('午饭35');
    expect(t.input.startCalls).toBe(0);
    expect(t.asrs).toHaveLength(0);
  });

  it('no microphone: a Chinese error, and the session falls back to keyboard input', async () => {
    const t = setup({ mode: 'auto' });
    t.input.failWith = { code: 'no_device', message: 'no input device' };
    await t.begin();
    expect(t.events[0]).toEqual({ type: 'error', code: 'no_device', message: '没有找到麦克风，请在设置中选择输入设备' });
    expect(t.orch.mode).toBe('keyboard');
    expect(t.orch.state).toBe('listening');
    expect(t.input.listenerCount).toBe(0);
  });

  it('switching to keyboard releases the microphone; switching back reopens it', async () => {
    const t = setup({ mode: 'auto' });
    await t.begin();
    await t.orch.setMode('keyboard');
    expect(t.input.running).toBe(false);
    expect(t.input.listenerCount).toBe(0);
    await t.orch.setMode('pushToTalk');
    expect(t.input.running).toBe(true);
    expect(t.orch.mode).toBe('pushToTalk');
  });
});

describe('start', () => {
  it('is idempotent: concurrent starts open the mic once and welcome once', async () => {
    const t = setup({ mode: 'auto' });
    await Promise.all([t.orch.start(), t.orch.start(), t.orch.processTextInput('这个月花了多少')]);
    expect(t.input.startCalls).toBe(1);
    expect(t.said().filter((text) => text === PHRASES.welcome)).toHaveLength(1);
  });
});

describe('offline: several items, a missing amount, drafts that outlive the session (no LLM)', () => {
  it('the four-item sentence → 4 drafts → 「第三笔改为支出」 → 「确认」 → one saveBatch of 4', async () => {
    const saves: number[] = [];
    const t = setup({ online: false, ledgerPort: counting(saves) });
    await t.begin();
    await t.orch.processTextInput(FOUR_TEXT);
    expect(t.orch.batch?.items.map((i) => [i.result.amount, i.result.type])).toEqual([
      [60, 'EXPENSE'],
      [60, 'EXPENSE'],
      [30, 'INCOME'],
      [90, 'INCOME'],
    ]);
    expect(t.said().some((text) => text.includes('单笔'))).toBe(false);
    expect(t.last()).toMatch(/^识别到4笔交易：第1笔，支出60元，餐饮；/);
    await t.orch.processTextInput('第三笔改为支出');
    expect(t.orch.batch?.items[2]?.result.type).toBe('EXPENSE');
    await t.orch.processTextInput('确认');
    expect(saves).toEqual([4]);
    expect(t.rows().map((row) => [row.amountFen, row.type])).toEqual(
      expect.arrayContaining([
        [6000, 'EXPENSE'],
        [3000, 'EXPENSE'],
        [9000, 'INCOME'],
      ]),
    );
    expect(t.rows()).toHaveLength(4);
    expect(t.orch.batch).toBeNull();
    expect(t.ledger.keptDrafts()).toBeNull();
  });

  it('a missing amount is asked for, filled by the next bare amount, and the card read back again', async () => {
    const saves: number[] = [];
    const t = setup({ online: false, ledgerPort: counting(saves) });
    await t.begin();
    await t.orch.processTextInput('打车，还有午饭35');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([null, 35]);
    expect(t.last()).toBe('识别到2笔交易：第1笔，打车，金额未知；第2笔，支出35元，餐饮。第1笔打车多少钱？');
    await t.orch.processTextInput('二十八');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([28, 35]);
    expect(t.last()).toBe('识别到2笔交易：第1笔，支出28元，交通；第2笔，支出35元，餐饮。请确认或修改。');
    await t.orch.processTextInput('确认');
    expect(saves).toEqual([2]);
    expect(
      t
        .rows()
        .map((row) => row.amountFen)
        .sort(),
    ).toEqual([2800, 3500]);
  });

  it('「确认」 with an amount missing saves nothing and asks again; once filled, one save of the whole card', async () => {
    const saves: number[] = [];
    const t = setup({ online: false, ledgerPort: counting(saves) });
    await t.begin();
    await t.orch.processTextInput('打车，还有午饭35');
    await t.orch.processTextInput('确认');
    expect(saves).toEqual([]);
    expect(t.orch.batch?.items.map((i) => i.status)).toEqual(['pending', 'confirmed']);
    expect(t.last()).toBe('已确认1笔。第1笔打车多少钱？');
    await t.orch.processTextInput('确认');
    expect(saves).toEqual([]);
    expect(t.last()).toBe('第1笔打车多少钱？');
    await t.orch.act({ action: 'confirmItem', index: 0 });
    expect(t.orch.batch?.items[0]?.status).toBe('pending');
    await t.orch.processTextInput('28块');
    await t.orch.processTextInput('确认');
    expect(saves).toEqual([2]);
    expect(t.rows()).toHaveLength(2);
  });

  it('relative corrections change amounts by the difference: 「金额都加10块」「第二笔多算了3块」', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭花了60，打车30');
    await t.orch.processTextInput('金额都加10块');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([70, 40]);
    await t.orch.processTextInput('第二笔多算了3块');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([70, 37]);
    await t.orch.processTextInput('每笔减5块');
    expect(t.orch.batch?.items.map((i) => i.result.amount)).toEqual([65, 32]);
  });

  it('an idle timeout keeps pending drafts: the summary lists them and the next session opens with that card', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭60，打车30');
    await t.clock.advance(180_000);
    const ended = t.events.at(-1);
    expect(ended?.type).toBe('sessionTimeout');
    const summary = ended?.type === 'sessionTimeout' ? ended.summary : null;
    expect(summary?.unconfirmed?.map((r) => r.amount)).toEqual([60, 30]);
    expect(t.said().some((text) => text.includes('还有2笔未确认'))).toBe(true);
    expect(t.rows()).toHaveLength(0);

    const events: VoiceEvent[] = [];
    const next = new VoiceOrchestrator({
      mode: 'keyboard',
      emit: (event) => events.push(event),
      tts: t.tts,
      understanding: createUnderstanding({ mode: 'offline', clock: t.clock }),
      ledger: t.ledger,
      clock: t.clock,
    });
    await next.start();
    expect(next.state).toBe('confirming');
    expect(next.batch?.items.map((i) => i.result.amount)).toEqual([60, 30]);
    expect(events.find((e) => e.type === 'draftBatchUpdated')).toMatchObject({ batch: { items: [{ status: 'pending' }, { status: 'pending' }] } });
    expect(events.filter((e) => e.type === 'ttsSpoken').map((e) => e.type === 'ttsSpoken' && e.text)).toEqual([
      '上次还有2笔没有确认。识别到2笔交易：第1笔，支出60元，餐饮；第2笔，支出30元，交通。请确认或修改。',
    ]);
    // What is said first in the new session is added to the card, not taken as a correction.
    await next.processTextInput('奶茶15');
    expect(next.batch?.items.map((i) => i.result.amount)).toEqual([60, 30, 15]);
    await next.processTextInput('确认');
    expect(t.rows()).toHaveLength(3);
    expect(t.ledger.keptDrafts()).toBeNull();
    await next.dispose();
  });

  it('「没有了」 and a disposed session (window closed) keep the card too; 「取消」 lets it go', async () => {
    const t = setup({ online: false });
    await t.begin();
    await t.orch.processTextInput('吃饭60，打车30');
    await t.orch.processTextInput('取消第二笔');
    await t.orch.processTextInput('没有了');
    const ended = t.events.at(-1);
    expect(ended?.type === 'exitSession' && ended.summary.unconfirmed?.map((r) => r.description)).toEqual(['吃饭']);
    expect(t.ledger.keptDrafts()?.items.map((i) => i.status)).toEqual(['pending', 'cancelled']);

    const again = setup({ online: false });
    await again.begin();
    await again.orch.processTextInput('午饭35');
    await again.orch.dispose();
    expect(again.ledger.keptDrafts()?.items.map((i) => i.result.amount)).toEqual([35]);

    const gone = setup({ online: false });
    await gone.begin();
    await gone.orch.processTextInput('午饭35');
    await gone.orch.processTextInput('取消');
    expect(gone.ledger.keptDrafts()).toBeNull();
  });
});

describe('budgets and accounts through the real history (issue 17)', () => {
  /** A keyboard session on the undoable ledger the app gives the voice, with its budget listener. */
  async function onHistory(options: { listen?: boolean } = {}) {
    const alerts: BudgetAlert[][] = [];
    let history: LedgerHistory | null = null;
    const t = setup({
      online: false,
      ledgerPort: (ledger) => {
        history = new LedgerHistory(ledger, options.listen === false ? {} : { onBudgetAlert: (crossed) => alerts.push(crossed) });
        return history;
      },
    });
    await t.begin();
    const categoryId = (name: string) => t.ledger.listCategories().find((c) => c.name === name && c.type === 'EXPENSE')!.id;
    /** Says the words, confirms the card, and returns what was said from the words on. */
    const book = async (words: string) => {
      const mark = t.said().length;
      await t.orch.processTextInput(words);
      await t.orch.processTextInput('确认');
      return t.spokenSince(mark);
    };
    return { ...t, alerts, history: history!, categoryId, book };
  }

  it('a voice save crossing 80 % says so after 已保存, a later one crossing 100 % says 100 %, a third says nothing more', async () => {
    const t = await onHistory();
    t.ledger.setBudgets('2026-02', [{ categoryId: t.categoryId('餐饮'), amountFen: 100000 }]);

    expect(await t.book('午饭820')).toEqual(['记录支出820元，餐饮，确认吗？', '已保存1笔交易。餐饮本月已用 82%。']);
    // The line is the save's own reply: right after the saved event, the cleared card and LISTENING.
    const savedAt = t.types().lastIndexOf('saved');
    expect(t.events.slice(savedAt).map((e) => (e.type === 'ttsSpoken' ? e.text : e.type))).toEqual([
      'saved',
      'draftBatchUpdated',
      'stateChanged',
      '已保存1笔交易。餐饮本月已用 82%。',
    ]);

    expect(await t.book('晚饭200')).toEqual(['记录支出200元，餐饮，确认吗？', '已保存1笔交易。餐饮本月已用 102%。']);
    expect(await t.book('早饭10')).toEqual(['记录支出10元，餐饮，确认吗？', '已保存1笔交易。']);
    // The very alerts the shell notified about, once each: the voice did not compute them again.
    expect(t.alerts.map((crossed) => crossed.map((a) => [a.category, a.threshold, a.percent]))).toEqual([[['餐饮', 80, 82]], [['餐饮', 100, 102]]]);
  });

  it('an edit in the window that crosses a threshold alerts the shell, never the voice session', async () => {
    const t = await onHistory();
    t.ledger.setBudgets('2026-02', [{ categoryId: t.categoryId('餐饮'), amountFen: 100000 }]);
    expect(await t.book('午饭500')).toEqual(['记录支出500元，餐饮，确认吗？', '已保存1笔交易。']);
    const mark = t.events.length;
    t.history.updateTransaction(t.rows()[0]!.id, { amountFen: 90000 });
    await t.settle();
    expect(t.alerts.flat().map((a) => a.threshold)).toEqual([80]);
    expect(t.events.slice(mark)).toEqual([]);
    // The 80 % is used up by the edit: the next voice save names only what it crossed itself.
    expect(await t.book('晚饭5')).toEqual(['记录支出5元，餐饮，确认吗？', '已保存1笔交易。']);
  });

  it('without a budget listener nothing is recorded and nothing said, so no threshold is used up', async () => {
    const t = await onHistory({ listen: false });
    t.ledger.setBudgets('2026-02', [{ categoryId: t.categoryId('餐饮'), amountFen: 100000 }]);
    expect(await t.book('午饭820')).toEqual(['记录支出820元，餐饮，确认吗？', '已保存1笔交易。']);
    expect(t.ledger.crossedAlerts('2026-02').map((a) => a.threshold)).toEqual([80]);
  });

  it('「这个月预算还剩多少」 is answered from the budgets (inherited from last month), never booked', async () => {
    const t = await onHistory();
    const mark = t.said().length;
    await t.orch.processTextInput('这个月预算还剩多少');
    expect(t.last()).toBe('本月还没有设置预算，可以在“预算”页设置。');
    t.ledger.setBudgets('2026-01', [
      { categoryId: null, amountFen: 300000 },
      { categoryId: t.categoryId('餐饮'), amountFen: 100000 },
    ]);
    t.ledger.saveBatch([r(1200, 'EXPENSE', '餐饮', '聚餐')]);
    await t.orch.processTextInput('这个月预算还剩多少');
    expect(t.last()).toBe('本月总预算3000元，已用1200元，还剩1800元。');
    await t.orch.processTextInput('餐饮预算还剩多少');
    expect(t.last()).toBe('本月餐饮预算1000元，已用1200元，超出200元。');
    await t.orch.processTextInput('这个月还能花多少');
    expect(t.last()).toBe('本月总预算3000元，已用1200元，还剩1800元。');
    expect(t.spokenSince(mark)).toHaveLength(4);
    expect(t.rows()).toHaveLength(1);
    expect(t.orch.batch).toBeNull();
    expect(t.orch.state).toBe('listening');
    expect(t.types().filter((type) => type === 'saved' || type === 'finalText')).toEqual([]);
  });

  it('a budget question while a card is shown is answered and the card stays', async () => {
    const t = await onHistory();
    t.ledger.setBudgets('2026-02', [
      { categoryId: t.categoryId('餐饮'), amountFen: 50000 },
      { categoryId: t.categoryId('交通'), amountFen: 20000 },
    ]);
    await t.orch.processTextInput('午饭35');
    const card = t.orch.batch;
    await t.orch.processTextInput('本月预算用了多少');
    expect(t.last()).toBe('本月各分类预算共700元，已用0元，还剩700元。');
    expect(t.orch.batch).toBe(card);
    expect(t.orch.state).toBe('confirming');
  });

  it.each([
    [['微信'], '午饭35用微信付的', '微信'],
    [['支付宝', '微信'], '用支付宝买了水果20', '支付宝'],
    [['微信钱包'], '午饭35用微信付的', '微信钱包'],
    [['微信钱包', '微信零钱包'], '午饭35用微信付的', '钱包'],
    [[], '午饭35用微信付的', '钱包'],
  ])('accounts %j: 「%s」 lands in %s', async (accounts, words, expected) => {
    const t = await onHistory();
    for (const name of accounts) t.ledger.addAccount(name);
    await t.book(words);
    expect(t.rows().map((row) => row.account)).toEqual([expected]);
  });

  it('an archived account takes no voice entry: it lands in the default account', async () => {
    const t = await onHistory();
    const wechat = t.ledger.addAccount('微信');
    t.ledger.archiveAccount(wechat.id, true);
    await t.book('午饭35用微信付的');
    expect(t.rows().map((row) => row.account)).toEqual(['钱包']);
  });
});

// The session manager through the real composition root: IPC dispatch → session manager →
// orchestrator → ledger history → SQLite file, offline understanding, TTS to a log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent, VoiceEvent } from '@shared/events';
import type { VoiceSnapshot } from '@shared/ipc/index';
import type { WindowAction } from '@shared/ipc/app';
import { createAppCore, type AppCore } from '../app-core';
import { FakeClock } from '@shared/clock';
import { localDate, systemNow } from '@shared/time';
import { ScriptedLlm, ScriptedVoiceInput } from '../../../../test/support/voice-doubles';

const cores: { core: AppCore; dir: string }[] = [];
afterEach(async () => {
  for (const { core, dir } of cores.splice(0)) {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

interface BootOptions {
  mic?: ScriptedVoiceInput;
  windowAction?: (action: WindowAction) => void;
  /** The ledger's budget month is this machine's: a session about budgets lives on real time. */
  realTime?: boolean;
}

function boot(options: BootOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'skj-voice-session-'));
  const clock = new FakeClock(options.realTime ? Date.now() : Date.parse('2026-02-17T04:00:00Z'));
  const spoken: string[] = [];
  const notices: { title: string; body: string }[] = [];
  const core = createAppCore({
    dataDir: dir,
    version: 'test',
    log: () => {},
    ...(options.windowAction ? { windowAction: options.windowAction } : {}),
    notify: (notice) => notices.push(notice),
    voice: {
      understanding: { mode: 'offline' },
      tts: { engine: 'log', log: (text) => spoken.push(text) },
      clock,
      now: options.realTime ? () => systemNow() : () => ({ epochMs: clock.now(), offsetMinutes: 480 }),
      // A FunASR URL makes speech recognition "configured"; no test here speaks to it.
      ...(options.mic ? { createVoiceInput: () => options.mic!, asr: { protocol: 'funasr' as const, url: 'ws://127.0.0.1:9' } } : {}),
    },
  });
  cores.push({ core, dir });
  const events: AppEvent[] = [];
  core.onEvent((e) => events.push(e));
  const voiceEvents = () => events.flatMap((e) => (e.channel === 'voice' ? [e.event] : []));
  const call = async (name: string, input: unknown): Promise<VoiceSnapshot> => {
    const result = await core.dispatch(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as VoiceSnapshot;
  };
  return { core, clock, spoken, notices, events, voiceEvents, call };
}

describe('voice session manager (through app-core and IPC dispatch)', () => {
  it('typing without starting opens a keyboard session, drafts, confirms, saves through the undoable ledger', async () => {
    const t = boot();
    let snap = await t.call('voiceText', { text: '午饭35块' });
    expect(snap.state).toBe('confirming');
    expect(snap.mode).toBe('keyboard');
    expect(snap.online).toBe(false);
    expect(snap.batch?.items.map((i) => i.result.amount)).toEqual([35]);
    snap = await t.call('voiceText', { text: '确认' });
    expect(snap.state).toBe('listening');
    expect(snap.batch).toBeNull();
    expect(t.core.ledger.list({}).rows.map((r) => r.amountFen)).toEqual([3500]);
    expect(t.events).toContainEqual({ channel: 'ledger', event: { type: 'changed', reason: 'save' } });
    expect(t.spoken).toContain('已保存1笔交易。');
    expect(snap.conversation?.map((c) => c.role)).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant']);
    // The voice save is in the ledger's own undo history.
    expect(t.core.history.undo()).toBeTruthy();
    expect(t.core.ledger.list({}).rows).toHaveLength(0);
  });

  it('UI actions reach the drafts: editItem, confirmItem; invalid input is refused at the boundary', async () => {
    const t = boot();
    await t.call('voiceText', { text: '打车30' });
    let snap = await t.call('voiceAction', { action: 'editItem', index: 0, fields: { amount: 32.5 } });
    expect(snap.batch?.items[0]?.result.amount).toBe(32.5);
    const bad = await t.core.dispatch('voiceAction', { action: 'editItem', index: 0, fields: { amount: -1 } });
    expect(bad.ok).toBe(false);
    snap = await t.call('voiceAction', { action: 'confirmItem', index: 0 });
    expect(snap.batch).toBeNull();
    expect(t.core.ledger.list({}).rows.map((r) => r.amountFen)).toEqual([3250]);
  });

  it('exit → ENDED with the summary kept; restart → a brand-new session listening with a clean log', async () => {
    const t = boot();
    await t.call('voiceStart', { mode: 'keyboard' });
    await t.call('voiceText', { text: '午饭35块' });
    await t.call('voiceText', { text: '确认' });
    let snap = await t.call('voiceText', { text: '退出' });
    expect(snap.state).toBe('ended');
    expect(snap.summary).toEqual({ savedCount: 1, expenseFen: 3500, incomeFen: 0, transferFen: 0 });
    expect(snap.conversation?.length).toBeGreaterThan(0);
    expect(t.voiceEvents().filter((e) => e.type === 'stateChanged' && e.state === 'idle')).toEqual([]);
    const tail = t.voiceEvents().slice(-2);
    expect(tail).toEqual([
      { type: 'exitSession', summary: { savedCount: 1, expenseFen: 3500, incomeFen: 0, transferFen: 0 } },
      { type: 'stateChanged', state: 'ended' },
    ]);
    const old = t.core.voice.current;
    snap = await t.call('voiceAction', { action: 'restart' });
    expect(t.core.voice.current).not.toBe(old);
    expect(snap.state).toBe('listening');
    expect(snap.summary).toBeNull();
    expect(snap.conversation?.map((c) => c.role)).toEqual(['assistant']);
  });

  it('idle timeout ends the session as ENDED', async () => {
    const t = boot();
    await t.call('voiceStart', { mode: 'keyboard' });
    await t.clock.advance(180_000);
    const snap = await t.call('voiceSnapshot', {});
    expect(snap.state).toBe('ended');
    expect(t.voiceEvents().some((e: VoiceEvent) => e.type === 'sessionTimeout')).toBe(true);
  });

  it('restart drops every late event of the old session', async () => {
    const mic = new ScriptedVoiceInput();
    const t = boot({ mic });
    await t.call('voiceStart', { mode: 'auto' });
    const old = t.core.voice.current!;
    await t.call('voiceAction', { action: 'restart' });
    const count = t.voiceEvents().length;
    await old.processTextInput('午饭35块');
    expect(t.voiceEvents().length).toBe(count);
  });

  it('no microphone: starting in auto mode reports it in Chinese and keeps keyboard input working', async () => {
    const mic = new ScriptedVoiceInput();
    mic.failWith = { code: 'no_device', message: 'no default input device' };
    const t = boot({ mic });
    const snap = await t.call('voiceStart', { mode: 'auto' });
    expect(snap.mode).toBe('keyboard');
    expect(t.voiceEvents()).toContainEqual({ type: 'error', code: 'no_device', message: '没有找到麦克风，请在设置中选择输入设备' });
    const after = await t.call('voiceText', { text: '午饭35块' });
    expect(after.state).toBe('confirming');
  });
});

describe('push-to-talk from the session manager', () => {
  it('a key press with no session starts one in pushToTalk mode and opens the microphone', async () => {
    const mic = new ScriptedVoiceInput();
    const t = boot({ mic });
    const snap = await t.call('voicePushToTalk', { action: 'down' });
    expect(snap.mode).toBe('pushToTalk');
    expect(snap.state).toBe('recognizing');
    expect(mic.running).toBe(true);
    await t.call('voicePushToTalk', { action: 'up' });
    expect(t.voiceEvents().at(-1)).toMatchObject({ type: 'error', code: 'tooShort' });
  });

  it('without speech recognition configured, a press says so once, brings the window forward, and typing stays available', async () => {
    const actions: WindowAction[] = [];
    const t = boot({ windowAction: (action) => actions.push(action) });
    const snap = await t.call('voicePushToTalk', { action: 'down' });
    expect(snap.mode).toBe('keyboard');
    // With no cloud connection the default is on-device recognition, which has no model yet.
    expect(t.voiceEvents().filter((e) => e.type === 'error')).toEqual([
      { type: 'error', code: 'asr_model_missing', message: '本地语音识别需要先下载语音模型' },
    ]);
    // The hotkey works with the window hidden: the model dialog must be seen.
    expect(actions).toEqual([{ action: 'showMain' }]);
    expect((await t.call('voiceText', { text: '午饭35块' })).state).toBe('confirming');
  });
});

describe('draft actions without a session', () => {
  it('change nothing and open no microphone', async () => {
    const mic = new ScriptedVoiceInput();
    const t = boot({ mic });
    const snap = await t.call('voiceAction', { action: 'confirmAll' });
    expect(snap.state).toBe('idle');
    expect(mic.startCalls).toBe(0);
    expect(t.voiceEvents()).toEqual([]);
  });
});

describe('restart', () => {
  it('two quick restarts leave exactly one live session and release every microphone', async () => {
    const mics: ScriptedVoiceInput[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'skj-voice-restart-'));
    const core = createAppCore({
      dataDir: dir,
      version: 'test',
      log: () => {},
      voice: {
        mode: 'auto',
        understanding: { mode: 'offline' },
        tts: { engine: 'log', log: () => {} },
        clock: new FakeClock(),
        asr: { protocol: 'funasr', url: 'ws://127.0.0.1:9' },
        createVoiceInput: () => {
          const mic = new ScriptedVoiceInput();
          mics.push(mic);
          return mic;
        },
      },
    });
    cores.push({ core, dir });
    await core.dispatch('voiceStart', { mode: 'auto' });
    await Promise.all([core.dispatch('voiceAction', { action: 'restart' }), core.dispatch('voiceAction', { action: 'restart' })]);
    expect(mics).toHaveLength(3);
    expect(mics.map((m) => m.running)).toEqual([false, false, true]);
    expect(mics.slice(0, 2).map((m) => m.listenerCount)).toEqual([0, 0]);
  });
});

describe('understanding context', () => {
  it('the LLM hears about the user’s own categories and accounts', async () => {
    const llm = new ScriptedLlm().script({ parse: [] });
    const dir = mkdtempSync(join(tmpdir(), 'skj-voice-context-'));
    const core = createAppCore({
      dataDir: dir,
      version: 'test',
      log: () => {},
      voice: {
        understanding: { mode: 'gateway', gatewayUrl: 'http://gateway.test', fetch: llm.fetch },
        tts: { engine: 'log', log: () => {} },
        clock: new FakeClock(),
      },
    });
    cores.push({ core, dir });
    core.ledger.addCategory('猫粮', 'EXPENSE');
    core.ledger.addAccount('招行卡');
    await core.dispatch('voiceText', { text: '猫粮花了80' });
    expect(llm.parseRequests[0]?.context?.customCategories).toContain('猫粮');
    expect(llm.parseRequests[0]?.context?.accounts).toEqual(expect.arrayContaining(['钱包', '招行卡']));
  });
});

describe('budgets in the voice session (through app-core)', () => {
  it('a voice save crossing 80 % says so once, with the same alert the windows and the notification get; the form never speaks', async () => {
    const t = boot({ realTime: true });
    const today = localDate(systemNow());
    const food = t.core.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    expect((await t.core.dispatch('setBudgets', { month: today.slice(0, 7), items: [{ categoryId: food.id, amountYuan: 1000 }] })).ok).toBe(true);
    const alertEvents = () => t.events.flatMap((e) => (e.channel === 'ledger' && e.event.type === 'budgetAlert' ? [e.event.alerts] : []));

    await t.call('voiceText', { text: '午饭820' });
    await t.call('voiceText', { text: '确认' });
    expect(t.spoken.at(-1)).toBe('已保存1笔交易。餐饮本月已用 82%。');
    expect(alertEvents().map((alerts) => alerts.map((a) => [a.category, a.threshold]))).toEqual([[['餐饮', 80]]]);
    expect(t.notices.map((n) => n.body)).toEqual(['餐饮本月已用 82%，已用 820 元，预算 1000 元']);

    // The 记一笔 form crosses 100 %: the windows and the shell hear of it, the voice does not.
    const spokenBefore = t.spoken.length;
    const added = await t.core.dispatch('addTransaction', { amountYuan: 200, type: 'EXPENSE', category: '餐饮', date: today, time: '12:00' });
    expect(added.ok).toBe(true);
    expect(alertEvents()).toHaveLength(2);
    expect(t.spoken).toHaveLength(spokenBefore);

    await t.call('voiceText', { text: '晚饭10' });
    await t.call('voiceText', { text: '确认' });
    expect(t.spoken.at(-1)).toBe('已保存1笔交易。');
    await t.call('voiceText', { text: '餐饮预算还剩多少' });
    expect(t.spoken.at(-1)).toBe('本月餐饮预算1000元，已用1030元，超出30元。');
    expect(t.core.ledger.list({}).rows).toHaveLength(3);
  });
});

describe('money flows said aloud (through app-core)', () => {
  it('a loan is saved against the person and a question about them is answered from the balance', async () => {
    const t = boot();
    let snap = await t.call('voiceText', { text: '借给小李一千' });
    expect(t.spoken.at(-1)).toBe('记录借给小李1000元，确认吗？');
    snap = await t.call('voiceText', { text: '确认' });
    expect(snap.batch).toBeNull();
    await t.call('voiceText', { text: '小李还了我三百' });
    await t.call('voiceText', { text: '确认' });
    await t.call('voiceText', { text: '小李还欠我多少' });
    expect(t.spoken.at(-1)).toBe('小李还欠你700元。');
    await t.call('voiceText', { text: '我还欠老王多少' });
    expect(t.spoken.at(-1)).toBe('没有找到和老王的借贷记录。');
    expect(t.core.ledger.monthSummary('2026-02')).toMatchObject({ expenseFen: 0, incomeFen: 0 });
  });

  it('a refund links to the expense its words name, the card says which, and a wrong link is fixed on the card', async () => {
    const t = boot();
    await t.call('voiceText', { text: '淘宝买鞋五百，买衣服四百' });
    await t.call('voiceText', { text: '确认' });
    const [coat, shoes] = t.core.ledger.list({}).rows;
    let snap = await t.call('voiceText', { text: '淘宝买鞋那笔退了三百' });
    const draft = snap.batch!.items[0]!.result;
    expect(draft).toMatchObject({ flow: 'refund', refundOf: shoes!.id, linkNote: '退的是今天淘宝买鞋500元' });
    expect(t.spoken.at(-1)).toBe(`记录退款300元，${shoes!.category}，退的是今天淘宝买鞋500元，确认吗？`);
    // The user meant the coat: the card's editor relinks it (the refund then counts for the coat).
    snap = await t.call('voiceAction', { action: 'editItem', index: 0, fields: { refundOf: coat!.id } });
    expect(snap.batch!.items[0]!.result.linkNote).toBe('退的是今天买衣服400元');
    expect(snap.batch!.items[0]!.result.refundOf).toBe(coat!.id);
    await t.call('voiceText', { text: '确认' });
    const refund = t.core.ledger.list({}).rows.find((r) => r.flow === 'refund')!;
    expect(refund).toMatchObject({ refundOf: coat!.id, type: 'EXPENSE' });
    expect(t.core.ledger.monthSummary('2026-02').expenseFen).toBe(600_00);
  });

  it('a wrong refund link is fixed by voice: 「不是鞋子，是衣服那笔」, and a name matching nothing keeps the link', async () => {
    const t = boot();
    await t.call('voiceText', { text: '淘宝买鞋五百，买衣服四百，打车三十' });
    await t.call('voiceText', { text: '确认' });
    const rows = t.core.ledger.list({}).rows;
    const shoes = rows.find((r) => r.description.includes('鞋'))!;
    const coat = rows.find((r) => r.description.includes('衣服'))!;
    let snap = await t.call('voiceText', { text: '淘宝买鞋那笔退了三百' });
    expect(snap.batch!.items[0]!.result.refundOf).toBe(shoes.id);
    snap = await t.call('voiceText', { text: '不是鞋子那笔，是买衣服那笔' });
    expect(snap.batch!.items[0]!.result).toMatchObject({ refundOf: coat.id, category: coat.category, linkNote: '退的是今天买衣服400元' });
    expect(t.spoken.at(-1)).toBe(`已修改为退款300元，${coat.category}，退的是今天买衣服400元，确认吗？`);
    snap = await t.call('voiceText', { text: '退的是买电脑那笔' });
    expect(t.spoken.at(-1)).toBe('没有找到「买电脑」那笔支出，退款的关联没有改，还需要修改吗？');
    expect(snap.batch!.items[0]!.result.refundOf).toBe(coat.id);
    await t.call('voiceText', { text: '确认' });
    expect(t.core.ledger.list({}).rows.find((r) => r.flow === 'refund')).toMatchObject({ refundOf: coat.id });
    // Net of the refund the coat counts 100, the shoes all of their 500, the taxi 30.
    expect(t.core.ledger.monthSummary('2026-02').expenseFen).toBe(630_00);
  });

  it('「那笔」 words on a card without a refund are not a relink', async () => {
    const t = boot();
    await t.call('voiceText', { text: '午饭三十五' });
    const snap = await t.call('voiceText', { text: '是午饭那笔' });
    expect(snap.batch!.items[0]!.result).not.toHaveProperty('refundOf');
    expect(t.spoken.at(-1)).not.toMatch(/退款/);
  });

  it('待报销 is said back, and a reimbursement settles the oldest and says what is left', async () => {
    const t = boot();
    await t.call('voiceText', { text: '出差打车八十可以报销' });
    expect(t.spoken.at(-1)).toBe('记录支出80元，交通，待报销，确认吗？');
    await t.call('voiceText', { text: '确认' });
    await t.call('voiceText', { text: '报销到账一百' });
    expect(t.spoken.at(-1)).toBe('记录报销到账100元，报销1笔待报销，多出20元，确认吗？');
    await t.call('voiceText', { text: '确认' });
    // The save is said in the card's words: a reimbursement is no 收入.
    expect(t.spoken.at(-1)).toBe('已保存：报销到账100元。');
    expect(t.core.ledger.pendingReimbursements().totalFen).toBe(0);
    expect(t.core.ledger.monthSummary('2026-02')).toMatchObject({ expenseFen: 0, incomeFen: 0 });
  });

  it('a saved refund is said as a refund, and the session’s totals count it as no spending', async () => {
    const t = boot();
    await t.call('voiceText', { text: '淘宝买鞋五百' });
    await t.call('voiceText', { text: '确认' });
    await t.call('voiceText', { text: '淘宝买鞋那笔退了三百' });
    await t.call('voiceText', { text: '确认' });
    expect(t.spoken.at(-1)).toMatch(/^已保存：退款300元，/);
    const saved = t.voiceEvents().filter((e) => e.type === 'saved');
    expect(saved.at(-1)).toMatchObject({ transactions: [{ flow: 'refund', amountFen: 300_00 }] });
    const snap = await t.call('voiceAction', { action: 'exit' });
    expect(snap.summary).toMatchObject({ savedCount: 2, expenseFen: 500_00, incomeFen: 0 });
  });

  it('a card that would take a wallet below zero says so, and still saves', async () => {
    const t = boot();
    const cash = t.core.ledger.addAccount('现金', 100_00);
    t.core.ledger.setDefaultAccount(cash.id);
    let snap = await t.call('voiceText', { text: '午饭六十，晚饭八十' });
    expect(snap.batch!.items.map((item) => item.result.overdraft ?? null)).toEqual([null, { account: '现金', balanceFen: -40_00 }]);
    // Cancelling the lunch leaves the dinner within the wallet: the note goes.
    snap = await t.call('voiceAction', { action: 'cancelItem', index: 0 });
    expect(snap.batch!.items[1]!.result).not.toHaveProperty('overdraft');
    snap = await t.call('voiceText', { text: '确认' });
    expect(t.core.ledger.accountBalances().accounts.find((a) => a.name === '现金')?.balanceFen).toBe(20_00);
    snap = await t.call('voiceText', { text: '打车三十' });
    expect(snap.batch!.items[0]!.result.overdraft).toEqual({ account: '现金', balanceFen: -10_00 });
    await t.call('voiceText', { text: '确认' });
    expect(t.core.ledger.accountBalances().accounts.find((a) => a.name === '现金')?.balanceFen).toBe(-10_00);
  });

  it('「还信用卡两千」 moves money to the card: a transfer, not spending', async () => {
    const t = boot();
    const card = t.core.ledger.addAccount('招行信用卡', -3000_00);
    t.core.ledger.setCard(card.id, { statementDay: 5, dueDay: 23 });
    await t.call('voiceText', { text: '还信用卡两千' });
    await t.call('voiceText', { text: '确认' });
    const balances = t.core.ledger.accountBalances().accounts;
    expect(balances.find((a) => a.name === '招行信用卡')!.balanceFen).toBe(-1000_00);
    expect(t.core.ledger.list({}).rows[0]).toMatchObject({ type: 'TRANSFER', toAccount: '招行信用卡' });
    expect(t.core.ledger.monthSummary('2026-02').expenseFen).toBe(0);
  });
});

describe('credit-card reminders (through app-core)', () => {
  it('a card in debt due within three days is told once, as a native notification', async () => {
    // The ledger's days are this machine's: a card due tomorrow, whatever today is.
    const dir = mkdtempSync(join(tmpdir(), 'skj-card-'));
    const first = createAppCore({ dataDir: dir, version: 'test', log: () => {}, backups: false, voice: { understanding: { mode: 'offline' } } });
    const card = first.ledger.addAccount('招行信用卡', -2000_00);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const due = localDate(systemNow(tomorrow));
    first.ledger.setCard(card.id, { statementDay: 1, dueDay: Number(due.slice(8, 10)) });
    await first.dispose();
    const notices: { title: string; body: string }[] = [];
    for (let boot = 0; boot < 2; boot++) {
      const core = createAppCore({
        dataDir: dir,
        version: 'test',
        log: () => {},
        backups: false,
        notify: (n) => notices.push(n),
        voice: { understanding: { mode: 'offline' } },
      });
      cores.push({ core, dir: boot === 1 ? dir : mkdtempSync(join(tmpdir(), 'skj-card-unused-')) });
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe('信用卡还款提醒');
    expect(notices[0]!.body).toMatch(/^招行信用卡还款日\d+月\d+日（还有[01]天），待还2000元$/);
  });
});

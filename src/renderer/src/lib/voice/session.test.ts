import { describe, expect, it } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import { flushSync } from 'svelte';
import { batchOf, FOUR } from '../../../../../test/support/renderer/card-fixtures';
import { needsHint, nextStepFor } from './conversation';
import { FakeVoiceApi } from '../../../../../test/support/renderer/fake-voice-api';
import { VoiceSession } from './session.svelte';

function savedRow(fields: Partial<TransactionRow>): TransactionRow {
  return {
    id: 'a',
    amountFen: 6000,
    currency: 'CNY',
    type: 'EXPENSE',
    category: '餐饮',
    account: '钱包',
    description: '吃饭',
    occurredAt: '',
    date: '',
    source: 'llm',
    createdAt: '',
    updatedAt: '',
    ...fields,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

async function connected(api = new FakeVoiceApi()) {
  const session = new VoiceSession(api);
  const dispose = session.connect();
  await tick();
  return { api, session, dispose };
}

describe('voice session view', () => {
  it('loads the snapshot, then follows events', async () => {
    const api = new FakeVoiceApi();
    api.set('listening', { mode: 'pushToTalk' });
    const { session } = await connected(api);
    expect(session.state).toBe('listening');
    expect(session.mode).toBe('pushToTalk');
    api.emit({ channel: 'voice', event: { type: 'partialText', text: '吃饭花了' } });
    expect(session.partial).toBe('吃饭花了');
    const batch = batchOf(FOUR);
    api.emit({ channel: 'voice', event: { type: 'finalText', text: '吃饭花了60…', batch } });
    api.emit({ channel: 'voice', event: { type: 'stateChanged', state: 'confirming' } });
    expect(session.partial).toBe('');
    expect(session.batch?.items).toHaveLength(4);
    expect(session.state).toBe('confirming');
    expect(session.log.map((l) => l.kind)).toEqual(['user']);
  });

  it('re-reads mode and online on a state change (the hotkey may have switched the mode)', async () => {
    const { api, session } = await connected();
    api.set('recognizing', { mode: 'pushToTalk', online: false });
    api.emit({ channel: 'voice', event: { type: 'stateChanged', state: 'recognizing' } });
    await tick();
    expect(session.mode).toBe('pushToTalk');
    expect(session.online).toBe(false);
  });

  it('hold-to-talk keeps a quick release behind its own press', async () => {
    const { api, session } = await connected();
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const original = api.voicePushToTalk;
    api.voicePushToTalk = async (input) => {
      if (input.action === 'down') await slow;
      return original(input);
    };
    const down = session.pushToTalk('down');
    const up = session.pushToTalk('up');
    await tick();
    expect(api.calls.filter((c) => c.name === 'voicePushToTalk')).toEqual([]);
    release();
    await Promise.all([down, up]);
    expect(api.calls.filter((c) => c.name === 'voicePushToTalk').map((c) => c.input)).toEqual([{ action: 'down' }, { action: 'up' }]);
  });

  it('logs what the app said, errors with a next step, and saves', async () => {
    const { api, session } = await connected();
    api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '识别到4笔交易' } });
    api.emit({ channel: 'voice', event: { type: 'error', code: 'no_device', message: '没有找到麦克风。' } });
    api.emit({ channel: 'voice', event: { type: 'error', code: 'token_failed', message: '语音识别服务连接失败。' } });
    api.emit({
      channel: 'voice',
      event: {
        type: 'saved',
        transactions: [
          {
            id: 'a',
            amountFen: 6000,
            currency: 'CNY',
            type: 'EXPENSE',
            category: '餐饮',
            account: '钱包',
            description: '吃饭',
            occurredAt: '',
            date: '',
            source: 'llm',
            createdAt: '',
            updatedAt: '',
          },
        ],
      },
    });
    expect(session.log.map((l) => [l.kind, l.nextStep])).toEqual([
      ['app', null],
      ['error', 'chooseMicrophone'],
      ['error', 'openSettings'],
      ['saved', null],
    ]);
    expect(session.log[3]!.text).toBe('1 笔：支出 ¥60.00 · 吃饭');
    expect(session.savedCount).toBe(1);
  });

  it('a save shows once, in the card’s words: a refund is no 支出, a reimbursement no 收入; what the reply adds stays', async () => {
    const { api, session } = await connected();
    const save = (row: Partial<TransactionRow>, spoken: string) => {
      api.emit({ channel: 'voice', event: { type: 'saved', transactions: [savedRow(row)] } });
      api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: spoken } });
    };
    save(
      {
        amountFen: 30000,
        flow: 'refund',
        category: '购物',
        description: '',
        refundTarget: { date: '2026-02-01', description: '淘宝买鞋', amountFen: 50000 },
      },
      '已保存：退款300元，淘宝买鞋。',
    );
    save({ amountFen: 50000, type: 'INCOME', flow: 'reimbursement', category: '报销', description: '' }, '已保存：报销到账500元。');
    save({ amountFen: 100000, type: 'TRANSFER', flow: 'lend', person: '小李', category: '借贷', description: '' }, '已保存：借给小李1000元。');
    save({ amountFen: 82000, description: '午饭' }, '已保存1笔交易。餐饮本月已用 82%。');
    expect(session.log.map((l) => [l.kind, l.text])).toEqual([
      ['saved', '1 笔：退款 ¥300.00 · 淘宝买鞋'],
      ['saved', '1 笔：报销到账 ¥500.00'],
      ['saved', '1 笔：借给小李 ¥1,000.00'],
      ['saved', '1 笔：支出 ¥820.00 · 午饭'],
      ['app', '餐饮本月已用 82%。'],
    ]);
    // Only the save's own reply is trimmed: the next sentence is shown whole.
    api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '已保存1笔交易。' } });
    expect(session.log.at(-1)).toMatchObject({ kind: 'app', text: '已保存1笔交易。' });
  });

  it('adds the next-step sentence only where the message has none', () => {
    expect(needsHint('语音识别连接失败')).toBe(true);
    expect(needsHint('没有找到麦克风，请在设置中选择输入设备')).toBe(false);
  });

  it('offers the model download for a missing model and 设置 for a broken one', () => {
    expect(nextStepFor('asr_model_missing')).toBe('downloadModel');
    expect(nextStepFor('model_refused')).toBe('openSettings');
    expect(nextStepFor('model_incomplete')).toBe('openSettings');
    expect(nextStepFor('engine_failed')).toBe('useKeyboard');
  });

  it('a window opened mid-session shows the conversation so far', async () => {
    const api = new FakeVoiceApi();
    api.set('confirming', {
      batch: batchOf([{ amount: 35 }]),
      conversation: [
        { role: 'user', text: '午饭35', at: 1 },
        { role: 'assistant', text: '记录支出35元，餐饮，确认吗？', at: 2 },
      ],
    });
    const { session } = await connected(api);
    expect(session.log.map((l) => [l.kind, l.text])).toEqual([
      ['user', '午饭35'],
      ['app', '记录支出35元，餐饮，确认吗？'],
    ]);
    expect(session.batch?.items[0]?.result.amount).toBe(35);
  });

  it('shows the offline notice main speaks, once, without adding one of its own', async () => {
    const api = new FakeVoiceApi();
    api.set('listening', { online: false });
    const { session } = await connected(api);
    const one = batchOf([{ amount: 60 }]);
    api.emit({ channel: 'voice', event: { type: 'finalText', text: '吃饭花了60，洗脚花了60', batch: one } });
    api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '当前离线，仅支持单笔记账。记录支出60元，餐饮，确认吗？' } });
    expect(session.log.filter((l) => l.text.includes('离线'))).toHaveLength(1);
  });

  it('shows ENDED with the summary, and restart clears the log', async () => {
    const { api, session } = await connected();
    const summary = { savedCount: 2, expenseFen: 9000, incomeFen: 0, transferFen: 0 };
    api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '好的' } });
    api.emit({ channel: 'voice', event: { type: 'exitSession', summary } });
    api.emit({ channel: 'voice', event: { type: 'stateChanged', state: 'ended' } });
    expect(session.ended).toBe(true);
    expect(session.summary?.savedCount).toBe(2);
    api.set('ended', { summary });
    await session.setMode('auto');
    expect(session.state).toBe('ended');
    api.set('listening', { summary: null });
    expect(await session.restart()).toBe(true);
    expect(api.calls.at(-1)).toEqual({ name: 'voiceAction', input: { action: 'restart' } });
    expect(session.state).toBe('listening');
    expect(session.log).toEqual([]);
    expect(session.summary).toBeNull();
  });

  it('says in the log how many drafts were left unconfirmed', async () => {
    const { api, session } = await connected();
    const unconfirmed = batchOf([{ amount: null }, { amount: 35 }]).items.map((i) => i.result);
    api.emit({
      channel: 'voice',
      event: { type: 'exitSession', summary: { savedCount: 1, expenseFen: 6000, incomeFen: 0, transferFen: 0, unconfirmed } },
    });
    api.emit({
      channel: 'voice',
      event: { type: 'sessionTimeout', summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0, unconfirmed } },
    });
    api.emit({
      channel: 'voice',
      event: { type: 'exitSession', summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0, unconfirmed: [] } },
    });
    expect(session.log.map((l) => l.text)).toEqual([
      '会话已结束。共记录 1 笔，支出 ¥60.00，2 笔未确认，下次继续确认',
      '长时间没有操作，会话已结束。本次还没有保存任何交易，2 笔未确认，下次继续确认。',
      '会话已结束。本次没有记录任何交易。',
    ]);
    expect(session.summary?.unconfirmed).toEqual([]);
  });

  it('restart brings back the kept drafts and keeps what the new session said meanwhile', async () => {
    const { api, session } = await connected();
    const kept = batchOf([{ amount: null }, { amount: 35 }]);
    api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '旧会话' } });
    api.emit({
      channel: 'voice',
      event: {
        type: 'exitSession',
        summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0, unconfirmed: kept.items.map((i) => i.result) },
      },
    });
    api.set('confirming', { batch: kept, summary: null });
    const original = api.voiceAction;
    api.voiceAction = async (input) => {
      api.emit({ channel: 'voice', event: { type: 'ttsSpoken', text: '第1笔吃饭多少钱？' } });
      return original(input);
    };
    expect(await session.restart()).toBe(true);
    expect(session.state).toBe('confirming');
    expect(session.batch?.items.map((i) => i.result.amount)).toEqual([null, 35]);
    expect(session.log.map((l) => l.text)).toEqual(['第1笔吃饭多少钱？']);
  });

  it('puts a failed command into the log and keeps ENDED when restart fails', async () => {
    const { api, session } = await connected();
    api.emit({ channel: 'voice', event: { type: 'stateChanged', state: 'ended' } });
    api.emit({ channel: 'voice', event: { type: 'sessionTimeout', summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0 } } });
    api.failNext = { code: 'voice_unavailable', message: '语音会话尚未就绪，请稍后再试。' };
    expect(await session.restart()).toBe(false);
    expect(session.state).toBe('ended');
    expect(session.log.at(-1)).toMatchObject({ kind: 'error', text: '语音会话尚未就绪，请稍后再试。' });
  });

  it('ignores events and answers after it is disposed (delegate safety)', async () => {
    const { api, session, dispose } = await connected();
    api.set('confirming', { batch: batchOf([{ amount: 35 }]) });
    const pending = session.submitText('午饭35');
    dispose();
    expect(api.listenerCount).toBe(0);
    await pending;
    api.emit({ channel: 'voice', event: { type: 'error', code: 'x', message: '迟到的错误' } });
    session.apply({ type: 'stateChanged', state: 'recognizing' });
    flushSync();
    expect(session.state).toBe('idle');
    expect(session.batch).toBeNull();
    expect(session.log).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../ledger/index';
import { toZonedNow } from '@shared/time';
import { createDispatch, createHandlers, type Dispatch } from './handlers';
import type { VoiceController } from './voice-handlers';

let ledger: Ledger;
let dispatch: Dispatch;
const logged: string[] = [];

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
  dispatch = createDispatch(
    createHandlers({ ledger, appInfo: () => ({ version: '0.0.0-test', dataDir: '/tmp/x', databasePath: ':memory:', readOnly: false }) }),
    (msg) => logged.push(msg),
  );
});
afterEach(() => ledger.close());

describe('IPC dispatch', () => {
  it('runs a real command end to end against the ledger', async () => {
    ledger.saveBatch([
      { amount: 35, type: 'EXPENSE', category: '餐饮', description: '午饭', date: null, account: null, confidence: 1, source: 'local' },
    ]);
    const result = await dispatch('listTransactions', { from: '2026-02-01', to: '2026-02-28' });
    expect(result.ok).toBe(true);
    if (result.ok) {
      const page = result.value as { next: unknown; rows: { amountFen: number; description: string }[] };
      expect(page.rows).toMatchObject([{ amountFen: 3500, description: '午饭' }]);
      expect(page.next).toBeNull();
    }
  });

  it('applies schema defaults', async () => {
    const result = await dispatch('listTransactions', {});
    expect(result).toEqual({ ok: true, value: { rows: [], next: null } });
  });

  it('rejects unknown commands', async () => {
    expect(await dispatch('dropAllTables', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(await dispatch(42, {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(await dispatch('__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
  });

  it.each([
    ['listTransactions', { from: '17/02/2026' }],
    ['listTransactions', { limit: 100000 }],
    ['listTransactions', { limit: '50' }],
    ['listTransactions', { evil: true }],
    ['listTransactions', { offset: 50 }],
    ['listTransactions', { after: { date: '2026-02-30', ms: 0, rowid: 1 } }],
    ['listTransactions', { after: { date: '2026-02-01', ms: 1.5, rowid: 1 } }],
    ['listTransactions', { after: { date: '2026-02-01', ms: 0, rowid: -1 } }],
    ['listTransactions', { after: { date: '2026-02-01', ms: 0 } }],
    ['listTransactions', { after: 'opaque' }],
    ['searchTransactions', { query: '   ' }],
    ['monthSummary', { month: '2026-2' }],
    ['monthSummary', 'not an object'],
  ])('rejects malformed input for %s (%o) with a Chinese message', async (name, input) => {
    const result = await dispatch(name, input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('validation_failed');
      expect(result.error.message).toMatch(/^输入无效/);
    }
  });

  it('turns an unexpected handler failure into an error result and logs it', async () => {
    ledger.close();
    const result = await dispatch('monthSummary', { month: '2026-02' });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(logged.at(-1)).toContain('monthSummary');
  });
});

describe('voice commands without a session', () => {
  it('answer with a clear error instead of crashing', async () => {
    const result = await dispatch('voiceText', { text: '午饭35' });
    expect(result).toMatchObject({ ok: false, error: { code: 'voice_unavailable' } });
  });
  it('still validate their input first', async () => {
    const result = await dispatch('voiceAction', { action: 'confirmItem', index: -1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await dispatch('voiceAction', { action: 'format_disk' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  });
});

describe('voice commands with a session', () => {
  it('pass a press-to-start hotkey’s endOnSilence through to the session and refuse a wrong type', async () => {
    const presses: unknown[] = [];
    const voice: VoiceController = {
      snapshot: () => ({ state: 'listening', mode: 'pushToTalk', batch: null, online: false }),
      start: async () => {},
      setMode: async () => {},
      submitText: async () => {},
      pushToTalk: async (action, options) => void presses.push([action, options]),
      act: async () => {},
    };
    const withVoice = createDispatch(
      createHandlers({ ledger, voice, appInfo: () => ({ version: 't', dataDir: '/tmp/x', databasePath: ':memory:', readOnly: false }) }),
    );
    expect(await withVoice('voicePushToTalk', { action: 'down', endOnSilence: true })).toMatchObject({ ok: true });
    expect(await withVoice('voicePushToTalk', { action: 'up' })).toMatchObject({ ok: true });
    expect(await withVoice('voicePushToTalk', { action: 'down', endOnSilence: 'yes' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed' },
    });
    expect(presses).toEqual([
      ['down', { endOnSilence: true }],
      ['up', {}],
    ]);
  });
});

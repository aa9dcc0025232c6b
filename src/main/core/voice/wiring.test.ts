// On-device recognition in the session parts: one engine per model folder shared across
// sessions, and a precise reason (asr_model_missing) when local recognition has no model yet.
import { afterEach, describe, expect, it } from 'vitest';
import type { VoiceEvent } from '@shared/events';
import { FakeClock } from '@shared/clock';
import { openLedger, type Ledger } from '../ledger/index';
import type { LocalAsrEngine } from '../asr/local/index';
import type { VoiceConfig } from '../settings/index';
import { VoiceOrchestrator } from './orchestrator';
import { ASR_MODEL_MISSING, buildSessionParts, LocalEngineHolder, type LocalRecognition } from './wiring';
import { ScriptedAsr, ScriptedVoiceInput } from '../../../../test/support/voice-doubles';

/** Counts what an engine is asked; its clients are scripted. */
class FakeEngine implements LocalAsrEngine {
  readonly clients: ScriptedAsr[] = [];
  disposed = 0;
  constructor(readonly modelDir: string) {}
  ready(): Promise<void> {
    return Promise.resolve();
  }
  createClient(): ScriptedAsr {
    const client = new ScriptedAsr(() => false);
    this.clients.push(client);
    return client;
  }
  async dispose(): Promise<void> {
    this.disposed += 1;
  }
}

const config = (modelDir: string | null): VoiceConfig => ({
  understanding: { mode: 'offline' },
  asr: { protocol: 'local', modelDir },
  input: { silenceMs: 1000 },
  tts: { enabled: false, rate: 1 },
});

const ledgers: Ledger[] = [];
afterEach(() => {
  for (const l of ledgers.splice(0)) l.close();
});

function holder() {
  const made: FakeEngine[] = [];
  const engines = new LocalEngineHolder((dir) => {
    const engine = new FakeEngine(dir);
    made.push(engine);
    return engine;
  });
  return { engines, made };
}

describe('LocalEngineHolder', () => {
  it('keeps one engine per folder, replaces and disposes it when the folder changes', async () => {
    const { engines, made } = holder();
    expect(made).toEqual([]);
    const a = engines.engine('/models/a');
    expect(engines.engine('/models/a')).toBe(a);
    const b = engines.engine('/models/b');
    expect(b).not.toBe(a);
    expect(made.map((e) => [e.modelDir, e.disposed])).toEqual([
      ['/models/a', 1],
      ['/models/b', 0],
    ]);
    engines.keepOnly('/models/b');
    expect(made[1]!.disposed).toBe(0);
    engines.keepOnly(null);
    expect(made[1]!.disposed).toBe(1);
    const c = engines.engine('/models/b');
    await engines.dispose();
    expect(made.map((e) => e.disposed)).toEqual([1, 1, 1]);
    expect(c).toBe(made[2]);
  });

  it('releaseModel stops the engine of a folder about to be deleted and waits for it; other folders keep theirs', async () => {
    const stopped: string[] = [];
    const engines = new LocalEngineHolder((dir) => {
      const engine = new FakeEngine(dir);
      engine.dispose = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        stopped.push(dir);
      };
      return engine;
    });
    const a = engines.engine('/models/a');
    await engines.releaseModel('/models/b');
    expect(stopped).toEqual([]);
    expect(engines.engine('/models/a')).toBe(a);
    await engines.releaseModel('/models/a');
    expect(stopped).toEqual(['/models/a']);
    expect(engines.engine('/models/a')).not.toBe(a);
  });
});

describe('session parts for on-device recognition', () => {
  function session(local: LocalRecognition, modelDir: string | null = null) {
    const clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
    const ledger = openLedger({ path: ':memory:', now: () => ({ epochMs: clock.now(), offsetMinutes: 480 }) });
    ledgers.push(ledger);
    const input = new ScriptedVoiceInput();
    const events: VoiceEvent[] = [];
    const parts = buildSessionParts(
      config(modelDir),
      ledger,
      { clock, tts: { engine: 'log', log: () => {} }, createVoiceInput: () => input },
      undefined,
      local,
    );
    const orch = new VoiceOrchestrator({ ...parts, mode: 'auto', emit: (e) => events.push(e) });
    return { orch, input, events, clock, parts };
  }

  it('says the model is missing when the mic is wanted, then uses the model once it is ready in the same session', async () => {
    const { engines, made } = holder();
    let active: string | null = null;
    const t = session({ modelDir: () => active, engine: (dir) => engines.engine(dir) });
    await t.orch.start();
    expect(t.events).toContainEqual({ type: 'error', code: 'asr_model_missing', message: '本地语音识别需要先下载语音模型' });
    expect(t.orch.mode).toBe('keyboard');
    expect(made).toEqual([]);

    // The first-use dialog downloaded the model; the same session now listens.
    active = '/models/zh';
    await t.orch.setMode('auto');
    expect(t.orch.mode).toBe('auto');
    t.input.speechStart();
    await t.clock.advance(0);
    expect(made).toHaveLength(1);
    const client = made[0]!.clients[0]!;
    client.partial('wu3 fan4');
    client.final('午饭三十五');
    await t.clock.advance(0);
    expect(t.events).toContainEqual({ type: 'partialText', text: 'wu3 fan4' });
    expect(t.events.some((e) => e.type === 'finalText' && e.text === '午饭三十五')).toBe(true);

    // Every utterance gets its own client from the one engine.
    t.input.speechEnd();
    t.input.speechStart();
    await t.clock.advance(0);
    expect(made).toHaveLength(1);
    expect(made[0]!.clients).toHaveLength(2);
    await t.orch.dispose();
    await engines.dispose();
  });

  it('without a live source uses the folder in the config, and a missing one is reported', async () => {
    const { engines, made } = holder();
    const withModel = session({ engine: (dir) => engines.engine(dir) }, '/models/fixed');
    expect(withModel.parts.asrUnavailable?.()).toBeNull();
    withModel.parts.createAsrClient?.({ shouldReconnect: () => false });
    expect(made.map((e) => e.modelDir)).toEqual(['/models/fixed']);
    const without = session({ engine: (dir) => engines.engine(dir) }, null);
    expect(without.parts.asrUnavailable?.()).toEqual(ASR_MODEL_MISSING);
    await engines.dispose();
  });

  it('the local override names its folder (tools and e2e)', () => {
    const { engines, made } = holder();
    const clock = new FakeClock(0);
    const ledger = openLedger({ path: ':memory:' });
    ledgers.push(ledger);
    const parts = buildSessionParts(
      { ...config(null), asr: { protocol: 'dashscope', tokens: 'none' } },
      ledger,
      { clock, tts: { engine: 'log', log: () => {} }, asr: { protocol: 'local', modelDir: '/models/override' } },
      undefined,
      { engine: (dir) => engines.engine(dir) },
    );
    expect(parts.asrUnavailable?.()).toBeNull();
    parts.createAsrClient?.({ shouldReconnect: () => false });
    expect(made.map((e) => e.modelDir)).toEqual(['/models/override']);
  });
});

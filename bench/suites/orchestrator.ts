// The orchestrator's own latency, offline: typed text → finalText (drafts on screen) and an ASR
// final → finalText. Real local NLP, real Understanding (offline), real ledger in :memory:;
// the mic and the ASR socket are the scripted ports, so only the orchestrator's work is timed.
import { performance } from 'node:perf_hooks';
import { FakeClock, flushMicrotasks } from '@shared/clock';
import { openLedger } from '@core/ledger/index';
import { createUnderstanding } from '@core/llm/index';
import { createTts } from '@core/tts/index';
import { VoiceOrchestrator } from '@core/voice/orchestrator';
import { ScriptedAsr, ScriptedVoiceInput } from '../../test/support/voice-doubles';
import { summarize, type Suite } from '../harness';

const ITERATIONS = 500;
// The NLP grammar and the orchestrator reach optimised code only after a few hundred inputs;
// the budget is for a warm session, which is what a user talking for a while has.
const WARMUP = 300;
const SENTENCES = ['午饭35块', '打车花了二十三块五', '昨天买菜花了48', '工资收到9000', '奶茶15'];

function harness(mode: 'keyboard' | 'auto') {
  const clock = new FakeClock();
  const now = () => ({ epochMs: clock.now(), offsetMinutes: 480 });
  const ledger = openLedger({ path: ':memory:', now });
  const input = new ScriptedVoiceInput();
  const asrs: ScriptedAsr[] = [];
  let finalAt = 0;
  const orch = new VoiceOrchestrator({
    mode,
    emit: (event) => {
      if (event.type === 'finalText') finalAt = performance.now();
    },
    tts: createTts({ engine: 'log', log: () => {} }),
    understanding: createUnderstanding({ mode: 'offline', clock }),
    ledger,
    clock,
    now,
    createVoiceInput: () => input,
    createAsrClient: ({ shouldReconnect }) => {
      const asr = new ScriptedAsr(shouldReconnect);
      asrs.push(asr);
      return asr;
    },
  });
  return { orch, input, asrs, ledger, finalAt: () => finalAt };
}

const suite: Suite = {
  name: 'orchestrator',
  description: 'The voice orchestrator offline: typed text, or an ASR final, until the drafts are on the card',
  async run(ctx) {
    {
      const h = harness('keyboard');
      await h.orch.start();
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        const t0 = performance.now();
        await h.orch.processTextInput(SENTENCES[i % SENTENCES.length]!);
        if (i >= WARMUP) samples.push(h.finalAt() - t0);
        await h.orch.act({ action: 'cancelAll' });
      }
      ctx.record('orchestrator.textToDrafts', summarize(samples, { p99: 2 }));
      await h.orch.dispose();
      h.ledger.close();
    }
    {
      const h = harness('auto');
      await h.orch.start();
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        // Speech from the previous round must be over, or the VAD start is (rightly) ignored.
        await flushMicrotasks();
        h.input.speechStart();
        await flushMicrotasks();
        h.input.speechEnd();
        const asr = h.asrs.at(-1)!;
        const t0 = performance.now();
        asr.final(SENTENCES[i % SENTENCES.length]!);
        await h.orch.idle();
        if (i >= WARMUP) samples.push(h.finalAt() - t0);
        await h.orch.act({ action: 'cancelAll' });
      }
      if (h.asrs.length !== WARMUP + ITERATIONS) throw new Error(`expected one ASR connection per utterance, got ${h.asrs.length}`);
      ctx.record('orchestrator.asrFinalToDrafts', summarize(samples, { p99: 5 }));
      await h.orch.dispose();
      h.ledger.close();
    }
  },
};

export default suite;

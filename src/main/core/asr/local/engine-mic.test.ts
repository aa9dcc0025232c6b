// The engine test of on-device recognition: espeak-ng speech played by a virtual microphone
// (ALSA file plugin) → real naudiodon capture → real node-vad → the local engine with the
// shared sherpa-onnx model. PortAudio reads the ALSA config once per process (vitest gives
// each test file its own), so nothing here opens the microphone before useVirtualMics().
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProgram, renderMandarin, tempDir, writeRaw } from '../../../../../test/support/speech';
import { useVirtualMics } from '../../../../../test/support/virtual-mic';
import { createVoiceInput } from '../../audio/index';
import { concatPcm, msToSamples, samplesToMs } from '../../audio/pcm';
import type { AsrClient } from '../../voice/ports';
import { createLocalAsrEngine, type LocalAsrResult } from './engine';
import type { LocalAsrEngine } from './types';

const MODEL = fileURLToPath(new URL('../../../../../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M', import.meta.url));

describe.skipIf(!existsSync(MODEL))('virtual microphone → node-vad → local engine (skipped when ../shared/models is absent)', () => {
  const dir = tempDir('skj-asr-mic-');
  let programMs = 0;
  let engine: LocalAsrEngine;
  const results: LocalAsrResult[] = [];

  beforeAll(async () => {
    const clip = renderMandarin('wu3 fan4 san1 shi2 wu3 kuai4');
    const program = composeProgram([{ silenceMs: 1000 }, { clip }, { silenceMs: 1500 }]);
    programMs = samplesToMs(program.pcm.length);
    writeRaw(join(dir.path, 'speech.raw'), program.pcm);
    useVirtualMics(dir.path, [{ name: 'speech', rawPath: join(dir.path, 'speech.raw') }]);
    engine = createLocalAsrEngine({ modelDir: MODEL, onResult: (r) => results.push(r), log: () => undefined });
    await engine.ready();
  });

  afterAll(async () => {
    await engine.dispose();
    dir.remove();
  });

  it('「wu3 fan4 san1 shi2 wu3 kuai4」 spoken into the microphone ends as the tokens w ǔ f àn s ān sh í w ǔ k uài, partials first', async () => {
    const input = createVoiceInput({ silenceMs: 800 });
    const events: { type: string; text?: string }[] = [];
    // The virtual microphone plays faster than real time, so capture runs ahead of the VAD;
    // in the app both advance together. Audio therefore goes to the engine as the VAD
    // reaches it: at speechStart the pre-roll (the 500 ms the VAD has just judged, which is
    // what input.preRoll() holds in real time), then each judged window.
    const captured: Int16Array[] = [];
    input.on('frame', (pcm) => captured.push(pcm));
    const audioBetween = (fromMs: number, toMs: number) => concatPcm(captured).subarray(msToSamples(fromMs), msToSamples(toMs));
    let client: AsrClient | null = null;
    let sentUntilMs = 0;
    // As the orchestrator does: audio waits in `pending` until the client is connected.
    let pending: Int16Array[] = [];
    let committed = false;
    const forward = (pcm: Int16Array) => {
      if (client?.connected && pending.length === 0) client.sendAudio(pcm);
      else pending.push(pcm);
    };
    let finished: () => void = () => undefined;
    const final = new Promise<void>((resolve) => (finished = resolve));

    input.on('vad', (d) => {
      if (!client || committed) return;
      forward(audioBetween(sentUntilMs, d.atMs + d.durationMs));
      sentUntilMs = d.atMs + d.durationMs;
    });
    input.on('segment', (segment) => {
      if (segment.type === 'speechStart') {
        events.push({ type: 'speechStart' });
        const c = engine.createClient();
        client = c;
        sentUntilMs = input.analysedMs;
        pending = [audioBetween(Math.max(0, sentUntilMs - 500), sentUntilMs)];
        c.on('partial', (text) => events.push({ type: 'partial', text }));
        c.on('final', (text) => {
          events.push({ type: 'final', text });
          finished();
        });
        c.on('error', (e) => events.push({ type: 'error', text: e.message }));
        void c.connect().then(() => {
          for (const chunk of pending) c.sendAudio(chunk);
          pending = [];
          if (committed) c.commit();
        });
      } else if (segment.type === 'speechEnd') {
        events.push({ type: 'speechEnd' });
        committed = true;
        if (client?.connected && pending.length === 0) client.commit();
      }
    });

    await input.start();
    await Promise.race([
      final,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no final text; events: ${JSON.stringify(events)}`)), programMs + 10_000)),
    ]);
    await input.stop();
    await (client as AsrClient | null)?.close();

    // This 3.3 M-parameter model's output depends on where its 320 ms chunks fall in the speech
    // (shift the audio by 100 ms and 十 becomes 之): the transcript below is what the real
    // pre-roll (500 ms before the VAD's speechStart decision) gives.
    expect(results.map((r) => r.tokens.join(' '))).toEqual(['w ǔ f àn s ān sh í w ǔ k uài']);
    expect(events.at(-1)).toEqual({ type: 'final', text: 'wǔfànsānshíwǔkuài' });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t !== 'partial')).toEqual(['speechStart', 'speechEnd', 'final']);
    // The VAD here runs faster than real time, so how many partials precede speechEnd varies;
    // that they grow towards the final text, and come before it, does not.
    const partials = events.filter((e) => e.type === 'partial').map((e) => e.text!);
    expect(partials.length).toBeGreaterThan(1);
    partials.forEach((p, i) => expect(p.startsWith(partials[i - 1] ?? '') && 'wǔfànsānshíwǔkuài'.startsWith(p)).toBe(true));
  });
});

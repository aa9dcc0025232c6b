// On-device recognition figures with the shared sherpa-onnx test model: decoding speed, the
// wait from end of utterance to final text, and the main thread's event-loop delay while the
// recognizer process decodes in real time (the proof that decoding stays off the main thread).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { concatPcm, msToSamples, samplesToMs } from '@core/audio/pcm';
import { createLocalAsrEngine, type LocalAsrEngine } from '@core/asr/local/index';
import type { AsrClient } from '@core/voice/ports';
import { readWavPcm } from '../../test/support/speech';
import { summarize, type BenchContext, type Suite } from '../harness';

const MODEL = fileURLToPath(new URL('../../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M', import.meta.url));

const CHUNK = msToSamples(100);
const FRAME = msToSamples(30);

/** Resolves with the final text the client gives after `commit()`, timing from the commit. */
function commitAndTime(client: AsrClient): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const off = client.on('final', () => {
      off();
      resolve(performance.now() - t0);
    });
    client.commit();
  });
}

/** One utterance sent as fast as the channel takes it; resolves at the final text. */
async function decodeAtOnce(engine: LocalAsrEngine, pcm: Int16Array): Promise<number> {
  const client = engine.createClient();
  await client.connect();
  const t0 = performance.now();
  for (let at = 0; at < pcm.length; at += CHUNK) client.sendAudio(pcm.subarray(at, at + CHUNK));
  await commitAndTime(client);
  const elapsed = performance.now() - t0;
  await client.close();
  return elapsed;
}

async function realtimeFactor(ctx: BenchContext, engine: LocalAsrEngine, speech: Int16Array): Promise<number> {
  await decodeAtOnce(engine, speech.subarray(0, msToSamples(3000))); // warm-up
  const factors: number[] = [];
  for (let run = 0; run < 5; run++) factors.push(samplesToMs(speech.length) / (await decodeAtOnce(engine, speech)));
  factors.sort((a, b) => a - b);
  const median = Math.round(factors[2]!);
  ctx.record('asr.local.realtimeFactor', {
    value: median,
    unit: `× real time (${Math.round(samplesToMs(speech.length) / 1000)} s of speech, 1 thread)`,
    budget: '≥ 10×',
    ok: median >= 10,
  });
  return median;
}

/**
 * commit() → final text for one utterance whose audio the recognizer has already caught up
 * with, as it has in the app where audio arrives in real time: the audio is sent, the test
 * waits the decoding time the measured speed implies (doubled), then commits.
 */
async function endToFinal(ctx: BenchContext, engine: LocalAsrEngine, utterance: Int16Array, speed: number): Promise<void> {
  const catchUpMs = (2 * samplesToMs(utterance.length)) / speed + 20;
  const samples: number[] = [];
  for (let run = 0; run < 110; run++) {
    const client = engine.createClient();
    await client.connect();
    for (let at = 0; at < utterance.length; at += CHUNK) client.sendAudio(utterance.subarray(at, at + CHUNK));
    await new Promise((r) => setTimeout(r, catchUpMs));
    const ms = await commitAndTime(client);
    if (run >= 10) samples.push(ms); // the first runs warm caches up
    await client.close();
  }
  ctx.record('asr.local.endToFinal', summarize(samples, { p99: 150 }));
}

/** The main thread's event-loop delay while utterances stream in 30 ms frames at real-time pace. */
async function mainLoopDelay(ctx: BenchContext, engine: LocalAsrEngine, utterances: Int16Array[]): Promise<void> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  let sentMs = 0;
  for (const pcm of utterances) {
    const client = engine.createClient();
    await client.connect();
    for (let at = 0; at < pcm.length; at += FRAME) {
      client.sendAudio(pcm.subarray(at, at + FRAME));
      sentMs += samplesToMs(Math.min(FRAME, pcm.length - at));
      // Paced against the wall clock, as a microphone delivers frames.
      await new Promise((r) => setTimeout(r, Math.max(0, start + sentMs - performance.now())));
    }
    await commitAndTime(client);
    await client.close();
  }
  histogram.disable();
  const p99 = Number((histogram.percentile(99) / 1e6).toFixed(2));
  ctx.record('asr.local.mainLoopDelay', {
    p99_ms: p99,
    max_ms: Number((histogram.max / 1e6).toFixed(2)),
    value: Math.round(sentMs / 1000),
    unit: 's of audio decoded meanwhile',
    budget: 'p99 ≤ 10 ms',
    ok: p99 <= 10,
  });
}

const suite: Suite = {
  name: 'asr.local',
  description:
    'On-device recognition with the 3.3 M test model: decoding speed, end of speech to final text, main-loop delay (needs ../shared/models)',
  async run(ctx) {
    if (!existsSync(MODEL)) {
      process.stderr.write(`asr.local: skipped (../shared/models absent: ${MODEL})\n`);
      return;
    }
    const wavDir = join(MODEL, 'test_wavs');
    const utterances = readdirSync(wavDir)
      .filter((f) => f.endsWith('.wav'))
      .sort()
      .map((f) => readWavPcm(join(wavDir, f)));
    const engine = createLocalAsrEngine({ modelDir: MODEL, numThreads: 1, log: () => undefined });
    try {
      await engine.ready();
      const speed = await realtimeFactor(ctx, engine, concatPcm(utterances));
      await endToFinal(ctx, engine, readWavPcm(join(wavDir, '4.wav')), speed);
      await mainLoopDelay(ctx, engine, utterances.slice(0, 3));
    } finally {
      await engine.dispose();
    }
  },
};

export default suite;

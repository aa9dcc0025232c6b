// Voice I/O figures: node-vad throughput, the per-frame cost of the capture → VAD → ASR path,
// and the ASR protocol overhead from commit to final text on a loopback server.
import { performance } from 'node:perf_hooks';
import { FrameChunker, msToSamples, pcmToBytes, samplesToMs } from '@core/audio/pcm';
import { PreRollBuffer } from '@core/audio/pre-roll';
import { segmentPcm } from '@core/audio/segment-pcm';
import { SpeechSegmenter } from '@core/audio/segmenter';
import { VadClassifier } from '@core/audio/vad';
import { createAsrClient } from '@core/asr/client';
import { createStaticTokenProvider } from '@core/asr/tokens';
import type { AsrProtocolName } from '@core/asr/protocols';
import { composeProgram, renderMandarin, type ProgramPart } from '../../test/support/speech';
import { startDashScopeServer, startFunAsrServer } from '../../test/support/asr-servers';
import { summarize, type BenchContext, type Suite } from '../harness';

/** About 60 s of speech-like audio: espeak-ng Mandarin sentences with pauses. */
function minuteOfSpeech(): Int16Array {
  const clips = ['午饭三十五块', '打车花了二十', '工资收到九千', '第二笔改成三十五', '确认'].map(renderMandarin);
  const parts: ProgramPart[] = [];
  let ms = 0;
  for (let i = 0; ms < 60_000; i++) {
    const clip = clips[i % clips.length]!;
    parts.push({ clip }, { silenceMs: 1200 });
    ms += samplesToMs(clip.length) + 1200;
  }
  return composeProgram(parts).pcm.subarray(0, msToSamples(60_000));
}

async function vadThroughput(ctx: BenchContext, pcm: Int16Array): Promise<void> {
  await segmentPcm(pcm.subarray(0, msToSamples(5000))); // warm-up
  const factors: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    await segmentPcm(pcm);
    factors.push(samplesToMs(pcm.length) / (performance.now() - t0));
  }
  factors.sort((a, b) => a - b);
  const median = Math.round(factors[2]!);
  ctx.record('vad.realtimeFactor', { value: median, unit: '× real time', budget: '≥ 200×', ok: median >= 200 });
}

/**
 * One microphone block through the same parts VoiceInput wires together (chunker, pre-roll,
 * node-vad, segmenter) and out of the ASR client onto a loopback socket.
 */
async function frameOverhead(ctx: BenchContext, pcm: Int16Array): Promise<void> {
  const server = await startDashScopeServer([]);
  const client = createAsrClient({
    protocol: 'dashscope',
    tokens: createStaticTokenProvider(async () => ({ token: 't', expiresAt: Math.floor(Date.now() / 1000) + 3600, model: 'm', wsUrl: server.url })),
    shouldReconnect: () => false,
    log: () => undefined,
  });
  await client.connect();
  const bytes = pcmToBytes(pcm);
  const chunker = new FrameChunker(480);
  const preRoll = new PreRollBuffer();
  const vad = new VadClassifier('aggressive');
  const segmenter = new SpeechSegmenter();
  const block = 960; // 30 ms of PCM16, as PortAudio hands it out
  const samples: number[] = [];
  for (let at = 0; at + block <= bytes.length; at += block) {
    const t0 = performance.now();
    const frames: Int16Array[] = [];
    chunker.push(bytes.subarray(at, at + block), (f) => frames.push(f));
    for (const frame of frames) {
      preRoll.push(frame);
      for (const d of await vad.classify(frame)) segmenter.push(d.voiced, d.atMs, d.durationMs);
      client.sendAudio(frame);
    }
    samples.push(performance.now() - t0);
  }
  ctx.record('voice.frameToAsrSend', summarize(samples, { p99: 5 }));
  await client.close();
  await server.close();
}

async function commitToFinal(ctx: BenchContext, protocol: AsrProtocolName, name: string): Promise<void> {
  const transcripts = Array.from({ length: 400 }, (_, i) => `第${i}笔三十五`);
  const server = protocol === 'dashscope' ? await startDashScopeServer(transcripts) : await startFunAsrServer(transcripts);
  const client = createAsrClient({
    protocol,
    url: server.url,
    tokens: createStaticTokenProvider(async () => ({ token: 't', expiresAt: Math.floor(Date.now() / 1000) + 3600, model: 'm', wsUrl: server.url })),
    shouldReconnect: () => false,
    log: () => undefined,
  });
  await client.connect();
  const frame = new Int16Array(480).fill(100);
  let resolveFinal: () => void = () => undefined;
  client.on('final', () => resolveFinal());
  await ctx.measureAsync(
    name,
    async () => {
      client.sendAudio(frame);
      const final = new Promise<void>((r) => (resolveFinal = r));
      client.commit();
      await final;
    },
    { iterations: 300, warmup: 30, budget: { p99: 10 } },
  );
  await client.close();
  await server.close();
}

const suite: Suite = {
  name: 'voice',
  description: 'Voice I/O: node-vad throughput, capture to ASR per frame, ASR protocol overhead on loopback (needs espeak-ng, sox)',
  async run(ctx) {
    const pcm = minuteOfSpeech();
    await vadThroughput(ctx, pcm);
    await frameOverhead(ctx, pcm);
    await commitToFinal(ctx, 'dashscope', 'asr.commitToFinal');
    await commitToFinal(ctx, 'funasr', 'asr.commitToFinal.funasr');
  },
};

export default suite;

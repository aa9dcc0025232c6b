// On-device recognition of one utterance, end to end: the project's engine (createLocalAsrEngine:
// its recognizer process, the audio sent in 100 ms chunks over the IPC channel, commit, the
// final text back) against sherpa-onnx-node called right here: the same recognizer config, one
// stream per utterance, each 100 ms chunk turned into floats, fed and decoded with its partial
// text read (as the recognizer process does to send partials), then the same 0.5 s of tail
// silence, inputFinished and the final text. Clips: the asr.local suite's 4.wav (4.6 s) and
// all seven of its test clips in a row (35.6 s), from the shared sherpa-onnx test model.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { concatPcm, msToSamples, samplesToMs } from '@core/audio/pcm';
import { createLocalAsrEngine, detectModelFiles } from '@core/asr/local/index';
import { SAMPLE_RATE, TAIL_SILENCE_SECONDS } from '@core/asr/local/recognizer-process';
import { readWavPcm } from '../../test/support/speech';
import type { PairFactory, RatioPair } from './pair';

const MODEL = fileURLToPath(new URL('../../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M', import.meta.url));
const CHUNK = msToSamples(100);

interface Stream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface Recognizer {
  createStream(): Stream;
  isReady(stream: Stream): boolean;
  decode(stream: Stream): void;
  getResult(stream: Stream): { text: string };
}

const asrLocal: PairFactory = async () => {
  if (!existsSync(MODEL)) return `../shared/models absent: ${MODEL}`;
  const wavDir = join(MODEL, 'test_wavs');
  const clips = readdirSync(wavDir)
    .filter((f) => f.endsWith('.wav'))
    .sort()
    .map((f) => readWavPcm(join(wavDir, f)));
  const files = detectModelFiles(MODEL);
  if (files.kind !== 'transducer') return `the shared model is not a transducer: ${MODEL}`;

  const engine = createLocalAsrEngine({ modelDir: MODEL, numThreads: 1, log: () => undefined });
  await engine.ready();
  const viaEngine = async (pcm: Int16Array): Promise<string> => {
    const client = engine.createClient();
    await client.connect();
    const final = new Promise<string>((resolve) => {
      const off = client.on('final', (text) => {
        off();
        resolve(text);
      });
    });
    for (let at = 0; at < pcm.length; at += CHUNK) client.sendAudio(pcm.subarray(at, at + CHUNK));
    client.commit();
    const text = await final;
    await client.close();
    return text;
  };

  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as { OnlineRecognizer: new (config: unknown) => Recognizer };
  const recognizer = new sherpa.OnlineRecognizer({
    featConfig: { sampleRate: SAMPLE_RATE, featureDim: 80 },
    modelConfig: {
      transducer: { encoder: files.encoder, decoder: files.decoder, joiner: files.joiner },
      tokens: files.tokens,
      numThreads: 1,
      provider: 'cpu',
      debug: 0,
    },
    decodingMethod: 'greedy_search',
    enableEndpoint: false,
  });
  const direct = (pcm: Int16Array): string => {
    const stream = recognizer.createStream();
    let partial = '';
    for (let at = 0; at < pcm.length; at += CHUNK) {
      const chunk = pcm.subarray(at, at + CHUNK);
      const samples = new Float32Array(chunk.length);
      for (let i = 0; i < chunk.length; i++) samples[i] = chunk[i]! / 32768;
      stream.acceptWaveform({ samples, sampleRate: SAMPLE_RATE });
      while (recognizer.isReady(stream)) recognizer.decode(stream);
      // The partial text the app shows while speaking, as the recognizer process reads it.
      const { text } = recognizer.getResult(stream);
      if (text !== partial) partial = text;
    }
    stream.acceptWaveform({ samples: new Float32Array(Math.round(SAMPLE_RATE * TAIL_SILENCE_SECONDS)), sampleRate: SAMPLE_RATE });
    stream.inputFinished();
    while (recognizer.isReady(stream)) recognizer.decode(stream);
    return recognizer.getResult(stream).text;
  };

  const pair = (pcm: Int16Array): RatioPair<string> => ({
    // asrLocal4.6s, asrLocal36s: the clip's length (tenths below ten seconds).
    name: `ratios.asrLocal${(samplesToMs(pcm.length) / 1000).toFixed(samplesToMs(pcm.length) < 10_000 ? 1 : 0)}s`,
    project: () => viaEngine(pcm),
    raw: () => direct(pcm),
  });
  const pairs = [pair(clips[4]!), pair(concatPcm(clips))];
  pairs[pairs.length - 1]!.dispose = () => engine.dispose();
  return pairs;
};

export default asrLocal;

// The program of the recognizer process: sherpa-onnx's OnlineRecognizer and one stream per
// client, driven by messages from the engine (engine.ts).
//
// Why a child process and not a worker thread: onnxruntime aborts the whole process
// (`terminate called after throwing an instance of 'Ort::Exception'`, SIGABRT) when an .onnx
// file is corrupt, so a worker thread would take the app down with it. A child process dies
// alone and the engine reports the model as refused.
//
// Why its source is a function turned into `node -e` text: the app's main process is one
// electron-vite bundle and the tests and tools run TypeScript through vite or tsx, so there is
// no .js file on disk to start in every setting. The function must therefore be
// self-contained: no imports, no closure variables. Transforms still touch it, and
// RECOGNIZER_SOURCE undoes what they add: the bundler rewrites a `require(…)` call into its
// own `__require` helper, so the child's `require` is passed in as a parameter; tsx (esbuild
// keepNames) wraps nested named functions in `__name(…)`, so a pass-through `__name` is defined.
// test/boot.test.ts runs it from the built app (「使用已有模型文件夹」 smoke-decodes in it).
import type { LocalModelFiles } from './types';

/** Engine → recognizer process. `id` names one client's stream. */
export type ToRecognizer =
  | { type: 'load'; sherpaPath: string; files: LocalModelFiles; numThreads: number }
  | { type: 'open'; id: number }
  | { type: 'audio'; id: number; pcm: Int16Array }
  | { type: 'commit'; id: number }
  | { type: 'close'; id: number }
  | { type: 'decodeFile'; id: number; path: string };

/** Recognizer process → engine. */
export type FromRecognizer =
  | { type: 'loaded' }
  | { type: 'refused'; message: string }
  | { type: 'partial'; id: number; text: string }
  | { type: 'final'; id: number; text: string; tokens: string[] }
  | { type: 'failed'; id: number; message: string };

/** Trailing silence fed before inputFinished(), so the model emits the last syllable. */
export const TAIL_SILENCE_SECONDS = 0.5;
export const SAMPLE_RATE = 16_000;

export function recognizerProgram(requireModule: (path: string) => unknown, tailSilenceSeconds: number, sampleRate: number): void {
  interface Stream {
    acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
    inputFinished(): void;
  }
  interface Recognizer {
    createStream(): Stream;
    isReady(stream: Stream): boolean;
    decode(stream: Stream): void;
    getResult(stream: Stream): { text: string; tokens: string[] };
  }
  const send = (message: FromRecognizer) => process.send?.(message);
  let recognizer: Recognizer | null = null;
  let readWave: ((path: string) => { samples: Float32Array; sampleRate: number }) | null = null;
  /** Open clients; null until the client's next utterance sends audio. */
  const streams = new Map<number, { stream: Stream; text: string } | null>();

  const decodeReady = (r: Recognizer, stream: Stream) => {
    while (r.isReady(stream)) r.decode(stream);
    return r.getResult(stream);
  };
  const finish = (r: Recognizer, stream: Stream, rate: number) => {
    stream.acceptWaveform({ samples: new Float32Array(Math.round(rate * tailSilenceSeconds)), sampleRate: rate });
    stream.inputFinished();
    return decodeReady(r, stream);
  };

  const load = (message: Extract<ToRecognizer, { type: 'load' }>) => {
    try {
      const sherpa = requireModule(message.sherpaPath) as {
        OnlineRecognizer: new (config: unknown) => Recognizer;
        readWave: (path: string) => { samples: Float32Array; sampleRate: number };
      };
      const { files } = message;
      const model =
        files.kind === 'transducer'
          ? { transducer: { encoder: files.encoder, decoder: files.decoder, joiner: files.joiner } }
          : { paraformer: { encoder: files.encoder, decoder: files.decoder } };
      recognizer = new sherpa.OnlineRecognizer({
        featConfig: { sampleRate, featureDim: 80 },
        modelConfig: { ...model, tokens: files.tokens, numThreads: message.numThreads, provider: 'cpu', debug: 0 },
        decodingMethod: 'greedy_search',
        // Utterances end when the app's VAD or push-to-talk says so, never inside the model.
        enableEndpoint: false,
      });
      readWave = sherpa.readWave;
      send({ type: 'loaded' });
    } catch (err) {
      const refused: FromRecognizer = { type: 'refused', message: err instanceof Error ? err.message : String(err) };
      // Nothing else can happen in this process: it ends once the engine has the reason.
      process.send?.(refused, undefined, {}, () => process.exit(1));
    }
  };

  const handle = (message: ToRecognizer, r: Recognizer) => {
    switch (message.type) {
      case 'open':
        streams.set(message.id, null);
        return;
      case 'audio': {
        if (!streams.has(message.id)) return;
        const entry = streams.get(message.id) ?? { stream: r.createStream(), text: '' };
        streams.set(message.id, entry);
        const { pcm } = message;
        const samples = new Float32Array(pcm.length);
        for (let i = 0; i < pcm.length; i++) samples[i] = (pcm[i] as number) / 32768;
        entry.stream.acceptWaveform({ samples, sampleRate });
        const { text } = decodeReady(r, entry.stream);
        if (text !== entry.text) {
          entry.text = text;
          send({ type: 'partial', id: message.id, text });
        }
        return;
      }
      case 'commit': {
        if (!streams.has(message.id)) return;
        const entry = streams.get(message.id) ?? { stream: r.createStream(), text: '' };
        // The next utterance of this client starts on a fresh stream.
        streams.set(message.id, null);
        const { text, tokens } = finish(r, entry.stream, sampleRate);
        send({ type: 'final', id: message.id, text, tokens });
        return;
      }
      case 'close':
        streams.delete(message.id);
        return;
      case 'decodeFile': {
        if (!readWave) return;
        const wave = readWave(message.path);
        const stream = r.createStream();
        stream.acceptWaveform(wave);
        const { text, tokens } = finish(r, stream, wave.sampleRate);
        send({ type: 'final', id: message.id, text, tokens });
        return;
      }
    }
  };

  process.on('message', (message: ToRecognizer) => {
    if (message.type === 'load') return load(message);
    if (!recognizer) return;
    try {
      handle(message, recognizer);
    } catch (err) {
      if ('id' in message) send({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) });
    }
  });
  // The engine went away (the app quit or crashed): nothing is left to recognise for.
  process.on('disconnect', () => process.exit(0));
}

/** The `node -e` text of the recognizer process. */
export const RECOGNIZER_SOURCE = `const __name = (fn) => fn;\n(${recognizerProgram.toString()})(require, ${TAIL_SILENCE_SECONDS}, ${SAMPLE_RATE});\n`;

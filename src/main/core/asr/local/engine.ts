// The local recognition engine: one recognizer process per engine holding the loaded model
// (see recognizer-process.ts for why a process), and AsrClients that each own a stream in it.
import { spawn, type ChildProcess } from 'node:child_process';
import { errorMessage } from '@shared/errors';
import { Listeners } from '@shared/listeners';
import type { AsrClient, AsrClientEvents } from '../../voice/ports';
import { AsrFailure } from '../errors';
import { resolveForWorker } from '../../worker-require';
import type { LocalAsrEngine, LocalAsrEngineOptions } from './types';
import { detectModelFiles } from './model-files';
import { RECOGNIZER_SOURCE, type FromRecognizer, type ToRecognizer } from './recognizer-process';

/** A final result with the model's tokens (a pinyin model's text is its tokens run together). */
export interface LocalAsrResult {
  text: string;
  tokens: string[];
}

export interface LocalAsrEngineDebugOptions extends LocalAsrEngineOptions {
  /** Every final result with its tokens, for tests and the bench. */
  onResult?: (result: LocalAsrResult) => void;
}

/** The end of the recognizer's stderr kept to explain a crash (onnxruntime says why there). */
const STDERR_TAIL_CHARS = 4000;

/** What the engine tells the holder of a stream id. */
interface StreamOwner {
  receive(message: FromRecognizer): void;
  /** The process died (`reason`: what it printed last): the stream is gone. */
  lost(reason: string): void;
  /** dispose(): the stream is gone on purpose. */
  ended(): void;
}

/** `/src/online-model-config.cc:Validate:156 tokens: … does not exist` → `tokens: … does not exist`. */
const SOURCE_LOCATION = /^\S+\.(?:cc|cpp|h):\S+:\d+\s+/;

/**
 * Why the process refused or died, from what onnxruntime or sherpa-onnx printed: the what()
 * of an uncaught C++ exception, else the first diagnostic line (the last is a generic
 * "Errors in config!").
 */
function crashReason(stderr: string, fallback: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim().replace(SOURCE_LOCATION, ''))
    .filter(Boolean);
  const what = lines.find((l) => l.startsWith('what():'));
  return (what ? what.slice('what():'.length).trim() : lines[0]) ?? fallback;
}

interface Engine extends LocalAsrEngine {
  decodeFile(wavPath: string): Promise<LocalAsrResult>;
}

function createEngine(options: LocalAsrEngineDebugOptions): Engine {
  const log = options.log ?? ((m: string, err?: unknown) => console.debug(`[asr-local] ${m}`, err ?? ''));
  const numThreads = options.numThreads ?? 1;
  const owners = new Map<number, StreamOwner>();
  let nextId = 1;
  let child: ChildProcess | null = null;
  let loading: Promise<void> | null = null;
  let disposed = false;

  const post = (message: ToRecognizer): boolean => {
    if (!child?.connected) return false;
    child.send(message, (err) => {
      if (err) log('message to the recognizer failed', err);
    });
    return true;
  };

  const start = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const files = detectModelFiles(options.modelDir);
      const proc = spawn(process.execPath, ['-e', RECOGNIZER_SOURCE], {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced',
        // In Electron, process.execPath is the app itself: this makes it a plain Node.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        windowsHide: true,
      });
      child = proc;
      let loaded = false;
      let refusal = '';
      let stderr = '';
      proc.stderr?.setEncoding('utf8');
      proc.stderr?.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
      });
      proc.on('message', (message: FromRecognizer) => {
        if (message.type === 'loaded') {
          loaded = true;
          // From here on stderr explains a crash; what loading printed is only worth a log line.
          if (stderr.trim()) log(`recognizer said while loading: ${stderr.trim()}`);
          stderr = '';
          resolve();
        } else if (message.type === 'refused') refusal = message.message;
        else owners.get(message.id)?.receive(message);
      });
      proc.on('error', (err) => {
        log('recognizer process error', err);
        if (!loaded) reject(new AsrFailure('engine_failed', `无法启动本地语音识别：${errorMessage(err)}`, { cause: err }));
      });
      // 'close', not 'exit': stderr is complete only then, and it holds the reason.
      proc.on('close', (code, signal) => {
        if (child === proc) {
          child = null;
          loading = null;
        }
        if (disposed) return reject(new AsrFailure('engine_failed', '本地语音识别已关闭'));
        const reason = crashReason(stderr, refusal || `进程结束（${signal ?? code}）`);
        if (!loaded) return reject(new AsrFailure('model_refused', `语音模型无法加载：${reason}`));
        log(`recognizer process ended (${signal ?? code}): ${reason}`);
        for (const owner of [...owners.values()]) owner.lost(reason);
      });
      post({ type: 'load', sherpaPath: resolveForWorker('sherpa-onnx-node'), files, numThreads });
    });

  const ready = (): Promise<void> => {
    if (disposed) return Promise.reject(new AsrFailure('engine_failed', '本地语音识别已关闭'));
    if (!loading) {
      const attempt = start();
      loading = attempt;
      // A refused load may be tried again (e.g. once the model folder is fixed).
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };

  /** Registers `owner` under a new stream id once the model is loaded. */
  const openStream = async (owner: StreamOwner): Promise<number> => {
    await ready();
    const id = nextId++;
    owners.set(id, owner);
    if (!post({ type: 'open', id })) {
      owners.delete(id);
      throw new AsrFailure('engine_failed', '本地语音识别意外停止');
    }
    return id;
  };

  const createClient = (): AsrClient => {
    const listeners = new Listeners<AsrClientEvents>((e) => log('listener failed', e));
    let id: number | null = null;
    let connecting: Promise<void> | null = null;
    let closed = false;
    const release = () => {
      if (id !== null) owners.delete(id);
      id = null;
    };
    const owner: StreamOwner = {
      receive(message) {
        if (message.type === 'partial') listeners.emit('partial', message.text);
        else if (message.type === 'final') {
          options.onResult?.({ text: message.text, tokens: message.tokens });
          listeners.emit('final', message.text);
        } else if (message.type === 'failed') {
          listeners.emit('error', { code: 'engine_failed', message: `本地语音识别出错：${message.message}` });
        }
      },
      lost(reason) {
        release();
        listeners.emit('error', { code: 'engine_failed', message: `本地语音识别意外停止：${reason}` });
      },
      ended() {
        release();
        closed = true;
        listeners.emit('closed', { intentional: true });
      },
    };
    return {
      connect() {
        connecting ??= openStream(owner).then((ownId) => {
          if (closed) {
            owners.delete(ownId);
            post({ type: 'close', id: ownId });
            throw new AsrFailure('not_connected', '语音识别已关闭');
          }
          id = ownId;
        });
        return connecting;
      },
      sendAudio(pcm) {
        if (id === null) return void log('audio outside a connection ignored');
        // The IPC channel copies the samples: the caller may reuse its buffer.
        post({ type: 'audio', id, pcm });
      },
      commit() {
        if (id === null) return listeners.emit('error', { code: 'not_connected', message: '语音识别未连接' });
        post({ type: 'commit', id });
      },
      async close() {
        if (closed) return;
        closed = true;
        if (id !== null) post({ type: 'close', id });
        release();
        listeners.emit('closed', { intentional: true });
      },
      get connected() {
        return id !== null;
      },
      on: (event, listener) => listeners.on(event, listener),
    };
  };

  const decodeFile = async (wavPath: string): Promise<LocalAsrResult> => {
    await ready();
    return new Promise<LocalAsrResult>((resolve, reject) => {
      const id = nextId++;
      const done = () => owners.delete(id);
      owners.set(id, {
        receive(message) {
          done();
          if (message.type === 'final') resolve({ text: message.text, tokens: message.tokens });
          else if (message.type === 'failed') reject(new AsrFailure('model_refused', `语音模型无法识别测试音频：${message.message}`));
        },
        lost(reason) {
          done();
          reject(new AsrFailure('model_refused', `语音模型无法运行：${reason}`));
        },
        ended() {
          done();
          reject(new AsrFailure('engine_failed', '本地语音识别已关闭'));
        },
      });
      if (!post({ type: 'decodeFile', id, path: wavPath })) {
        done();
        reject(new AsrFailure('engine_failed', '本地语音识别意外停止'));
      }
    });
  };

  return {
    modelDir: options.modelDir,
    ready,
    createClient,
    decodeFile,
    async dispose() {
      if (disposed) return;
      disposed = true;
      for (const owner of [...owners.values()]) owner.ended();
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
      proc.kill();
      await exited;
    },
  };
}

/**
 * Streaming recognition on this machine: the model loads once (ready()), each client is one
 * stream. A crashed recognizer fails the open clients with `engine_failed`; the next ready()
 * or connect() starts a new one.
 */
export function createLocalAsrEngine(options: LocalAsrEngineDebugOptions): LocalAsrEngine {
  return createEngine(options);
}

/**
 * Loads the model in its own process and decodes one WAV (any format sherpa-onnx's readWave
 * reads; 0.5 s of silence is fed after it): the smoke test of a model before it is marked
 * ready. Rejects with AsrFailure: model_incomplete (a file is missing) or model_refused (the
 * runtime cannot load or run the model).
 */
export async function decodeWavFile(modelDir: string, wavPath: string, options: { numThreads?: number } = {}): Promise<LocalAsrResult> {
  const engine = createEngine({ modelDir, numThreads: options.numThreads, log: () => undefined });
  try {
    return await engine.decodeFile(wavPath);
  } finally {
    await engine.dispose();
  }
}

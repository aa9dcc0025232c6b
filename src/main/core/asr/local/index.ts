// On-device streaming recognition with sherpa-onnx: the model is loaded once in a worker
// thread; each utterance gets its own stream behind the same AsrClient port the cloud engines use.
import type { AsrClient } from '../../voice/ports';

/** The files of a model folder the runtime needs, as absolute paths. */
export type LocalModelFiles =
  | { kind: 'transducer'; dir: string; encoder: string; decoder: string; joiner: string; tokens: string }
  | { kind: 'paraformer'; dir: string; encoder: string; decoder: string; tokens: string };

export interface LocalAsrEngine {
  readonly modelDir: string;
  /** Loads the model in the worker (once; later calls share the promise). Rejects with AsrFailure. */
  ready(): Promise<void>;
  /** One per utterance: connect() waits for ready() and opens a stream in the worker. */
  createClient(): AsrClient;
  /** Terminates the worker; clients created before then report `closed`. */
  dispose(): Promise<void>;
}

export interface LocalAsrEngineOptions {
  modelDir: string;
  /** Decoder threads inside the worker (default 1). */
  numThreads?: number;
  log?: (message: string, err?: unknown) => void;
}

export { detectModelFiles } from './model-files';
export { createLocalAsrEngine, decodeWavFile, type LocalAsrEngineDebugOptions, type LocalAsrResult } from './engine';

// The types of on-device recognition, a leaf the folder's files import (never its index).
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

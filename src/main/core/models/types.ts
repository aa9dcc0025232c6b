// The types of the speech-model area, a leaf the folder's files import (never its index).
import type { Unsubscribe } from '@shared/listeners';
import type { ModelEvent, ModelListing } from '@shared/ipc/models';

export type ModelErrorCode =
  | 'network' // no connection, DNS, reset beyond the resume attempts
  | 'not_found' // HTTP 404
  | 'http_error' // any other HTTP failure
  | 'disk_full' // ENOSPC while writing
  | 'corrupt_archive' // bzip2/tar failed
  | 'incomplete' // a required file (tokens.txt, encoder…) missing
  | 'refused' // the runtime could not load or run the model
  | 'cancelled'
  | 'busy' // a download of this model is already running
  | 'unknown_model'
  | 'io_error'; // any other file-system failure while installing (permissions, a locked file)

export interface ModelManager {
  list(): ModelListing;
  /** The folder local recognition loads, or null when no model is ready. */
  activeModelDir(): string | null;
  /** Download → extract → verify → smoke decode → move into place → activate. Rejects with ModelError. */
  download(id: string): Promise<ModelListing>;
  cancel(id: string): ModelListing;
  remove(id: string): Promise<ModelListing>;
  activate(id: string): ModelListing;
  /** Checks and smoke-decodes a folder the user has, then uses it in place (never copied). */
  useFolder(path: string): Promise<ModelListing>;
  onEvent(listener: (event: ModelEvent) => void): Unsubscribe;
  /** Cancels downloads in flight and waits for them to stop. */
  dispose(): Promise<void>;
}

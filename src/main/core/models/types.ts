// The types of the speech-model area, a leaf the folder's files import (never its index).
import type { Unsubscribe } from '@shared/listeners';
import type { ModelEvent, ModelListing } from '@shared/ipc/models';
import type { SourceId } from './catalog';

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
  | 'io_error' // any other file-system failure while installing (permissions, a locked file)
  | 'stalled' // no byte for the stall limit: the next source is tried
  | 'too_large' // more bytes than the catalog's size plus the margin
  | 'redirect_refused' // a redirect to a host the source does not name, or https→http
  | 'certificate' // the TLS certificate failed verification: the next source is tried
  | 'checksum' // the SHA-256 of an archive or file differs from the catalog's pin
  | 'unsafe_archive' // a link, device, absolute or `..` path, or too many entries/bytes
  | 'unverified' // the source has no pin and the user has not accepted that yet
  | 'unknown_source';

export interface ModelManager {
  list(): ModelListing;
  /** The folder local recognition loads, or null when no model is ready. */
  activeModelDir(): string | null;
  /** Download → extract → verify → smoke decode → move into place → activate. Rejects with ModelError. */
  download(id: string, options?: { acceptUnverified?: boolean }): Promise<ModelListing>;
  /** The source tried first from now on (a download under way switches to it at once). */
  setSource(source: SourceId): ModelListing;
  cancel(id: string): ModelListing;
  remove(id: string): Promise<ModelListing>;
  activate(id: string): ModelListing;
  /** Checks and smoke-decodes a folder the user has, then uses it in place (never copied). */
  useFolder(path: string): Promise<ModelListing>;
  onEvent(listener: (event: ModelEvent) => void): Unsubscribe;
  /** Cancels downloads in flight and waits for them to stop. */
  dispose(): Promise<void>;
}

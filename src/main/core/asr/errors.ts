import { CodedError } from '@shared/errors';
import type { AsrError } from '../voice/ports';

export type AsrErrorCode =
  | 'token_failed'
  | 'connect_failed'
  | 'server_error'
  | 'reconnect_failed'
  | 'no_result'
  | 'not_connected'
  // on-device recognition
  | 'model_incomplete' // the model folder is absent or lacks a file the runtime needs
  | 'model_refused' // sherpa-onnx could not load or run the model
  | 'engine_failed'; // the recognition worker died or failed while decoding

/** A thrown AsrError, so callers can `catch (e) { e.code }` and the UI can pick a hint. */
export class AsrFailure extends CodedError<AsrErrorCode> implements AsrError {}

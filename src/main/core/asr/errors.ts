import { CodedError } from '@shared/errors';
import type { AsrError } from '../voice/ports';

export type AsrErrorCode = 'token_failed' | 'connect_failed' | 'server_error' | 'reconnect_failed' | 'no_result' | 'not_connected';

/** A thrown AsrError, so callers can `catch (e) { e.code }` and the UI can pick a hint. */
export class AsrFailure extends CodedError<AsrErrorCode> implements AsrError {}

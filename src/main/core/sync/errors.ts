import { CodedError } from '@shared/errors';

/**
 * Why a sync round failed, in words a user can act on. Codes: wrong_passphrase,
 * refused_file (tampered, truncated, foreign, too large), unreachable, login_refused,
 * server_error, clock_skew, not_configured, busy, changed_underneath (a file vanished
 * between listing and reading: the next round retries), not_found (no sync folder there).
 */
export class SyncError extends CodedError<SyncErrorCode> {
  /** The server asked to wait this long (429 Retry-After). */
  retryAfterMs?: number;
}

export type SyncErrorCode =
  | 'wrong_passphrase'
  | 'refused_file'
  | 'unreachable'
  | 'login_refused'
  | 'server_error'
  | 'clock_skew'
  | 'not_configured'
  | 'busy'
  | 'changed_underneath'
  | 'not_found';

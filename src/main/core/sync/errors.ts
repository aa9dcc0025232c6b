import { CodedError } from '@shared/errors';

/**
 * Why a sync round failed, in words a user can act on. Codes: wrong_passphrase, key_changed
 * (the remote's key file is not the one this device synced with),
 * refused_file (tampered, truncated, foreign, too large), unreachable, login_refused,
 * server_error, clock_skew, not_configured, busy, changed_underneath (a file vanished
 * between listing and reading: the next round retries), not_found (no sync folder there).
 */
export class SyncError extends CodedError<SyncErrorCode> {
  /** The server asked to wait this long (429 Retry-After). */
  retryAfterMs?: number;
  /** A synced folder's file that still did not open after 3 rounds and 10 minutes: no longer "being copied". */
  overdue?: boolean;
  /** What the round did before it failed for one device's file (the others' files applied, this device's pushed). */
  result?: unknown;
}

export type SyncErrorCode =
  | 'wrong_passphrase'
  | 'key_changed'
  | 'refused_file'
  | 'unreachable'
  | 'login_refused'
  | 'server_error'
  | 'clock_skew'
  | 'not_configured'
  | 'busy'
  | 'changed_underneath'
  | 'not_found';

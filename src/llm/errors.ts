import { CodedError } from '@shared/errors';
import { GATEWAY_ERROR_CODES, type GatewayErrorCode } from '@shared/gateway';

/** An error with its wire code; the HTTP layer turns it into `{error, message, timestamp}`. */
export class GatewayError extends CodedError<GatewayErrorCode> {
  readonly status: number;
  /** Seconds until a retry may succeed (429). */
  readonly retryAfterSeconds?: number;
  /** True when every upstream attempt failed to connect: the caller may be offline. */
  readonly network: boolean;

  constructor(code: GatewayErrorCode, message: string, options: { retryAfterSeconds?: number; network?: boolean; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = GATEWAY_ERROR_CODES[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.network = options.network ?? false;
  }
}

export type UpstreamFailureKind =
  | 'network' // could not connect / connection dropped
  | 'timeout' // no answer within the time limit
  | 'aborted' // the caller gave up (client disconnected or client-side timeout)
  | 'http' // non-2xx status
  | 'bad_response'; // 2xx but not a chat-completions body

/** One failed call to an upstream (LLM provider or token endpoint); `code` is how it failed. */
export class UpstreamError extends CodedError<UpstreamFailureKind> {
  readonly status?: number;

  constructor(code: UpstreamFailureKind, message: string, status?: number) {
    super(code, message);
    this.status = status;
  }
}

/** The model answered, but not with something we can use (not JSON, wrong shape). */
export class ModelReplyError extends CodedError<'malformed_reply'> {
  constructor(message: string) {
    super('malformed_reply', message);
  }
}

// One interface for the two ways the app reaches the LLM: over HTTP to a gateway, or the same
// LLM core (src/llm) in-process with the user's own key ("direct mode").
import { CodedError } from '@shared/errors';
import type { CorrectTransactionRequest, CorrectTransactionResponse, ParseTransactionRequest, ParseTransactionResponse } from '@shared/gateway';

export type LlmFailureKind =
  | 'network' // nothing reachable: the app is offline
  | 'aborted' // the caller's signal fired (its timeout)
  | 'http' // the gateway/provider answered an error status
  | 'malformed' // an answer we cannot use
  | 'invalid'; // the request itself was refused before sending

/** A failed call to the LLM; `code` is how it failed, which decides the fallback. */
export class LlmClientError extends CodedError<LlmFailureKind> {
  readonly status?: number;

  constructor(code: LlmFailureKind, message: string, status?: number) {
    super(code, message);
    this.status = status;
  }
}

export interface LlmCallOptions {
  signal: AbortSignal;
}

export interface LlmClient {
  parseTransaction(request: ParseTransactionRequest, options: LlmCallOptions): Promise<ParseTransactionResponse>;
  correctTransaction(request: CorrectTransactionRequest, options: LlmCallOptions): Promise<CorrectTransactionResponse>;
}

import { CodedError } from '@shared/errors';

/** Why the ledger file could not be opened; the file is never modified in these cases. */
export type LedgerOpenErrorCode = 'not_a_database' | 'schema_too_new' | 'open_failed';

export class LedgerOpenError extends CodedError<LedgerOpenErrorCode> {
  constructor(
    code: LedgerOpenErrorCode,
    message: string,
    readonly path: string,
  ) {
    super(code, message);
  }
}

/** A batch item that cannot be saved; the whole batch is rejected. */
export class LedgerValidationError extends CodedError<'invalid_transaction'> {
  constructor(
    /** 0-based position of the item in the batch passed to saveBatch. */
    readonly itemIndex: number,
    readonly reason: string,
  ) {
    super('invalid_transaction', `第${itemIndex + 1}笔${reason}`);
  }
}

export class LedgerNotFoundError extends CodedError<'not_found'> {
  constructor(readonly id: string) {
    super('not_found', '这笔记录不存在或已被删除');
  }
}

/** A request that breaks a bookkeeping rule (duplicate name, deleting a preset, …). */
export class LedgerRuleError extends CodedError {}

/** Why the ledger file could not be opened; the file is never modified in these cases. */
export type LedgerOpenErrorCode = 'not_a_database' | 'schema_too_new' | 'open_failed';

export class LedgerOpenError extends Error {
  override readonly name = 'LedgerOpenError';
  constructor(
    readonly code: LedgerOpenErrorCode,
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** A batch item that cannot be saved; the whole batch is rejected. */
export class LedgerValidationError extends Error {
  override readonly name = 'LedgerValidationError';
  readonly code = 'invalid_transaction';
  constructor(
    /** 0-based position of the item in the batch passed to saveBatch. */
    readonly itemIndex: number,
    readonly reason: string,
  ) {
    super(`第${itemIndex + 1}笔${reason}`);
  }
}

export class LedgerNotFoundError extends Error {
  override readonly name = 'LedgerNotFoundError';
  readonly code = 'not_found';
  constructor(readonly id: string) {
    super('这笔记录不存在或已被删除');
  }
}

/** A request that breaks a bookkeeping rule (duplicate name, deleting a preset, …). */
export class LedgerRuleError extends Error {
  override readonly name = 'LedgerRuleError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

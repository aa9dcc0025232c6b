import { CodedError } from '@shared/errors';

/**
 * Why the ledger file could not be opened (or, for 'corrupt', was found damaged by the check
 * that runs after a large ledger opened); the file is never modified in these cases.
 */
export type LedgerOpenErrorCode = 'not_a_database' | 'empty_file' | 'corrupt' | 'schema_too_new' | 'read_only' | 'open_failed';

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

export const READ_ONLY_MESSAGE = '账本文件是只读的，无法保存。请检查文件权限或更换数据目录。';

/**
 * A write to a ledger that must not be written: the file (or its folder) is read-only, or the
 * check after opening found it damaged. A rule error, so the windows show the message as is.
 */
export class LedgerWriteRefusedError extends LedgerRuleError {
  constructor(code: 'read_only' | 'corrupt', message: string) {
    super(code, message);
  }
}

/** A category or account name as stored: trimmed, 1–20 characters. */
export function cleanName(name: string): string {
  const clean = name.trim();
  if (clean.length === 0) throw new LedgerRuleError('invalid_name', '名称不能为空');
  if (clean.length > 20) throw new LedgerRuleError('invalid_name', '名称最多20个字');
  return clean;
}

import { CodedError } from '@shared/errors';

/** A file that cannot be imported; nothing is written. `line` is 1-based, 0 for the whole file. */
export class ImportError extends CodedError<'import_invalid'> {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super('import_invalid', line > 0 ? `第${line}行：${reason}。文件未导入任何记录。` : `${reason}。文件未导入任何记录。`);
  }
}

/**
 * An error with a stable machine code next to its message: callers branch on `code`, never
 * on the wording, and boundaries (IPC, the gateway's HTTP layer) pass the code on as is.
 */
export class CodedError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    // The subclass's own name, so logs and stack traces say which error this is.
    this.name = new.target.name;
  }
}

/** The message of anything thrown (a library may throw a string). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code of a CodedError, else `fallback` (anything else thrown has none of its own). */
export function errorCode(error: unknown, fallback: string): string {
  return error instanceof CodedError ? error.code : fallback;
}

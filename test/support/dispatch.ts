import { expect } from 'vitest';
import type { Dispatch } from '../../src/main/core/ipc/handlers';

/** A command's answer through the IPC dispatch; a refusal fails the test with its code and message. */
export async function valueOf<T>(dispatch: Dispatch, name: string, input: unknown): Promise<T> {
  const result = await dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

/** The answer of a command refused with `code` and a message matching `message`. */
export const refused = (code: string, message: string | RegExp) => ({ ok: false, error: { code, message: expect.stringMatching(message) } });

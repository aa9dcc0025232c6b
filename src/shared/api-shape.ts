import type { AppEvent } from './events';
import type { IpcResult, SuikoujiApi } from './ipc/index';
import { COMMAND_NAMES } from './ipc/names';

/**
 * Builds the window API from a transport. The preload (Electron IPC) and the browser e2e
 * shim (WebSocket bridge) both call this, so the two can never differ in shape.
 */
export function buildApi(
  invoke: (name: string, input: unknown) => Promise<IpcResult<unknown>>,
  subscribe: (listener: (event: AppEvent) => void) => () => void,
): SuikoujiApi {
  const api: Record<string, unknown> = {
    onEvent: (listener: (event: AppEvent) => void) => subscribe(listener),
  };
  for (const name of COMMAND_NAMES) api[name] = (input: unknown) => invoke(name, input ?? {});
  return api as SuikoujiApi;
}

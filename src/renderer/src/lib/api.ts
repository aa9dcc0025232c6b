import type { SuikoujiApi } from '@shared/ipc/index';
import { API_GLOBAL } from '@shared/ipc/names';

/** The preload's API (or the e2e shim with the same shape). */
export function getApi(): SuikoujiApi {
  const api = (window as unknown as Record<string, SuikoujiApi | undefined>)[API_GLOBAL];
  if (!api) throw new Error('window API missing: the preload did not run');
  return api;
}

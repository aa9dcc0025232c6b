// The whole preload: one typed API object on window, built from the command map.
// The renderer never sees ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron';
import { buildApi } from '@shared/api-shape';
import type { AppEvent } from '@shared/events';
import type { IpcResult } from '@shared/ipc/index';
import { API_GLOBAL, EVENT_CHANNEL, INVOKE_CHANNEL } from '@shared/ipc/names';

const api = buildApi(
  (name, input) => ipcRenderer.invoke(INVOKE_CHANNEL, name, input) as Promise<IpcResult<unknown>>,
  (listener) => {
    const wrapped = (_event: unknown, payload: AppEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
);

contextBridge.exposeInMainWorld(API_GLOBAL, api);

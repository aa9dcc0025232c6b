import { app, BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/ipc/names';
import type { AppEvent } from '../../shared/events';
import { createAppCore, type AppCore } from '../core/app-core';
import { hardenApp } from './security';
import { mainWindowOptions } from './window-options';

const here = fileURLToPath(new URL('.', import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererUrl = process.env['ELECTRON_RENDERER_URL'];

let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;

function isOwnUrl(url: string): boolean {
  if (rendererUrl && url.startsWith(rendererUrl)) return true;
  return url.startsWith('file://') && url.includes('/renderer/');
}

/** Only our own windows may call the handler table. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frameUrl = event.senderFrame?.url ?? '';
  return BrowserWindow.getAllWindows().some((w) => w.webContents === event.sender) && isOwnUrl(frameUrl);
}

export function broadcast(event: AppEvent): void {
  for (const w of BrowserWindow.getAllWindows()) w.webContents.send(EVENT_CHANNEL, event);
}

function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(preloadPath));
  win.once('ready-to-show', () => win.show());
  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(join(here, '../renderer/index.html'));
  return win;
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenApp(isOwnUrl);
  try {
    core = createAppCore({ dataDir: app.getPath('userData'), version: app.getVersion() });
  } catch (err) {
    dialog.showErrorBox('随口记无法打开账本', (err as Error).message);
    app.exit(1);
    return;
  }
  const { dispatch } = core;
  core.onEvent(broadcast);
  ipcMain.handle(INVOKE_CHANNEL, (event, name: unknown, input: unknown) => {
    if (!isTrustedSender(event)) return { ok: false, error: { code: 'forbidden', message: '拒绝来自未知页面的请求' } };
    return dispatch(name, input);
  });
  mainWindow = createMainWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.show();
      mainWindow.focus();
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => void core?.dispose());
  void start();
}

import { app, BrowserWindow, dialog, globalShortcut, ipcMain, Menu, Notification, type IpcMainInvokeEvent } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppEvent } from '@shared/events';
import type { VoiceState } from '@shared/domain';
import type { WindowAction } from '@shared/ipc/app';
import type { ExportFormat } from '@shared/ipc/ledger';
import type { BookListing } from '@shared/ipc/books';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '@shared/ipc/names';
import type { HotkeyStatus } from '@shared/ipc/app-settings';
import type { VoiceSnapshot } from '@shared/ipc/index';
import { createAppCore, type AppCore } from '@core/app-core';
import { listInputDevices } from '@core/audio/index';
import { registerPushToTalk, type GlobalHotkey } from './hotkey';
import { appPaths } from './pure/app-paths';
import { exportDialogOptions, importDialogOptions, pictureDialogOptions, withExportExtension } from './pure/file-dialogs';
import { appMenuTemplate, type TrayStatus } from './pure/menus';
import { createUrlPolicy } from './pure/url-policy';
import { createSafeStorageBox } from './secret-box';
import { hardenApp } from './security';
import { AppTray } from './tray';
import { Windows } from './windows';

const paths = appPaths(fileURLToPath(new URL('.', import.meta.url)));
const rendererUrl = process.env['ELECTRON_RENDERER_URL'];

let core: AppCore | null = null;
let windows: Windows | null = null;
let tray: AppTray | null = null;
let hotkey: GlobalHotkey | null = null;
let quitting = false;
/** Set once the core (and with it the ledger file) has been closed on the way out. */
let disposed = false;

const log = (message: string, err?: unknown) => console.error(`[suikouji] ${message}`, err ?? '');

const urls = createUrlPolicy(pathToFileURL(paths.rendererDir).href, rendererUrl);
const isOwnUrl = urls.isOwnUrl;

/** Only our own windows, showing our own page, may call the handler table. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frameUrl = event.senderFrame?.url ?? '';
  return BrowserWindow.getAllWindows().some((w) => w.webContents === event.sender) && isOwnUrl(frameUrl);
}

function broadcast(event: AppEvent): void {
  for (const w of BrowserWindow.getAllWindows()) {
    if (!w.isDestroyed()) w.webContents.send(EVENT_CHANNEL, event);
  }
}

async function command<T>(name: string, input: unknown): Promise<T | null> {
  const result = await core!.dispatch(name, input);
  if (!result.ok) {
    log(`${name} failed: ${result.error.message}`);
    return null;
  }
  return result.value as T;
}

function windowAction(action: WindowAction): void {
  if (action.action === 'relaunch') {
    // A staged backup restore is applied by the next start, before the ledger opens.
    app.relaunch();
    app.quit();
    return;
  }
  if (!windows) return;
  if (action.action === 'closeQuickEntry') windows.closeQuickEntry();
  else windows.showMain(action.route);
}

/** Hotkey commands run in order: a quick release must not overtake its own press. */
let hotkeyQueue: Promise<unknown> = Promise.resolve();
function inOrder(task: () => Promise<unknown>): void {
  hotkeyQueue = hotkeyQueue.then(task).catch((err: unknown) => log('hotkey command failed', err));
}

function bindHotkey(accelerator: string): void {
  hotkey?.dispose();
  hotkey = registerPushToTalk(
    accelerator,
    {
      // The session starts itself on a press (and the key also works in auto mode).
      down: () => {
        spokenByHotkey = true;
        // Press-to-start keys never report a release: the end of speech stops them instead.
        const endOnSilence = hotkey?.backend === 'toggle';
        inOrder(() => command('voicePushToTalk', { action: 'down', ...(endOnSilence ? { endOnSilence } : {}) }));
      },
      up: () => inOrder(() => command('voicePushToTalk', { action: 'up' })),
      indicator: (visible) => windows?.setIndicator(visible),
    },
    log,
  );
  if (hotkey.status.reason) log(`hotkey ${accelerator}: ${hotkey.status.backend} (${hotkey.status.reason})`);
}

async function toggleVoice(): Promise<void> {
  const snapshot = await command<VoiceSnapshot>('voiceSnapshot', {});
  if (snapshot && (snapshot.state === 'listening' || snapshot.state === 'recognizing')) await command('voiceAction', { action: 'exit' });
  else {
    windows?.showMain('session');
    await command('voiceStart', {});
  }
}

function trayBooks(listing: BookListing): TrayStatus['books'] {
  return { current: listing.current, open: listing.books.filter((b) => !b.archived).map(({ id, name }) => ({ id, name })) };
}

/** Set by a hotkey press until its drafts arrive: they need a window to be confirmed in. */
let spokenByHotkey = false;

let lastVoiceState: VoiceState = 'idle';

function followVoice(state: VoiceState): void {
  const previous = lastVoiceState;
  lastVoiceState = state;
  tray?.update({ voiceActive: state === 'listening' || state === 'recognizing' });
  // Not on 'idle': starting a fresh session passes through it right after the key press.
  // Recognizing → listening: the utterance ended by itself (nothing understood, no result).
  if (state === 'confirming' || state === 'ended' || (previous === 'recognizing' && state === 'listening')) {
    hotkey?.machine?.sessionSettled();
  }
  if (state === 'confirming' && spokenByHotkey) {
    spokenByHotkey = false;
    // Talking with every window hidden: the small quick-entry box shows the card.
    if (!windows?.anyFocused()) windows?.showQuickEntry();
  }
  if (state === 'ended') spokenByHotkey = false;
}

/** 「使用已有模型文件夹」: the native folder chooser, modal to the window that asked. */
async function pickFolder(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = { title: '选择语音模型文件夹', properties: ['openDirectory'] };
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** 导出: the native save dialog, modal to the window that asked, starting in 文档. */
async function chooseSavePath(suggestedName: string, format: ExportFormat): Promise<string | null> {
  const options = exportDialogOptions(suggestedName, format, app.getPath('documents'));
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : withExportExtension(result.filePath, format);
}

/** 导入: the native open dialog for a bill file. */
async function chooseOpenPath(): Promise<string | null> {
  const options = importDialogOptions();
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** 打开图片…: the native open dialog for a payment screenshot or a receipt photo. */
async function choosePicturePath(): Promise<string | null> {
  const options = pictureDialogOptions();
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/**
 * The tray's 打开图片…: the picture's drafts appear on the 记账 page's card. A picture that
 * gives none (or a card still waiting) is said there too, where the user looks next.
 */
async function openPictureFromTray(): Promise<void> {
  if (!core) return;
  const result = await core.dispatch('pictureOpen', {});
  if (result.ok && result.value === null) return;
  windows?.showMain('session');
  if (!result.ok) core.emit({ channel: 'voice', event: { type: 'error', code: result.error.code, message: result.error.message } });
}

/**
 * Shown notifications, held until clicked or closed: Electron removes a notification whose
 * object is garbage-collected, and its click would go nowhere.
 */
const notices = new Set<Notification>();

/** A budget alert as a native notification; clicking it opens 预算. */
function notify(notice: { title: string; body: string }): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notice.title, body: notice.body, icon: join(paths.resourcesDir, 'icon.png') });
  notices.add(shown);
  shown.on('click', () => {
    notices.delete(shown);
    windows?.showMain('budgets');
  });
  shown.on('close', () => notices.delete(shown));
  shown.show();
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenApp(urls.isOwnUrl, urls.isAllowedRequest);
  const userData = app.getPath('userData');
  windows = new Windows({
    preloadPath: paths.preload,
    rendererDir: paths.rendererDir,
    rendererUrl,
    stateFile: join(userData, 'window-state.json'),
    iconPath: join(paths.resourcesDir, 'icon.png'),
    // Without a tray icon there would be no way back to a hidden window: closing quits.
    isQuitting: () => quitting || tray === null,
    log,
  });
  try {
    core = createAppCore({
      dataDir: userData,
      version: app.getVersion(),
      log,
      secretBox: createSafeStorageBox(),
      listMicrophones: listInputDevices,
      windowAction,
      hotkeyStatus: (): HotkeyStatus | null => hotkey?.status ?? null,
      pickFolder,
      notify,
      chooseSavePath,
      chooseOpenPath,
      choosePicturePath,
    });
  } catch (err) {
    dialog.showErrorBox('随口记无法打开账本', (err as Error).message);
    app.exit(1);
    return;
  }
  const { dispatch } = core;
  core.onEvent(broadcast);
  core.onEvent((event) => {
    if (event.channel === 'voice' && event.event.type === 'stateChanged') followVoice(event.event.state);
    if (event.channel === 'books') tray?.update({ books: trayBooks(event.event.listing) });
  });
  ipcMain.handle(INVOKE_CHANNEL, (event, name: unknown, input: unknown) => {
    if (!isTrustedSender(event)) return { ok: false, error: { code: 'forbidden', message: '拒绝来自未知页面的请求' } };
    return dispatch(name, input);
  });

  const menuActions = {
    newEntry: () => windows?.showMain('new'),
    quickEntry: () => windows?.showQuickEntry(),
    openSettings: () => windows?.showMain('settings'),
    quit: () => app.quit(),
  };
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, '随口记', menuActions) as Electron.MenuItemConstructorOptions[]));
  try {
    tray = new AppTray(join(paths.resourcesDir, 'tray.png'), {
      ...menuActions,
      toggleVoice: () => void toggleVoice(),
      showMain: () => windows?.showMain(),
      switchBook: (id) => void command('switchBook', { id }),
      openPicture: () => void openPictureFromTray().catch((err: unknown) => log('opening a picture failed', err)),
    });
    tray.update({ books: trayBooks(core.books.listing()) });
    void command<{ available: boolean }>('pictureSupport', {}).then((support) => tray?.update({ pictures: support?.available === true }));
  } catch (err) {
    // Some Linux desktops have no status area; the app still works from its window.
    log('tray unavailable', err);
  }

  bindHotkey(core.settings.get().hotkey.pushToTalk);
  let accelerator = core.settings.get().hotkey.pushToTalk;
  core.settings.onChange((settings) => {
    if (settings.hotkey.pushToTalk !== accelerator) {
      accelerator = settings.hotkey.pushToTalk;
      bindHotkey(accelerator);
    }
  });

  windows.showMain();
  app.on('activate', () => windows?.showMain());
}

/** Closes the core, giving a stuck voice session a few seconds before the ledger is closed anyway. */
async function closeCore(closing: AppCore): Promise<void> {
  const stuck = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
  try {
    await Promise.race([closing.dispose(), stuck]);
  } catch (err) {
    log('closing the app core failed', err);
  } finally {
    try {
      closing.ledger.close();
    } catch (err) {
      log('closing the ledger failed', err);
    }
    disposed = true;
  }
}

// A separate data folder (tests, a portable copy): must be set before anything reads it.
// Electron's setPath throws for a folder that does not exist yet: a fresh path is created.
const dataDirOverride = process.env['SUIKOUJI_DATA_DIR'];
if (dataDirOverride) {
  mkdirSync(dataDirOverride, { recursive: true });
  app.setPath('userData', dataDirOverride);
}

// Date and time inputs are drawn in Chromium's locale, which follows the OS (11/28/2026 and
// 01:36 PM on an English Windows): the app is Chinese whatever the OS is. Only read before ready.
app.commandLine.appendSwitch('lang', 'zh-CN');

// Windows shows toasts (budget alerts) and groups the taskbar icon by this ID, matched against
// the Start menu shortcut's, which the installer gives electron-builder.yml's appId.
if (process.platform === 'win32') app.setAppUserModelId('app.suikouji.desktop');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => windows?.showMain());
  // The tray keeps the app alive with every window closed.
  app.on('window-all-closed', () => {});
  app.on('before-quit', () => {
    quitting = true;
    windows?.saveMainState();
  });
  app.on('will-quit', (event) => {
    hotkey?.dispose();
    hotkey = null;
    globalShortcut.unregisterAll();
    tray?.destroy();
    tray = null;
    // Electron exits right after this event and would not wait for an async dispose: hold
    // the quit until the voice session has stopped and the ledger file is closed.
    if (core && !disposed) {
      event.preventDefault();
      void closeCore(core).finally(() => app.quit());
    }
  });
  void start();
}

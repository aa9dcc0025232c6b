// A stand-in for the Electron main-process API, for booting the BUILT app under plain Node
// (no Electron binary can run on the test machines). It behaves as Electron documents for
// what the shell calls and records every call in `record`. It is honest: touching a member
// it does not implement throws and is listed in `record.missing`, so the stand-in has to
// grow with the shell instead of silently answering `undefined`.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const record = {
  /** "<object>.<member>" for every unimplemented member the app touched. */
  missing: [],
  /** Lifecycle milestones in order: ready, before-quit, will-quit (prevented), quit, exit … */
  lifecycle: [],
  windows: [],
  trays: [],
  images: [],
  /** channel → handler registered with ipcMain.handle. */
  handlers: new Map(),
  shortcuts: [],
  /** Every accelerator ever registered, in order (shortcuts holds the live ones). */
  registeredShortcuts: [],
  errorBoxes: [],
  /** Every file dialog in order: { kind: 'save' | 'open', modal, options, answer }. */
  dialogs: [],
  notifications: [],
  applicationMenu: null,
  sessionHooks: { permissionRequest: false, permissionCheck: false, beforeRequest: false },
  /** Chromium switches appended before ready, as [name, value]. */
  switches: [],
};

const ignored = new Set(['then', 'toJSON', 'asymmetricMatch', '$$typeof', 'nodeType', 'inspect']);

/** Wraps an object so that any member it lacks throws instead of reading as undefined. */
function strict(target, name) {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'symbol' || prop in t) return Reflect.get(t, prop, receiver);
      if (ignored.has(prop)) return undefined;
      record.missing.push(`${name}.${prop}`);
      // Deliberate: answering undefined would let the boot test pass over a shell that calls
      // an API nobody has modelled. The fix is to model it here, as Electron documents it.
      throw new Error(`the shell touched ${name}.${prop}, which the Electron stand-in lacks (model it in electron.mjs)`);
    },
  });
}

function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// app

let ready = false;
let quitScheduled = false;
const paths = new Map([
  ['userData', process.env['STANDIN_USER_DATA'] ?? join(tmpdir(), 'electron-stand-in-userData')],
  ['temp', tmpdir()],
  ['documents', process.env['STANDIN_DOCUMENTS'] ?? join(tmpdir(), 'electron-stand-in-documents')],
]);

/** As Electron's app.commandLine: switches only take effect when appended before ready. */
const commandLine = {
  appendSwitch(name, value) {
    if (ready) throw new Error(`electron stand-in: app.commandLine.appendSwitch('${name}') after ready has no effect`);
    record.switches.push([name, value ?? null]);
  },
  hasSwitch(name) {
    return record.switches.some(([n]) => n === name);
  },
  getSwitchValue(name) {
    return record.switches.findLast(([n]) => n === name)?.[1] ?? '';
  },
};

class App extends EventEmitter {
  commandLine = commandLine;
  whenReady() {
    return new Promise((resolve) => {
      setImmediate(() => {
        if (!ready) {
          ready = true;
          record.lifecycle.push('ready');
          this.emit('ready');
        }
        resolve();
      });
    });
  }
  isReady() {
    return ready;
  }
  getPath(name) {
    if (!paths.has(name)) throw new Error(`electron stand-in: app.getPath('${name}') has no value`);
    return paths.get(name);
  }
  /** Electron documents that a directory which does not exist throws. */
  setPath(name, value) {
    if (!existsSync(value)) throw new Error(`Failed to set path: ${value} does not exist`);
    paths.set(name, value);
  }
  getVersion() {
    return process.env['STANDIN_APP_VERSION'] ?? '0.0.0';
  }
  getName() {
    return process.env['STANDIN_APP_NAME'] ?? 'stand-in';
  }
  requestSingleInstanceLock() {
    return process.env['STANDIN_SECOND_INSTANCE'] !== '1';
  }
  /** Windows only: the ID its notifications and taskbar grouping go by. */
  setAppUserModelId(id) {
    this.appUserModelId = id;
  }
  /** Electron starts a new instance once this one has quit; here the call is only recorded. */
  relaunch() {
    record.lifecycle.push('relaunch');
  }
  /** As Electron: before-quit, close every window (a prevented close cancels), will-quit, quit, exit. */
  quit() {
    if (quitScheduled) return;
    quitScheduled = true;
    setImmediate(() => {
      quitScheduled = false;
      runQuit();
    });
  }
  exit(code = 0) {
    record.lifecycle.push(`exit ${code}`);
    process.exit(code);
  }
}

function runQuit() {
  const before = preventable();
  record.lifecycle.push('before-quit');
  app.emit('before-quit', before);
  if (before.defaultPrevented) return;
  for (const win of BrowserWindow.getAllWindows()) {
    win.close();
    if (!win.isDestroyed()) {
      record.lifecycle.push('quit cancelled by a window');
      return;
    }
  }
  const will = preventable();
  record.lifecycle.push('will-quit');
  app.emit('will-quit', will);
  if (will.defaultPrevented) {
    record.lifecycle.push('will-quit prevented');
    return;
  }
  record.lifecycle.push('quit');
  app.emit('quit', preventable(), 0);
  // Electron ends the process here: work the handlers left pending never runs.
  app.exit(0);
}

export const app = strict(new App(), 'app');

// ---------------------------------------------------------------------------------------------
// windows

let nextId = 1;

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.id = nextId++;
    this.url = '';
    this.loading = false;
    this.sent = [];
    this.scripts = [];
    this.windowOpenHandler = null;
  }
  send(channel, ...args) {
    this.sent.push([channel, ...args]);
  }
  getURL() {
    return this.url;
  }
  isLoading() {
    return this.loading;
  }
  isDevToolsOpened() {
    return false;
  }
  executeJavaScript(code) {
    this.scripts.push(code);
    return Promise.resolve(undefined);
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
}

class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return record.windows.filter((w) => !w.destroyed).map((w) => w.proxy);
  }
  /** The window with the keyboard focus, or null when none of ours has it. */
  static getFocusedWindow() {
    return record.windows.find((w) => !w.destroyed && w.focused)?.proxy ?? null;
  }
  constructor(options = {}) {
    super();
    this.options = options;
    this.webContents = strict(new WebContents(), 'webContents');
    this.visible = false;
    this.focused = false;
    this.destroyed = false;
    this.maximized = false;
    this.loaded = null;
    this.bounds = { x: 0, y: 0, width: options.width ?? 800, height: options.height ?? 600 };
    this.proxy = strict(this, 'BrowserWindow');
    record.windows.push(this);
    app.emit('web-contents-created', preventable(), this.webContents);
    if (options.show !== false) this.visible = true;
    return this.proxy;
  }
  finishLoad(url, loaded) {
    this.loaded = loaded;
    this.webContents.url = url;
    this.webContents.loading = true;
    return new Promise((resolve) => {
      setImmediate(() => {
        this.webContents.loading = false;
        this.emit('ready-to-show');
        resolve();
      });
    });
  }
  loadURL(url) {
    return this.finishLoad(url, { url });
  }
  loadFile(file, options = {}) {
    const hash = options.hash ? `#${options.hash}` : '';
    return this.finishLoad(`${pathToFileURL(file).href}${hash}`, { file, hash: options.hash ?? null });
  }
  show() {
    this.visible = true;
    this.focused = true;
  }
  showInactive() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
    this.focused = false;
  }
  focus() {
    this.focused = true;
  }
  isVisible() {
    return this.visible;
  }
  isFocused() {
    return this.focused;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  getBounds() {
    return { ...this.bounds };
  }
  setIgnoreMouseEvents() {}
  setAlwaysOnTop() {}
  setVisibleOnAllWorkspaces() {}
  close() {
    if (this.destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
  }
}

const BrowserWindowExport = strict(BrowserWindow, 'BrowserWindow (class)');
export { BrowserWindowExport as BrowserWindow };

// ---------------------------------------------------------------------------------------------
// the rest of the main-process API the shell uses

export const ipcMain = strict(
  {
    handle(channel, handler) {
      if (record.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      record.handlers.set(channel, handler);
    },
    removeHandler(channel) {
      record.handlers.delete(channel);
    },
  },
  'ipcMain',
);

export const Menu = strict(
  {
    buildFromTemplate(template) {
      return strict({ template, items: template }, 'Menu');
    },
    setApplicationMenu(menu) {
      record.applicationMenu = menu;
    },
  },
  'Menu (class)',
);

class NativeImage {
  constructor(path) {
    this.path = path;
    this.template = false;
  }
  isEmpty() {
    return !existsSync(this.path);
  }
  setTemplateImage(value) {
    this.template = value;
  }
}

export const nativeImage = strict(
  {
    createFromPath(path) {
      const image = new NativeImage(path);
      record.images.push(image);
      return strict(image, 'NativeImage');
    },
  },
  'nativeImage',
);

class Tray extends EventEmitter {
  constructor(image) {
    super();
    this.image = image;
    this.tooltip = '';
    this.menu = null;
    this.destroyed = false;
    record.trays.push(this);
    return strict(this, 'Tray');
  }
  setToolTip(text) {
    this.tooltip = text;
  }
  setContextMenu(menu) {
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
}

const TrayExport = strict(Tray, 'Tray (class)');
export { TrayExport as Tray };

export const globalShortcut = strict(
  {
    register(accelerator, callback) {
      if (record.shortcuts.some((s) => s.accelerator === accelerator)) return false;
      record.shortcuts.push({ accelerator, callback });
      record.registeredShortcuts.push(accelerator);
      return true;
    },
    unregister(accelerator) {
      record.shortcuts = record.shortcuts.filter((s) => s.accelerator !== accelerator);
    },
    unregisterAll() {
      record.shortcuts = [];
    },
    isRegistered(accelerator) {
      return record.shortcuts.some((s) => s.accelerator === accelerator);
    },
  },
  'globalShortcut',
);

const workArea = { x: 0, y: 0, width: 1920, height: 1040 };
const display = strict({ id: 1, workArea, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 }, 'Display');
export const screen = strict(
  {
    getAllDisplays: () => [display],
    getPrimaryDisplay: () => display,
    getDisplayNearestPoint: () => display,
    getCursorScreenPoint: () => ({ x: 100, y: 100 }),
  },
  'screen',
);

export const session = strict(
  {
    defaultSession: strict(
      {
        setPermissionRequestHandler(handler) {
          record.sessionHooks.permissionRequest = handler !== null;
        },
        setPermissionCheckHandler(handler) {
          record.sessionHooks.permissionCheck = handler !== null;
        },
        webRequest: strict(
          {
            onBeforeRequest(handler) {
              record.sessionHooks.beforeRequest = typeof handler === 'function';
            },
          },
          'WebRequest',
        ),
      },
      'Session',
    ),
  },
  'session',
);

/** Electron's dialogs take an optional parent window first; given one, the dialog is modal to it. */
function dialogArgs(args) {
  const modal = args.length > 1 && record.windows.some((w) => w.proxy === args[0]);
  return { modal, options: modal ? args[1] : args[0] };
}

/**
 * The file dialogs answer as a user would: the save dialog accepts its suggested file name in
 * STANDIN_SAVE_DIR, the open dialog picks STANDIN_OPEN_FILE; without them the user cancels.
 * The promises resolve as Electron's do ({ canceled, filePath } / { canceled, filePaths }).
 */
export const dialog = strict(
  {
    showErrorBox(title, content) {
      record.errorBoxes.push({ title, content });
    },
    showSaveDialog(...args) {
      const { modal, options } = dialogArgs(args);
      const dir = process.env['STANDIN_SAVE_DIR'];
      const answer = dir ? { canceled: false, filePath: join(dir, basename(options.defaultPath ?? 'untitled')) } : { canceled: true, filePath: '' };
      record.dialogs.push({ kind: 'save', modal, options, answer });
      return Promise.resolve(answer);
    },
    showOpenDialog(...args) {
      const { modal, options } = dialogArgs(args);
      const file = process.env['STANDIN_OPEN_FILE'];
      const answer = file ? { canceled: false, filePaths: [file] } : { canceled: true, filePaths: [] };
      record.dialogs.push({ kind: 'open', modal, options, answer });
      return Promise.resolve(answer);
    },
  },
  'dialog',
);

/** Native notifications; STANDIN_NOTIFICATIONS=0 is a desktop without a notification service. */
class Notification extends EventEmitter {
  static isSupported() {
    return process.env['STANDIN_NOTIFICATIONS'] !== '0';
  }
  constructor(options = {}) {
    super();
    this.options = options;
    this.shown = false;
    record.notifications.push(this);
    return strict(this, 'Notification');
  }
  show() {
    this.shown = true;
  }
  close() {
    this.emit('close', preventable());
  }
}

const NotificationExport = strict(Notification, 'Notification (class)');
export { NotificationExport as Notification };

/** Like Electron on a Linux desktop without a keyring: only the plain-text fallback. */
export const safeStorage = strict(
  {
    isEncryptionAvailable: () => true,
    // Linux without a keyring unless a test plays one (STANDIN_KEYRING=gnome_libsecret).
    getSelectedStorageBackend: () => process.env['STANDIN_KEYRING'] ?? 'basic_text',
    encryptString: (plain) => Buffer.from(plain, 'utf8'),
    decryptString: (cipher) => Buffer.from(cipher).toString('utf8'),
  },
  'safeStorage',
);

export default {
  app,
  BrowserWindow: BrowserWindowExport,
  ipcMain,
  Menu,
  nativeImage,
  Tray: TrayExport,
  globalShortcut,
  screen,
  session,
  dialog,
  Notification: NotificationExport,
  safeStorage,
};

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { HotkeySink } from './pure/hotkey-state';
import type { MenuItemSpec } from './pure/menus';
import { ocrSupport } from '../core/ocr/engine';

// The shell's wiring (windows, IPC binding, tray, menu, hotkey, security hooks) run against
// a stand-in for the Electron APIs it calls, with the real app core behind it: there is no
// Electron binary here. The native keyboard hook is replaced by a recorder.

const h = await vi.hoisted(async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const { pathToFileURL: toUrl } = await import('node:url');

  class FakeWebContents extends Emitter {
    url = '';
    sent: [string, unknown][] = [];
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
    isLoading() {
      return false;
    }
    isDevToolsOpened() {
      return false;
    }
    getURL() {
      return this.url;
    }
    executeJavaScript = vi.fn(async () => undefined);
    setWindowOpenHandler = vi.fn();
  }

  class FakeBrowserWindow extends Emitter {
    static created: FakeBrowserWindow[] = [];
    static getAllWindows() {
      return FakeBrowserWindow.created.filter((w) => !w.destroyed);
    }
    static getFocusedWindow() {
      return FakeBrowserWindow.getAllWindows().find((w) => w.visible) ?? null;
    }
    webContents = new FakeWebContents();
    visible = false;
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    loadURL(url: string) {
      this.webContents.url = url;
      return Promise.resolve();
    }
    loadFile(file: string, options?: { hash?: string }) {
      this.webContents.url = `${toUrl(file).href}#${options?.hash ?? ''}`;
      setImmediate(() => this.emit('ready-to-show'));
      return Promise.resolve();
    }
    show() {
      this.visible = true;
    }
    showInactive() {
      this.visible = true;
    }
    hide() {
      this.visible = false;
    }
    focus() {}
    isVisible() {
      return this.visible;
    }
    isFocused() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    maximize() {}
    isMaximized() {
      return false;
    }
    isDestroyed() {
      return this.destroyed;
    }
    getNormalBounds() {
      return { x: 40, y: 30, width: 1000, height: 700 };
    }
    setIgnoreMouseEvents() {}
    setAlwaysOnTop() {}
    setVisibleOnAllWorkspaces() {}
    close() {
      let prevented = false;
      this.emit('close', { preventDefault: () => (prevented = true) });
      if (!prevented) {
        this.destroyed = true;
        this.emit('closed');
      }
    }
  }

  const app = Object.assign(new Emitter(), {
    userData: '',
    whenReady: () => Promise.resolve(),
    getPath: (_name: string) => app.userData,
    setPath: vi.fn(),
    getVersion: () => '9.9.9',
    requestSingleInstanceLock: vi.fn(() => true),
    commandLine: { appendSwitch: vi.fn() },
    quit: vi.fn(() => {
      app.emit('before-quit', { preventDefault() {} });
      app.emit('will-quit', { preventDefault() {} });
    }),
    exit: vi.fn(),
  });

  const trays: { menu: MenuItemSpec[] | null; listeners: Record<string, () => void> }[] = [];
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const session = {
    requestHandler: null as null | ((c: unknown, p: string, cb: (ok: boolean) => void, d: unknown) => void),
    beforeRequest: null as null | ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void),
  };
  let appMenu: MenuItemSpec[] | null = null;
  const hotkeys: { accelerator: string; sink: HotkeySink }[] = [];
  const workArea = { x: 0, y: 0, width: 1920, height: 1040 };

  class FakeNotification extends Emitter {
    static shown: FakeNotification[] = [];
    static isSupported = vi.fn(() => true);
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    show() {
      FakeNotification.shown.push(this);
    }
  }

  const electron = {
    app,
    Notification: FakeNotification,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: { handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => handlers.set(channel, fn) },
    Menu: {
      buildFromTemplate: (template: MenuItemSpec[]) => ({ template }),
      setApplicationMenu: (menu: { template: MenuItemSpec[] }) => (appMenu = menu.template),
    },
    Tray: class {
      entry = { menu: null as MenuItemSpec[] | null, listeners: {} as Record<string, () => void> };
      constructor() {
        trays.push(this.entry);
      }
      setToolTip() {}
      on(event: string, fn: () => void) {
        this.entry.listeners[event] = fn;
      }
      setContextMenu(menu: { template: MenuItemSpec[] }) {
        this.entry.menu = menu.template;
      }
      destroy() {}
    },
    nativeImage: { createFromPath: () => ({ setTemplateImage() {} }) },
    globalShortcut: { register: vi.fn(() => true), unregister: vi.fn(), unregisterAll: vi.fn() },
    screen: {
      getAllDisplays: () => [{ workArea }],
      getPrimaryDisplay: () => ({ workArea }),
      getDisplayNearestPoint: () => ({ workArea }),
      getCursorScreenPoint: () => ({ x: 10, y: 10 }),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof session.requestHandler) => (session.requestHandler = fn),
        setPermissionCheckHandler: vi.fn(),
        webRequest: { onBeforeRequest: (fn: typeof session.beforeRequest) => (session.beforeRequest = fn) },
      },
    },
    dialog: {
      showErrorBox: vi.fn(),
      showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePath: '' })),
      showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })),
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptString: (s: string) => Buffer.from(`x${s}`),
      decryptString: (b: Buffer) => b.toString().slice(1),
    },
  };
  return { electron, FakeBrowserWindow, FakeNotification, trays, handlers, session, hotkeys, getAppMenu: () => appMenu };
});

vi.mock('electron', () => h.electron);
vi.mock('./hotkey', () => ({
  registerPushToTalk: (accelerator: string, sink: HotkeySink) => {
    h.hotkeys.push({ accelerator, sink });
    return { backend: 'hold', status: { backend: 'hold', accelerator }, machine: null, dispose() {} };
  },
}));

const dataDir = mkdtempSync(join(tmpdir(), 'skj-shell-'));
h.electron.app.userData = dataDir;
await import('./main');
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};
await settle();

afterAll(() => {
  h.electron.app.emit('before-quit', { preventDefault() {} });
  h.electron.app.emit('will-quit', { preventDefault() {} });
  rmSync(dataDir, { recursive: true, force: true });
});

const windows = () => h.FakeBrowserWindow.getAllWindows();
const main = () => h.FakeBrowserWindow.created[0]!;
const invoke = (sender: unknown, senderUrl: string, name: string, input: unknown) =>
  h.handlers.get('suikouji:invoke')!({ sender, senderFrame: { url: senderUrl } }, name, input) as Promise<{
    ok: boolean;
    value?: unknown;
    error?: { code: string };
  }>;
const trayItem = (label: string) => h.trays[0]!.menu!.find((i) => i.label === label)!;
const flat = (items: MenuItemSpec[]): MenuItemSpec[] => items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);
const menuItem = (accelerator: string) => flat(h.getAppMenu()!).find((i) => i.accelerator === accelerator)!;
/** Today in local time, the month the ledger checks budgets in. */
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('Electron shell wiring (electron mocked, real core)', () => {
  it('opens one hardened main window on the home page', () => {
    expect(h.electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    // Date and time inputs in zh-CN whatever the OS locale: a switch Chromium reads before ready.
    expect(h.electron.app.commandLine.appendSwitch).toHaveBeenCalledWith('lang', 'zh-CN');
    expect(windows()).toHaveLength(1);
    expect(main().options['webPreferences']).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(main().webContents.url).toMatch(/\/renderer\/index\.html#\/home$/);
    expect(main().isVisible()).toBe(true);
  });

  it('answers our own page through the real handler table and refuses anyone else', async () => {
    const own = await invoke(main().webContents, main().webContents.url, 'appInfo', {});
    expect(own).toMatchObject({ ok: true, value: { version: '9.9.9', dataDir } });
    expect(await invoke({}, main().webContents.url, 'appInfo', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await invoke(main().webContents, 'https://evil.example/renderer/index.html', 'appInfo', {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('blocks remote requests and grants only audio to our pages', () => {
    const cancelled = (url: string) => {
      let result: boolean | undefined;
      h.session.beforeRequest!({ url }, (r) => (result = r.cancel));
      return result;
    };
    expect(cancelled('https://cdn.example.com/x.js')).toBe(true);
    expect(cancelled(main().webContents.url)).toBe(false);
    const granted = (permission: string, mediaTypes: string[], url: string) => {
      let ok: boolean | undefined;
      h.session.requestHandler!(null, permission, (v) => (ok = v), { mediaTypes, requestingUrl: url });
      return ok;
    };
    expect(granted('media', ['audio'], main().webContents.url)).toBe(true);
    expect(granted('media', ['video'], main().webContents.url)).toBe(false);
    expect(granted('geolocation', [], main().webContents.url)).toBe(false);
    expect(granted('media', ['audio'], 'https://evil.example/')).toBe(false);
  });

  it('closing the main window hides it and remembers its bounds; the tray brings it back', () => {
    main().close();
    expect(main().isDestroyed()).toBe(false);
    expect(main().isVisible()).toBe(false);
    expect(JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8'))).toEqual({
      x: 40,
      y: 30,
      width: 1000,
      height: 700,
      maximized: false,
    });
    trayItem('打开主窗口').click!();
    expect(main().isVisible()).toBe(true);
    h.electron.app.emit('second-instance');
    expect(windows()).toHaveLength(1);
  });

  it('tray and app menu: quick entry opens a frameless window that a page can close', async () => {
    expect(h.trays[0]!.menu!.filter((i) => i.label).map((i) => i.label)).toEqual([
      '记一笔…',
      '快速记账…',
      // Where pictures can be read (ocrSupport(): this platform has the runtime).
      ...(ocrSupport().available ? ['打开图片…'] : []),
      '开始语音',
      '打开主窗口',
      '设置',
      '退出',
    ]);
    expect(h.getAppMenu()!.length).toBeGreaterThan(2);
    trayItem('快速记账…').click!();
    await settle();
    const quick = windows().find((w) => w.webContents.url.endsWith('#/quick'))!;
    expect(quick.options).toMatchObject({ frame: false, alwaysOnTop: true });
    expect(quick.isVisible()).toBe(true);
    const closed = await invoke(quick.webContents, quick.webContents.url, 'windowAction', { action: 'closeQuickEntry' });
    expect(closed).toEqual({ ok: true, value: null });
    expect(quick.isDestroyed()).toBe(true);
  });

  it('记一笔 from the tray and from CmdOrCtrl+N opens the form in the main window', () => {
    main().webContents.executeJavaScript.mockClear();
    trayItem('记一笔…').click!();
    expect(main().webContents.executeJavaScript).toHaveBeenLastCalledWith('location.hash = "#/new"');
    main().hide();
    menuItem('CmdOrCtrl+N').click!();
    expect(main().isVisible()).toBe(true);
    expect(main().webContents.executeJavaScript).toHaveBeenCalledTimes(2);
    expect(main().webContents.executeJavaScript).toHaveBeenLastCalledWith('location.hash = "#/new"');
    expect(menuItem('CmdOrCtrl+Shift+N').label).toBe('快速记账…');
  });

  it('a crossed budget shows a native notification that opens 预算 when clicked', async () => {
    const own = (name: string, input: unknown) => invoke(main().webContents, main().webContents.url, name, input);
    const today = localToday();
    const categories = (await own('listCategories', {})).value as { id: number; name: string }[];
    const food = categories.find((c) => c.name === '餐饮')!;
    expect((await own('setBudgets', { month: today.slice(0, 7), items: [{ categoryId: food.id, amountYuan: 100 }] })).ok).toBe(true);
    h.FakeNotification.shown.length = 0;
    expect((await own('addTransaction', { amountYuan: 85, type: 'EXPENSE', category: '餐饮', date: today, time: '00:00' })).ok).toBe(true);

    expect(h.FakeNotification.shown.map((n) => n.options)).toEqual([
      expect.objectContaining({ title: '预算提醒', body: '餐饮本月已用 85%，已用 85 元，预算 100 元' }),
    ]);
    main().hide();
    main().webContents.executeJavaScript.mockClear();
    h.FakeNotification.shown[0]!.emit('click');
    expect(main().isVisible()).toBe(true);
    expect(main().webContents.executeJavaScript).toHaveBeenCalledWith('location.hash = "#/budgets"');

    // Where the desktop has no notification service, the windows' banner is the only sign.
    h.FakeNotification.isSupported.mockReturnValueOnce(false);
    h.FakeNotification.shown.length = 0;
    await own('addTransaction', { amountYuan: 20, type: 'EXPENSE', category: '餐饮', date: today, time: '00:01' });
    expect(h.FakeNotification.shown).toEqual([]);
  });

  it('导出 asks where in a save dialog modal to the window, in 文档, and writes the file there', async () => {
    const own = (name: string, input: unknown) => invoke(main().webContents, main().webContents.url, name, input);
    const target = join(dataDir, '导出的账本');
    h.electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await own('exportFile', { format: 'xlsx' });
    expect(result).toMatchObject({ ok: true, value: { path: `${target}.xlsx` } });
    expect(readFileSync(`${target}.xlsx`).subarray(0, 2).toString()).toBe('PK');
    const [parent, options] = h.electron.dialog.showSaveDialog.mock.calls.at(-1)!;
    expect(parent).toBe(main());
    expect(options).toMatchObject({
      defaultPath: expect.stringMatching(/^.+[\\/]随口记_\d{8}_\d{6}\.xlsx$/),
      filters: [{ extensions: ['xlsx'] }],
    });
    // The stand-in's getPath answers one folder for every name; the real one gives 文档.
    expect((options as { defaultPath: string }).defaultPath.startsWith(dataDir)).toBe(true);

    expect(await own('exportFile', { format: 'csv' })).toEqual({ ok: true, value: null });
  });

  it('导入 reads the bill file picked in the open dialog', async () => {
    const own = (name: string, input: unknown) => invoke(main().webContents, main().webContents.url, name, input);
    const bill = join(dataDir, '微信账单.csv');
    writeFileSync(bill, '交易时间,金额\n');
    h.electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [bill] });
    expect(await own('openImportFile', {})).toEqual({
      ok: true,
      value: { name: '微信账单.csv', dataBase64: Buffer.from('交易时间,金额\n').toString('base64') },
    });
    expect(h.electron.dialog.showOpenDialog.mock.calls.at(-1)![1]).toMatchObject({ properties: ['openFile'] });
    expect(await own('openImportFile', {})).toEqual({ ok: true, value: null });
  });

  it('a page can bring the main window to settings', async () => {
    await invoke(main().webContents, main().webContents.url, 'windowAction', { action: 'showMain', route: 'settings' });
    expect(main().webContents.executeJavaScript).toHaveBeenCalledWith('location.hash = "#/settings"');
  });

  it('binds the hotkey from the settings and rebinds it when the user changes it', async () => {
    expect(h.hotkeys.map((k) => k.accelerator)).toEqual(['Ctrl+Alt+Space']);
    const saved = await invoke(main().webContents, main().webContents.url, 'settingsSave', { settings: { hotkey: { pushToTalk: 'Alt+F9' } } });
    expect(saved.ok).toBe(true);
    expect(h.hotkeys.map((k) => k.accelerator)).toEqual(['Ctrl+Alt+Space', 'Alt+F9']);
    // 设置 reports the hotkey as it works now, not as it was.
    expect((saved.value as { hotkey?: unknown }).hotkey).toEqual({ backend: 'hold', accelerator: 'Alt+F9' });
  });

  it('the hotkey talks to the session and shows the indicator', async () => {
    const { sink } = h.hotkeys.at(-1)!;
    const before = main().webContents.sent.length;
    sink.indicator(true);
    sink.down();
    sink.up();
    // Whatever this machine's microphone does, the press reached the session: it started
    // (state events) or said why it could not (an error event), and the windows heard it.
    await vi.waitFor(
      () => {
        const voice = main()
          .webContents.sent.slice(before)
          .map(([, p]) => p as { channel: string; event: { type: string } });
        expect(voice.some((p) => p.channel === 'voice' && (p.event.type === 'stateChanged' || p.event.type === 'error'))).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
    const indicator = windows().find((w) => w.webContents.url.endsWith('#/indicator'))!;
    expect(indicator.options).toMatchObject({ focusable: false, alwaysOnTop: true });
    expect(indicator.isVisible()).toBe(true);
    sink.indicator(false);
    expect(indicator.isVisible()).toBe(false);
  });

  it('drafts spoken through the hotkey with no focused window open in the quick-entry box', async () => {
    const { sink } = h.hotkeys.at(-1)!;
    sink.down();
    sink.up();
    const quickWindows = () => windows().filter((w) => w.webContents.url.endsWith('#/quick'));
    expect(quickWindows()).toHaveLength(0);
    // The utterance's text arrives (typed here: there is no ASR on this machine).
    await invoke(main().webContents, main().webContents.url, 'voiceSetMode', { mode: 'keyboard' });
    await invoke(main().webContents, main().webContents.url, 'voiceText', { text: '午饭35' });
    await vi.waitFor(() => expect(quickWindows()).toHaveLength(1), { timeout: 5_000 });
    await invoke(main().webContents, main().webContents.url, 'voiceAction', { action: 'cancelAll' });
    quickWindows()[0]!.close();
  });

  it('voice events reach every window', async () => {
    await invoke(main().webContents, main().webContents.url, 'voiceText', { text: '午饭35' });
    expect(
      main().webContents.sent.some(([channel, payload]) => channel === 'suikouji:event' && (payload as { channel: string }).channel === 'voice'),
    ).toBe(true);
  });

  it('quitting really closes the main window', () => {
    trayItem('退出').click!();
    main().close();
    expect(main().isDestroyed()).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import { indicatorWindowOptions, mainWindowOptions, quickEntryWindowOptions } from '../window-options';
import { appPaths } from './app-paths';
import { keyboardHookBlocker } from './keyboard-hook-support';
import { isModifierRelease, matchesAccelerator, parseAccelerator } from './accelerator';
import { PushToTalkHotkey, TOGGLE_MAX_RECORDING_MS } from './hotkey-state';
import { exportDialogOptions, importDialogOptions, withExportExtension } from './file-dialogs';
import { appMenuTemplate, trayMenuTemplate, type MenuItemSpec } from './menus';
import { createUrlPolicy } from './url-policy';
import { indicatorPosition, quickEntryPosition, restoreWindowState } from './window-state';

function recorder() {
  const log: string[] = [];
  return {
    log,
    sink: {
      down: () => log.push('down'),
      up: () => log.push('up'),
      indicator: (v: boolean) => log.push(v ? 'show' : 'hide'),
    },
  };
}

describe('push-to-talk hotkey state machine', () => {
  it('hold: down on press, up on release, auto-repeat ignored', () => {
    const { log, sink } = recorder();
    const hotkey = new PushToTalkHotkey('hold', sink, new FakeClock());
    hotkey.keyDown();
    hotkey.keyDown();
    hotkey.keyDown();
    expect(hotkey.phase).toBe('recording');
    hotkey.keyUp();
    hotkey.keyUp();
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
    expect(hotkey.press).toBeTypeOf('function');
    hotkey.press(); // not this backend's input
    expect(log).toHaveLength(4);
  });

  it('toggle: press starts, press again stops', () => {
    const { log, sink } = recorder();
    const hotkey = new PushToTalkHotkey('toggle', sink, new FakeClock());
    hotkey.press();
    hotkey.keyUp(); // a hook release means nothing here
    hotkey.press();
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
    expect(hotkey.phase).toBe('idle');
  });

  it('toggle: end of speech by the session hides the indicator without a second up', async () => {
    const { log, sink } = recorder();
    const clock = new FakeClock();
    const hotkey = new PushToTalkHotkey('toggle', sink, clock);
    hotkey.press();
    hotkey.sessionSettled();
    await clock.advance(TOGGLE_MAX_RECORDING_MS * 2);
    expect(log).toEqual(['show', 'down', 'hide']);
    hotkey.press();
    expect(log.slice(3)).toEqual(['show', 'down']);
  });

  it('toggle: a recording nobody stops ends at the safety limit', async () => {
    const { log, sink } = recorder();
    const clock = new FakeClock();
    const hotkey = new PushToTalkHotkey('toggle', sink, clock);
    hotkey.press();
    await clock.advance(TOGGLE_MAX_RECORDING_MS - 1);
    expect(hotkey.phase).toBe('recording');
    await clock.advance(1);
    expect(hotkey.phase).toBe('idle');
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
  });

  it('hold: the session settling never swallows the release', () => {
    const { log, sink } = recorder();
    const hotkey = new PushToTalkHotkey('hold', sink, new FakeClock());
    hotkey.keyDown();
    hotkey.sessionSettled();
    expect(hotkey.phase).toBe('recording');
    hotkey.keyUp();
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
  });

  it('reset stops a recording and is harmless when idle', () => {
    const { log, sink } = recorder();
    const hotkey = new PushToTalkHotkey('hold', sink, new FakeClock());
    hotkey.reset();
    hotkey.keyDown();
    hotkey.reset();
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
  });
});

describe('accelerators for the keyboard hook', () => {
  const codes = { Space: 57, K: 37, F9: 67, Ctrl: 29, Alt: 56, Shift: 42, Meta: 3675 };

  it('parses modifiers and keys, rejecting plain keys and unknown parts', () => {
    expect(parseAccelerator('Ctrl+Alt+Space')).toEqual({ ctrl: true, alt: true, shift: false, meta: false, key: 'Space' });
    expect(parseAccelerator('CommandOrControl+Shift+k', 'darwin')).toEqual({ ctrl: false, alt: false, shift: true, meta: true, key: 'K' });
    expect(parseAccelerator('CmdOrCtrl+F9', 'linux')).toMatchObject({ ctrl: true, meta: false, key: 'F9' });
    expect(parseAccelerator('Space')).toBeNull();
    expect(parseAccelerator('Hyper+Space')).toBeNull();
    expect(parseAccelerator('Ctrl+Banana')).toBeNull();
  });

  it('matches only with exactly the accelerator modifiers', () => {
    const acc = parseAccelerator('Ctrl+Alt+Space')!;
    const ev = { keycode: 57, ctrlKey: true, altKey: true, shiftKey: false, metaKey: false };
    expect(matchesAccelerator(ev, acc, codes)).toBe(true);
    expect(matchesAccelerator({ ...ev, shiftKey: true }, acc, codes)).toBe(false);
    expect(matchesAccelerator({ ...ev, altKey: false }, acc, codes)).toBe(false);
    expect(matchesAccelerator({ ...ev, keycode: 37 }, acc, codes)).toBe(false);
    expect(isModifierRelease(29, codes)).toBe(true);
    expect(isModifierRelease(57, codes)).toBe(false);
  });
});

describe('menus', () => {
  const calls: string[] = [];
  const actions = {
    newEntry: () => calls.push('new'),
    quickEntry: () => calls.push('quick'),
    toggleVoice: () => calls.push('toggle'),
    showMain: () => calls.push('main'),
    openSettings: () => calls.push('settings'),
    quit: () => calls.push('quit'),
    switchBook: (id: string) => calls.push(`book ${id}`),
  };
  const flat = (items: MenuItemSpec[]): MenuItemSpec[] => items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);

  it('tray: 记一笔 first, then the other entries in order; the voice label follows the session', () => {
    const idle = trayMenuTemplate({ voiceActive: false, voiceAvailable: true }, actions);
    expect(idle.filter((i) => i.label).map((i) => i.label)).toEqual(['记一笔…', '快速记账…', '开始语音', '打开主窗口', '设置', '退出']);
    const voice = (status: { voiceActive: boolean; voiceAvailable: boolean }) =>
      trayMenuTemplate(status, actions).find((i) => i.click === actions.toggleVoice);
    expect(voice({ voiceActive: true, voiceAvailable: true })).toMatchObject({ label: '停止语音', enabled: true });
    expect(voice({ voiceActive: false, voiceAvailable: false })!.enabled).toBe(false);
    calls.length = 0;
    for (const item of idle) item.click?.();
    expect(calls).toEqual(['new', 'quick', 'toggle', 'main', 'settings', 'quit']);
  });

  it('tray: 打开图片… after 快速记账… only where pictures can be read; a click opens one', () => {
    const openPicture = () => calls.push('picture');
    const labels = (pictures: boolean) =>
      trayMenuTemplate({ voiceActive: false, voiceAvailable: true, pictures }, { ...actions, openPicture })
        .filter((i) => i.label)
        .map((i) => i.label);
    expect(labels(true)).toEqual(['记一笔…', '快速记账…', '打开图片…', '开始语音', '打开主窗口', '设置', '退出']);
    expect(labels(false)).not.toContain('打开图片…');
    calls.length = 0;
    trayMenuTemplate({ voiceActive: false, voiceAvailable: true, pictures: true }, { ...actions, openPicture }).find((i) => i.label === '打开图片…')!
      .click!();
    expect(calls).toEqual(['picture']);
  });

  it('tray: a 账本 submenu once there are two books, the current one checked; a click switches', () => {
    const one = trayMenuTemplate(
      { voiceActive: false, voiceAvailable: true, books: { current: 'main', open: [{ id: 'main', name: '家庭' }] } },
      actions,
    );
    expect(one.some((i) => i.label?.startsWith('账本'))).toBe(false);
    const two = trayMenuTemplate(
      {
        voiceActive: false,
        voiceAvailable: true,
        books: {
          current: 'b-1',
          open: [
            { id: 'main', name: '家庭' },
            { id: 'b-1', name: '旅行' },
          ],
        },
      },
      actions,
    );
    const menu = two.find((i) => i.label?.startsWith('账本'))!;
    expect(menu.label).toBe('账本：旅行');
    expect(menu.submenu!.map((i) => [i.label, i.type, i.checked])).toEqual([
      ['家庭', 'radio', false],
      ['旅行', 'radio', true],
    ]);
    calls.length = 0;
    menu.submenu![0]!.click!();
    expect(calls).toEqual(['book main']);
  });

  it('app menu: standard edit shortcuts everywhere, app menu first on macOS only', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const menu = appMenuTemplate(platform, '随口记', actions);
      const roles = flat(menu).map((i) => i.role);
      expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
      expect(menu[0]!.label).toBe(platform === 'darwin' ? '随口记' : '文件');
    }
  });

  it('app menu: CmdOrCtrl+N opens 记一笔, quick entry keeps CmdOrCtrl+Shift+N, no shortcut twice', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const items = flat(appMenuTemplate(platform, '随口记', actions));
      calls.length = 0;
      items.find((i) => i.accelerator === 'CmdOrCtrl+N')!.click!();
      items.find((i) => i.accelerator === 'CmdOrCtrl+Shift+N')!.click!();
      expect(calls).toEqual(['new', 'quick']);
      expect(items.find((i) => i.accelerator === 'CmdOrCtrl+N')!.label).toBe('记一笔…');
      const accelerators = items.flatMap((i) => (i.accelerator ? [i.accelerator] : []));
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });
});

describe('file dialogs', () => {
  it('export: the suggested name in 文档, only the chosen format offered', () => {
    const options = exportDialogOptions('随口记_20260217_090503.xlsx', 'xlsx', '/home/u/文档');
    expect(options).toMatchObject({ defaultPath: '/home/u/文档/随口记_20260217_090503.xlsx', filters: [{ extensions: ['xlsx'] }] });
    expect(options.properties).toContain('showOverwriteConfirmation');
    expect(exportDialogOptions('a.csv', 'csv', '/d').filters).toEqual([{ name: 'CSV 表格', extensions: ['csv'] }]);
  });

  it('export: a bare name gets the extension, a name with it stays', () => {
    expect(withExportExtension('/d/账本', 'xlsx')).toBe('/d/账本.xlsx');
    expect(withExportExtension('/d/账本.XLSX', 'xlsx')).toBe('/d/账本.XLSX');
    expect(withExportExtension('/d/账本.csv', 'xlsx')).toBe('/d/账本.csv.xlsx');
    expect(withExportExtension('/d/2月.csv', 'csv')).toBe('/d/2月.csv');
  });

  it('import: one file, CSV and Excel bills first, then any file', () => {
    const options = importDialogOptions();
    expect(options.properties).toEqual(['openFile']);
    expect(options.filters).toEqual([
      { name: '账单（CSV、Excel）', extensions: ['csv', 'xlsx'] },
      { name: '所有文件', extensions: ['*'] },
    ]);
  });
});

describe('window options and placement', () => {
  it('every window is sandboxed and isolated', () => {
    for (const options of [
      mainWindowOptions('/p.cjs'),
      quickEntryWindowOptions('/p.cjs', { x: 0, y: 0 }),
      indicatorWindowOptions('/p.cjs', { x: 0, y: 0 }),
    ]) {
      expect(options.webPreferences).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        webviewTag: false,
        preload: '/p.cjs',
      });
    }
  });

  it('quick entry is frameless and on top; the indicator never takes focus', () => {
    expect(quickEntryWindowOptions('/p', { x: 1, y: 2 })).toMatchObject({ frame: false, alwaysOnTop: true, skipTaskbar: true, x: 1, y: 2 });
    expect(indicatorWindowOptions('/p', { x: 0, y: 0 })).toMatchObject({ focusable: false, alwaysOnTop: true, frame: false });
    expect(mainWindowOptions('/p', { x: 10, y: 20, width: 1000, height: 700 })).toMatchObject({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      minWidth: 900,
      minHeight: 600,
    });
  });

  const screen = { x: 0, y: 0, width: 1920, height: 1040 };
  it('restores bounds on a screen and refuses bounds that are off every screen', () => {
    expect(restoreWindowState({ x: 100, y: 50, width: 1000, height: 700, maximized: true }, [screen], { width: 900, height: 600 })).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: true,
    });
    expect(restoreWindowState({ x: 3000, y: 50, width: 1000, height: 700 }, [screen], { width: 900, height: 600 })).toBeNull();
    expect(restoreWindowState({ x: 1900, y: 50, width: 1000, height: 700 }, [screen], { width: 900, height: 600 })).toBeNull();
    expect(restoreWindowState('garbage', [screen], { width: 900, height: 600 })).toBeNull();
    expect(restoreWindowState({ x: 0, y: 0, width: 5000, height: 5000 }, [screen], { width: 900, height: 600 })).toMatchObject({
      width: 1920,
      height: 1040,
    });
  });

  it('places the indicator top-right and quick entry in the upper middle', () => {
    expect(indicatorPosition(screen, { width: 168, height: 44 })).toEqual({ x: 1920 - 168 - 16, y: 16 });
    expect(quickEntryPosition(screen, { width: 560, height: 420 })).toEqual({ x: 680, y: 155 });
  });
});

describe('url policy', () => {
  const built = createUrlPolicy('file:///opt/app/out/renderer');
  it('accepts only pages and assets inside the renderer folder', () => {
    expect(built.isOwnUrl('file:///opt/app/out/renderer/index.html#/quick')).toBe(true);
    expect(built.isAllowedRequest('file:///opt/app/out/renderer/assets/index.js')).toBe(true);
    expect(built.isOwnUrl('file:///opt/app/out/renderer/../../secrets.html')).toBe(false);
    expect(built.isOwnUrl('file:///tmp/renderer/evil.html')).toBe(false);
    expect(built.isOwnUrl('https://example.com/renderer/index.html')).toBe(false);
    expect(built.isAllowedRequest('https://cdn.example.com/x.js')).toBe(false);
    expect(built.isAllowedRequest('http://localhost:5173/')).toBe(false);
  });

  it('under the dev server, its origin and hot-reload socket only', () => {
    const dev = createUrlPolicy('file:///opt/app/out/renderer', 'http://localhost:5173/');
    expect(dev.isOwnUrl('http://localhost:5173/#/settings')).toBe(true);
    expect(dev.isAllowedRequest('ws://localhost:5173/?token=x')).toBe(true);
    expect(dev.isOwnUrl('http://localhost:5174/')).toBe(false);
    expect(dev.isOwnUrl('http://localhost:5173.evil.com/')).toBe(false);
  });
});

describe('keyboard hook support', () => {
  const sockets = new Set(['/tmp/.X11-unix/X0']);
  const exists = (p: string) => sockets.has(p);
  it.each([
    ['linux', {}, 'no-display'],
    ['linux', { DISPLAY: ':0' }, null],
    ['linux', { DISPLAY: ':0.0' }, null],
    ['linux', { DISPLAY: 'unix:0' }, null],
    ['linux', { DISPLAY: ':99' }, 'no-display'],
    ['linux', { DISPLAY: 'localhost:10.0' }, null],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, 'wayland'],
    ['linux', { DISPLAY: ':0', XDG_SESSION_TYPE: 'wayland' }, 'wayland'],
    ['darwin', {}, null],
    ['win32', {}, null],
  ] as const)('%s %j → %s', (platform, env, expected) => {
    expect(keyboardHookBlocker(platform, env, exists)).toBe(expected);
  });
});

describe('built app paths', () => {
  it('finds preload, renderer and resources next to the built bundle', () => {
    expect(appPaths('/home/u/suikouji/out/main/')).toEqual({
      preload: '/home/u/suikouji/out/preload/index.cjs',
      rendererDir: '/home/u/suikouji/out/renderer',
      resourcesDir: '/home/u/suikouji/resources',
    });
  });

  it('reads icons from the unpacked copy when the bundle is inside app.asar', () => {
    expect(appPaths('/opt/随口记/resources/app.asar/out/main')).toEqual({
      preload: '/opt/随口记/resources/app.asar/out/preload/index.cjs',
      rendererDir: '/opt/随口记/resources/app.asar/out/renderer',
      resourcesDir: '/opt/随口记/resources/app.asar.unpacked/resources',
    });
  });
});

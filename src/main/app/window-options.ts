import type { BrowserWindowConstructorOptions } from 'electron';

// Type-only import: this file is plain data and is unit-tested without Electron.

/** The hardened webPreferences every window of ours uses. */
export function secureWebPreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    nodeIntegration: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export const MAIN_MIN_SIZE = { width: 900, height: 600 };

export function mainWindowOptions(
  preloadPath: string,
  bounds?: { x: number; y: number; width: number; height: number },
  iconPath?: string,
): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1100,
    height: bounds?.height ?? 760,
    ...(bounds ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: MAIN_MIN_SIZE.width,
    minHeight: MAIN_MIN_SIZE.height,
    show: false,
    title: '随口记',
    autoHideMenuBar: false,
    ...(iconPath ? { icon: iconPath } : {}),
    webPreferences: secureWebPreferences(preloadPath),
  };
}

export const QUICK_ENTRY_SIZE = { width: 560, height: 420 };

/** A small frameless box over everything, like a launcher; it never shows in the taskbar. */
export function quickEntryWindowOptions(preloadPath: string, position: { x: number; y: number }): BrowserWindowConstructorOptions {
  return {
    ...QUICK_ENTRY_SIZE,
    ...position,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    show: false,
    title: '快速记账',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

export const INDICATOR_SIZE = { width: 168, height: 44 };

/** The recording pill: always on top, never focused, clicks pass through it. */
export function indicatorWindowOptions(preloadPath: string, position: { x: number; y: number }): BrowserWindowConstructorOptions {
  return {
    ...INDICATOR_SIZE,
    ...position,
    frame: false,
    transparent: true,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    focusable: false,
    hasShadow: false,
    show: false,
    title: '正在录音',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

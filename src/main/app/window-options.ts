import type { BrowserWindowConstructorOptions } from 'electron';

/** The hardened webPreferences every window of ours uses. */
export function secureWebPreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    nodeIntegration: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: '随口记',
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences(preloadPath),
  };
}

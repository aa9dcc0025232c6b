import { BrowserWindow, screen } from 'electron';
import type { MainRoute } from '@shared/ipc/app';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indicatorPosition, quickEntryPosition, restoreWindowState, type WindowState } from './pure/window-state';
import {
  INDICATOR_SIZE,
  MAIN_MIN_SIZE,
  QUICK_ENTRY_SIZE,
  indicatorWindowOptions,
  mainWindowOptions,
  quickEntryWindowOptions,
} from './window-options';

export type PageRoute = MainRoute | 'quick' | 'indicator';

export interface WindowsOptions {
  preloadPath: string;
  rendererDir: string;
  /** The dev server URL under `electron-vite dev`. */
  rendererUrl: string | undefined;
  stateFile: string;
  iconPath: string;
  /** Closing the main window only hides it until this says the app is quitting. */
  isQuitting: () => boolean;
  log: (message: string, err?: unknown) => void;
}

/** The app's three windows: main (remembered bounds), quick entry and the recording pill. */
export class Windows {
  main: BrowserWindow | null = null;
  quick: BrowserWindow | null = null;
  indicator: BrowserWindow | null = null;

  constructor(private readonly options: WindowsOptions) {}

  load(win: BrowserWindow, route: PageRoute): void {
    if (this.options.rendererUrl) void win.loadURL(`${this.options.rendererUrl}#/${route}`);
    else void win.loadFile(join(this.options.rendererDir, 'index.html'), { hash: `/${route}` });
  }

  /** Shows the main window (creating it if needed), optionally at a page. */
  showMain(route?: PageRoute): BrowserWindow {
    if (!this.main || this.main.isDestroyed()) this.main = this.createMain(route ?? 'home');
    else if (route) void this.main.webContents.executeJavaScript(`location.hash = ${JSON.stringify(`#/${route}`)}`);
    const win = this.main;
    if (win.isMinimized()) win.restore();
    if (win.webContents.isLoading()) win.once('ready-to-show', () => win.show());
    else win.show();
    win.focus();
    return win;
  }

  private createMain(route: PageRoute): BrowserWindow {
    const saved = this.readState();
    const workAreas = screen.getAllDisplays().map((d) => d.workArea);
    const state = restoreWindowState(saved, workAreas, MAIN_MIN_SIZE);
    const win = new BrowserWindow(mainWindowOptions(this.options.preloadPath, state ?? undefined, this.options.iconPath));
    if (state?.maximized) win.maximize();
    win.on('close', (event) => {
      this.saveState(win);
      if (!this.options.isQuitting()) {
        event.preventDefault();
        win.hide();
      }
    });
    win.on('closed', () => {
      if (this.main === win) this.main = null;
    });
    this.load(win, route);
    return win;
  }

  /** A fresh quick-entry box each time, so it never shows a stale entry. */
  showQuickEntry(): void {
    if (this.quick && !this.quick.isDestroyed()) {
      this.quick.show();
      this.quick.focus();
      return;
    }
    const area = screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea;
    const win = new BrowserWindow(quickEntryWindowOptions(this.options.preloadPath, quickEntryPosition(area, QUICK_ENTRY_SIZE)));
    win.once('ready-to-show', () => {
      win.show();
      win.focus();
    });
    // Clicking elsewhere dismisses it, like other launcher boxes.
    win.on('blur', () => {
      if (!win.isDestroyed() && !win.webContents.isDevToolsOpened()) win.close();
    });
    win.on('closed', () => {
      if (this.quick === win) this.quick = null;
    });
    this.quick = win;
    this.load(win, 'quick');
  }

  closeQuickEntry(): void {
    if (this.quick && !this.quick.isDestroyed()) this.quick.close();
  }

  /** The pill is created once and then only shown and hidden (no focus stealing). */
  setIndicator(visible: boolean): void {
    if (!visible) {
      this.indicator?.hide();
      return;
    }
    if (!this.indicator || this.indicator.isDestroyed()) {
      const area = screen.getPrimaryDisplay().workArea;
      const win = new BrowserWindow(indicatorWindowOptions(this.options.preloadPath, indicatorPosition(area, INDICATOR_SIZE)));
      win.setIgnoreMouseEvents(true);
      win.setAlwaysOnTop(true, 'screen-saver');
      win.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
      win.once('ready-to-show', () => win.showInactive());
      win.on('closed', () => {
        if (this.indicator === win) this.indicator = null;
      });
      this.indicator = win;
      this.load(win, 'indicator');
      return;
    }
    this.indicator.showInactive();
  }

  /** True while one of our windows (other than the indicator) has the keyboard focus. */
  anyFocused(): boolean {
    return [this.main, this.quick].some((w) => w !== null && !w.isDestroyed() && w.isVisible() && w.isFocused());
  }

  all(): BrowserWindow[] {
    return [this.main, this.quick, this.indicator].filter((w): w is BrowserWindow => w !== null && !w.isDestroyed());
  }

  saveMainState(): void {
    if (this.main && !this.main.isDestroyed()) this.saveState(this.main);
  }

  private readState(): unknown {
    try {
      return existsSync(this.options.stateFile) ? JSON.parse(readFileSync(this.options.stateFile, 'utf8')) : null;
    } catch {
      return null;
    }
  }

  private saveState(win: BrowserWindow): void {
    const bounds = win.getNormalBounds();
    const state: WindowState = { ...bounds, maximized: win.isMaximized() };
    try {
      writeFileSync(this.options.stateFile, JSON.stringify(state));
    } catch (err) {
      this.options.log('could not save the window state', err);
    }
  }
}

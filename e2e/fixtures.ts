import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, chromium, expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { startFakeChatServer, type FakeChatServer } from '../test/support/gateway/fake-chat-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium';
import { createAppCore, type AppCore, type AppCoreOptions } from '@core/app-core';
import type { Ledger } from '@core/ledger/index';
import { createSettingsStore, type SecretBox } from '@core/settings/index';
import type { WindowAction } from '@shared/ipc/app';
import { API_GLOBAL, COMMAND_NAMES } from '@shared/ipc/names';
import { BRIDGE_PATH, startBridge, type Bridge } from './bridge/server';
import { installApiShim } from './bridge/shim';

export const SCREENSHOT_DIR = 'test-results/screenshots';

/** Stands in for safeStorage: reversible, and never the plain text on disk. */
export const testSecretBox: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from(`e2e:${plain}`).toString('base64'),
  decrypt: (cipher) => {
    const text = Buffer.from(cipher, 'base64').toString();
    if (!text.startsWith('e2e:')) throw new Error('not ours');
    return text.slice(4);
  },
};

export const FAKE_LLM_KEY = 'sk-e2e-fake-0000';

/**
 * The LLM double: a loopback OpenAI chat-completions server. Each test queues the model's
 * next answers (the JSON the model would write); an unqueued call gets a 503, which the app
 * must treat like an unreachable model.
 */
export interface ScriptedModel {
  server: FakeChatServer;
  /** Queue the content of the next completions, in order. */
  answer(...contents: unknown[]): void;
}

export interface AppHarnessOptions {
  /** 'offline': local rules only. 'llm': direct mode against the loopback model. */
  connection: 'offline' | 'llm';
  /** Sync overrides (a cheap scrypt, a short debounce); the remote itself is set up through 设置. */
  sync?: AppCoreOptions['sync'];
}

/** The app core's options an e2e test may set: a model catalog on a loopback server, a scripted mic. */
export type BootOptions = Pick<AppCoreOptions, 'models' | 'sync'> & { voice?: Omit<NonNullable<AppCoreOptions['voice']>, 'tts'> };

export interface AppHarness {
  page: Page;
  ledger: Ledger;
  core: AppCore;
  bridge: Bridge;
  dataDir: string;
  model: ScriptedModel | null;
  /** What the pages asked of the (absent) window shell. */
  windowActions: WindowAction[];
  /** The native notifications the shell would have shown (budget alerts), oldest first. */
  notifications: { title: string; body: string }[];
  /** The native save/open dialogs, answered by the test. */
  dialogs: ShellDialogs;
  /** Opens the app (optionally another page, e.g. '#/quick') in a fresh page. */
  open(hash?: string, options?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
}

async function startScriptedModel(): Promise<ScriptedModel> {
  const queue: unknown[] = [];
  const server = await startFakeChatServer(() => {
    if (queue.length === 0) return { status: 503 };
    const next = queue.shift();
    return { content: typeof next === 'string' ? next : JSON.stringify(next) };
  });
  return { server, answer: (...contents) => queue.push(...contents) };
}

export interface BootedApp {
  core: AppCore;
  bridge: Bridge;
  /** What the renderer asked the shell's windows to do. */
  windowActions: WindowAction[];
  /** The native notifications the shell would have shown, oldest first. */
  notifications: { title: string; body: string }[];
  /** The shell's save/open dialogs, answered as a user would (see ShellDialogs). */
  dialogs: ShellDialogs;
}

/**
 * Stands in for the native save/open dialogs: a save "chooses" `saveDir/<suggested name>`
 * (or nothing after `cancelNext()`), an open chooses `openFile` (null: the user closed it).
 */
export interface ShellDialogs {
  saveDir: string;
  /** Every path a save dialog returned, oldest first. */
  saved: string[];
  /** The suggested names the save dialogs offered, oldest first. */
  suggested: string[];
  openFile: string | null;
  /** What the folder picker chooses (设置 → 同步's 选择…); null: the user closed it. */
  folder: string | null;
  cancelNext(): void;
}

function shellDialogs(saveDir: string): ShellDialogs & Pick<AppCoreOptions, 'chooseSavePath' | 'chooseOpenPath' | 'pickFolder'> {
  let cancel = false;
  const dialogs = {
    saveDir,
    saved: [] as string[],
    suggested: [] as string[],
    openFile: null as string | null,
    folder: null as string | null,
    cancelNext: () => void (cancel = true),
    chooseSavePath: async (suggestedName: string) => {
      dialogs.suggested.push(suggestedName);
      if (cancel) {
        cancel = false;
        return null;
      }
      mkdirSync(saveDir, { recursive: true });
      const path = join(saveDir, suggestedName);
      dialogs.saved.push(path);
      return path;
    },
    chooseOpenPath: async () => dialogs.openFile,
    pickFolder: async () => dialogs.folder,
  };
  return dialogs;
}

/** The app core on `dataDir` behind a loopback bridge, as the shell builds it. */
export async function bootApp(dataDir: string, options: BootOptions = {}): Promise<BootedApp> {
  const windowActions: WindowAction[] = [];
  const notifications: { title: string; body: string }[] = [];
  const dialogs = shellDialogs(join(dataDir, 'exports'));
  const core = createAppCore({
    dataDir,
    version: 'e2e',
    secretBox: testSecretBox,
    windowAction: (action) => windowActions.push(action),
    notify: (notice) => notifications.push(notice),
    chooseSavePath: dialogs.chooseSavePath,
    chooseOpenPath: dialogs.chooseOpenPath,
    // 打开图片… answers with the same chosen file as an import's open dialog.
    choosePicturePath: dialogs.chooseOpenPath,
    pickFolder: dialogs.pickFolder,
    // Spoken replies still reach the page (ttsSpoken), without a sound card.
    voice: { ...options.voice, tts: { engine: 'log', log: () => {} } },
    ...(options.models ? { models: options.models } : {}),
    ...(options.sync ? { sync: options.sync } : {}),
    log: (message, err) => console.error(`[core] ${message}`, err ?? ''),
  });
  const bridge = await startBridge({ rendererDir: resolve(process.env['E2E_OUT'] ?? 'out', 'renderer'), dispatch: core.dispatch });
  core.onEvent((event) => bridge.broadcast(event));
  return { core, bridge, windowActions, notifications, dialogs };
}

/** A page of the renderer with the preload's API shimmed onto the bridge. */
export async function openAppPage(context: BrowserContext, bridge: Bridge, hash = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[page error]', err));
  await page.addInitScript(installApiShim, { globalName: API_GLOBAL, commandNames: [...COMMAND_NAMES], bridgePath: BRIDGE_PATH });
  await page.goto(bridge.url + hash);
  return page;
}

export const test = base.extend<{ app: AppHarness; appOptions: AppHarnessOptions }, { browser: Browser }>({
  appOptions: [{ connection: 'offline' }, { option: true }],
  browser: [
    async ({}, use) => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  app: async ({ browser, appOptions }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skj-e2e-'));
    const model = appOptions.connection === 'llm' ? await startScriptedModel() : null;
    // The connection is configured the way a user does it: through the settings store.
    if (model) {
      createSettingsStore({ dataDir, secretBox: testSecretBox }).save({
        settings: { connection: { mode: 'direct', llmBaseUrl: model.server.baseUrl, model: 'qwen-e2e' } },
        secrets: { dashscopeApiKey: FAKE_LLM_KEY },
      });
    }
    const { core, bridge, windowActions, notifications, dialogs } = await bootApp(dataDir, appOptions.sync ? { sync: appOptions.sync } : {});
    const pages: Page[] = [];
    const harness: AppHarness = {
      page: undefined as unknown as Page,
      // The current book's: a test that switches books reads the one it switched to.
      get ledger() {
        return core.ledger;
      },
      core,
      bridge,
      dataDir,
      model,
      windowActions,
      notifications,
      dialogs,
      async open(hash = '', options = {}) {
        const context = await browser.newContext({
          viewport: { width: 900, height: 600 },
          locale: 'zh-CN',
          timezoneId: 'Asia/Shanghai',
          colorScheme: options.colorScheme ?? 'light',
        });
        const page = await openAppPage(context, bridge, hash);
        pages.push(page);
        return page;
      },
    };
    harness.page = await harness.open();
    await use(harness);
    for (const p of pages) await p.context().close();
    await bridge.close();
    await core.dispose();
    await model?.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';

/**
 * True when the page renders the hanzi as real glyphs: a missing font shows every hanzi
 * as the same "tofu" box, identical to the box of an unassigned code point.
 */
export async function hanziRenderAsGlyphs(page: Page, sample = '随口记账'): Promise<boolean> {
  return page.evaluate((text) => {
    const draw = (ch: string) => {
      const canvas = document.createElement('canvas');
      canvas.width = 40;
      canvas.height = 40;
      const ctx = canvas.getContext('2d')!;
      ctx.font = `32px ${getComputedStyle(document.body).fontFamily}`;
      ctx.fillStyle = '#000';
      ctx.fillText(ch, 2, 32);
      return Array.from(ctx.getImageData(0, 0, 40, 40).data).join(',');
    };
    const tofu = draw('\u{10FFFD}');
    const glyphs = [...text].map(draw);
    return glyphs.every((g) => g !== tofu) && new Set(glyphs).size === glyphs.length;
  }, sample);
}

/**
 * Elements matching `selector` that stick out of the viewport or clip their own content
 * horizontally; empty when the layout fits (the 900×600 minimum window). Rows of a list
 * that scrolls vertically are checked with axes 'x'.
 */
export async function overflowingElements(page: Page, selector: string, axes: 'xy' | 'x' = 'xy'): Promise<string[]> {
  return page.evaluate(
    ([sel, axes]) => {
      const problems: string[] = [];
      const vw = document.documentElement.clientWidth;
      const vh = document.documentElement.clientHeight;
      for (const el of Array.from(document.querySelectorAll<HTMLElement>(sel))) {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('aria-label') ?? el.className;
        if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`${name}: x ${Math.round(r.left)}..${Math.round(r.right)} outside 0..${vw}`);
        if (axes === 'xy' && (r.top < -0.5 || r.bottom > vh + 0.5))
          problems.push(`${name}: y ${Math.round(r.top)}..${Math.round(r.bottom)} outside 0..${vh}`);
        if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name}: content ${el.scrollWidth}px wider than ${el.clientWidth}px`);
      }
      return problems;
    },
    [selector, axes] as const,
  );
}

/** Saves light and dark screenshots of the page as it is now, and checks hanzi render. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${colorScheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Opens a page of the main window by its route, as a click in the navigation does. */
export async function go(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${route}`);
}

/** Says one item through the 记账 page's text entry and confirms it, as a keyboard user does; waits for the row. */
export async function sayAndConfirm(app: AppHarness, text: string): Promise<void> {
  const { page } = app;
  const before = app.ledger.count();
  await go(page, 'session');
  const box = page.getByRole('textbox', { name: '文字输入' });
  for (const line of [text, '确认']) {
    await box.fill(line);
    await box.press('Enter');
    await expect(box).toHaveValue('');
  }
  await expect.poll(() => app.ledger.count()).toBe(before + 1);
}

/** The rows of 明细 (a grid: a day's heading is a row too, without a selection state). */
export function ledgerRows(scope: Page | Locator): Locator {
  return scope.getByRole('grid', { name: '明细列表' }).locator('[role="row"][aria-selected]');
}

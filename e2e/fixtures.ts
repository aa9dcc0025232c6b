import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, chromium, type Browser, type Page } from '@playwright/test';
import { createAppCore, type AppCore } from '../src/main/core/app-core';
import type { Ledger } from '../src/main/core/ledger/index';
import { API_GLOBAL, COMMAND_NAMES } from '../src/shared/ipc/names';
import { BRIDGE_PATH, startBridge, type Bridge } from './bridge/server';
import { installApiShim } from './bridge/shim';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Flags that keep Chromium from reaching for the network on a closed machine. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface AppHarness {
  page: Page;
  ledger: Ledger;
  core: AppCore;
  bridge: Bridge;
  dataDir: string;
  /** Opens the app (optionally another page, e.g. '#/quick') in a fresh page. */
  open(hash?: string, options?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
}

export const test = base.extend<{ app: AppHarness }, { browser: Browser }>({
  browser: [
    async ({}, use) => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  app: async ({ browser }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skj-e2e-'));
    const core = createAppCore({ dataDir, version: 'e2e' });
    const { ledger } = core;
    const bridge = await startBridge({ rendererDir: resolve('out/renderer'), dispatch: core.dispatch });
    core.onEvent((event) => bridge.broadcast(event));
    const pages: Page[] = [];
    const harness: AppHarness = {
      page: undefined as unknown as Page,
      ledger,
      core,
      bridge,
      dataDir,
      async open(hash = '', options = {}) {
        const context = await browser.newContext({
          viewport: { width: 900, height: 600 },
          locale: 'zh-CN',
          timezoneId: 'Asia/Shanghai',
          colorScheme: options.colorScheme ?? 'light',
        });
        const page = await context.newPage();
        page.on('pageerror', (err) => console.error('[page error]', err));
        await page.addInitScript(installApiShim, {
          globalName: API_GLOBAL,
          commandNames: [...COMMAND_NAMES],
          bridgePath: BRIDGE_PATH,
        });
        await page.goto(bridge.url + hash);
        pages.push(page);
        return page;
      },
    };
    harness.page = await harness.open();
    await use(harness);
    for (const p of pages) await p.context().close();
    await bridge.close();
    await core.dispose();
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

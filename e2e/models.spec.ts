import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { CatalogEntry } from '@core/models/index';
import { parseWav } from '@core/audio/wav';
import {
  buildModelArchive,
  removeTempDirs,
  SHARED_MODEL as MODEL,
  startArchiveServer,
  testEntry,
  sha256,
  type ArchiveServer,
} from '../test/support/model-fixtures';
import { ScriptedVoiceInput } from '../test/support/voice-doubles';
import { bootApp, expect, openAppPage, screenshots, test, type BootedApp, type BootOptions } from './fixtures';

// On-device recognition end to end: the real model manager downloads a `.tar.bz2` of the shared
// test model from a loopback server (slowly, so the progress bar is seen), extracts, verifies and
// smoke-decodes it; the first-use dialog then starts the mic, and the model's own test WAV,
// spoken into a scripted mic, comes back as text through the real engine.

const ID = 'e2e-zipformer-wenetspeech-3.3M';
/** 4.wav's tokens (the model's README), joined as the recognizer writes them. */
const WAV4_TEXT = 'j iǎng y ǒu b ó b èi p āi d ào d ài zh e n ǚ ér ch ū y óu'.replaceAll(' ', '');

test.describe.configure({ timeout: 90_000 });

test.skip(!existsSync(MODEL), 'on-device models (skipped when ../shared/models is absent)');

let archive: Buffer;
let server: ArchiveServer;
let catalog: CatalogEntry[];

test.beforeAll(async () => {
  if (!existsSync(MODEL)) return;
  archive = buildModelArchive(ID);
  server = await startArchiveServer();
  // 16 KiB pieces 5 ms apart: a few seconds of visible progress.
  server.serve(`/${ID}.tar.bz2`, { body: archive, pieceDelayMs: 5 });
  // Pinned like the catalog's recommended model, so the download needs no unverified consent.
  catalog = [
    {
      ...testEntry(ID, `${server.base}/${ID}.tar.bz2`, archive.length, { sha256: sha256(archive) }),
      name: '测试模型（共享 3.3M）',
      description: '拼音输出的流式模型',
    },
  ];
});
test.afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

async function withApp(
  browser: Browser,
  options: BootOptions,
  body: (app: BootedApp, open: (hash: string) => Promise<Page>, dataDir: string) => Promise<void>,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'skj-e2e-models-'));
  const context = await browser.newContext({ viewport: { width: 900, height: 600 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const app = await bootApp(dataDir, { ...options, models: { catalog } });
  try {
    await body(app, (hash) => openAppPage(context, app.bridge, hash), dataDir);
  } finally {
    await context.close();
    await app.bridge.close();
    await app.core.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('settings: 语音 is 离线 by default without a key; a download shows its progress, then 已就绪', async ({ browser }) => {
  await withApp(browser, {}, async (app, open, dataDir) => {
    const page = await open('#/settings');
    await expect(page.getByRole('radiogroup', { name: '语音识别方式' }).getByRole('radio', { name: /^离线/ })).toBeChecked();
    const model = page.getByRole('listitem', { name: '测试模型（共享 3.3M）' });
    await expect(model.getByTestId('model-state')).toHaveText('未下载');
    await expect(model).toContainText(`下载 ${(archive.length / 1024 / 1024).toFixed(1)} MB`);

    await model.getByRole('button', { name: '下载' }).click();
    await expect(model.getByRole('progressbar', { name: '下载进度' })).toBeVisible();
    await expect(model.getByRole('status')).toHaveText(/^\d+\.\d MB \/ \d+\.\d MB · \d+\.\d% · [\d.]+ (KB|MB)\/s$/);
    await screenshots(page, 'settings-model-downloading');
    await expect(model.getByTestId('model-state')).toHaveText('已就绪', { timeout: 60_000 });
    await expect(model).toContainText('正在使用');
    await expect(model).toContainText('占用 ');
    await expect(model.getByRole('progressbar')).toHaveCount(0);
    expect(app.core.settings.get().asr.provider).toBeUndefined();
    expect(existsSync(join(dataDir, 'models', ID, 'tokens.txt'))).toBe(true);
  });
});

test('the mic with no model: first-use dialog → 下载并开始 → progress → the mic starts and hears the model’s test WAV', async ({ browser }) => {
  const mic = new ScriptedVoiceInput();
  await withApp(browser, { voice: { createVoiceInput: () => mic } }, async (app, open) => {
    const heard: string[] = [];
    app.core.onEvent((e) => {
      if (e.channel === 'voice' && e.event.type === 'partialText') heard.push(e.event.text);
    });
    const page = await open('#/session');
    await page.getByRole('button', { name: '开始聆听' }).click();
    const dialog = page.getByRole('dialog', { name: '下载语音模型' });
    await expect(dialog).toContainText('测试模型（共享 3.3M）');
    expect(mic.startCalls).toBe(0);

    await dialog.getByRole('button', { name: '下载并开始' }).click();
    await expect(dialog.getByRole('progressbar', { name: '下载进度' })).toBeVisible();
    await expect(dialog.getByRole('status')).toHaveText(/MB \/ .* MB · \d+\.\d%/);
    await screenshots(page, 'session-first-use-downloading');
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await expect(page.getByRole('status', { name: '会话状态' })).toContainText('正在聆听');
    await expect.poll(() => mic.running).toBe(true);

    // The model's own recording, through the scripted mic, the VAD's events and the real engine.
    const wav = parseWav(readFileSync(join(MODEL, 'test_wavs/4.wav')));
    mic.speechStart();
    for (let at = 0; at < wav.samples.length; at += 480) mic.events.fire('frame', wav.samples.slice(at, at + 480));
    mic.speechEnd();
    // Partials while decoding, then the final text (pinyin, so the dialogue finds no amount in it).
    await expect.poll(() => heard.at(-1), { timeout: 15_000 }).toBe(WAV4_TEXT);
    expect(heard.length).toBeGreaterThan(1);
    await expect(page.getByRole('list', { name: '对话记录' })).toContainText('没听清金额');
  });
});

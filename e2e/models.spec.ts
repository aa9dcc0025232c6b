import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { CatalogEntry } from '@core/models/index';
import { parseWav } from '@core/audio/wav';
import { ScriptedVoiceInput } from '../test/support/voice-doubles';
import { bootApp, expect, openAppPage, screenshots, test, type BootedApp, type BootOptions } from './fixtures';

// On-device recognition end to end: the real model manager downloads a `.tar.bz2` of the shared
// test model from a loopback server (slowly, so the progress bar is seen), extracts, verifies and
// smoke-decodes it; the first-use dialog then starts the mic, and the model's own test WAV,
// spoken into a scripted mic, comes back as text through the real engine.

const MODEL = resolve('../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M');
const ID = 'e2e-zipformer-wenetspeech-3.3M';
/** 4.wav's tokens (the model's README), joined as the recognizer writes them. */
const WAV4_TEXT = 'j iǎng y ǒu b ó b èi p āi d ào d ài zh e n ǚ ér ch ū y óu'.replaceAll(' ', '');

interface ArchiveServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the archive in 64 KiB pieces 15 ms apart: a few seconds of visible progress. */
async function serveArchive(body: Buffer): Promise<ArchiveServer> {
  const server: Server = createServer((req, res) => {
    if (req.url !== `/${ID}.tar.bz2`) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Length': String(body.length), 'Content-Type': 'application/x-bzip2' });
    let at = 0;
    const next = () => {
      if (res.destroyed) return;
      const piece = body.subarray(at, at + 64 * 1024);
      at += piece.length;
      if (at >= body.length) res.end(piece);
      else res.write(piece, () => setTimeout(next, 15));
    };
    next();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${ID}.tar.bz2`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The shared model packed the way sherpa-onnx publishes its models (system tar + bzip2). */
function buildArchive(): Buffer {
  const work = mkdtempSync(join(tmpdir(), 'skj-e2e-archive-'));
  try {
    cpSync(MODEL, join(work, ID), { recursive: true });
    execFileSync('tar', ['-C', work, '-cjf', join(work, 'model.tar.bz2'), ID]);
    return readFileSync(join(work, 'model.tar.bz2'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

test.describe.configure({ timeout: 90_000 });

test.skip(!existsSync(MODEL), 'on-device models (skipped: ../shared/models absent)');

let archive: Buffer;
let server: ArchiveServer;
let catalog: CatalogEntry[];

test.beforeAll(async () => {
  if (!existsSync(MODEL)) return;
  archive = buildArchive();
  server = await serveArchive(archive);
  catalog = [
    {
      id: ID,
      name: '测试模型（共享 3.3M）',
      description: '拼音输出的流式模型',
      url: server.url,
      archiveBytes: archive.length,
      folder: ID,
      requiredFiles: [
        'encoder-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
        'decoder-epoch-12-avg-2-chunk-16-left-64.onnx',
        'joiner-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
        'tokens.txt',
      ],
      testWav: 'test_wavs/4.wav',
      recommended: true,
    },
  ];
});
test.afterAll(async () => server?.close());

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

test('settings: 本地识别 is the default without a key; a download shows its progress, then 已就绪', async ({ browser }) => {
  await withApp(browser, {}, async (app, open, dataDir) => {
    const page = await open('#/settings');
    await expect(page.getByRole('radio', { name: '本地识别（离线）' })).toBeChecked();
    const model = page.getByRole('listitem', { name: '测试模型（共享 3.3M）' });
    await expect(model.getByTestId('model-state')).toHaveText('未下载');
    await expect(model).toContainText(`下载大小 ${(archive.length / 1024 / 1024).toFixed(1)} MB`);

    await model.getByRole('button', { name: '下载' }).click();
    await expect(model.getByRole('progressbar', { name: '下载进度' })).toBeVisible();
    await expect(model.getByRole('status')).toHaveText(/^\d+\.\d MB \/ \d+\.\d MB · \d+\.\d% · [\d.]+ (KB|MB)\/s$/);
    await screenshots(page, 'settings-model-downloading');
    await expect(model.getByTestId('model-state')).toHaveText('已就绪', { timeout: 60_000 });
    await expect(model).toContainText('正在使用');
    await expect(model).toContainText('占用磁盘');
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

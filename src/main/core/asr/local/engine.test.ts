import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readWavPcm } from '../../../../../test/support/speech';
import type { AsrClient, AsrError } from '../../voice/ports';
import { AsrFailure } from '../errors';
import { createLocalAsrEngine, decodeWavFile, type LocalAsrResult } from './engine';
import type { LocalAsrEngine } from './types';
import { rejection as rejectionWith } from '../../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, AsrFailure);

const MODEL = fileURLToPath(new URL('../../../../../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M', import.meta.url));
const WAV4 = join(MODEL, 'test_wavs', '4.wav');
/** The model README's transcript of test_wavs/4.wav (蒋友伯被拍到带着女儿出游). */
const WAV4_TOKENS = 'j iǎng y ǒu b ó b èi p āi d ào d ài zh e n ǚ ér ch ū y óu'.split(' ');
const CHUNK = 1600; // 100 ms

/** Everything one client reports, in order. */
function record(client: AsrClient) {
  const events: { type: 'partial' | 'final'; text: string }[] = [];
  const errors: AsrError[] = [];
  const closed: boolean[] = [];
  let settle: (text: string) => void = () => undefined;
  const final = new Promise<string>((resolve) => (settle = resolve));
  client.on('partial', (text) => events.push({ type: 'partial', text }));
  client.on('final', (text) => {
    events.push({ type: 'final', text });
    settle(text);
  });
  client.on('error', (e) => errors.push(e));
  client.on('closed', (info) => closed.push(info.intentional));
  return { events, errors, closed, final };
}

function stream(client: AsrClient, pcm: Int16Array, until = pcm.length): void {
  for (let at = 0; at < until; at += CHUNK) client.sendAudio(pcm.subarray(at, Math.min(at + CHUNK, until)));
}

/** A writable copy of the shared model outside the project, to damage for a test. */
function modelCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'asr-local-model-'));
  for (const name of readdirSync(MODEL)) {
    if (!name.endsWith('.onnx') && name !== 'tokens.txt') continue;
    copyFileSync(join(MODEL, name), join(dir, name));
    chmodSync(join(dir, name), 0o644);
  }
  return dir;
}

/** The recognizer processes this test process started (their source defines `__name`). */
function recognizerPids(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'const __name'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe('local recognition: model checks that need no model', () => {
  it('a missing model folder is model_incomplete, before any process starts', async () => {
    const err = await rejection(decodeWavFile(join(tmpdir(), 'no-such-model-folder'), 'x.wav'));
    expect(err.code).toBe('model_incomplete');
    expect(err.message).toMatch(/^找不到语音模型文件夹：/);
    expect(recognizerPids()).toEqual([]);
  });

  it('a folder without tokens.txt is model_incomplete naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asr-local-empty-'));
    try {
      for (const f of ['encoder.onnx', 'decoder.onnx', 'joiner.onnx']) writeFileSync(join(dir, f), 'x');
      const engine = createLocalAsrEngine({ modelDir: dir });
      const err = await rejection(engine.ready());
      expect(err.code).toBe('model_incomplete');
      expect(err.message).toContain('模型文件夹缺少 tokens.txt');
      await engine.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!existsSync(MODEL))('local recognition with the shared test model (skipped when ../shared/models is absent)', () => {
  const engines: LocalAsrEngine[] = [];
  const temps: string[] = [];
  const engine = (onResult?: (r: LocalAsrResult) => void) => {
    const e = createLocalAsrEngine({ modelDir: MODEL, onResult, log: () => undefined });
    engines.push(e);
    return e;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
    for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
  });
  afterAll(() => expect(recognizerPids()).toEqual([]));

  it('decodeWavFile: test_wavs/4.wav gives the README transcript, and no recognizer outlives it', async () => {
    const result = await decodeWavFile(MODEL, WAV4);
    expect(result.tokens).toEqual(WAV4_TOKENS);
    // The text is sherpa-onnx's, untouched: a pinyin model's tokens run together.
    expect(result.text).toBe(WAV4_TOKENS.join(''));
    expect(recognizerPids()).toEqual([]);
  });

  it('decodeWavFile: a corrupt encoder is model_refused with onnxruntime’s reason, and the caller survives', async () => {
    const dir = modelCopy();
    temps.push(dir);
    const encoder = readdirSync(dir).find((n) => n.startsWith('encoder'))!;
    writeFileSync(join(dir, encoder), Buffer.alloc(50_000, 7));
    const err = await rejection(decodeWavFile(dir, WAV4));
    expect(err.code).toBe('model_refused');
    expect(err.message).toMatch(/^语音模型无法加载：Load model from .*encoder.* failed/);
  });

  it('decodeWavFile: a WAV the runtime cannot read is model_refused', async () => {
    const err = await rejection(decodeWavFile(MODEL, join(tmpdir(), 'no-such.wav')));
    expect(err.code).toBe('model_refused');
    expect(err.message).toContain('no-such.wav');
  });

  it('streams 4.wav in 100 ms chunks: partials grow before the final, whose tokens are the transcript', async () => {
    const results: LocalAsrResult[] = [];
    const client = engine((r) => results.push(r)).createClient();
    const seen = record(client);
    expect(client.connected).toBe(false);
    await client.connect();
    expect(client.connected).toBe(true);
    stream(client, readWavPcm(WAV4));
    client.commit();
    const text = await seen.final;
    expect(results).toEqual([{ text, tokens: WAV4_TOKENS }]);
    const partials = seen.events.filter((e) => e.type === 'partial').map((e) => e.text);
    expect(partials.length).toBeGreaterThan(2);
    expect(seen.events.at(-1)).toEqual({ type: 'final', text });
    // Greedy transducer search only ever appends tokens: each partial extends the one before.
    partials.forEach((p, i) => expect(p.startsWith(partials[i - 1] ?? '') && text.startsWith(p)).toBe(true));
    await client.close();
    expect(client.connected).toBe(false);
    expect(seen.closed).toEqual([true]);
    expect(seen.errors).toEqual([]);
  });

  it('two clients at once decode independently', async () => {
    const e = engine();
    const pcm4 = readWavPcm(WAV4);
    const pcm0 = readWavPcm(join(MODEL, 'test_wavs', '0.wav'));
    const expected0 = (await decodeWavFile(MODEL, join(MODEL, 'test_wavs', '0.wav'))).text;
    const [a, b] = [e.createClient(), e.createClient()];
    const [ra, rb] = [record(a), record(b)];
    await Promise.all([a.connect(), b.connect()]);
    // Interleaved, as two utterances would arrive if they overlapped.
    for (let at = 0; at < Math.max(pcm4.length, pcm0.length); at += CHUNK) {
      if (at < pcm4.length) a.sendAudio(pcm4.subarray(at, at + CHUNK));
      if (at < pcm0.length) b.sendAudio(pcm0.subarray(at, at + CHUNK));
    }
    a.commit();
    b.commit();
    expect(await ra.final).toBe(WAV4_TOKENS.join(''));
    expect(await rb.final).toBe(expected0);
    expect(expected0).not.toBe(WAV4_TOKENS.join(''));
  });

  it('close mid-utterance: no final for that client, and the engine serves the next one', async () => {
    const e = engine();
    const pcm = readWavPcm(WAV4);
    const first = e.createClient();
    const seenFirst = record(first);
    await first.connect();
    stream(first, pcm, pcm.length / 2);
    await first.close();
    first.commit();
    const second = e.createClient();
    const seenSecond = record(second);
    await second.connect();
    stream(second, pcm);
    second.commit();
    expect(await seenSecond.final).toBe(WAV4_TOKENS.join(''));
    expect(seenFirst.events.filter((x) => x.type === 'final')).toEqual([]);
    expect(seenFirst.closed).toEqual([true]);
    expect(seenFirst.errors).toEqual([{ code: 'not_connected', message: '语音识别未连接' }]);
  });

  it('a client reused for a second utterance starts from a fresh stream', async () => {
    const client = engine().createClient();
    const finals: string[] = [];
    client.on('final', (t) => finals.push(t));
    await client.connect();
    const pcm = readWavPcm(WAV4);
    for (let round = 0; round < 2; round++) {
      const next = new Promise<void>((resolve) => client.on('final', () => resolve()));
      stream(client, pcm);
      client.commit();
      await next;
    }
    expect(finals).toEqual([WAV4_TOKENS.join(''), WAV4_TOKENS.join('')]);
  });

  it('a recognizer that dies fails every open client with engine_failed, and the engine starts again', async () => {
    const e = engine();
    const [a, b] = [e.createClient(), e.createClient()];
    const [ra, rb] = [record(a), record(b)];
    await Promise.all([a.connect(), b.connect()]);
    const pids = recognizerPids();
    expect(pids).toHaveLength(1);
    const failed = new Promise<void>((resolve) => b.on('error', () => resolve()));
    process.kill(pids[0]!, 'SIGKILL');
    await failed;
    for (const seen of [ra, rb]) expect(seen.errors.map((x) => x.code)).toEqual(['engine_failed']);
    expect(rb.errors[0]!.message).toMatch(/^本地语音识别意外停止/);
    expect([a.connected, b.connected]).toEqual([false, false]);

    const again = e.createClient();
    const seen = record(again);
    await again.connect();
    stream(again, readWavPcm(WAV4));
    again.commit();
    expect(await seen.final).toBe(WAV4_TOKENS.join(''));
  });

  it('dispose while the model loads rejects the waiting connect as engine_failed, not as a refused model', async () => {
    const e = engine();
    const connecting = rejection(e.createClient().connect());
    await e.dispose();
    const err = await connecting;
    expect([err.code, err.message]).toEqual(['engine_failed', '本地语音识别已关闭']);
  });

  it('dispose ends the recognizer and reports closed to the open clients', async () => {
    const e = engine();
    const client = e.createClient();
    const seen = record(client);
    await client.connect();
    expect(recognizerPids()).toHaveLength(1);
    await e.dispose();
    expect(seen.closed).toEqual([true]);
    expect(client.connected).toBe(false);
    expect(recognizerPids()).toEqual([]);
    expect((await rejection(e.createClient().connect())).code).toBe('engine_failed');
  });
});

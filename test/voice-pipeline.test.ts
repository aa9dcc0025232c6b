// The whole voice path with real parts: espeak-ng Mandarin → virtual microphone (ALSA file
// plugin, read by PortAudio through naudiodon) → node-vad segmenter → DashScope realtime
// protocol over a loopback WebSocket → local NLP → drafts → 「确认」 → a row in the SQLite
// file. The only stand-in is the cloud ASR engine, which answers in its exact wire protocol.
// PortAudio reads the ALSA config once per process: nothing opens the mic before beforeAll.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsrToken } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { createAppCore, type AppCore } from '@core/app-core';
import { createStaticTokenProvider } from '@core/asr/index';
import { startDashScopeServer, type ScriptedAsrServer } from './support/asr-servers';
import { composeProgram, renderMandarin, tempDir, writeRaw } from './support/speech';
import { useVirtualMics } from './support/virtual-mic';

const dir = tempDir('skj-voice-pipeline-');
let server: ScriptedAsrServer;
let core: AppCore;
const events: VoiceEvent[] = [];

beforeAll(async () => {
  const program = composeProgram([{ silenceMs: 1000 }, { clip: renderMandarin('午饭三十五块') }, { silenceMs: 3000 }]);
  writeRaw(join(dir.path, 'speech.raw'), program.pcm);
  useVirtualMics(dir.path, [{ name: 'speech', rawPath: join(dir.path, 'speech.raw') }]);
  server = await startDashScopeServer(['午饭35块']);
  const tokens = createStaticTokenProvider(async (): Promise<AsrToken> => ({
    token: 'loopback',
    expiresAt: Math.floor(Date.now() / 1000) + 600,
    model: 'qwen3-asr-flash-realtime',
    wsUrl: server.url,
  }));
  mkdirSync(join(dir.path, 'data'));
  core = createAppCore({
    dataDir: join(dir.path, 'data'),
    version: 'test',
    log: () => {},
    voice: {
      mode: 'auto',
      understanding: { mode: 'offline' },
      asr: { protocol: 'dashscope', tokens },
      tts: { engine: 'log', log: () => {} },
    },
  });
  core.onEvent((e) => {
    if (e.channel === 'voice') events.push(e.event);
  });
});

afterAll(async () => {
  await core?.dispose();
  await server?.close();
  dir.remove();
});

async function until(predicate: () => boolean, what: string): Promise<void> {
  // Real device I/O and a real socket: poll, bounded.
  const deadline = Date.now() + 20_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('voice pipeline with real parts', () => {
  it('speech from the microphone becomes a draft, and 「确认」 writes it to the SQLite file', async () => {
    const started = await core.dispatch('voiceStart', { mode: 'auto' });
    expect(started.ok).toBe(true);
    await until(() => events.some((e) => e.type === 'finalText'), 'finalText');

    const states = events.flatMap((e) => (e.type === 'stateChanged' ? [e.state] : []));
    expect(states.slice(0, 3)).toEqual(['listening', 'recognizing', 'confirming']);
    expect(events.some((e) => e.type === 'speechDetected')).toBe(true);
    expect(events.some((e) => e.type === 'partialText')).toBe(true);
    const final = events.find((e) => e.type === 'finalText');
    expect(final?.type === 'finalText' && final.text).toBe('午饭35块');
    expect(final?.type === 'finalText' && final.batch.items.map((i) => [i.result.amount, i.result.category])).toEqual([[35, '餐饮']]);

    // The socket saw the DashScope session set-up, audio and one commit.
    const frames = server.frames.flat().filter((f): f is Record<string, unknown> => !Buffer.isBuffer(f));
    expect(frames[0]?.type).toBe('session.update');
    expect(frames.filter((f) => f.type === 'input_audio_buffer.append').length).toBeGreaterThan(10);
    expect(frames.filter((f) => f.type === 'input_audio_buffer.commit')).toHaveLength(1);

    const confirmed = await core.dispatch('voiceText', { text: '确认' });
    expect(confirmed.ok).toBe(true);
    expect(events.some((e) => e.type === 'saved')).toBe(true);

    const db = new Database(join(dir.path, 'data', 'ledger.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT amount_fen AS fen, type, source FROM transactions').all();
      expect(rows).toEqual([{ fen: 3500, type: 'EXPENSE', source: 'local' }]);
    } finally {
      db.close();
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { AsrToken } from '@shared/domain';
import { startDashScopeServer, startFunAsrServer, type ScriptedAsrServer } from '../../../../test/support/asr-servers';
import { pcmToBytes } from '../audio/pcm';
import { createAsrClient, type AsrClientOptions } from './client';
import { createStaticTokenProvider } from './tokens';

/** Waits for real socket I/O (the loopback server), not for time: timers use the FakeClock. */
async function until(predicate: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** 100 ms of a recognisable ramp, so replayed audio can be compared byte for byte. */
const chunk = (seed: number) => Int16Array.from({ length: 1600 }, (_, i) => ((seed * 1000 + i) % 20000) - 10000);

let servers: ScriptedAsrServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function dashscope(transcripts: string[]) {
  const server = await startDashScopeServer(transcripts);
  servers.push(server);
  return server;
}

function harness(server: ScriptedAsrServer, overrides: Partial<AsrClientOptions> = {}) {
  const clock = new FakeClock();
  let minted = 0;
  const tokens = createStaticTokenProvider(async (): Promise<AsrToken> => {
    minted++;
    return { token: `tok-${minted}`, expiresAt: Math.floor(clock.now() / 1000) + 600, model: 'qwen3-asr-flash-realtime', wsUrl: server.url };
  }, clock);
  let recognizing = true;
  const logs: string[] = [];
  const client = createAsrClient({
    protocol: 'dashscope',
    tokens,
    clock,
    shouldReconnect: () => recognizing,
    log: (m) => logs.push(m),
    ...overrides,
  });
  const seen = {
    partial: [] as string[],
    final: [] as string[],
    error: [] as { code: string; message: string }[],
    closed: [] as boolean[],
    reconnecting: [] as { attempt: number; delayMs: number }[],
    reconnected: 0,
  };
  client.on('partial', (t) => seen.partial.push(t));
  client.on('final', (t) => seen.final.push(t));
  client.on('error', (e) => seen.error.push(e));
  client.on('closed', (i) => seen.closed.push(i.intentional));
  client.on('reconnecting', (i) => seen.reconnecting.push(i));
  client.on('reconnected', () => seen.reconnected++);
  return {
    clock,
    client,
    seen,
    logs,
    minted: () => minted,
    setRecognizing: (v: boolean) => (recognizing = v),
  };
}

const json = (frames: (Record<string, unknown> | Buffer)[]) => frames.filter((f): f is Record<string, unknown> => !Buffer.isBuffer(f));

describe('DashScope realtime adapter', () => {
  it('configures the session, streams base64 PCM, surfaces partials and the final text on commit', async () => {
    const server = await dashscope(['午饭三十五']);
    const h = harness(server);
    await h.client.connect();
    for (let i = 0; i < 12; i++) h.client.sendAudio(chunk(i));
    h.client.commit();
    await until(() => h.seen.final.length === 1, 'final');

    expect(h.seen.final).toEqual(['午饭三十五']);
    expect(h.seen.partial).toEqual(['午', '午饭', '午饭三', '午饭三十', '午饭三十五']);
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer tok-1');
    expect(new URL(req.url, 'ws://x').searchParams.get('model')).toBe('qwen3-asr-flash-realtime');
    const frames = json(server.frames[0]!);
    expect(frames[0]).toMatchObject({
      type: 'session.update',
      session: { input_audio_format: 'pcm', sample_rate: 16000, input_audio_transcription: { language: 'zh' }, turn_detection: null },
    });
    const appends = frames.filter((f) => f.type === 'input_audio_buffer.append');
    expect(appends).toHaveLength(12);
    expect(Buffer.from(String(appends[3]!.audio), 'base64')).toEqual(pcmToBytes(chunk(3)));
    expect(frames.at(-1)).toMatchObject({ type: 'input_audio_buffer.commit' });
    expect(frames.every((f) => typeof f.event_id === 'string')).toBe(true);
    await h.client.close();
  });

  it('sends audio given before the socket opened (the pre-roll) first, in order', async () => {
    const server = await dashscope(['打车二十']);
    const h = harness(server);
    h.client.sendAudio(chunk(1));
    h.client.sendAudio(chunk(2));
    const connecting = h.client.connect();
    h.client.sendAudio(chunk(3));
    await connecting;
    h.client.sendAudio(chunk(4));
    h.client.commit();
    await until(() => h.seen.final.length === 1, 'final');
    const audio = json(server.frames[0]!)
      .filter((f) => f.type === 'input_audio_buffer.append')
      .map((f) => Buffer.from(String(f.audio), 'base64'));
    expect(audio).toEqual([1, 2, 3, 4].map((n) => pcmToBytes(chunk(n))));
    await h.client.close();
  });

  it('tolerates unknown fields, logs unknown event types, and reports server errors', async () => {
    const server = await dashscope(['你好']);
    const h = harness(server);
    await h.client.connect();
    server.sendRaw(JSON.stringify({ type: 'response.brand_new_event', foo: 1 }));
    server.sendRaw('not json at all');
    server.sendRaw(JSON.stringify({ type: 'conversation.item.input_audio_transcription.completed', transcript: '好的', extra: { nested: true } }));
    server.sendRaw(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_value', message: 'bad audio' } }));
    await until(() => h.seen.error.length === 1, 'error');
    expect(h.seen.final).toEqual(['好的']);
    expect(h.seen.error).toEqual([{ code: 'server_error', message: 'bad audio（invalid_value）' }]);
    expect(h.logs.some((l) => l.includes('response.brand_new_event'))).toBe(true);
    expect(h.logs.some((l) => l.includes('not json'))).toBe(true);
    await h.client.close();
  });

  it('fails connect() with connect_failed and drops the cached token when the server refuses', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    server.refuseNext(1, 401);
    await expect(h.client.connect()).rejects.toMatchObject({ code: 'connect_failed' });
    await h.client.connect();
    expect(h.minted()).toBe(2);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    await h.client.close();
  });
});

describe('reconnect policy', () => {
  it('an intentional close never reconnects', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    await h.client.close();
    await h.clock.advance(10_000);
    expect(h.seen.closed).toEqual([true]);
    expect(h.seen.reconnecting).toEqual([]);
    expect(server.connections).toBe(1);
  });

  it('does not reconnect when the socket drops outside RECOGNIZING', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    h.setRecognizing(false);
    server.dropAll();
    await until(() => h.seen.closed.length === 1, 'closed');
    await h.clock.advance(10_000);
    expect(h.seen.closed).toEqual([false]);
    expect(h.seen.reconnecting).toEqual([]);
    expect(h.minted()).toBe(1);
  });

  it('reconnects after 1 s with a fresh token and replays the utterance so the final text still arrives', async () => {
    const server = await dashscope(['工资九千']);
    const h = harness(server);
    await h.client.connect();
    h.client.sendAudio(chunk(1));
    h.client.sendAudio(chunk(2));
    await until(() => server.frames[0]!.length === 3, 'audio at server');
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 1, 'reconnecting');
    expect(h.seen.reconnecting).toEqual([{ attempt: 1, delayMs: 1000 }]);
    h.client.sendAudio(chunk(3));
    h.client.commit();

    await h.clock.advance(999);
    expect(h.minted()).toBe(1);
    await h.clock.advance(1);
    expect(h.minted()).toBe(2);
    await until(() => h.seen.final.length === 1, 'final after reconnect');
    expect(h.seen.reconnected).toBe(1);
    expect(h.seen.final).toEqual(['工资九千']);
    expect(server.requests[1]!.headers.authorization).toBe('Bearer tok-2');
    const replayed = json(server.frames[1]!)
      .filter((f) => f.type === 'input_audio_buffer.append')
      .map((f) => Buffer.from(String(f.audio), 'base64'));
    expect(replayed).toEqual([1, 2, 3].map((n) => pcmToBytes(chunk(n))));
    await h.client.close();
  });

  it('waits 1 s, 2 s, 4 s between three failing attempts, each with a new token, then reports reconnect_failed', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    server.refuseNext(3);
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 1, 'first reconnecting');
    const t0 = h.clock.now();
    const attemptTimes: number[] = [];
    for (const [n, delay] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ] as const) {
      await h.clock.advance(delay - 1);
      expect(h.minted()).toBe(n);
      await h.clock.advance(1);
      expect(h.minted()).toBe(n + 1);
      attemptTimes.push(h.clock.now() - t0);
      await until(() => server.requests.length === n + 1, `attempt ${n} reached the server`);
      if (n < 3) await until(() => h.seen.reconnecting.length === n + 1, `reconnecting ${n + 1}`);
    }
    await until(() => h.seen.error.length === 1, 'reconnect_failed');
    expect(attemptTimes).toEqual([1000, 3000, 7000]);
    expect(h.seen.reconnecting.map((r) => r.delayMs)).toEqual([1000, 2000, 4000]);
    expect(h.seen.error[0]!.code).toBe('reconnect_failed');
    expect(server.requests.slice(1).map((r) => r.headers.authorization)).toEqual(['Bearer tok-2', 'Bearer tok-3', 'Bearer tok-4']);
    await h.clock.advance(60_000);
    expect(server.requests).toHaveLength(4);
  });

  it('a successful reconnect resets the attempt count', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    server.refuseNext(1);
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 1, 'reconnecting');
    await h.clock.advance(1000);
    await until(() => h.seen.reconnecting.length === 2, 'second attempt scheduled');
    await h.clock.advance(2000);
    await until(() => h.seen.reconnected === 1, 'reconnected');
    expect(h.client.reconnectAttempts).toBe(0);
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 3, 'reconnecting after second drop');
    expect(h.seen.reconnecting.at(-1)).toEqual({ attempt: 1, delayMs: 1000 });
    await h.client.close();
  });

  it('stops reconnecting if the orchestrator leaves RECOGNIZING during the backoff', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 1, 'reconnecting');
    h.setRecognizing(false);
    await h.clock.advance(10_000);
    expect(h.minted()).toBe(1);
    expect(server.connections).toBe(1);
  });
});

describe('reconnect policy: close during the backoff', () => {
  it('close() while waiting to reconnect cancels the attempt', async () => {
    const server = await dashscope([]);
    const h = harness(server);
    await h.client.connect();
    server.dropAll();
    await until(() => h.seen.reconnecting.length === 1, 'reconnecting');
    await h.client.close();
    await h.clock.advance(10_000);
    expect(h.minted()).toBe(1);
    expect(h.seen.error).toEqual([]);
  });
});

describe('FunASR 2pass adapter', () => {
  it('after a drop it reopens the session with a new config and replays the utterance', async () => {
    const server = await startFunAsrServer(['收到红包两百']);
    servers.push(server);
    const clock = new FakeClock();
    const client = createAsrClient({ protocol: 'funasr', url: server.url, clock, shouldReconnect: () => true });
    const final: string[] = [];
    client.on('final', (t) => final.push(t));
    await client.connect();
    for (let i = 0; i < 5; i++) client.sendAudio(chunk(i));
    await until(() => server.frames[0]!.length === 6, 'audio at server');
    server.dropAll();
    await until(() => !client.connected, 'drop noticed');
    client.sendAudio(chunk(5));
    client.commit();
    await clock.advance(1000);
    await until(() => final.length === 1, 'final after reconnect');
    expect(final).toEqual(['收到红包两百']);
    const frames = server.frames[1]!;
    expect(frames[0]).toMatchObject({ mode: '2pass', is_speaking: true });
    expect(frames.slice(1, 7)).toEqual([0, 1, 2, 3, 4, 5].map((n) => pcmToBytes(chunk(n))));
    expect(frames[7]).toEqual({ is_speaking: false });
    await client.close();
  });

  it('opens with the JSON config, streams binary PCM, replaces online fragments with the offline sentence, ends on is_final', async () => {
    const server = await startFunAsrServer(['吃饭花了六十', '打车三十']);
    servers.push(server);
    const clock = new FakeClock();
    const client = createAsrClient({ protocol: 'funasr', url: server.url, clock, shouldReconnect: () => true, hotwords: ['随口记', '工资'] });
    const partial: string[] = [];
    const final: string[] = [];
    client.on('partial', (t) => partial.push(t));
    client.on('final', (t) => final.push(t));
    await client.connect();
    for (let i = 0; i < 12; i++) client.sendAudio(chunk(i));
    client.commit();
    await until(() => final.length === 1, 'first final');
    for (let i = 0; i < 8; i++) client.sendAudio(chunk(i));
    client.commit();
    await until(() => final.length === 2, 'second final');

    expect(final).toEqual(['吃饭花了六十', '打车三十']);
    expect(partial.slice(0, 6)).toEqual(['吃', '吃饭', '吃饭花', '吃饭花了', '吃饭花了六', '吃饭花了六十']);
    const frames = server.frames[0]!;
    const config = frames[0] as Record<string, unknown>;
    expect(config).toMatchObject({ mode: '2pass', chunk_size: [5, 10, 5], is_speaking: true, itn: true, wav_name: 'suikouji' });
    expect(JSON.parse(String(config.hotwords))).toEqual({ 随口记: 20, 工资: 20 });
    expect(frames[1]).toEqual(pcmToBytes(chunk(0)));
    expect(frames[13]).toEqual({ is_speaking: false });
    // The second utterance opens a new FunASR session on the same socket.
    expect(frames[14]).toMatchObject({ mode: '2pass', is_speaking: true });
    expect(server.connections).toBe(1);
    await client.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import { startDashScopeServer, type ScriptedAsrServer } from '../../../../test/support/asr-servers';
import { createAsrClient } from './client';
import { createPushToTalk } from './push-to-talk';
import { createStaticTokenProvider } from './tokens';

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const frame = (n: number) => new Int16Array(480).fill(n);

let server: ScriptedAsrServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(transcripts: string[]) {
  server = await startDashScopeServer(transcripts);
  const clock = new FakeClock();
  const url = server.url;
  const tokens = createStaticTokenProvider(
    async () => ({ token: 't', expiresAt: Math.floor(clock.now() / 1000) + 600, model: 'qwen3-asr-flash-realtime', wsUrl: url }),
    clock,
  );
  const client = createAsrClient({ protocol: 'dashscope', tokens, clock, shouldReconnect: () => false, log: () => undefined });
  const ptt = createPushToTalk({ client, clock });
  const appended = () => (server!.frames[0] ?? []).filter((f) => !Buffer.isBuffer(f) && f.type === 'input_audio_buffer.append').length;
  return { clock, client, ptt, server, appended };
}

describe('push-to-talk', () => {
  it('a hold shorter than 600 ms is too short and sends nothing', async () => {
    const { clock, ptt, server } = await setup(['x']);
    ptt.press(new Int16Array(8000));
    for (let i = 0; i < 10; i++) {
      ptt.audio(frame(i));
      await clock.advance(59);
    }
    const result = await ptt.release();
    expect(result).toEqual({ kind: 'tooShort', heldMs: 590 });
    await clock.advance(10_000);
    expect(server.connections).toBe(0);
  });

  it('streams after 600 ms (pre-roll and held frames first), commits on release and returns the final text', async () => {
    const { clock, ptt, server, appended } = await setup(['早餐十二块']);
    ptt.press(new Int16Array(8000).fill(7));
    for (let i = 0; i < 40; i++) {
      ptt.audio(frame(i));
      await clock.advance(30);
    }
    const result = await ptt.release();
    expect(result).toEqual({ kind: 'final', text: '早餐十二块' });
    // 1 pre-roll + 40 frames, in order, then the commit.
    expect(appended()).toBe(41);
    const frames = server.frames[0]!.filter((f) => !Buffer.isBuffer(f));
    expect(frames.at(-1)).toMatchObject({ type: 'input_audio_buffer.commit' });
  });

  it('gives up after 8 s without a final text and returns the last partial', async () => {
    const { clock, client, ptt, server } = await setup(['这句话没有结果']);
    server.answerCommits = false;
    let partials = 0;
    client.on('partial', () => (partials += 1));
    ptt.press();
    for (let i = 0; i < 60; i++) {
      ptt.audio(frame(i));
      await clock.advance(30);
    }
    await until(() => server.connections === 1, 'connection');
    const pending = ptt.release();
    await until(() => (server.frames[0] ?? []).some((f) => !Buffer.isBuffer(f) && f.type === 'input_audio_buffer.commit'), 'commit');
    // The partial travels over a real socket: on a busy machine it may land after the commit.
    await until(() => partials > 0, 'a partial');
    let settled = false;
    void pending.then(() => (settled = true));
    await clock.advance(7999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const result = await pending;
    expect(result).toMatchObject({ kind: 'noResult', reason: 'timeout' });
    expect(result.kind === 'noResult' && result.partial.length).toBeGreaterThan(0);
  });
});

// Real PortAudio capture through naudiodon from a virtual microphone (ALSA file plugin), real
// node-vad, real espeak-ng speech. PortAudio reads the ALSA config once per process; vitest
// runs each test file in its own process, and nothing here loads naudiodon before
// useVirtualMics() has set ALSA_CONFIG_PATH.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import { composeProgram, renderMandarin, tempDir, writeRaw } from '../../../../test/support/speech';
import { useVirtualMics } from '../../../../test/support/virtual-mic';
import { samplesToMs } from './pcm';
import type { SegmenterEvent } from './segmenter';
import { createVoiceInput, listInputDevices, type MicVoiceInput } from './index';

const dir = tempDir('skj-mic-');
let speech: { startMs: number; endMs: number }[] = [];
let programMs = 0;
let quietMs = 0;

beforeAll(() => {
  const clips = ['午饭三十五块', '打车花了二十', '工资收到九千'].map(renderMandarin);
  const program = composeProgram([
    { silenceMs: 1000 },
    { clip: clips[0]! },
    { silenceMs: 2000 },
    { clip: clips[1]! },
    { silenceMs: 2000 },
    { clip: clips[2]! },
    { silenceMs: 500 },
  ]);
  speech = program.speech;
  programMs = samplesToMs(program.pcm.length);
  const quiet = composeProgram([{ silenceMs: 2000 }, { noiseMs: 4000, amplitude: 60 }]);
  quietMs = samplesToMs(quiet.pcm.length);
  writeRaw(join(dir.path, 'speech.raw'), program.pcm);
  writeRaw(join(dir.path, 'quiet.raw'), quiet.pcm);
  useVirtualMics(dir.path, [
    { name: 'speech', rawPath: join(dir.path, 'speech.raw') },
    { name: 'quiet', rawPath: join(dir.path, 'quiet.raw') },
  ]);
});

afterAll(() => dir.remove());

/**
 * Resolves once the VAD has judged `ms` of captured audio. The device is real, so this waits
 * on real I/O (the file plays faster than real time), polling the input's progress.
 */
async function captureUntil(input: MicVoiceInput, ms: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (input.analysedMs < ms) {
    if (Date.now() > deadline) throw new Error(`only ${input.analysedMs} ms analysed`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('virtual microphone → naudiodon → node-vad → segmenter', () => {
  it('lists the input devices with names and marks the default', async () => {
    const devices = await listInputDevices();
    expect(devices.map((d) => d.name).sort()).toEqual(['default', 'quiet']);
    expect(devices.filter((d) => d.isDefault).map((d) => d.name)).toEqual(['default']);
  });

  it('reports each spoken utterance once, with boundaries within ±150 ms of the speech', async () => {
    const input = createVoiceInput({ silenceMs: 1000 });
    const segments: SegmenterEvent[] = [];
    const order: string[] = [];
    input.on('segment', (e) => segments.push(e));
    input.on('speechStart', () => order.push('start'));
    input.on('speechEnd', () => order.push('end'));
    await input.start();
    // 1.2 s of trailing zeros (after the file ends) lets the last utterance close.
    await captureUntil(input, programMs + 1200);
    await input.stop();

    const ends = segments.filter((e) => e.type === 'speechEnd');
    expect(order).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
    expect(ends).toHaveLength(3);
    ends.forEach((e, i) => {
      expect(Math.abs(e.startMs - speech[i]!.startMs)).toBeLessThanOrEqual(150);
      expect(Math.abs(e.endMs - speech[i]!.endMs)).toBeLessThanOrEqual(150);
    });
    expect(input.preRoll()).toHaveLength(8000);
  });

  it('frames are PCM16 of the requested 10/20/30 ms size', async () => {
    const input = createVoiceInput({ frameMs: 20 });
    const sizes = new Set<number>();
    input.on('frame', (f) => sizes.add(f.length));
    await input.start();
    await captureUntil(input, 600);
    await input.stop();
    expect([...sizes]).toEqual([320]);
  });

  it('hears nothing from a chosen device that only has silence and quiet noise', async () => {
    const quiet = (await listInputDevices()).find((d) => d.name === 'quiet')!;
    const input = createVoiceInput({ deviceId: quiet.id });
    const events: string[] = [];
    input.on('speechStart', () => events.push('speechStart'));
    input.on('misfire', () => events.push('misfire'));
    await input.start();
    await captureUntil(input, quietMs + 500);
    await input.stop();
    expect(events.filter((e) => e === 'speechStart')).toEqual([]);
  });

  it('start and stop are idempotent and nothing is emitted after stop resolves', async () => {
    const input = createVoiceInput();
    await Promise.all([input.start(), input.start()]);
    expect(input.running).toBe(true);
    await captureUntil(input, 300);
    await Promise.all([input.stop(), input.stop()]);
    expect(input.running).toBe(false);
    let late = 0;
    input.on('frame', () => late++);
    await new Promise((r) => setImmediate(r));
    expect(late).toBe(0);
    // A fresh start after stop works (the orchestrator restarts sessions).
    await input.start();
    await captureUntil(input, 300);
    await input.stop();
  });

  it('pauseVad ignores speech (TTS playing) without stopping capture; resumeVad hears the next utterance', async () => {
    const input = createVoiceInput({ silenceMs: 1000 });
    const starts: number[] = [];
    input.on('segment', (e) => {
      if (e.type === 'speechStart') starts.push(e.startMs);
    });
    const resumeAt = speech[0]!.endMs + 1000;
    input.on('vad', (d) => {
      if (d.atMs >= resumeAt) input.resumeVad();
    });
    await input.start();
    input.pauseVad();
    await captureUntil(input, programMs + 1200);
    expect(input.running).toBe(true);
    await input.stop();
    expect(starts).toHaveLength(2);
    expect(Math.abs(starts[0]! - speech[1]!.startMs)).toBeLessThanOrEqual(150);
  });

  it('a device that stops delivering audio is reported as device_lost and released', async () => {
    const clock = new FakeClock();
    const input = createVoiceInput({ clock, stallTimeoutMs: 1000 });
    const errors: { code: string }[] = [];
    input.on('error', (e) => errors.push(e));
    await input.start();
    await captureUntil(input, 300);
    // From the clock's point of view no audio arrives while it jumps ahead 1.5 s.
    await clock.advance(1500);
    await until(() => errors.length === 1);
    expect(errors[0]!.code).toBe('device_lost');
    expect(input.running).toBe(false);
  });

  it('rejects an unknown device with a typed no_device error', async () => {
    const input = createVoiceInput({ deviceId: 9999 });
    await expect(input.start()).rejects.toMatchObject({ code: 'no_device', message: expect.stringContaining('麦克风') });
    expect(input.running).toBe(false);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/speech';
import { parseWav } from '../audio/wav';
import { renderWav } from './espeak';
import { createTts, resolveEngine, type TtsError } from './index';
import { pickMacVoice, pickWindowsVoice } from './say-voice';

const dir = tempDir('skj-tts-');
const SENTENCE = '午饭三十五块，记好了';
let sentenceMs = 0;

beforeAll(async () => {
  // No sound card here: aplay plays into ALSA's null device, which never blocks.
  const conf = join(dir.path, 'null.conf');
  writeFileSync(conf, 'pcm.!default {\n  type null\n}\n');
  process.env.ALSA_CONFIG_PATH = conf;
  const wav = parseWav(await renderWav('espeak-ng', SENTENCE, 1).result);
  sentenceMs = (wav.samples.length / wav.sampleRate) * 1000;
});
afterAll(() => dir.remove());

describe('espeak-ng', () => {
  it('renders a Chinese sentence to a WAV file longer than 0.5 s', async () => {
    const wavPath = join(dir.path, 'out.wav');
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'wav', wavPath, onError: (e) => errors.push(e) });
    await tts.speak(SENTENCE);
    expect(errors).toEqual([]);
    const bytes = readFileSync(wavPath);
    const wav = parseWav(bytes);
    expect(wav.samples.length / wav.sampleRate).toBeGreaterThan(0.5);
    // The header's sizes are filled in (espeak-ng's pipe output leaves them unset).
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    const loud = wav.samples.reduce((n, s) => n + (Math.abs(s) > 1000 ? 1 : 0), 0);
    expect(loud).toBeGreaterThan(wav.sampleRate * 0.2);
  });

  it('a faster rate gives shorter speech', async () => {
    const slow = parseWav(await renderWav('espeak-ng', SENTENCE, 0.75).result).samples.length;
    const fast = parseWav(await renderWav('espeak-ng', SENTENCE, 1.5).result).samples.length;
    expect(fast).toBeLessThan(slow * 0.8);
  });

  it('speak() resolves only after the audio has played to its end', async () => {
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'espeak', onError: (e) => errors.push(e) });
    const t0 = performance.now();
    await tts.speak(SENTENCE);
    const elapsed = performance.now() - t0;
    expect(errors).toEqual([]);
    expect(sentenceMs).toBeGreaterThan(1000);
    expect(elapsed).toBeGreaterThanOrEqual(sentenceMs - 5);
    expect(elapsed).toBeLessThan(sentenceMs + 3000);
  });

  it('stop() ends the current utterance early and drops the queued ones', async () => {
    const spoken: string[] = [];
    const tts = createTts({ engine: 'espeak' });
    const t0 = performance.now();
    const first = tts.speak(SENTENCE);
    const second = tts.speak('第二句').then(() => spoken.push('second settled'));
    await new Promise((r) => setTimeout(r, 200));
    tts.stop();
    await first;
    await second;
    expect(performance.now() - t0).toBeLessThan(sentenceMs - 200);
    expect(spoken).toEqual(['second settled']);
  });
});

describe('failures never reach the caller', () => {
  it('a missing engine resolves and reports engine_failed', async () => {
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'espeak', espeakCommand: '/nonexistent/espeak-ng', onError: (e) => errors.push(e) });
    await expect(tts.speak('你好')).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('engine_failed');
  });

  it('a failing player resolves and reports playback_failed', async () => {
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'espeak', playerCommand: 'false', onError: (e) => errors.push(e) });
    await tts.speak('你好');
    expect(errors.map((e) => e.code)).toEqual(['playback_failed']);
  });

  it('with no player installed it resolves and says so', async () => {
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'espeak', playerCommand: '/nonexistent/aplay', onError: (e) => errors.push(e) });
    await tts.speak('你好');
    expect(errors.map((e) => e.code)).toEqual(['playback_failed']);
    expect(errors[0]!.message).toContain('播放程序');
  });

  it('an unwritable WAV path resolves and reports', async () => {
    const errors: TtsError[] = [];
    const tts = createTts({ engine: 'wav', wavPath: join(dir.path, 'no/such/dir/out.wav'), onError: (e) => errors.push(e) });
    await tts.speak('你好');
    expect(errors.map((e) => e.code)).toEqual(['wav_failed']);
  });
});

describe('settings and sinks', () => {
  it('the log sink receives each text in order; disabled speaks nothing', async () => {
    const lines: string[] = [];
    const tts = createTts({ engine: 'log', log: (t) => lines.push(t) });
    await Promise.all([tts.speak('一'), tts.speak('二'), tts.speak('三')]);
    tts.setEnabled(false);
    await tts.speak('四');
    expect(tts.enabled).toBe(false);
    expect(lines).toEqual(['一', '二', '三']);
  });

  it('rejects a rate outside 0.5–2', () => {
    expect(() => createTts({ engine: 'log', rate: 3 })).toThrow(RangeError);
    const tts = createTts({ engine: 'log' });
    expect(() => tts.setRate(0.2)).toThrow(/0.5–2/);
    tts.setRate(1.5);
    expect(tts.rate).toBe(1.5);
  });

  it('auto picks espeak-ng on Linux and say on macOS and Windows', () => {
    expect(resolveEngine('auto', 'linux')).toBe('espeak');
    expect(resolveEngine('auto', 'darwin')).toBe('say');
    expect(resolveEngine('auto', 'win32')).toBe('say');
    expect(resolveEngine('wav', 'darwin')).toBe('wav');
  });

  it('finds a Mandarin voice in the macOS and Windows voice lists', () => {
    const mac = [
      'Alex                en_US    # Most people recognize me by my voice.',
      'Sin-ji              zh_HK    # 您好！我叫善怡。',
      'Mei-Jia             zh_TW    # 您好，我叫美佳。',
      'Tingting            zh_CN    # 你好，我叫婷婷。',
    ].join('\n');
    expect(pickMacVoice(mac)).toBe('Tingting');
    expect(pickMacVoice('Alex                en_US    # hi')).toBeUndefined();
    expect(pickWindowsVoice(['Microsoft David Desktop', 'Microsoft Huihui Desktop'])).toBe('Microsoft Huihui Desktop');
    expect(pickWindowsVoice(['Microsoft Zira Desktop'])).toBeUndefined();
  });
});

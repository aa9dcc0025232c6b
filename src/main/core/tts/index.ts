// Text-to-speech. speak() resolves when the speech has finished — the orchestrator resumes the
// VAD at that moment — and never rejects: failures go to onError and the pipeline goes on.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { renameSync, writeFileSync } from 'node:fs';
import { systemClock, type Clock } from '@shared/clock';
import type { Tts } from '../voice/ports';
import { parseWav } from '../audio/wav';
import { LINUX_PLAYERS, renderWav, run, type Running } from './espeak';
import { pickMacVoice, pickWindowsVoice } from './say-voice';
import { errorMessage } from '@shared/errors';

export type TtsEngine = 'auto' | 'espeak' | 'say' | 'wav' | 'log';

export interface TtsError {
  code: 'engine_failed' | 'playback_failed' | 'wav_failed';
  message: string;
}

export interface TtsOptions {
  engine?: TtsEngine;
  enabled?: boolean;
  /** Speaking speed relative to normal, 0.5–2. */
  rate?: number;
  /** Where the 'wav' engine writes each utterance (replaced atomically). */
  wavPath?: string;
  /** The 'log' engine's sink. */
  log?: (text: string) => void;
  onError?: (error: TtsError) => void;
  clock?: Clock;
  platform?: NodeJS.Platform;
  /** Overrides for packagers and tests: the espeak-ng and WAV player programs. */
  espeakCommand?: string;
  playerCommand?: string;
}

export interface ConfigurableTts extends Tts {
  readonly engine: Exclude<TtsEngine, 'auto'>;
  readonly rate: number;
  setEnabled(enabled: boolean): void;
  setRate(rate: number): void;
}

export function resolveEngine(engine: TtsEngine, platform: NodeJS.Platform): Exclude<TtsEngine, 'auto'> {
  if (engine !== 'auto') return engine;
  if (platform === 'darwin' || platform === 'win32') return 'say';
  return platform === 'linux' ? 'espeak' : 'log';
}

function checkRate(rate: number): number {
  if (!(rate >= 0.5 && rate <= 2)) throw new RangeError(`rate must be within 0.5–2, got ${rate}`);
  return rate;
}

export function createTts(options: TtsOptions = {}): ConfigurableTts {
  const platform = options.platform ?? process.platform;
  const engine = resolveEngine(options.engine ?? 'auto', platform);
  const clock = options.clock ?? systemClock;
  const espeak = options.espeakCommand ?? 'espeak-ng';
  let players = options.playerCommand ? [{ command: options.playerCommand, args: ['-q', '-t', 'wav', '-'] }] : [...LINUX_PLAYERS];
  const log = options.log ?? ((text: string) => console.log(`[tts] ${text}`));
  const report = options.onError ?? ((e: TtsError) => console.warn(`[tts] ${e.code}: ${e.message}`));
  if (engine === 'wav' && !options.wavPath) throw new Error("TTS engine 'wav' needs wavPath");
  let enabled = options.enabled ?? true;
  let rate = checkRate(options.rate ?? 1);
  /** Bumped by stop(): utterances queued before it are dropped. */
  let generation = 0;
  let queue: Promise<void> = Promise.resolve();
  let cancelCurrent: (() => void) | null = null;
  let sayVoice: Promise<string | undefined> | null = null;

  /** One utterance; resolves when done or cancelled, rejects with a TtsError. */
  const speakOnce = (text: string): Promise<void> => {
    switch (engine) {
      case 'log':
        log(text);
        return Promise.resolve();
      case 'wav':
        return speakToWav(text);
      case 'espeak':
        return speakEspeak(text);
      case 'say':
        return speakSay(text);
    }
  };

  const track = <T>(running: Running<T>): Promise<T> => {
    cancelCurrent = running.kill;
    return running.result.finally(() => {
      if (cancelCurrent === running.kill) cancelCurrent = null;
    });
  };

  const speakToWav = async (text: string) => {
    const bytes = await track(renderWav(espeak, text, rate)).catch((e: unknown) => {
      throw { code: 'engine_failed', message: String((e as Error).message ?? e) } satisfies TtsError;
    });
    const target = options.wavPath!;
    const temp = `${target}.${process.pid}.partial`;
    try {
      writeFileSync(temp, fixWavSizes(bytes));
      renameSync(temp, target);
    } catch (e) {
      throw { code: 'wav_failed', message: (e as Error).message } satisfies TtsError;
    }
  };

  const speakEspeak = async (text: string) => {
    const myGeneration = generation;
    const wav = await track(renderWav(espeak, text, rate)).catch((e: unknown) => {
      throw { code: 'engine_failed', message: String((e as Error).message ?? e) } satisfies TtsError;
    });
    if (myGeneration !== generation) return;
    const audio = parseWav(wav);
    const durationMs = (audio.samples.length / audio.channels / audio.sampleRate) * 1000;
    // A player can return before the device has drained (or a null device never blocks), so
    // speech counts as finished no earlier than its own duration after playback started.
    let floorDone: () => void = () => undefined;
    const floor = new Promise<void>((resolve) => (floorDone = resolve));
    const timer = clock.setTimeout(() => floorDone(), durationMs);
    const bytes = fixWavSizes(wav);
    for (;;) {
      const player = players[0];
      if (!player) {
        clock.clearTimeout(timer);
        throw { code: 'playback_failed', message: `没有可用的音频播放程序（${LINUX_PLAYERS.map((p) => p.command).join('、')}）` } satisfies TtsError;
      }
      const playing = run(player.command, player.args, bytes);
      cancelCurrent = () => {
        playing.kill();
        clock.clearTimeout(timer);
        floorDone();
      };
      try {
        await playing.result;
        break;
      } catch (e) {
        if (myGeneration !== generation) return;
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
          players = players.slice(1);
          continue;
        }
        clock.clearTimeout(timer);
        throw { code: 'playback_failed', message: (e as Error).message } satisfies TtsError;
      }
    }
    await floor;
  };

  const speakSay = async (text: string) => {
    const say = createRequire(import.meta.url)('say') as {
      speak(text: string, voice: string | null, speed: number | null, cb: (err?: unknown) => void): void;
      stop(): void;
      getInstalledVoices(cb: (err: unknown, voices: string[]) => void): void;
    };
    const voice = await chooseSayVoice(say);
    await new Promise<void>((resolve, reject) => {
      cancelCurrent = () => {
        try {
          say.stop();
        } catch {
          // nothing is speaking
        }
        resolve();
      };
      say.speak(text, voice ?? null, rate, (err) => (err ? reject({ code: 'engine_failed', message: String(err) } satisfies TtsError) : resolve()));
    });
  };

  const chooseSayVoice = (say: { getInstalledVoices(cb: (err: unknown, voices: string[]) => void): void }) => {
    sayVoice ??= new Promise<string | undefined>((resolve) => {
      if (platform === 'darwin') {
        execFile('say', ['-v', '?'], (err, stdout) => resolve(err ? undefined : pickMacVoice(stdout)));
      } else {
        say.getInstalledVoices((err, voices) => resolve(err ? undefined : pickWindowsVoice(voices ?? [])));
      }
    });
    return sayVoice;
  };

  return {
    engine,
    get enabled() {
      return enabled;
    },
    get rate() {
      return rate;
    },
    setEnabled(value) {
      enabled = value;
      if (!value) this.stop();
    },
    setRate(value) {
      rate = checkRate(value);
    },
    speak(text) {
      if (!enabled || text.trim() === '') return Promise.resolve();
      const myGeneration = generation;
      const next = queue.then(async () => {
        if (myGeneration !== generation || !enabled) return;
        try {
          await speakOnce(text);
        } catch (error) {
          if (myGeneration === generation) report(toTtsError(error));
        } finally {
          cancelCurrent = null;
        }
      });
      queue = next;
      return next;
    },
    stop() {
      generation++;
      cancelCurrent?.();
      cancelCurrent = null;
    },
  };
}

function toTtsError(error: unknown): TtsError {
  if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) return error as TtsError;
  return { code: 'engine_failed', message: errorMessage(error) };
}

/** espeak-ng writing to a pipe leaves the RIFF/data sizes unset; players and readers want them. */
function fixWavSizes(wav: Buffer): Buffer {
  const out = Buffer.from(wav);
  if (out.length < 44 || out.toString('ascii', 0, 4) !== 'RIFF') return out;
  out.writeUInt32LE(out.length - 8, 4);
  let at = 12;
  while (at + 8 <= out.length) {
    const id = out.toString('ascii', at, at + 4);
    if (id === 'data') {
      out.writeUInt32LE(out.length - at - 8, at + 4);
      break;
    }
    at += 8 + out.readUInt32LE(at + 4);
  }
  return out;
}

// Mandarin speech for tests, rendered at test time (nothing large is committed): espeak-ng's
// pinyin voice, resampled by sox to the app's PCM16 mono 16 kHz.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWav, requireSpeechFormat } from '@core/audio/wav';
import { concatPcm, msToSamples, samplesToMs } from '@core/audio/pcm';

export function renderMandarin(text: string): Int16Array {
  const espeak = spawnSync('espeak-ng', ['-v', 'cmn-latn-pinyin', '--stdout', text], { maxBuffer: 64 << 20 });
  if (espeak.status !== 0 || espeak.stdout.length === 0) {
    throw new Error(`espeak-ng failed: ${espeak.error?.message ?? espeak.stderr.toString()}`);
  }
  const sox = spawnSync('sox', ['-t', 'wav', '-', '-t', 'wav', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-'], {
    input: espeak.stdout,
    maxBuffer: 64 << 20,
  });
  if (sox.status !== 0) throw new Error(`sox failed: ${sox.error?.message ?? sox.stderr.toString()}`);
  return requireSpeechFormat(parseWav(sox.stdout));
}

/**
 * Where a clip really has speech, judged by energy (10 ms RMS above -40 dBFS), independent
 * of the VAD under test: the ground truth the segmenter's boundaries are compared with.
 */
export function speechBounds(pcm: Int16Array): { startMs: number; endMs: number } {
  const win = msToSamples(10);
  const threshold = 32768 * 0.01;
  let first = -1;
  let last = -1;
  for (let at = 0; at + win <= pcm.length; at += win) {
    let sum = 0;
    for (let i = at; i < at + win; i++) sum += pcm[i]! * pcm[i]!;
    if (Math.sqrt(sum / win) > threshold) {
      if (first < 0) first = at;
      last = at + win;
    }
  }
  if (first < 0) throw new Error('clip has no speech');
  return { startMs: samplesToMs(first), endMs: samplesToMs(last) };
}

export type ProgramPart = { silenceMs: number } | { noiseMs: number; amplitude: number } | { clip: Int16Array };

/** Concatenates silence, noise and clips; returns the audio and each clip's speech span. */
export function composeProgram(parts: readonly ProgramPart[], seed = 7): { pcm: Int16Array; speech: { startMs: number; endMs: number }[] } {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const chunks: Int16Array[] = [];
  const speech: { startMs: number; endMs: number }[] = [];
  let atMs = 0;
  for (const part of parts) {
    if ('clip' in part) {
      const b = speechBounds(part.clip);
      speech.push({ startMs: atMs + b.startMs, endMs: atMs + b.endMs });
      chunks.push(part.clip);
      atMs += samplesToMs(part.clip.length);
    } else if ('noiseMs' in part) {
      const n = new Int16Array(msToSamples(part.noiseMs));
      for (let i = 0; i < n.length; i++) n[i] = Math.round((rnd() * 2 - 1) * part.amplitude);
      chunks.push(n);
      atMs += part.noiseMs;
    } else {
      chunks.push(new Int16Array(msToSamples(part.silenceMs)));
      atMs += part.silenceMs;
    }
  }
  return { pcm: concatPcm(chunks), speech };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function writeRaw(path: string, pcm: Int16Array): void {
  writeFileSync(path, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
}

export function readWavPcm(path: string): Int16Array {
  return requireSpeechFormat(parseWav(readFileSync(path)));
}

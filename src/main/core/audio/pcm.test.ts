import { describe, expect, it } from 'vitest';
import { FrameChunker, pcmToBytes } from './pcm';
import { PreRollBuffer } from './pre-roll';
import { encodeWav, parseWav, requireSpeechFormat } from './wav';

const ramp = (n: number, from = 0) => Int16Array.from({ length: n }, (_, i) => ((from + i) % 60000) - 30000);

describe('FrameChunker', () => {
  it('reassembles frames from device blocks of any size, odd byte counts included', () => {
    const pcm = ramp(480 * 5 + 100);
    const bytes = pcmToBytes(pcm);
    const chunker = new FrameChunker(480);
    const frames: Int16Array[] = [];
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 1001) {
      chunker.push(bytes.subarray(at, at + size), (f) => frames.push(f));
    }
    expect(frames).toHaveLength(5);
    expect(Array.from(frames[3]!)).toEqual(Array.from(pcm.subarray(480 * 3, 480 * 4)));
  });
});

describe('PreRollBuffer', () => {
  it('keeps exactly the last 500 ms, oldest first', () => {
    const buffer = new PreRollBuffer(500);
    expect(buffer.snapshot()).toHaveLength(0);
    const pcm = ramp(20_000);
    for (let at = 0; at < pcm.length; at += 480) buffer.push(pcm.subarray(at, at + 480));
    const snap = buffer.snapshot();
    expect(snap).toHaveLength(8000);
    expect(Array.from(snap)).toEqual(Array.from(pcm.subarray(12_000)));
  });
});

describe('WAV', () => {
  it('round-trips PCM16 mono 16 kHz and refuses other formats with a conversion hint', () => {
    const pcm = ramp(1234);
    expect(Array.from(requireSpeechFormat(parseWav(encodeWav(pcm))))).toEqual(Array.from(pcm));
    expect(() => requireSpeechFormat(parseWav(encodeWav(pcm, 44_100)))).toThrow(/sox/);
    expect(() => parseWav(Buffer.from('not a wav file at all'))).toThrow(/WAV/);
  });
});

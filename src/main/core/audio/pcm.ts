// PCM16 mono 16 kHz is the one audio format inside the app: the VAD, both ASR protocols and
// the WAV tools all speak it, so conversions happen only at the edges (device, files).

export const SAMPLE_RATE = 16_000;
export const SAMPLES_PER_MS = SAMPLE_RATE / 1000;

export type FrameMs = 10 | 20 | 30;

export function samplesToMs(samples: number): number {
  return samples / SAMPLES_PER_MS;
}

export function msToSamples(ms: number): number {
  return Math.round(ms * SAMPLES_PER_MS);
}

/** Little-endian bytes of PCM16 samples (a copy, so later mutation cannot change sent audio). */
export function pcmToBytes(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i]!, i * 2);
  return out;
}

export function bytesToPcm(bytes: Uint8Array): Int16Array {
  const count = bytes.length >> 1;
  const out = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Cuts a byte stream whose chunk sizes the device chooses (PortAudio hands out e.g. 512-byte
 * blocks, sometimes an odd byte count) into whole frames of `frameSamples` samples.
 */
export class FrameChunker {
  private readonly pending: Int16Array;
  private filled = 0;
  private oddByte: number | null = null;

  constructor(readonly frameSamples: number) {
    this.pending = new Int16Array(frameSamples);
  }

  push(chunk: Uint8Array, onFrame: (frame: Int16Array) => void): void {
    let i = 0;
    if (this.oddByte !== null && chunk.length > 0) {
      this.put((((chunk[0]! << 8) | this.oddByte) << 16) >> 16, onFrame);
      this.oddByte = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) {
      this.put((((chunk[i + 1]! << 8) | chunk[i]!) << 16) >> 16, onFrame);
    }
    if (i < chunk.length) this.oddByte = chunk[i]!;
  }

  reset(): void {
    this.filled = 0;
    this.oddByte = null;
  }

  private put(sample: number, onFrame: (frame: Int16Array) => void): void {
    this.pending[this.filled++] = sample;
    if (this.filled === this.frameSamples) {
      this.filled = 0;
      onFrame(this.pending.slice());
    }
  }
}

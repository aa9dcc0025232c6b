import { msToSamples } from './pcm';

/** The last `ms` of audio, so the first syllable before the VAD decided still reaches ASR. */
export class PreRollBuffer {
  private readonly ring: Int16Array;
  private write = 0;
  private size = 0;

  constructor(ms = 500) {
    this.ring = new Int16Array(msToSamples(ms));
  }

  push(frame: Int16Array): void {
    const cap = this.ring.length;
    if (frame.length >= cap) {
      this.ring.set(frame.subarray(frame.length - cap));
      this.write = 0;
      this.size = cap;
      return;
    }
    const first = Math.min(frame.length, cap - this.write);
    this.ring.set(frame.subarray(0, first), this.write);
    this.ring.set(frame.subarray(first), 0);
    this.write = (this.write + frame.length) % cap;
    this.size = Math.min(cap, this.size + frame.length);
  }

  /** Oldest first. */
  snapshot(): Int16Array {
    const cap = this.ring.length;
    const out = new Int16Array(this.size);
    const start = (this.write - this.size + cap) % cap;
    const first = Math.min(this.size, cap - start);
    out.set(this.ring.subarray(start, start + first));
    out.set(this.ring.subarray(0, this.size - first), first);
    return out;
  }

  clear(): void {
    this.write = 0;
    this.size = 0;
  }
}

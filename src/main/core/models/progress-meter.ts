import type { ModelProgress } from '@shared/ipc/models';

const SPEED_WINDOW_MS = 2000;
/** At most ten progress events a second: the settings page redraws on each. */
const MIN_INTERVAL_MS = 100;

/**
 * Turns a stream of byte counts into progress events: speed averaged over the last ~2 s
 * (so a resumed download does not count the bytes already on disk as speed), throttled.
 */
export class ProgressMeter {
  private samples: { at: number; bytes: number }[] = [];
  private lastEmitAt = -Infinity;

  constructor(
    private readonly emit: (progress: ModelProgress) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records the bytes on disk; emits unless the last event was under 100 ms ago (or `force`). */
  update(receivedBytes: number, totalBytes: number, force = false): void {
    const at = this.now();
    this.samples.push({ at, bytes: receivedBytes });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= SPEED_WINDOW_MS) this.samples.shift();
    if (!force && at - this.lastEmitAt < MIN_INTERVAL_MS) return;
    this.lastEmitAt = at;
    this.emit(progressOf(receivedBytes, totalBytes, this.speed(at)));
  }

  /** A restart from byte 0 (the server ignored the Range): the old samples say nothing of speed. */
  reset(): void {
    this.samples = [];
  }

  private speed(at: number): number {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || at - first.at <= 0) return 0;
    return Math.max(0, Math.round(((last.bytes - first.bytes) * 1000) / (at - first.at)));
  }
}

export function progressOf(receivedBytes: number, totalBytes: number, bytesPerSecond = 0): ModelProgress {
  const percent = totalBytes > 0 ? Math.min(100, Math.floor((receivedBytes / totalBytes) * 1000) / 10) : 0;
  return { receivedBytes, totalBytes, percent, bytesPerSecond };
}

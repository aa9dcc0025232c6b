// The session ends itself when nobody talks to it: a spoken warning at 2 min 30 s, the end
// at 3 min (spec values; both restart on every bit of activity).
import type { Clock, TimerHandle } from '@shared/clock';

export interface IdleTimings {
  /** Spoken warning after this long without activity (spec: 2 min 30 s). */
  idleWarningMs: number;
  /** Session ends after this long without activity (spec: 3 min). */
  idleTimeoutMs: number;
}

export const IDLE_TIMINGS: IdleTimings = { idleWarningMs: 150_000, idleTimeoutMs: 180_000 };

export interface IdleTimerOptions extends IdleTimings {
  clock: Clock;
  onWarning: () => void;
  onTimeout: () => void;
}

export class IdleTimer {
  private warnTimer: TimerHandle | null = null;
  private endTimer: TimerHandle | null = null;

  constructor(private readonly options: IdleTimerOptions) {}

  /** Starts both countdowns afresh. */
  restart(): void {
    const { clock, idleWarningMs, idleTimeoutMs, onWarning, onTimeout } = this.options;
    this.clear();
    this.warnTimer = clock.setTimeout(() => {
      this.warnTimer = null;
      onWarning();
    }, idleWarningMs);
    this.endTimer = clock.setTimeout(() => {
      this.endTimer = null;
      onTimeout();
    }, idleTimeoutMs);
  }

  clear(): void {
    this.options.clock.clearTimeout(this.warnTimer);
    this.options.clock.clearTimeout(this.endTimer);
    this.warnTimer = null;
    this.endTimer = null;
  }
}

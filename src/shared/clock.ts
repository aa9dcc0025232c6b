// Time as a dependency: timers in the orchestrator and the ASR reconnect policy go through
// a Clock so tests drive them with FakeClock instead of sleeping.

export type TimerHandle = { readonly id: number };

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | null | undefined): void;
}

interface SystemTimer extends TimerHandle {
  readonly timeout: ReturnType<typeof setTimeout>;
}

let systemTimerSeq = 0;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer: SystemTimer = { id: ++systemTimerSeq, timeout: setTimeout(fn, ms) };
    return timer;
  },
  clearTimeout(handle) {
    if (handle && 'timeout' in handle) clearTimeout((handle as SystemTimer).timeout);
  },
};

/** A manual clock: `advance(ms)` fires due timers in time order. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.parse('2026-02-17T04:00:00Z')) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle | null | undefined): void {
    if (handle) this.timers.delete(handle.id);
  }

  /** Number of timers still waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward, firing every timer that falls due (including timers scheduled by
   * those timers) in order, and lets promise continuations run between them.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
      }
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].fn();
    }
    this.current = target;
    await flushMicrotasks();
  }
}

/** Lets pending promise callbacks run (several turns, for chained awaits). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

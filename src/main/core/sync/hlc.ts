import { makeClock, setClock, Timestamp } from '@actual-app/crdt';
import { SyncError } from './errors';

/**
 * The hybrid logical clock of one device, on Actual Budget's CRDT clock (`@actual-app/crdt`,
 * pinned): its timestamps are 46-character strings that sort in clock order, so the
 * last-writer-wins rule is a string comparison, ties broken by the device id at the end.
 *
 * The package keeps ONE module-level clock and reads Date.now(); every call here installs
 * this device's state and wall clock right before the package's call and takes the state
 * back right after, synchronously, so several devices can live in one process (tests) and a
 * device's wall clock can be injected.
 */
export class DeviceClock {
  /** Older than every real timestamp: the stamp of rows that predate sync (presets, old rows). */
  static readonly ZERO = '1970-01-01T00:00:00.000Z-0000-0000000000000000';
  /** How far a timestamp may run ahead of this device's wall clock. */
  static readonly MAX_DRIFT_MS = 5 * 60_000;

  private millis = 0;
  private counter = 0;
  private last = DeviceClock.ZERO;

  constructor(
    readonly node: string,
    private readonly now: () => number = Date.now,
  ) {
    if (!/^[0-9a-f]{16}$/.test(node)) throw new Error(`invalid device id ${node}`);
  }

  /** True once the wall clock has fallen more than 5 minutes behind stamps already given: pushes wait. */
  skewed = false;

  /**
   * A new timestamp, later than every one this clock has sent or received. Never throws:
   * local entry must not fail because a wall clock was set back; the clock then runs on from
   * its last stamp and `skewed` stops pushes until the wall clock catches up.
   */
  send(): string {
    try {
      this.last = this.withClock(() => Timestamp.send()!).toString();
      this.skewed = false;
    } catch (err) {
      if (!(err instanceof SyncError)) throw err;
      this.skewed = true;
      this.counter = (this.counter + 1) & 0xffff;
      if (this.counter === 0) this.millis += 1;
      this.last = new Timestamp(this.millis, this.counter, this.node).toString();
    }
    return this.last;
  }

  /** The timestamp `send` returned last (triggers stamp a row and its journal entry alike). */
  lastSent(): string {
    return this.last;
  }

  /**
   * Moves the clock past a timestamp received from another device. Throws SyncError
   * 'clock_skew' when it lies more than 5 minutes ahead of this device's wall clock: one of
   * the two clocks is wrong, and taking it would stamp this device's edits in the future.
   */
  recv(ts: string): void {
    const parsed = Timestamp.parse(ts);
    if (!parsed) throw new SyncError('refused_file', `远端文件里有无效的时间戳（${ts.slice(0, 46)}），已拒绝该文件。`);
    if (parsed.node() === this.node) return;
    try {
      this.withClock(() => Timestamp.recv(parsed)!);
    } catch (err) {
      if (err instanceof Timestamp.ClockDriftError) throw skewError(this.now() - parsed.millis());
      throw err;
    }
  }

  /** Moves the clock up to a stamp this ledger already holds, so no later stamp sorts before it. */
  advancePast(ts: string): void {
    const parsed = Timestamp.parse(ts);
    if (parsed && (parsed.millis() > this.millis || (parsed.millis() === this.millis && parsed.counter() > this.counter))) {
      this.millis = parsed.millis();
      this.counter = parsed.counter();
    }
  }

  private withClock(call: () => Timestamp): Timestamp {
    const state = makeClock(new Timestamp(this.millis, this.counter, this.node));
    const realNow = Date.now;
    // Read before Date.now is replaced: an injected clock may itself be built on Date.now.
    const now = this.now();
    Date.now = () => now;
    try {
      setClock(state);
      const ts = call();
      this.millis = state.timestamp.millis();
      this.counter = state.timestamp.counter();
      return ts;
    } catch (err) {
      if (err instanceof Timestamp.OverflowError) throw new SyncError('clock_skew', '本机时钟异常（同一毫秒内的修改过多），请稍后再试。');
      if (err instanceof Timestamp.ClockDriftError) throw skewError(this.now() - this.millis);
      throw err;
    } finally {
      Date.now = realNow;
    }
  }
}

/** `offsetMs`: this computer's clock minus the other's (the server's, or another device's stamps); 0 when unknown. */
export function skewError(offsetMs: number, other: '服务器' | '其他设备' = '其他设备'): SyncError {
  const minutes = Math.max(5, Math.round(Math.abs(offsetMs) / 60_000));
  const how = offsetMs === 0 ? `本机时钟与${other}相差约 ${minutes} 分钟` : `本机时钟比${other}${offsetMs > 0 ? '快' : '慢'}约 ${minutes} 分钟`;
  return new SyncError('clock_skew', `${how}：请把系统时间设为自动校准后再同步。在此之前本机的修改不会上传。`);
}

/** A timestamp's wall time in ms, or NaN. */
export function timestampMillis(ts: string): number {
  return Date.parse(ts.slice(0, 24));
}

export function isTimestamp(ts: unknown): ts is string {
  return typeof ts === 'string' && ts.length === 46 && Timestamp.parse(ts) !== null;
}

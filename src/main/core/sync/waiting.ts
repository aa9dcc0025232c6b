import type { SyncWaiting } from '@shared/ipc/sync';
import type { Journal } from './journal';

interface Waited {
  device: string;
  seq: number;
  reason: SyncWaiting['reason'];
  since: string;
  rounds: number;
}

function load(journal: Journal): Waited[] {
  try {
    return JSON.parse(journal.state('waiting') ?? '[]') as Waited[];
  } catch {
    return [];
  }
}

function shown(w: Waited, names: (device: string) => string): SyncWaiting {
  return { device: w.device, deviceName: names(w.device), seq: w.seq, since: w.since, reason: w.reason };
}

/** A file a synced folder's tool is still copying becomes an error only after this many rounds… */
const COPYING_ROUNDS = 3;
/** …and this long. */
const COPYING_MS = 10 * 60_000;

/**
 * What this device waits for from other devices, kept across rounds (sync_state 'waiting') so
 * the user sees since when: a change file missing from a device's sequence (lost by the
 * server, or not there yet), one refused as damaged, or one a sync tool is still copying in.
 */
export class WaitList {
  private readonly before: Map<string, Waited>;
  private readonly now = new Map<string, Waited>();

  constructor(
    private readonly journal: Journal,
    private readonly clock: () => number,
  ) {
    this.before = new Map(load(journal).map((w) => [w.device, w]));
  }

  /** What the last round found, as it saved it. */
  static last(journal: Journal, names: (device: string) => string): SyncWaiting[] {
    return load(journal).map((w) => shown(w, names));
  }

  /** This round found the device's file `seq` not applicable for `reason`. */
  note(device: string, seq: number, reason: SyncWaiting['reason']): Waited {
    const last = this.before.get(device);
    const same = last && last.seq === seq && last.reason === reason;
    const waited: Waited = {
      device,
      seq,
      reason,
      since: same ? last.since : new Date(this.clock()).toISOString(),
      rounds: same ? last.rounds + 1 : 1,
    };
    this.now.set(device, waited);
    return waited;
  }

  /** A file still being copied after 3 rounds and 10 minutes is not being copied: it is damaged. */
  overdue(waited: Waited): boolean {
    return waited.rounds >= COPYING_ROUNDS && this.clock() - Date.parse(waited.since) >= COPYING_MS;
  }

  /** Saves what this round found (anything not found again is over) and returns it for the result. */
  finish(names: (device: string) => string): SyncWaiting[] {
    const list = [...this.now.values()];
    this.journal.setState('waiting', list.length ? JSON.stringify(list) : null);
    return list.map((w) => shown(w, names));
  }
}

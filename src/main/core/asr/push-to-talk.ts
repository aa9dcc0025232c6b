// Push-to-talk on top of an AsrClient: audio is held back until the key has been down for
// 600 ms (a shorter press is an accident and sends nothing), release commits, and the final
// text is awaited for at most 8 s.
import { systemClock, type Clock, type TimerHandle } from '@shared/clock';
import type { Unsubscribe } from '@shared/listeners';
import type { AsrClient } from '../voice/ports';
import { errorCode, errorMessage } from '@shared/errors';

export const PTT_MIN_HOLD_MS = 600;
export const PTT_FINAL_TIMEOUT_MS = 8000;

export type PushToTalkResult =
  | { kind: 'final'; text: string }
  | { kind: 'tooShort'; heldMs: number }
  /**
   * No final text within the wait (or the engine failed); `partial` is the last interim text,
   * `code` the engine's error code (connect_failed, model_refused…) when it failed.
   */
  | { kind: 'noResult'; partial: string; reason: 'timeout' | 'error'; message?: string; code?: string }
  | { kind: 'cancelled' };

export interface PushToTalkOptions {
  client: AsrClient;
  clock?: Clock;
  minHoldMs?: number;
  finalTimeoutMs?: number;
}

export interface PushToTalk {
  /** Key down. `preRoll` (the mic's last 500 ms) counts as the start of the utterance. */
  press(preRoll?: Int16Array): void;
  /** A microphone frame while the key is down. */
  audio(pcm: Int16Array): void;
  /** Key up: commits and waits for the final text. */
  release(): Promise<PushToTalkResult>;
  /** Abandons a press (session ended); a pending release() resolves 'cancelled'. */
  cancel(): void;
  readonly pressed: boolean;
}

export function createPushToTalk(options: PushToTalkOptions): PushToTalk {
  const { client } = options;
  const clock = options.clock ?? systemClock;
  const minHoldMs = options.minHoldMs ?? PTT_MIN_HOLD_MS;
  const finalTimeoutMs = options.finalTimeoutMs ?? PTT_FINAL_TIMEOUT_MS;

  let pressedAt: number | null = null;
  let held: Int16Array[] = [];
  let streaming = false;
  let holdTimer: TimerHandle | null = null;
  let connectError: { code: string; message: string } | null = null;
  let finish: ((result: PushToTalkResult) => void) | null = null;

  const startStreaming = () => {
    streaming = true;
    void client.connect().catch((error: unknown) => {
      connectError = { code: errorCode(error, 'connect_failed'), message: errorMessage(error) };
      finish?.({ kind: 'noResult', partial: '', reason: 'error', ...connectError });
    });
    for (const pcm of held) client.sendAudio(pcm);
    held = [];
  };

  return {
    get pressed() {
      return pressedAt !== null;
    },
    press(preRoll) {
      if (pressedAt !== null) return;
      pressedAt = clock.now();
      held = preRoll && preRoll.length > 0 ? [preRoll] : [];
      streaming = false;
      connectError = null;
      holdTimer = clock.setTimeout(() => {
        holdTimer = null;
        if (pressedAt !== null) startStreaming();
      }, minHoldMs);
    },
    audio(pcm) {
      if (pressedAt === null) return;
      if (streaming) client.sendAudio(pcm);
      else held.push(pcm);
    },
    release() {
      if (pressedAt === null) return Promise.resolve<PushToTalkResult>({ kind: 'cancelled' });
      const heldMs = clock.now() - pressedAt;
      pressedAt = null;
      clock.clearTimeout(holdTimer);
      holdTimer = null;
      if (!streaming && heldMs < minHoldMs) {
        held = [];
        return Promise.resolve<PushToTalkResult>({ kind: 'tooShort', heldMs });
      }
      if (!streaming) startStreaming();
      return new Promise<PushToTalkResult>((resolve) => {
        let partial = '';
        const offs: Unsubscribe[] = [];
        const timer = clock.setTimeout(() => done({ kind: 'noResult', partial, reason: 'timeout' }), finalTimeoutMs);
        const done = (result: PushToTalkResult) => {
          if (!finish) return;
          finish = null;
          clock.clearTimeout(timer);
          for (const off of offs) off();
          resolve(result);
        };
        finish = done;
        offs.push(
          client.on('partial', (text) => (partial = text)),
          client.on('final', (text) => done({ kind: 'final', text })),
          client.on('error', (error) => done({ kind: 'noResult', partial, reason: 'error', message: error.message, code: error.code })),
        );
        if (connectError) done({ kind: 'noResult', partial, reason: 'error', ...connectError });
        else client.commit();
      });
    },
    cancel() {
      pressedAt = null;
      held = [];
      clock.clearTimeout(holdTimer);
      holdTimer = null;
      finish?.({ kind: 'cancelled' });
    },
  };
}

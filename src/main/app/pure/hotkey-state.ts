import type { Clock, TimerHandle } from '@shared/clock';

/**
 * The global push-to-talk hotkey as a state machine, independent of how keys are observed.
 * - 'hold': a keyboard hook reports press and release → hold to talk.
 * - 'toggle': only presses are observable (globalShortcut) → press to start, press again
 *   to stop; the session ending the utterance itself (VAD end of speech) also stops it,
 *   and a safety limit stops a recording nobody ends.
 */
export type HotkeyBackend = 'hold' | 'toggle';

export interface HotkeySink {
  /** Start recording (voicePushToTalk down). */
  down(): void;
  /** Stop recording and commit (voicePushToTalk up). */
  up(): void;
  /** The small always-on-top recording indicator. */
  indicator(visible: boolean): void;
}

export type HotkeyPhase = 'idle' | 'recording';

export const TOGGLE_MAX_RECORDING_MS = 30_000;

export class PushToTalkHotkey {
  #phase: HotkeyPhase = 'idle';
  #timer: TimerHandle | null = null;

  constructor(
    readonly backend: HotkeyBackend,
    private readonly sink: HotkeySink,
    private readonly clock: Clock,
    private readonly maxRecordingMs = TOGGLE_MAX_RECORDING_MS,
  ) {}

  get phase(): HotkeyPhase {
    return this.#phase;
  }

  /** Hook backend: key (with its modifiers) went down; auto-repeat is ignored. */
  keyDown(): void {
    if (this.backend !== 'hold' || this.#phase === 'recording') return;
    this.#begin();
  }

  /** Hook backend: the key or one of its modifiers was released. */
  keyUp(): void {
    if (this.backend !== 'hold' || this.#phase !== 'recording') return;
    this.#finish(true);
  }

  /** globalShortcut backend: one press toggles. */
  press(): void {
    if (this.backend !== 'toggle') return;
    if (this.#phase === 'idle') this.#begin();
    else this.#finish(true);
  }

  /**
   * Toggle backend: the session finished the utterance by itself (end of speech, exit), so
   * the indicator goes and no extra "up" is sent. A held key always sends its own "up".
   */
  sessionSettled(): void {
    if (this.backend === 'toggle' && this.#phase === 'recording') this.#finish(false);
  }

  /** Focus lost to a lock screen, hotkey changed, app quitting: stop cleanly. */
  reset(): void {
    if (this.#phase === 'recording') this.#finish(true);
  }

  #begin(): void {
    this.#phase = 'recording';
    this.sink.indicator(true);
    this.sink.down();
    if (this.backend === 'toggle') this.#timer = this.clock.setTimeout(() => this.#finish(true), this.maxRecordingMs);
  }

  #finish(sendUp: boolean): void {
    this.#phase = 'idle';
    this.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.sink.indicator(false);
    if (sendUp) this.sink.up();
  }
}

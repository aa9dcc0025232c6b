// The session's voice: sentences are spoken one after another, and while any is queued the
// microphone's VAD is paused, so our own read-back is never taken for the user speaking
// (spec: _isTtsSpeaking).
import type { Tts, VoiceInput } from './ports';
import { drained } from './drained';

export interface SpeakerOptions {
  tts: Tts;
  /** False once the session is disposed: nothing more is said, queued speech is dropped. */
  isOpen: () => boolean;
  /** Each sentence as it is queued (the transcript and the ttsSpoken event). */
  onSay: (text: string) => void;
  /** The microphone now, if one is open. */
  vad: () => Pick<VoiceInput, 'pauseVad' | 'resumeVad'> | null;
  log: (message: string, err?: unknown) => void;
}

export class Speaker {
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly options: SpeakerOptions) {}

  get speaking(): boolean {
    return this.queued > 0;
  }

  say(text: string): Promise<void> {
    const { tts, isOpen, vad, log } = this.options;
    if (!isOpen() || !text) return Promise.resolve();
    this.options.onSay(text);
    this.queued += 1;
    if (this.queued === 1) vad()?.pauseVad();
    const run = this.tail.then(async () => {
      if (!isOpen()) return;
      try {
        await tts.speak(text);
      } catch (err) {
        // A broken speaker must not stop the pipeline (spec: TTS 播报失败不影响流程).
        log('tts failed', err);
      }
    });
    const done = run.finally(() => {
      this.queued -= 1;
      if (this.queued === 0) vad()?.resumeVad();
    });
    this.tail = done;
    return done;
  }

  /** Resolves once everything queued has been spoken. */
  silent(): Promise<void> {
    return drained(() => this.tail);
  }

  /** Cuts the sentence being spoken short (the user pressed the talk key, or the session ended). */
  stop(): void {
    this.options.tts.stop();
  }
}

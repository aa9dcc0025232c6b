// The VAD segmenter's state machine. Pure: it sees one voiced/unvoiced decision per VAD window
// plus that window's position in the audio (ms since capture start), never a device or a
// timer, so every rule is checked in unit tests without audio.

export interface SegmenterOptions {
  /** Voiced audio needed before speech starts; shorter bursts (clicks, a cough) are misfires. */
  minSpeechMs?: number;
  /** Trailing silence that ends an utterance. Default 1000, allowed 500–4000. */
  silenceMs?: number;
  /** An utterance is cut here even if the speaker goes on. Default 60 000. */
  maxUtteranceMs?: number;
  /** Unvoiced gap that abandons a not-yet-confirmed start (counted as a misfire). */
  candidateGapMs?: number;
}

export type SegmentEndReason = 'silence' | 'maxLength' | 'paused' | 'flush';

export type SegmenterEvent =
  | { type: 'speechStart'; startMs: number }
  | { type: 'speechEnd'; startMs: number; endMs: number; reason: SegmentEndReason }
  | { type: 'misfire'; startMs: number; endMs: number; voicedMs: number };

export const SEGMENTER_DEFAULTS = {
  minSpeechMs: 120,
  silenceMs: 1000,
  maxUtteranceMs: 60_000,
  candidateGapMs: 150,
} as const;

export const SILENCE_MS_RANGE = { min: 500, max: 4000 } as const;

export function resolveSegmenterOptions(options: SegmenterOptions = {}): Required<SegmenterOptions> {
  const resolved = { ...SEGMENTER_DEFAULTS, ...stripUndefined(options) };
  const { minSpeechMs, silenceMs, maxUtteranceMs, candidateGapMs } = resolved;
  if (!(silenceMs >= SILENCE_MS_RANGE.min && silenceMs <= SILENCE_MS_RANGE.max)) {
    throw new RangeError(`silenceMs must be within ${SILENCE_MS_RANGE.min}–${SILENCE_MS_RANGE.max}, got ${silenceMs}`);
  }
  if (!(minSpeechMs >= 10 && minSpeechMs <= 2000)) throw new RangeError(`minSpeechMs must be within 10–2000, got ${minSpeechMs}`);
  if (!(maxUtteranceMs >= 1000 && maxUtteranceMs <= 600_000)) {
    throw new RangeError(`maxUtteranceMs must be within 1000–600000, got ${maxUtteranceMs}`);
  }
  if (!(candidateGapMs >= 0 && candidateGapMs <= 2000)) throw new RangeError(`candidateGapMs must be within 0–2000, got ${candidateGapMs}`);
  return resolved;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

type State =
  | { kind: 'silence' }
  | { kind: 'candidate'; startMs: number; voicedMs: number; lastVoicedEndMs: number }
  | { kind: 'speech'; startMs: number; lastVoicedEndMs: number };

export class SpeechSegmenter {
  private readonly options: Required<SegmenterOptions>;
  private state: State = { kind: 'silence' };
  private misfireCount = 0;

  constructor(options: SegmenterOptions = {}) {
    this.options = resolveSegmenterOptions(options);
  }

  get inSpeech(): boolean {
    return this.state.kind === 'speech';
  }

  /** Short voiced bursts that never became speech, since construction. */
  get misfires(): number {
    return this.misfireCount;
  }

  /** One VAD decision for the window [atMs, atMs + durationMs). */
  push(voiced: boolean, atMs: number, durationMs: number): SegmenterEvent[] {
    const endMs = atMs + durationMs;
    const events: SegmenterEvent[] = [];
    const s = this.state;
    switch (s.kind) {
      case 'silence':
        if (voiced) this.beginCandidate(atMs, durationMs, events);
        break;
      case 'candidate':
        if (voiced) {
          s.voicedMs += durationMs;
          s.lastVoicedEndMs = endMs;
          if (s.voicedMs >= this.options.minSpeechMs) {
            this.state = { kind: 'speech', startMs: s.startMs, lastVoicedEndMs: endMs };
            events.push({ type: 'speechStart', startMs: s.startMs });
          }
        } else if (endMs - s.lastVoicedEndMs > this.options.candidateGapMs) {
          this.misfire(s, events);
        }
        break;
      case 'speech':
        if (voiced) s.lastVoicedEndMs = endMs;
        if (endMs - s.startMs >= this.options.maxUtteranceMs) {
          this.state = { kind: 'silence' };
          events.push({ type: 'speechEnd', startMs: s.startMs, endMs: voiced ? endMs : s.lastVoicedEndMs, reason: 'maxLength' });
        } else if (!voiced && endMs - s.lastVoicedEndMs >= this.options.silenceMs) {
          this.state = { kind: 'silence' };
          events.push({ type: 'speechEnd', startMs: s.startMs, endMs: s.lastVoicedEndMs, reason: 'silence' });
        }
        break;
    }
    return events;
  }

  /**
   * Ends whatever is in progress without waiting for silence: at the end of a file, or when
   * the VAD is paused for TTS, so every speechStart still gets its speechEnd.
   */
  flush(reason: 'paused' | 'flush' = 'flush'): SegmenterEvent[] {
    const s = this.state;
    const events: SegmenterEvent[] = [];
    if (s.kind === 'speech') {
      events.push({ type: 'speechEnd', startMs: s.startMs, endMs: s.lastVoicedEndMs, reason });
    } else if (s.kind === 'candidate') {
      this.misfire(s, events);
    }
    this.state = { kind: 'silence' };
    return events;
  }

  private beginCandidate(atMs: number, durationMs: number, events: SegmenterEvent[]): void {
    const candidate = { kind: 'candidate' as const, startMs: atMs, voicedMs: durationMs, lastVoicedEndMs: atMs + durationMs };
    if (durationMs >= this.options.minSpeechMs) {
      this.state = { kind: 'speech', startMs: atMs, lastVoicedEndMs: candidate.lastVoicedEndMs };
      events.push({ type: 'speechStart', startMs: atMs });
    } else {
      this.state = candidate;
    }
  }

  private misfire(s: Extract<State, { kind: 'candidate' }>, events: SegmenterEvent[]): void {
    this.misfireCount++;
    this.state = { kind: 'silence' };
    events.push({ type: 'misfire', startMs: s.startMs, endMs: s.lastVoicedEndMs, voicedMs: s.voicedMs });
  }
}

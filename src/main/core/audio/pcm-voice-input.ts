// A VoiceInput whose "microphone" is audio handed to it (a WAV file in tools/session): the
// same node-vad classifier, segmenter and 500 ms pre-roll as the real microphone, so a
// replayed clip reaches the orchestrator exactly as live speech would.
import type { Unsubscribe } from '@shared/listeners';
import type { VoiceInput, VoiceInputEvents } from '../voice/ports';
import { SpeechSegmenter, type SegmenterEvent, type SegmenterOptions } from './segmenter';
import { VadClassifier, type VadMode } from './vad';
import { msToSamples } from './pcm';
import { PreRollBuffer } from './pre-roll';

export interface PcmVoiceInputOptions extends SegmenterOptions {
  vadMode?: VadMode;
  frameMs?: 10 | 20 | 30;
}

export class PcmVoiceInput implements VoiceInput {
  private readonly listeners = new Map<keyof VoiceInputEvents, Set<(...args: never[]) => void>>();
  private readonly preRollBuffer = new PreRollBuffer(500);
  private readonly frameSamples: number;
  private classifier: VadClassifier | null = null;
  private segmenter: SpeechSegmenter;
  private paused = false;
  private isRunning = false;

  constructor(private readonly options: PcmVoiceInputOptions = {}) {
    this.frameSamples = msToSamples(options.frameMs ?? 30);
    this.segmenter = new SpeechSegmenter(options);
  }

  get running(): boolean {
    return this.isRunning;
  }

  async start(): Promise<void> {
    if (this.isRunning) return;
    this.classifier = new VadClassifier(this.options.vadMode ?? 'aggressive');
    this.segmenter = new SpeechSegmenter(this.options);
    this.preRollBuffer.clear();
    this.isRunning = true;
  }

  async stop(): Promise<void> {
    this.isRunning = false;
    this.classifier = null;
  }

  preRoll(): Int16Array {
    return this.preRollBuffer.snapshot();
  }

  pauseVad(): void {
    this.paused = true;
  }

  resumeVad(): void {
    this.paused = false;
  }

  on<E extends keyof VoiceInputEvents>(event: E, listener: VoiceInputEvents[E]): Unsubscribe {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as unknown as (...args: never[]) => void);
    this.listeners.set(event, set);
    return () => set.delete(listener as unknown as (...args: never[]) => void);
  }

  /**
   * Plays PCM16 mono 16 kHz through the VAD as fast as it can be classified; an utterance
   * still open at the end is closed, as trailing silence would.
   */
  async play(pcm: Int16Array): Promise<void> {
    for (let at = 0; at < pcm.length && this.isRunning; at += this.frameSamples) {
      const frame = pcm.slice(at, at + this.frameSamples);
      this.preRollBuffer.push(frame);
      this.emit('frame', frame);
      const classifier = this.classifier;
      if (!classifier) return;
      for (const d of await classifier.classify(frame)) {
        if (!this.paused) this.segments(this.segmenter.push(d.voiced, d.atMs, d.durationMs));
      }
    }
    if (this.isRunning) this.segments(this.segmenter.flush());
  }

  private segments(events: SegmenterEvent[]): void {
    for (const e of events) {
      if (e.type === 'speechStart') this.emit('speechStart');
      else if (e.type === 'speechEnd') this.emit('speechEnd');
      else this.emit('misfire');
    }
  }

  private emit<E extends keyof VoiceInputEvents>(event: E, ...args: Parameters<VoiceInputEvents[E]>): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) (l as (...a: Parameters<VoiceInputEvents[E]>) => void)(...args);
  }
}

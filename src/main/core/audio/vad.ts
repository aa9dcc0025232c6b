import { createRequire } from 'node:module';
import { SAMPLE_RATE } from './pcm';
import { voiceIoFailure } from './errors';
import { errorMessage } from '@shared/errors';

/** node-vad's native WebRTC VAD decides per 30 ms (it buffers shorter input until it has 30 ms). */
export const VAD_WINDOW_MS = 30;
export const VAD_WINDOW_SAMPLES = (SAMPLE_RATE / 1000) * VAD_WINDOW_MS;

export type VadMode = 'normal' | 'lowBitrate' | 'aggressive' | 'veryAggressive';

const MODE_NUMBER: Record<VadMode, number> = { normal: 0, lowBitrate: 1, aggressive: 2, veryAggressive: 3 };

interface NativeVad {
  processAudioFloat(buffer: Buffer, rate: number): Promise<number>;
}
interface NodeVadModule {
  new (mode: number): NativeVad;
  Event: { ERROR: number; SILENCE: number; VOICE: number; NOISE: number };
}

let nodeVad: NodeVadModule | null = null;

/** Loaded on first use so merely importing the audio module never loads a native addon. */
function loadNodeVad(): NodeVadModule {
  if (!nodeVad) nodeVad = createRequire(import.meta.url)('node-vad') as NodeVadModule;
  return nodeVad;
}

export interface VadDecision {
  voiced: boolean;
  /** Start of the window in ms since the classifier's first sample. */
  atMs: number;
  durationMs: number;
}

/**
 * Feeds PCM16 frames of any length to node-vad in 30 ms windows and yields one decision per
 * window, in order. node-vad works on the libuv thread pool and keeps per-stream state, so
 * windows are processed strictly one at a time.
 */
export class VadClassifier {
  private readonly vad: NativeVad;
  private readonly window = new Float32Array(VAD_WINDOW_SAMPLES);
  private readonly windowBytes = Buffer.from(this.window.buffer);
  private filled = 0;
  private windowIndex = 0;
  private readonly voiceEvent: number;
  private readonly errorEvent: number;

  constructor(mode: VadMode = 'aggressive') {
    const VAD = loadNodeVad();
    try {
      this.vad = new VAD(MODE_NUMBER[mode]);
    } catch (error) {
      throw voiceIoFailure('vad_failed', errorMessage(error), error);
    }
    this.voiceEvent = VAD.Event.VOICE;
    this.errorEvent = VAD.Event.ERROR;
  }

  /** Decisions for every window completed by `frame`. */
  async classify(frame: Int16Array): Promise<VadDecision[]> {
    const decisions: VadDecision[] = [];
    let i = 0;
    while (i < frame.length) {
      const take = Math.min(frame.length - i, VAD_WINDOW_SAMPLES - this.filled);
      for (let k = 0; k < take; k++) this.window[this.filled + k] = frame[i + k]! / 32768;
      this.filled += take;
      i += take;
      if (this.filled === VAD_WINDOW_SAMPLES) {
        this.filled = 0;
        const event = await this.vad.processAudioFloat(this.windowBytes, SAMPLE_RATE);
        if (event === this.errorEvent) throw voiceIoFailure('vad_failed', 'node-vad returned ERROR');
        decisions.push({ voiced: event === this.voiceEvent, atMs: this.windowIndex * VAD_WINDOW_MS, durationMs: VAD_WINDOW_MS });
        this.windowIndex++;
      }
    }
    return decisions;
  }
}

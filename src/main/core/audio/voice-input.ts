import { Listeners } from '@shared/listeners';
import { systemClock, type Clock, type TimerHandle } from '@shared/clock';
import type { Unsubscribe } from '@shared/listeners';
import type { VoiceInput, VoiceInputEvents, VoiceIoError } from '../voice/ports';
import { openCapture, type OpenCapture } from './capture';
import { VoiceIoFailure, voiceIoFailure } from './errors';
import { FrameChunker, msToSamples, samplesToMs, type FrameMs } from './pcm';
import { PreRollBuffer } from './pre-roll';
import { SpeechSegmenter, resolveSegmenterOptions, type SegmenterEvent, type SegmenterOptions } from './segmenter';
import { VadClassifier, type VadDecision, type VadMode } from './vad';

export interface VoiceInputOptions extends SegmenterOptions {
  /** PortAudio device id from listInputDevices(); omitted or -1 = the system default. */
  deviceId?: number;
  /** Size of the frames handed to listeners and ASR. Default 30. */
  frameMs?: FrameMs;
  /** Default 'aggressive': NORMAL flags false voice in the first ~100 ms of a stream. */
  vadMode?: VadMode;
  /** No audio for this long while running means the device is gone. Default 3000. */
  stallTimeoutMs?: number;
  clock?: Clock;
}

/** Extra events beyond the port: segment boundaries in audio time, for tools and tests. */
export interface MicVoiceInputEvents extends VoiceInputEvents {
  segment: (event: SegmenterEvent) => void;
  /** Every VAD decision, paused or not (a voice-activity meter; tests sync on audio time). */
  vad: (decision: VadDecision) => void;
}

export interface MicVoiceInput extends VoiceInput {
  on<E extends keyof MicVoiceInputEvents>(event: E, listener: MicVoiceInputEvents[E]): Unsubscribe;
  /** Short voiced bursts that never became speech, since start(). */
  readonly misfires: number;
  /** Audio captured since start(), in ms. */
  readonly capturedMs: number;
  /** Audio the VAD has decided on since start(), in ms (lags capturedMs by the VAD queue). */
  readonly analysedMs: number;
}

export function createVoiceInput(options: VoiceInputOptions = {}): MicVoiceInput {
  const segmenterOptions = resolveSegmenterOptions(options);
  const frameMs = options.frameMs ?? 30;
  if (![10, 20, 30].includes(frameMs)) throw new RangeError(`frameMs must be 10, 20 or 30, got ${frameMs}`);
  const clock = options.clock ?? systemClock;
  const stallTimeoutMs = options.stallTimeoutMs ?? 3000;
  const listeners = new Listeners<MicVoiceInputEvents>();
  const preRoll = new PreRollBuffer(500);
  const chunker = new FrameChunker(msToSamples(frameMs));

  let capture: OpenCapture | null = null;
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  let running = false;
  /** Bumped on every start/stop so late callbacks from an old stream are ignored. */
  let generation = 0;
  let paused = false;
  let segmenter = new SpeechSegmenter(segmenterOptions);
  let classifier: VadClassifier | null = null;
  let vadQueue: Int16Array[] = [];
  let vadBusy = false;
  let capturedSamples = 0;
  let analysedMs = 0;
  let lastDataAt = 0;
  let watchdog: TimerHandle | null = null;

  const emitSegment = (events: SegmenterEvent[]) => {
    for (const e of events) {
      listeners.emit('segment', e);
      if (e.type === 'speechStart') listeners.emit('speechStart');
      else if (e.type === 'speechEnd') listeners.emit('speechEnd');
      else listeners.emit('misfire');
    }
  };

  const fail = (error: VoiceIoFailure) => {
    if (!running) return;
    const gen = generation;
    void stopInternal().then(() => {
      if (gen + 1 === generation) listeners.emit('error', { code: error.code, message: error.message } satisfies VoiceIoError);
    });
  };

  const drainVad = async (gen: number) => {
    if (vadBusy) return;
    vadBusy = true;
    try {
      while (gen === generation && vadQueue.length > 0) {
        const frame = vadQueue.shift()!;
        const decisions = await classifier!.classify(frame);
        if (gen !== generation) return;
        for (const d of decisions) {
          analysedMs = d.atMs + d.durationMs;
          listeners.emit('vad', d);
          if (gen !== generation) return;
          if (paused) continue;
          emitSegment(segmenter.push(d.voiced, d.atMs, d.durationMs));
        }
      }
    } catch (error) {
      if (gen === generation) fail(error instanceof VoiceIoFailure ? error : voiceIoFailure('vad_failed', String(error), error));
    } finally {
      vadBusy = false;
    }
  };

  const onFrame = (gen: number) => (frame: Int16Array) => {
    if (gen !== generation) return;
    capturedSamples += frame.length;
    preRoll.push(frame);
    listeners.emit('frame', frame);
    vadQueue.push(frame);
    void drainVad(gen);
  };

  const armWatchdog = (gen: number) => {
    watchdog = clock.setTimeout(
      () => {
        if (gen !== generation) return;
        if (clock.now() - lastDataAt >= stallTimeoutMs) {
          fail(voiceIoFailure('device_lost', `${stallTimeoutMs} ms 内没有收到音频`));
        } else {
          armWatchdog(gen);
        }
      },
      Math.max(250, stallTimeoutMs / 3),
    );
  };

  const startInternal = async () => {
    const gen = ++generation;
    segmenter = new SpeechSegmenter(segmenterOptions);
    classifier = new VadClassifier(options.vadMode ?? 'aggressive');
    vadQueue = [];
    chunker.reset();
    preRoll.clear();
    capturedSamples = 0;
    analysedMs = 0;
    paused = false;
    const frameHandler = onFrame(gen);
    const opened = await openCapture(
      { deviceId: options.deviceId, framesPerBuffer: msToSamples(frameMs), clock },
      {
        onData: (chunk) => {
          if (gen !== generation) return;
          lastDataAt = clock.now();
          chunker.push(chunk, frameHandler);
        },
        onLost: (error) => {
          if (gen === generation) fail(error instanceof VoiceIoFailure ? error : voiceIoFailure('device_lost', error.message, error));
        },
      },
    );
    if (gen !== generation) {
      // stop() ran while the device was opening.
      await opened.close();
      return;
    }
    capture = opened;
    running = true;
    lastDataAt = clock.now();
    armWatchdog(gen);
  };

  const stopInternal = async () => {
    generation++;
    running = false;
    clock.clearTimeout(watchdog);
    watchdog = null;
    vadQueue = [];
    const closing = capture;
    capture = null;
    if (closing) await closing.close();
  };

  return {
    get running() {
      return running;
    },
    get misfires() {
      return segmenter.misfires;
    },
    get capturedMs() {
      return samplesToMs(capturedSamples);
    },
    get analysedMs() {
      return analysedMs;
    },
    async start() {
      if (stopping) await stopping;
      if (running) return;
      if (!starting) {
        starting = startInternal().finally(() => {
          starting = null;
        });
      }
      await starting;
    },
    async stop() {
      if (starting) await starting.catch(() => undefined);
      if (!running && !capture) return;
      if (!stopping) {
        stopping = stopInternal().finally(() => {
          stopping = null;
        });
      }
      await stopping;
    },
    preRoll: () => preRoll.snapshot(),
    pauseVad() {
      if (paused) return;
      paused = true;
      emitSegment(segmenter.flush('paused'));
    },
    resumeVad() {
      paused = false;
    },
    on: (event, listener) => listeners.on(event, listener),
  };
}

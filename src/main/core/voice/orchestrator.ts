// The VoiceOrchestrator (spec: voice-orchestration, voice-correction-dialogue,
// voice-batch-transaction): mic + VAD → streaming ASR → understanding → DraftBatch dialogue →
// ledger, with TTS read-backs. It keeps the five states, the input queue, the one `emit` and
// the lifecycle; the work is done in rooms: UtteranceCapture (voice → words), Conversation
// (words → dialogue steps → SessionBook), Speaker and IdleTimer. Every side effect goes
// through a port, so tests drive it with a FakeClock and scripted events.
import type { DraftBatch } from '@shared/draft-batch';
import type { SessionSummary, VoiceMode, VoiceState } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import type { ConversationEntry } from '@shared/ipc/voice';
import type { ZonedNow } from '@shared/time';
import type { Clock } from '@shared/clock';
import { Conversation } from './conversation';
import { drained } from './drained';
import type { DraftAction } from './dialogue';
import { IDLE_TIMINGS, IdleTimer, type IdleTimings } from './idle-timer';
import type { AsrClient, LedgerPort, Tts, Understanding, UnderstandingContext, VoiceInput } from './ports';
import type { PendingPictures } from './pending-pictures';
import type { PictureCard, PictureOutcome } from './picture-card';
import { Speaker } from './speaker';
import { PHRASES, summary as summaryText } from './templates';
import { CAPTURE_TIMINGS, UtteranceCapture, type AsrUnavailable, type CaptureTimings } from './utterance-capture';

export type { DraftAction } from './dialogue';

export type OrchestratorTimings = IdleTimings & CaptureTimings;

export const DEFAULT_TIMINGS: OrchestratorTimings = { ...IDLE_TIMINGS, ...CAPTURE_TIMINGS };

export interface OrchestratorOptions {
  mode: VoiceMode;
  emit: (event: VoiceEvent) => void;
  tts: Tts;
  understanding: Understanding;
  ledger: LedgerPort;
  clock: Clock;
  /** The user's wall clock with its offset; defaults to the clock's instant in this machine's zone. */
  now?: () => ZonedNow;
  /** Mic + VAD, created only when a mode needs audio. */
  createVoiceInput?: () => VoiceInput;
  /** One streaming ASR connection per utterance. */
  createAsrClient?: (options: { shouldReconnect: () => boolean }) => AsrClient;
  /** Why recognition cannot run right now (asked whenever the microphone is wanted); null when it can. */
  asrUnavailable?: () => AsrUnavailable | null;
  /** Categories and accounts the understanding may use. */
  context?: () => Omit<UnderstandingContext, 'now'>;
  /** Where the pictures of picture cards wait to be saved with their entries (absent: they are not kept). */
  pictures?: PendingPictures;
  timings?: Partial<OrchestratorTimings>;
  log?: (message: string, err?: unknown) => void;
}

export class VoiceOrchestrator {
  private readonly options: OrchestratorOptions;
  private readonly log: (message: string, err?: unknown) => void;
  private readonly capture: UtteranceCapture;
  private readonly talk: Conversation;
  private readonly speaker: Speaker;
  private readonly idleTimer: IdleTimer;

  private currentState: VoiceState = 'idle';
  private active = true;
  private finished = false;
  private queue: Promise<void> = Promise.resolve();
  private starting: Promise<void> | null = null;

  constructor(options: OrchestratorOptions) {
    this.options = options;
    const timings = { ...DEFAULT_TIMINGS, ...options.timings };
    const log = (this.log = options.log ?? (() => {}));
    const emit = (event: VoiceEvent): void => this.emit(event);
    const setState = (state: VoiceState): void => this.setState(state);
    const usable = (): boolean => this.usable;
    this.speaker = new Speaker({
      tts: options.tts,
      isOpen: () => this.active,
      onSay: (text) => this.talk.said(text),
      vad: () => this.capture.vad,
      log,
    });
    const say = (text: string): void => void this.speaker.say(text);
    this.capture = new UtteranceCapture(
      { ...options, ...timings },
      {
        usable,
        state: () => this.currentState,
        setState,
        resume: () => setState(this.talk.batch ? 'confirming' : 'listening'),
        speaker: this.speaker,
        emit,
        log,
        // RECOGNIZING lasts until the words are understood (LLM parse or correction): the UI
        // says so, and the VAD does not start another utterance on top of this one meanwhile.
        heard: (text) => void this.enqueue(() => this.handleText(text).finally(() => this.settleRecognizing())),
        heardNothing: () => {
          this.settleRecognizing();
          say(PHRASES.didNotHear);
        },
      },
    );
    this.talk = new Conversation({ ...options, log }, { usable, emit, setState, say, exit: () => this.end('exit') });
    this.idleTimer = new IdleTimer({
      clock: options.clock,
      ...timings,
      onWarning: () => say(PHRASES.idleWarning),
      onTimeout: () => void this.enqueue(() => this.end('timeout')),
    });
  }

  // ---- observable state ---------------------------------------------------------

  get state(): VoiceState {
    return this.currentState;
  }

  get mode(): VoiceMode {
    return this.capture.mode;
  }

  get batch(): DraftBatch | null {
    return this.talk.batch;
  }

  get isTtsSpeaking(): boolean {
    return this.speaker.speaking;
  }

  /** True once the session ended (exit words, timeout); the manager shows it as ENDED. */
  get ended(): boolean {
    return this.finished;
  }

  /** An utterance has ended and its final text is still on its way from the ASR. */
  get awaitingFinal(): boolean {
    return this.capture.awaitingFinal;
  }

  get summary(): SessionSummary {
    return this.talk.book.summary;
  }

  get conversation(): readonly ConversationEntry[] {
    return this.talk.transcript;
  }

  get online(): boolean {
    return this.options.understanding.isOnline();
  }

  /** VAD speech starts dropped because TTS was speaking (observable for diagnostics and tests). */
  get ignoredSpeechStarts(): number {
    return this.capture.ignoredSpeechStarts;
  }

  // ---- lifecycle ------------------------------------------------------------------

  /** IDLE → LISTENING; opens the mic in auto/pushToTalk, then speaks the welcome. Idempotent. */
  start(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    if (!this.usable || this.currentState !== 'idle') return;
    await this.capture.open();
    if (!this.usable) return;
    this.setState('listening');
    if (!this.talk.restore()) void this.speaker.say(PHRASES.welcome);
  }

  setMode(mode: VoiceMode): Promise<void> {
    return this.capture.setMode(mode);
  }

  /** Keyboard input: skips audio, VAD and ASR (spec: 键盘输入模式). */
  processTextInput(text: string): Promise<void> {
    return this.enqueue(() => this.handleText(text));
  }

  /** A picture's drafts (截图记账): like typed words, in turn with every other input. */
  async processPicture(card: PictureCard): Promise<PictureOutcome> {
    let outcome: PictureOutcome = 'gone';
    await this.enqueue(async () => {
      if (await this.wake()) outcome = await this.talk.picture(card);
    });
    return outcome;
  }

  act(action: DraftAction): Promise<void> {
    return this.enqueue(async () => {
      if (await this.wake()) await this.talk.act(action);
    });
  }

  /** Exit as if the user had said 「退出」. */
  exit(): Promise<void> {
    return this.enqueue(() => this.end('exit'));
  }

  /**
   * `endOnSilence`: the key's release cannot be observed (a press-to-start global shortcut),
   * so the end of speech found by the VAD releases it.
   */
  async pushToTalk(action: 'down' | 'up', options: { endOnSilence?: boolean } = {}): Promise<void> {
    if (this.usable) this.capture.pushToTalk(action, options.endOnSilence === true);
  }

  /** Resolves once every queued input has been handled (tools and benchmarks wait on it). */
  idle(): Promise<void> {
    return drained(() => this.queue);
  }

  /** Resolves once everything queued for the speaker has been spoken. */
  silent(): Promise<void> {
    return this.speaker.silent();
  }

  /** Drops everything: no event is emitted afterwards, audio is released. */
  async dispose(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.idleTimer.clear();
    this.capture.abort();
    this.speaker.stop();
    this.talk.drop();
    await this.capture.close();
  }

  /** Exit words or the idle timeout: summary, audio released, state idle (the manager shows ENDED). */
  private async end(reason: 'exit' | 'timeout'): Promise<void> {
    if (!this.usable) return;
    this.finished = true;
    this.idleTimer.clear();
    this.capture.abort();
    await this.capture.close();
    // Pending drafts stay kept in the ledger: the summary lists them and the next session opens with them.
    const unconfirmed = this.talk.unconfirmed();
    this.talk.drop();
    this.setStateRaw('idle');
    const summary: SessionSummary = { ...this.summary, ...(unconfirmed.length > 0 ? { unconfirmed } : {}) };
    void this.speaker.say(reason === 'timeout' ? PHRASES.timedOut + summaryText(summary) : summaryText(summary));
    this.emit(reason === 'timeout' ? { type: 'sessionTimeout', summary } : { type: 'exitSession', summary });
  }

  // ---- inputs, state, events ------------------------------------------------------------

  private get usable(): boolean {
    return this.active && !this.finished;
  }

  /** Inputs run one at a time, so nothing is applied to a batch that changed meanwhile. */
  private enqueue(task: () => Promise<void> | void): Promise<void> {
    const run = this.queue.then(async () => {
      if (!this.usable) return;
      try {
        await task();
      } catch (err) {
        this.log('voice input failed', err);
        this.emit({ type: 'error', code: 'internal_error', message: '处理失败，请再说一次' });
      }
    });
    this.queue = run;
    return run;
  }

  private async handleText(raw: string): Promise<void> {
    const text = raw.trim();
    if (text && (await this.wake())) await this.talk.hear(text);
  }

  /** An input starts an idle session and is activity; false when the session is gone. */
  private async wake(): Promise<boolean> {
    if (this.currentState === 'idle') await this.start();
    if (!this.usable) return false;
    this.touch();
    return true;
  }

  private settleRecognizing(): void {
    if (this.usable && !this.capture.busy && this.currentState === 'recognizing') this.setState(this.talk.batch ? 'confirming' : 'listening');
  }

  private emit(event: VoiceEvent): void {
    // The spec's _sessionActive rule: a disposed session never reaches the UI.
    if (!this.active) return;
    try {
      this.options.emit(event);
    } catch (err) {
      this.log('voice event listener failed', err);
    }
  }

  private setState(state: VoiceState): void {
    if (!this.usable) return;
    this.setStateRaw(state);
    this.touch();
  }

  private setStateRaw(state: VoiceState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit({ type: 'stateChanged', state });
  }

  /** Activity: restarts the idle countdown while the session waits for the user. */
  private touch(): void {
    if (this.usable && (this.currentState === 'listening' || this.currentState === 'confirming')) this.idleTimer.restart();
    else this.idleTimer.clear();
  }
}

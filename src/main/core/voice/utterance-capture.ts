// From the user's voice to words: the microphone with its VAD, one streaming ASR socket per
// utterance, push-to-talk's hold / release / final-text wait, and what the user is told when
// any of it fails. It hands up speech-detected, partial text, final text and errors; what the
// words mean is the dialogue's business.
import type { VoiceMode, VoiceState } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { createPushToTalk, PTT_FINAL_TIMEOUT_MS, PTT_MIN_HOLD_MS, type PushToTalk, type PushToTalkResult } from '../asr/push-to-talk';
import type { Clock, TimerHandle } from '@shared/clock';
import type { Unsubscribe } from '@shared/listeners';
import type { AsrClient, AsrError, VoiceInput, VoiceIoError } from './ports';
import type { Speaker } from './speaker';
import { errorCode, errorMessage } from '@shared/errors';

const AUDIO_ERROR_TEXT: Record<VoiceIoError['code'], string> = {
  no_device: '没有找到麦克风，请在设置中选择输入设备',
  device_lost: '麦克风已断开，请检查设备后重新开始',
  permission_denied: '没有麦克风权限，请在系统设置中允许随口记使用麦克风',
  capture_failed: '无法打开麦克风，请在设置中选择其他输入设备',
  vad_failed: '语音检测启动失败，请改用键盘输入',
};

/** Why recognition cannot run, told as a voice error (e.g. asr_model_missing: on-device recognition without a model). */
export interface AsrUnavailable {
  code: string;
  message: string;
}

const ASR_NOT_CONFIGURED: AsrUnavailable = { code: 'asr_unavailable', message: '语音识别未配置，请在设置中填写服务地址，或改用键盘输入' };

/** On-device recognition fails with these (AsrFailure codes); the cloud's network wording would mislead. */
const LOCAL_ASR_ERROR_TEXT = new Map<string, string>([
  ['model_incomplete', '语音模型文件不完整，请在设置中重新下载语音模型'],
  ['model_refused', '语音模型无法加载，请在设置中重新下载或换一个模型'],
  ['engine_failed', '本地语音识别出错，请再说一次，或改用键盘输入'],
]);

/** What the capture needs from the session around it. */
export interface CaptureHost {
  /** The session is running: neither ended nor disposed. */
  usable(): boolean;
  state(): VoiceState;
  setState(state: VoiceState): void;
  /** Back to CONFIRMING or LISTENING: the utterance is over without words. */
  resume(): void;
  /** The session's voice: while it speaks, speech starts are our own; the talk key cuts it short. */
  readonly speaker: Pick<Speaker, 'speaking' | 'stop'>;
  emit(event: VoiceEvent): void;
  log(message: string, err?: unknown): void;
  /** The final text of an utterance (shown already as partialText); the utterance is over. */
  heard(text: string): void;
  /** The utterance ended in an empty final text. */
  heardNothing(): void;
}

export interface CaptureTimings {
  /** Push-to-talk holds shorter than this send nothing. */
  pttMinHoldMs: number;
  /** How long to wait for the final ASR text after the utterance ended. */
  finalWaitMs: number;
}

export const CAPTURE_TIMINGS: CaptureTimings = { pttMinHoldMs: PTT_MIN_HOLD_MS, finalWaitMs: PTT_FINAL_TIMEOUT_MS };

export interface CaptureOptions extends CaptureTimings {
  mode: VoiceMode;
  clock: Clock;
  createVoiceInput?: () => VoiceInput;
  createAsrClient?: (options: { shouldReconnect: () => boolean }) => AsrClient;
  /** Asked each time: a reason here wins over an ASR factory (a model may be deleted mid-session). */
  asrUnavailable?: () => AsrUnavailable | null;
}

interface Utterance {
  asr: AsrClient;
  /** Push-to-talk keeps the voice I/O module's hold / commit / final-wait policy. */
  ptt: PushToTalk | null;
  /** VAD utterances: audio (pre-roll first) waiting for the socket to open. */
  pending: Int16Array[];
  committed: boolean;
  /** A press-to-start key that cannot report its release: VAD end of speech stands in for it. */
  endOnSilence: boolean;
  subscriptions: Unsubscribe[];
  timer: TimerHandle | null;
}

export class UtteranceCapture {
  private currentMode: VoiceMode;
  private input: VoiceInput | null = null;
  private inputSubscriptions: Unsubscribe[] = [];
  private utterance: Utterance | null = null;
  /** VAD speech starts dropped because TTS was speaking (observable for diagnostics and tests). */
  ignoredSpeechStarts = 0;

  constructor(
    private readonly options: CaptureOptions,
    private readonly host: CaptureHost,
  ) {
    this.currentMode = options.mode;
  }

  get mode(): VoiceMode {
    return this.currentMode;
  }

  /** The open microphone, whose VAD the speaker pauses. */
  get vad(): VoiceInput | null {
    return this.input;
  }

  /** An utterance is under way (from speech start until its final text or failure). */
  get busy(): boolean {
    return this.utterance !== null;
  }

  /** An utterance has ended and its final text is still on its way from the ASR. */
  get awaitingFinal(): boolean {
    return this.utterance?.committed ?? false;
  }

  /** Opens the microphone for auto/pushToTalk; without recognition or a mic only typing works. */
  async open(): Promise<void> {
    if (this.currentMode !== 'keyboard' && !(this.asrConfigured() && (await this.openAudio()))) this.currentMode = 'keyboard';
  }

  async setMode(mode: VoiceMode): Promise<void> {
    if (!this.host.usable() || mode === this.currentMode) return;
    if (mode === 'keyboard') {
      this.abort();
      this.currentMode = mode;
      await this.close();
      return;
    }
    if (!this.asrConfigured()) return;
    if (this.host.state() !== 'idle' && !this.input && !(await this.openAudio())) return;
    this.abort();
    this.currentMode = mode;
  }

  pushToTalk(action: 'down' | 'up', endOnSilence: boolean): void {
    if (action === 'down') {
      // The key works in auto mode too (a global hotkey); keyboard mode has no microphone.
      if (this.currentMode === 'keyboard' || !this.input || this.utterance) return;
      // Pressing the key interrupts the read-back: the user wants to talk now.
      this.host.speaker.stop();
      this.beginUtterance('ptt', endOnSilence);
      return;
    }
    const u = this.utterance;
    if (u) this.release(u);
  }

  /** Drops the utterance under way, if any; its words will never arrive. */
  abort(): void {
    const u = this.utterance;
    if (!u) return;
    this.finishUtterance(u);
    this.host.resume();
  }

  /** Releases the microphone. */
  async close(): Promise<void> {
    const input = this.input;
    if (!input) return;
    this.detachInput();
    try {
      await input.stop();
    } catch (err) {
      this.host.log('audio stop failed', err);
    }
  }

  // ---- microphone -------------------------------------------------------------------

  private asrConfigured(): boolean {
    const reason = this.options.asrUnavailable?.() ?? (this.options.createAsrClient ? null : ASR_NOT_CONFIGURED);
    if (!reason) return true;
    this.host.emit({ type: 'error', code: reason.code, message: reason.message });
    return false;
  }

  private async openAudio(): Promise<boolean> {
    if (this.input) return true;
    if (!this.options.createVoiceInput) {
      this.host.emit({ type: 'error', code: 'no_device', message: AUDIO_ERROR_TEXT.no_device });
      return false;
    }
    let input: VoiceInput;
    try {
      input = this.options.createVoiceInput();
    } catch (err) {
      this.reportAudioError(err);
      return false;
    }
    const subs = [
      input.on('speechStart', () => this.onSpeechStart()),
      input.on('speechEnd', () => this.onSpeechEnd()),
      input.on('frame', (pcm) => this.onFrame(pcm)),
      input.on('error', (error) => this.onAudioError(error)),
    ];
    this.input = input;
    this.inputSubscriptions = subs;
    try {
      await input.start();
    } catch (err) {
      this.detachInput();
      void input.stop().catch(() => {});
      this.reportAudioError(err);
      return false;
    }
    if (!this.host.usable()) {
      await this.close();
      return false;
    }
    if (this.host.speaker.speaking) input.pauseVad();
    return true;
  }

  private reportAudioError(err: unknown): void {
    const code = (err as Partial<VoiceIoError> | null)?.code;
    const known = code && code in AUDIO_ERROR_TEXT ? (code as VoiceIoError['code']) : 'capture_failed';
    this.host.log('audio failed', err);
    this.host.emit({ type: 'error', code: known, message: AUDIO_ERROR_TEXT[known] });
  }

  private detachInput(): void {
    for (const unsubscribe of this.inputSubscriptions) unsubscribe();
    this.inputSubscriptions = [];
    this.input = null;
  }

  private onAudioError(error: VoiceIoError): void {
    if (!this.host.usable()) return;
    this.abort();
    this.host.emit({ type: 'error', code: error.code, message: AUDIO_ERROR_TEXT[error.code] ?? error.message });
    if (error.code === 'device_lost' || error.code === 'capture_failed') {
      this.currentMode = 'keyboard';
      void this.close();
    }
  }

  private onSpeechStart(): void {
    if (!this.host.usable() || this.currentMode !== 'auto') return;
    if (this.host.speaker.speaking) {
      // TTS is playing: the "speech" is our own voice (spec: _isTtsSpeaking).
      this.ignoredSpeechStarts += 1;
      return;
    }
    this.beginUtterance('vad');
  }

  private onSpeechEnd(): void {
    const u = this.utterance;
    if (!this.host.usable() || !u) return;
    if (!u.ptt) this.endUtterance();
    else if (u.endOnSilence) this.release(u);
  }

  private onFrame(pcm: Int16Array): void {
    const u = this.utterance;
    if (!u || u.committed) return;
    if (u.ptt) u.ptt.audio(pcm);
    else if (u.asr.connected && u.pending.length === 0) u.asr.sendAudio(pcm);
    else u.pending.push(pcm);
  }

  // ---- one utterance --------------------------------------------------------------------

  private beginUtterance(trigger: 'vad' | 'ptt', endOnSilence = false): void {
    const state = this.host.state();
    if (this.utterance || (state !== 'listening' && state !== 'confirming')) return;
    // Audio is only opened with an ASR configured (asrConfigured), so this always exists here.
    const factory = this.options.createAsrClient;
    if (!factory) return;
    let asr: AsrClient;
    try {
      asr = factory({ shouldReconnect: () => this.utterance?.asr === asr && this.host.state() === 'recognizing' });
    } catch (err) {
      this.host.log('asr client failed', err);
      const reason = this.options.asrUnavailable?.() ?? { code: 'asr_unavailable', message: '语音识别不可用，请改用键盘输入' };
      this.host.emit({ type: 'error', code: reason.code, message: reason.message });
      return;
    }
    const { clock, pttMinHoldMs, finalWaitMs } = this.options;
    const ptt = trigger === 'ptt' ? createPushToTalk({ client: asr, clock, minHoldMs: pttMinHoldMs, finalTimeoutMs: finalWaitMs }) : null;
    const u: Utterance = {
      asr,
      ptt,
      pending: !ptt && this.input ? [this.input.preRoll()] : [],
      committed: false,
      endOnSilence: ptt !== null && endOnSilence,
      subscriptions: [],
      timer: null,
    };
    u.subscriptions = [
      asr.on('partial', (text) => {
        if (this.utterance === u && this.host.usable()) this.host.emit({ type: 'partialText', text });
      }),
      asr.on('error', (error) => this.onAsrError(u, error)),
    ];
    // Push-to-talk gets its final text from release().
    if (!ptt) u.subscriptions.push(asr.on('final', (text) => this.onAsrFinal(u, text)));
    this.utterance = u;
    this.host.emit({ type: 'speechDetected' });
    this.host.setState('recognizing');
    if (ptt) {
      // Connects and sends only once the key has been held for the minimum time.
      ptt.press();
      return;
    }
    asr.connect().then(
      () => this.flushAudio(u),
      (err: unknown) => this.onAsrError(u, { code: errorCode(err, 'connect_failed'), message: errorMessage(err) }),
    );
  }

  private release(u: Utterance): void {
    if (!u.ptt || u.committed) return;
    u.committed = true;
    // Not awaited: the command returns at once, the final text arrives as events.
    void u.ptt.release().then((result) => this.onRelease(u, result));
  }

  private onRelease(u: Utterance, result: PushToTalkResult): void {
    if (this.utterance !== u || !this.host.usable()) return;
    switch (result.kind) {
      case 'final':
        return this.onAsrFinal(u, result.text);
      case 'tooShort':
        this.abort();
        this.host.emit({ type: 'error', code: 'tooShort', message: '按住时间太短，请按住说完再松开' });
        return;
      case 'noResult':
        return this.onAsrError(u, {
          code: result.reason === 'timeout' ? 'no_result' : (result.code ?? 'connect_failed'),
          message: result.message ?? 'no final text',
        });
      case 'cancelled':
        return;
    }
  }

  private flushAudio(u: Utterance): void {
    if (this.utterance !== u || !u.asr.connected) return;
    for (const chunk of u.pending) if (chunk.length > 0) u.asr.sendAudio(chunk);
    u.pending = [];
    if (u.committed) u.asr.commit();
  }

  /** End of speech (VAD): commit and wait for the final text. */
  private endUtterance(): void {
    const u = this.utterance;
    if (!u || u.committed) return;
    u.committed = true;
    // Sends what is buffered and commits now, or once the socket opens.
    this.flushAudio(u);
    u.timer = this.options.clock.setTimeout(() => {
      u.timer = null;
      this.onAsrError(u, { code: 'no_result', message: 'no final text in time' });
    }, this.options.finalWaitMs);
  }

  private finishUtterance(u: Utterance): void {
    if (this.utterance !== u) return;
    this.utterance = null;
    this.options.clock.clearTimeout(u.timer);
    u.ptt?.cancel();
    for (const unsubscribe of u.subscriptions) unsubscribe();
    void u.asr.close().catch((err: unknown) => this.host.log('asr close failed', err));
  }

  private onAsrFinal(u: Utterance, text: string): void {
    if (this.utterance !== u || !this.host.usable()) return;
    this.finishUtterance(u);
    const spoken = text.trim();
    if (!spoken) return this.host.heardNothing();
    this.host.emit({ type: 'partialText', text: spoken });
    this.host.heard(spoken);
  }

  private onAsrError(u: Utterance, error: AsrError): void {
    if (this.utterance !== u || !this.host.usable()) return;
    this.finishUtterance(u);
    this.host.resume();
    const message =
      error.code === 'no_result'
        ? '没有收到识别结果，请再说一次'
        : error.code === 'token_failed'
          ? '语音识别授权失败，请检查设置中的服务地址和密钥'
          : (LOCAL_ASR_ERROR_TEXT.get(error.code) ?? '语音识别连接失败，请检查网络后重试');
    this.host.emit({ type: 'error', code: error.code, message });
  }
}

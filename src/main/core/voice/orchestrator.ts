// The VoiceOrchestrator (spec: voice-orchestration, voice-correction-dialogue,
// voice-batch-transaction): mic + VAD → streaming ASR → understanding → DraftBatch dialogue →
// ledger, with TTS read-backs. Every side effect goes through a port so tests drive it with a
// FakeClock and scripted events.
import { DraftBatch } from '../../../shared/draft-batch';
import type {
  LedgerQuery,
  ParseResult,
  SessionSummary,
  UpdatedFields,
  TransactionRow,
  TransactionType,
  VoiceMode,
  VoiceState,
} from '../../../shared/domain';
import type { VoiceEvent } from '../../../shared/events';
import type { ConversationEntry, DraftFields } from '../../../shared/ipc/voice';
import { fenToYuan } from '../../../shared/money';
import { toZonedIso, type ZonedNow } from '../../../shared/time';
import { createPushToTalk, PTT_FINAL_TIMEOUT_MS, PTT_MIN_HOLD_MS, type PushToTalk, type PushToTalkResult } from '../asr/push-to-talk';
import type { Clock, TimerHandle } from '../clock';
import { LedgerValidationError } from '../ledger/errors';
import { classifyIntent, correctLocal, detectQuery } from '../nlp/index';
import type {
  AsrClient,
  AsrError,
  CorrectionOutcome,
  LedgerPort,
  LlmFailure,
  Tts,
  Understanding,
  UnderstandingContext,
  Unsubscribe,
  VoiceInput,
  VoiceIoError,
} from './ports';
import { categoryOfType, withCategoryForType } from '../categories/index';
import * as say from './templates';

export interface OrchestratorTimings {
  /** Spoken warning after this long without activity (spec: 2 min 30 s). */
  idleWarningMs: number;
  /** Session ends after this long without activity (spec: 3 min). */
  idleTimeoutMs: number;
  /** Push-to-talk holds shorter than this send nothing. */
  pttMinHoldMs: number;
  /** How long to wait for the final ASR text after the utterance ended. */
  finalWaitMs: number;
}

export const DEFAULT_TIMINGS: OrchestratorTimings = {
  idleWarningMs: 150_000,
  idleTimeoutMs: 180_000,
  pttMinHoldMs: PTT_MIN_HOLD_MS,
  finalWaitMs: PTT_FINAL_TIMEOUT_MS,
};

/** UI commands that act on the drafts (restart belongs to the session manager). */
export type DraftAction =
  | { action: 'confirmItem'; index: number }
  | { action: 'cancelItem'; index: number }
  | { action: 'editItem'; index: number; fields: DraftFields }
  | { action: 'confirmAll' }
  | { action: 'cancelAll' }
  | { action: 'undo' };

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
  /** Categories and accounts the understanding may use. */
  context?: () => Omit<UnderstandingContext, 'now'>;
  timings?: Partial<OrchestratorTimings>;
  log?: (message: string, err?: unknown) => void;
}

const MAX_CONVERSATION = 200;

/**
 * A bare "no" — the answer to 「还需要修改吗？」 after a correction. There it means "no more
 * changes", not the exit word 「没有了」 or the cancel 「不需要了」 that would drop the drafts.
 */
const NO_MORE_CHANGES = /^(嗯|哦|噢)?(没有|没了|没有了|没啦|没有啦|不用|不用了|不需要|不需要了|不用改了|不改了|没有要改的了?)(了|啦|吧)?$/;
/** Words that point at an item on the card: 第二笔, 最后一笔, 这笔, 那笔. */
const ITEM_REFERENCE = /第\s*[0-9一二两三四五六七八九十]+\s*[笔比币]|(最后|头|这|那)一?[笔比币]/;

const UNDO_WORDS = /^(撤销|撤回|撤消)(一下)?(刚才|上一次|上次|刚刚)?(的|那)?(保存|记录|那笔|那几笔|一笔)?$/;

const AUDIO_ERROR_TEXT: Record<VoiceIoError['code'], string> = {
  no_device: '没有找到麦克风，请在设置中选择输入设备',
  device_lost: '麦克风已断开，请检查设备后重新开始',
  permission_denied: '没有麦克风权限，请在系统设置中允许随口记使用麦克风',
  capture_failed: '无法打开麦克风，请在设置中选择其他输入设备',
  vad_failed: '语音检测启动失败，请改用键盘输入',
};

function stripPunctuation(text: string): string {
  return text.replace(/[\s，。！？!?,.、~～…]+/g, '');
}

function sameDraft(a: ParseResult, b: ParseResult): boolean {
  return (
    a.amount === b.amount &&
    a.type === b.type &&
    a.category === b.category &&
    a.description === b.description &&
    a.date === b.date &&
    a.account === b.account
  );
}

/** A saved row as a draft again: its current fields, the original's confidence and source. */
function draftOf(row: TransactionRow, original: ParseResult | undefined): ParseResult {
  return {
    amount: fenToYuan(row.amountFen),
    type: row.type,
    category: row.category,
    description: row.description,
    date: row.date,
    account: row.account,
    confidence: original?.confidence ?? 1,
    source: original?.source ?? 'local',
  };
}

/**
 * The ledger numbers a bad item by its place among the confirmed results it was given; the
 * user knows it by its number on the card (cancelled items keep their places there).
 */
function saveFailureText(err: unknown, resolved: DraftBatch): string {
  if (!(err instanceof LedgerValidationError)) return errorMessage(err);
  const item = resolved.confirmedItems[err.itemIndex];
  return item ? `第${resolved.displayNumber(item.index)}笔${err.reason}` : errorMessage(err);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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

export class VoiceOrchestrator {
  private readonly options: OrchestratorOptions;
  private readonly timings: OrchestratorTimings;
  private readonly clock: Clock;
  private readonly zonedNow: () => ZonedNow;
  private readonly log: (message: string, err?: unknown) => void;

  private currentState: VoiceState = 'idle';
  private currentMode: VoiceMode;
  private draft: DraftBatch | null = null;
  private active = true;
  private finished = false;

  private input: VoiceInput | null = null;
  private inputSubscriptions: Unsubscribe[] = [];
  private utterance: Utterance | null = null;

  private speaking = 0;
  private speechTail: Promise<void> = Promise.resolve();
  private queue: Promise<void> = Promise.resolve();
  private warnTimer: TimerHandle | null = null;
  private endTimer: TimerHandle | null = null;
  private offlineCorrectionNoticed = false;
  /** The last thing asked was 「还需要修改吗？」 (see NO_MORE_CHANGES). */
  private askedForMoreChanges = false;
  /** LLM failure codes already shown this session: a refused key is said once, not per sentence. */
  private readonly llmFailuresReported = new Set<string>();
  private starting: Promise<void> | null = null;

  private lastSave: { rows: TransactionRow[]; results: ParseResult[] } | null = null;
  private readonly totals: SessionSummary = { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0 };
  private readonly log_: ConversationEntry[] = [];
  /** VAD speech starts dropped because TTS was speaking (observable for diagnostics and tests). */
  ignoredSpeechStarts = 0;

  constructor(options: OrchestratorOptions) {
    this.options = options;
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.clock = options.clock;
    this.currentMode = options.mode;
    this.zonedNow =
      options.now ??
      (() => {
        const epochMs = this.clock.now();
        return { epochMs, offsetMinutes: -new Date(epochMs).getTimezoneOffset() };
      });
    this.log = options.log ?? (() => {});
  }

  // ---- observable state ---------------------------------------------------------

  get state(): VoiceState {
    return this.currentState;
  }

  get mode(): VoiceMode {
    return this.currentMode;
  }

  get batch(): DraftBatch | null {
    return this.draft;
  }

  get isTtsSpeaking(): boolean {
    return this.speaking > 0;
  }

  /** True once the session ended (exit words, timeout); the manager shows it as ENDED. */
  get ended(): boolean {
    return this.finished;
  }

  /** An utterance has ended and its final text is still on its way from the ASR. */
  get awaitingFinal(): boolean {
    return this.utterance?.committed ?? false;
  }

  get summary(): SessionSummary {
    return { ...this.totals };
  }

  get conversation(): readonly ConversationEntry[] {
    return this.log_;
  }

  get online(): boolean {
    return this.options.understanding.isOnline();
  }

  // ---- lifecycle ------------------------------------------------------------------

  /** IDLE → LISTENING; opens the mic in auto/pushToTalk, then speaks the welcome. Idempotent. */
  start(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    if (!this.usable || this.currentState !== 'idle') return;
    // Without speech recognition or a microphone only typing works: say so once, then type.
    if (this.currentMode !== 'keyboard' && !(this.asrConfigured() && (await this.openAudio()))) this.currentMode = 'keyboard';
    if (!this.usable) return;
    this.setState('listening');
    void this.speak(say.PHRASES.welcome);
  }

  async setMode(mode: VoiceMode): Promise<void> {
    if (!this.usable || mode === this.currentMode) return;
    if (mode === 'keyboard') {
      this.abortUtterance();
      this.currentMode = mode;
      await this.closeAudio();
      return;
    }
    if (!this.asrConfigured()) return;
    if (this.currentState !== 'idle' && !this.input && !(await this.openAudio())) return;
    this.abortUtterance();
    this.currentMode = mode;
  }

  /** Keyboard input: skips audio, VAD and ASR (spec: 键盘输入模式). */
  processTextInput(text: string): Promise<void> {
    return this.enqueue(() => this.handleText(text));
  }

  act(action: DraftAction): Promise<void> {
    return this.enqueue(() => this.handleAction(action));
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
    if (!this.usable) return;
    if (action === 'down') {
      // The key works in auto mode too (a global hotkey); keyboard mode has no microphone.
      if (this.currentMode === 'keyboard' || !this.input || this.utterance) return;
      // Pressing the key interrupts the read-back: the user wants to talk now.
      this.options.tts.stop();
      this.beginUtterance('ptt', options.endOnSilence === true);
      return;
    }
    const u = this.utterance;
    if (u) this.release(u);
  }

  private release(u: Utterance): void {
    if (!u.ptt || u.committed) return;
    u.committed = true;
    // Not awaited: the command returns at once, the final text arrives as events.
    void u.ptt.release().then((result) => this.onRelease(u, result));
  }

  /** Resolves once every queued input has been handled (tools and benchmarks wait on it). */
  async idle(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.queue;
      await tail;
    } while (tail !== this.queue);
  }

  /** Resolves once everything queued for the speaker has been spoken. */
  async silent(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.speechTail;
      await tail;
    } while (tail !== this.speechTail);
  }

  /** Drops everything: no event is emitted afterwards, audio is released. */
  async dispose(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.clearIdleTimers();
    this.abortUtterance();
    this.options.tts.stop();
    this.draft = null;
    await this.closeAudio();
  }

  // ---- text handling ----------------------------------------------------------------

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
    if (!text) return;
    if (this.currentState === 'idle') await this.start();
    if (!this.usable) return;
    this.note('user', text);
    this.touch();
    if (this.draft) await this.handleConfirming(text, this.draft);
    else await this.handleListening(text);
  }

  private async handleListening(text: string): Promise<void> {
    const intent = classifyIntent(text, 0);
    // 「嗯」「啊」 or bare punctuation is thinking aloud, not something to parse.
    if (intent.intent === 'filler') return;
    if (intent.intent === 'exit') return this.end('exit');
    if (UNDO_WORDS.test(stripPunctuation(text))) return this.undoLastSave();
    const query = detectQuery(text, this.zonedNow());
    if (query) return this.answerQuery(query);
    if (intent.intent === 'confirm' || intent.intent === 'cancel' || intent.intent === 'confirmItem' || intent.intent === 'cancelItem') {
      void this.speak(say.PHRASES.nothingPending);
      return;
    }
    // 「第一笔改成50」 with no card: a fix of drafts that are gone, not a new item 「改成」 50.
    if (intent.intent === 'correction' && ITEM_REFERENCE.test(text)) {
      void this.speak(say.PHRASES.nothingPending);
      return;
    }
    if (intent.intent === 'continueRecording') {
      this.emit({ type: 'continueRecording' });
      void this.speak(say.PHRASES.continueRecording);
      return;
    }
    const outcome = await this.options.understanding.parse(text, this.understandingContext());
    if (!this.usable) return;
    this.reportLlmFailure(outcome.failure);
    // Words with no amount anywhere ("今天天气不错") are not a transaction to confirm.
    if (outcome.results.every((result) => result.amount === null)) {
      void this.speak(say.PHRASES.nothingParsed);
      return;
    }
    const batch = DraftBatch.fromResults(
      outcome.results.map((result) => this.placed(result)),
      toZonedIso(this.zonedNow()),
    );
    const notices: string[] = [];
    if (outcome.truncated || outcome.results.length > batch.size) notices.push(say.PHRASES.truncated);
    if (outcome.multipleDetected && outcome.source === 'local') {
      // Online but refused or too slow is not 「离线」: the user would look for a network problem.
      const reachable = outcome.failure !== undefined && outcome.failure.kind !== 'network' && this.options.understanding.isOnline();
      notices.push(`${reachable ? say.PHRASES.llmSingle : say.PHRASES.offlineSingle}。`);
    }
    this.draft = batch;
    this.emit({ type: 'finalText', text, batch: batch.toDto() });
    this.setState('confirming');
    void this.speak(notices.join('') + say.readBack(batch));
  }

  private async handleConfirming(text: string, batch: DraftBatch): Promise<void> {
    const asked = this.askedForMoreChanges;
    this.askedForMoreChanges = false;
    if (asked && NO_MORE_CHANGES.test(stripPunctuation(text))) return this.resolve(batch.confirmAll(), batch);
    const layer1 = classifyIntent(text, batch.size);
    switch (layer1.intent) {
      case 'confirm':
        return this.resolve(batch.confirmAll(), batch);
      case 'cancel':
        return this.resolve(batch.cancelAll(), batch);
      case 'exit':
        return this.end('exit');
      case 'filler':
        // Thinking aloud while reading the card: neither a correction nor worth an LLM call.
        return;
      case 'continueRecording':
        return this.continueRecording(batch);
      case 'confirmItem':
      case 'cancelItem': {
        const position = layer1.index ?? -1;
        const target = batch.items[position];
        if (layer1.outOfRange || !target) {
          void this.speak(say.noSuchItem(position + 1, batch.size));
          return;
        }
        return this.itemAction(layer1.intent === 'confirmItem' ? 'confirm' : 'cancel', target.index, batch);
      }
      default:
        break;
    }
    if (UNDO_WORDS.test(stripPunctuation(text))) {
      void this.speak(say.PHRASES.undoWhileConfirming);
      return;
    }
    const query = detectQuery(text, this.zonedNow());
    if (query) return this.answerQuery(query);
    // Layer 2: fill the wait with speech, then the LLM (3 s) or the local rules.
    void this.speak(say.PHRASES.correcting);
    const outcome = await this.options.understanding.correct(batch, text, this.understandingContext());
    if (!this.usable) return;
    this.reportLlmFailure(outcome.failure);
    this.applyCorrection(outcome, batch, text);
  }

  private applyCorrection(outcome: CorrectionOutcome, batch: DraftBatch, text: string): void {
    const intent = outcome.confidence < 0.7 ? 'unclear' : outcome.intent;
    // The first reply from the offline rules says that only simple fixes work (spec: 离线降级纠正).
    const notice = (): string => {
      if (outcome.source !== 'local' || this.options.understanding.isOnline() || this.offlineCorrectionNoticed) return '';
      this.offlineCorrectionNoticed = true;
      return say.PHRASES.offlineCorrection;
    };
    const message = intent !== 'unclear' && outcome.message ? outcome.message : '';
    switch (intent) {
      case 'confirm':
        return this.resolve(batch.confirmAll(), batch);
      case 'cancel':
        return this.resolve(batch.cancelAll(), batch);
      case 'correction': {
        let next = batch;
        const fixed: number[] = [];
        const redated = new Set<number>();
        for (const c of outcome.corrections) {
          const target = next.item(c.index);
          if (!target || target.status !== 'pending') continue;
          const updated = next.updateItem(c.index, this.fieldsFor(target.result, c.updatedFields));
          // Fields equal to what the item already holds are no change to read back.
          if (updated === next || sameDraft(updated.item(c.index)!.result, target.result)) continue;
          if (updated.item(c.index)!.result.date !== target.result.date) redated.add(c.index);
          next = updated;
          if (!fixed.includes(c.index)) fixed.push(c.index);
        }
        if (fixed.length === 0) break;
        this.updateBatch(next);
        const fixes = fixed.map((index) => ({
          number: next.displayNumber(index),
          result: next.item(index)!.result,
          dateChanged: redated.has(index),
        }));
        void this.speak(notice() + say.corrected(fixes, next.size) + message);
        this.askedForMoreChanges = true;
        return;
      }
      case 'append': {
        let next = batch;
        const added: number[] = [];
        let full = false;
        for (const c of outcome.corrections) {
          const fields = c.updatedFields;
          if (typeof fields.amount !== 'number' || !(fields.amount > 0)) continue;
          const type = fields.type ?? 'EXPENSE';
          const grown = next.append({
            amount: fields.amount,
            type,
            category: fields.category ? this.categoryFor(fields.category, fields.description ?? '', type) : null,
            description: fields.description ?? '',
            date: fields.date ?? null,
            account: fields.account ?? null,
            confidence: outcome.confidence,
            source: outcome.source,
          });
          if (!grown) {
            full = true;
            break;
          }
          next = grown;
          added.push(next.items[next.items.length - 1]!.index);
        }
        if (added.length === 0 && !full) break;
        if (added.length > 0) this.updateBatch(next);
        const parts = added.map((index) => say.appended(next.displayNumber(index), next.item(index)!.result, next.size));
        if (full) parts.push(say.PHRASES.appendLimit);
        void this.speak(notice() + parts.join('') + message);
        return;
      }
      default:
        break;
    }
    void this.speak(notice() + (outcome.message || (this.targetIsAmbiguous(batch, text) ? say.PHRASES.whichItem : say.PHRASES.unclear)));
  }

  /**
   * 「改成50」 with several pending items: the words carry a change but name no item, so the
   * user is asked which one (spec: 定位模糊) rather than told they were not understood. The
   * local rules decide: unplaceable against the batch, yet a change for a lone item.
   */
  /**
   * The gateway or provider refused the call (a wrong key, a rate limit, a broken service):
   * the local rules answered, but the user must learn why multi-item input stopped working,
   * once per cause. A down network is spoken as 「当前离线」 instead; a timeout or an unusable
   * answer is a one-off.
   */
  private reportLlmFailure(failure: LlmFailure | undefined): void {
    if (failure?.kind !== 'http') return;
    const status = failure.status ?? 0;
    const [code, message] =
      status === 401 || status === 403
        ? ['llm_unavailable', `智能解析服务拒绝了密钥（HTTP ${status}），已改用本地规则`]
        : status === 429
          ? ['llm_busy', `智能解析服务繁忙（HTTP ${status}），暂时改用本地规则`]
          : ['llm_unavailable', `智能解析服务暂时不可用（HTTP ${status}），已改用本地规则`];
    if (this.llmFailuresReported.has(code)) return;
    this.llmFailuresReported.add(code);
    this.emit({ type: 'error', code, message });
  }

  private targetIsAmbiguous(batch: DraftBatch, text: string): boolean {
    const view = batch.pendingView();
    if (view.items.length < 2) return false;
    const options = { now: this.zonedNow(), customCategories: this.options.context?.().customCategories ?? [] };
    try {
      if (correctLocal(text, view.items, options).intent !== 'unclear') return false;
      const alone = correctLocal(text, [{ ...view.items[0]!, index: 0 }], options);
      return alone.intent === 'correction' && alone.corrections.some((c) => Object.keys(c.updatedFields).length > 0);
    } catch {
      return false;
    }
  }

  private async handleAction(action: DraftAction): Promise<void> {
    if (this.currentState === 'idle') await this.start();
    if (!this.usable) return;
    this.touch();
    this.askedForMoreChanges = false;
    if (action.action === 'undo') return this.undoLastSave();
    const batch = this.draft;
    if (!batch) {
      void this.speak(say.PHRASES.nothingPending);
      return;
    }
    switch (action.action) {
      case 'confirmAll':
        return this.resolve(batch.confirmAll(), batch);
      case 'cancelAll':
        return this.resolve(batch.cancelAll(), batch);
      case 'confirmItem':
      case 'cancelItem':
        if (!batch.item(action.index)) return;
        return this.itemAction(action.action === 'confirmItem' ? 'confirm' : 'cancel', action.index, batch);
      case 'editItem': {
        const target = batch.item(action.index);
        if (!target || target.status !== 'pending') return;
        const next = batch.updateItem(action.index, this.fieldsFor(target.result, action.fields));
        if (next === batch) return;
        this.updateBatch(next);
        void this.speak(say.corrected([{ number: next.displayNumber(action.index), result: next.item(action.index)!.result }], next.size));
        this.askedForMoreChanges = true;
        return;
      }
    }
  }

  private itemAction(kind: 'confirm' | 'cancel', index: number, batch: DraftBatch): void {
    const next = kind === 'confirm' ? batch.confirmItem(index) : batch.cancelItem(index);
    if (next.allResolved) return this.resolve(next, batch);
    if (next !== batch) this.updateBatch(next);
    const number = next.displayNumber(index);
    void this.speak(
      kind === 'confirm' ? say.itemConfirmed(number, next.pendingCount) : say.itemCancelled(number, next.item(index)!.result, next.pendingCount),
    );
  }

  /** Nothing is pending any more: save what was confirmed (or say 已取消), clear, LISTENING. */
  private resolve(next: DraftBatch, before: DraftBatch): void {
    if (next.confirmedItems.length === 0) {
      this.clearBatch();
      this.setState('listening');
      void this.speak(say.PHRASES.cancelled);
      return;
    }
    const rows = this.save(next, before);
    if (rows) void this.speak(say.saved(rows.length));
  }

  private continueRecording(batch: DraftBatch): void {
    let prefix = '';
    if (batch.confirmedItems.length > 0) {
      const rows = this.save(batch, batch);
      if (!rows) return;
      prefix = say.saved(rows.length);
    } else {
      this.clearBatch();
      this.setState('listening');
    }
    this.emit({ type: 'continueRecording' });
    void this.speak(prefix + say.PHRASES.continueRecording);
  }

  /**
   * saveBatch of the confirmed items in one transaction, then clear → LISTENING. On failure
   * the drafts go back to `before` (nothing was written) and the user hears why.
   */
  private save(resolved: DraftBatch, before: DraftBatch): TransactionRow[] | null {
    const results = resolved.confirmedItems.map((item) => item.result);
    let rows: TransactionRow[];
    try {
      rows = this.options.ledger.saveBatch(results, { now: this.zonedNow() });
    } catch (err) {
      this.log('saveBatch failed', err);
      const reason = saveFailureText(err, resolved);
      if (this.draft !== before) this.updateBatch(before);
      this.emit({ type: 'error', code: 'save_failed', message: `保存失败：${reason}` });
      void this.speak(say.saveFailed(reason));
      return null;
    }
    this.lastSave = { rows, results };
    this.count(rows, 1);
    this.emit({ type: 'saved', transactions: rows });
    this.clearBatch();
    this.setState('listening');
    return rows;
  }

  /** 「撤销」: deletes the rows of this session's last save and brings them back as drafts. */
  private undoLastSave(): void {
    if (this.draft) {
      void this.speak(say.PHRASES.undoWhileConfirming);
      return;
    }
    const last = this.lastSave;
    if (!last) {
      void this.speak(say.PHRASES.nothingToUndo);
      return;
    }
    this.lastSave = null;
    // The ledger page may have edited or deleted some of these rows since: bring back what is
    // there now, and never resurrect a row the user deleted.
    const ledger = this.options.ledger;
    const current = ledger.getMany ? ledger.getMany(last.rows.map((row) => row.id)) : last.rows;
    const removed = current.length === 0 ? 0 : ledger.deleteTransactions(current.map((row) => row.id));
    if (removed === 0) {
      void this.speak(say.PHRASES.nothingToUndo);
      return;
    }
    // The summary takes back exactly what this save added to it.
    this.count(last.rows, -1);
    const results = current.map((row) => {
      const original = last.results[last.rows.findIndex((saved) => saved.id === row.id)];
      return ledger.getMany ? draftOf(row, original) : original!;
    });
    const batch = DraftBatch.fromResults(results, toZonedIso(this.zonedNow()));
    this.updateBatch(batch);
    this.setState('confirming');
    void this.speak(say.undone(batch.size) + say.readBack(batch));
  }

  private answerQuery(query: LedgerQuery): void {
    const totals = this.options.ledger.totals({
      from: query.from,
      to: query.to,
      type: query.type,
      ...(query.category ? { category: query.category } : {}),
    });
    void this.speak(say.queryAnswer(query, totals.totalFen, totals.count));
  }

  /** Exit words or the idle timeout: summary, audio released, state idle (the manager shows ENDED). */
  private async end(reason: 'exit' | 'timeout'): Promise<void> {
    if (!this.usable) return;
    this.finished = true;
    this.clearIdleTimers();
    this.abortUtterance();
    await this.closeAudio();
    this.clearBatch();
    this.setStateRaw('idle');
    const summary = this.summary;
    const text = reason === 'timeout' ? say.PHRASES.timedOut + say.summary(summary) : say.summary(summary);
    void this.speak(text);
    this.emit(reason === 'timeout' ? { type: 'sessionTimeout', summary } : { type: 'exitSession', summary });
  }

  // ---- audio + ASR ----------------------------------------------------------------------

  private asrConfigured(): boolean {
    if (this.options.createAsrClient) return true;
    this.emit({ type: 'error', code: 'asr_unavailable', message: '语音识别未配置，请在设置中填写服务地址，或改用键盘输入' });
    return false;
  }

  private async openAudio(): Promise<boolean> {
    if (this.input) return true;
    if (!this.options.createVoiceInput) {
      this.emit({ type: 'error', code: 'no_device', message: AUDIO_ERROR_TEXT.no_device });
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
    if (!this.usable) {
      await this.closeAudio();
      return false;
    }
    if (this.speaking > 0) input.pauseVad();
    return true;
  }

  private reportAudioError(err: unknown): void {
    const code = (err as Partial<VoiceIoError> | null)?.code;
    const known = code && code in AUDIO_ERROR_TEXT ? (code as VoiceIoError['code']) : 'capture_failed';
    this.log('audio failed', err);
    this.emit({ type: 'error', code: known, message: AUDIO_ERROR_TEXT[known] });
  }

  private detachInput(): void {
    for (const unsubscribe of this.inputSubscriptions) unsubscribe();
    this.inputSubscriptions = [];
    this.input = null;
  }

  private async closeAudio(): Promise<void> {
    const input = this.input;
    if (!input) return;
    this.detachInput();
    try {
      await input.stop();
    } catch (err) {
      this.log('audio stop failed', err);
    }
  }

  private onAudioError(error: VoiceIoError): void {
    if (!this.usable) return;
    this.abortUtterance();
    this.emit({ type: 'error', code: error.code, message: AUDIO_ERROR_TEXT[error.code] ?? error.message });
    if (error.code === 'device_lost' || error.code === 'capture_failed') {
      this.currentMode = 'keyboard';
      void this.closeAudio();
    }
  }

  private onSpeechStart(): void {
    if (!this.usable || this.currentMode !== 'auto') return;
    if (this.speaking > 0) {
      // TTS is playing: the "speech" is our own voice (spec: _isTtsSpeaking).
      this.ignoredSpeechStarts += 1;
      return;
    }
    this.beginUtterance('vad');
  }

  private onSpeechEnd(): void {
    const u = this.utterance;
    if (!this.usable || !u) return;
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

  private beginUtterance(trigger: 'vad' | 'ptt', endOnSilence = false): void {
    if (this.utterance || (this.currentState !== 'listening' && this.currentState !== 'confirming')) return;
    // Audio is only opened with an ASR configured (asrConfigured), so this always exists here.
    const factory = this.options.createAsrClient;
    if (!factory) return;
    let asr: AsrClient;
    try {
      asr = factory({ shouldReconnect: () => this.utterance?.asr === asr && this.currentState === 'recognizing' });
    } catch (err) {
      this.log('asr client failed', err);
      this.emit({ type: 'error', code: 'asr_unavailable', message: '语音识别不可用，请改用键盘输入' });
      return;
    }
    const ptt =
      trigger === 'ptt'
        ? createPushToTalk({ client: asr, clock: this.clock, minHoldMs: this.timings.pttMinHoldMs, finalTimeoutMs: this.timings.finalWaitMs })
        : null;
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
        if (this.utterance === u && this.usable) this.emit({ type: 'partialText', text });
      }),
      asr.on('error', (error) => this.onAsrError(u, error)),
    ];
    // Push-to-talk gets its final text from release().
    if (!ptt) u.subscriptions.push(asr.on('final', (text) => this.onAsrFinal(u, text)));
    this.utterance = u;
    this.emit({ type: 'speechDetected' });
    this.setState('recognizing');
    if (ptt) {
      // Connects and sends only once the key has been held for the minimum time.
      ptt.press();
      return;
    }
    asr.connect().then(
      () => this.flushAudio(u),
      (err: unknown) => this.onAsrError(u, { code: 'connect_failed', message: errorMessage(err) }),
    );
  }

  private onRelease(u: Utterance, result: PushToTalkResult): void {
    if (this.utterance !== u || !this.usable) return;
    switch (result.kind) {
      case 'final':
        return this.onAsrFinal(u, result.text);
      case 'tooShort':
        this.abortUtterance();
        this.emit({ type: 'error', code: 'tooShort', message: '按住时间太短，请按住说完再松开' });
        return;
      case 'noResult':
        return this.onAsrError(u, {
          code: result.reason === 'timeout' ? 'no_result' : 'connect_failed',
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
    u.timer = this.clock.setTimeout(() => {
      u.timer = null;
      this.onAsrError(u, { code: 'no_result', message: 'no final text in time' });
    }, this.timings.finalWaitMs);
  }

  private finishUtterance(u: Utterance): void {
    if (this.utterance !== u) return;
    this.utterance = null;
    this.clock.clearTimeout(u.timer);
    u.ptt?.cancel();
    for (const unsubscribe of u.subscriptions) unsubscribe();
    void u.asr.close().catch((err: unknown) => this.log('asr close failed', err));
  }

  private abortUtterance(): void {
    const u = this.utterance;
    if (!u) return;
    this.finishUtterance(u);
    if (this.usable) this.setState(this.draft ? 'confirming' : 'listening');
  }

  private onAsrFinal(u: Utterance, text: string): void {
    if (this.utterance !== u || !this.usable) return;
    this.finishUtterance(u);
    const spoken = text.trim();
    if (!spoken) {
      this.settleRecognizing();
      void this.speak(say.PHRASES.didNotHear);
      return;
    }
    this.emit({ type: 'partialText', text: spoken });
    // RECOGNIZING lasts until the words are understood (LLM parse or correction): the UI
    // says so, and the VAD does not start another utterance on top of this one meanwhile.
    void this.enqueue(async () => {
      try {
        await this.handleText(spoken);
      } finally {
        this.settleRecognizing();
      }
    });
  }

  private settleRecognizing(): void {
    if (this.usable && !this.utterance && this.currentState === 'recognizing') this.setState(this.draft ? 'confirming' : 'listening');
  }

  private onAsrError(u: Utterance, error: AsrError): void {
    if (this.utterance !== u || !this.usable) return;
    this.finishUtterance(u);
    this.setState(this.draft ? 'confirming' : 'listening');
    const message =
      error.code === 'no_result'
        ? '没有收到识别结果，请再说一次'
        : error.code === 'token_failed'
          ? '语音识别授权失败，请检查设置中的服务地址和密钥'
          : '语音识别连接失败，请检查网络后重试';
    this.emit({ type: 'error', code: error.code, message });
  }

  // ---- speech, state, timers ----------------------------------------------------------

  /** Speech is serialised; while any is queued, VAD speech starts are ignored. */
  private speak(text: string): Promise<void> {
    if (!this.active || !text) return Promise.resolve();
    this.note('assistant', text);
    this.emit({ type: 'ttsSpoken', text });
    this.speaking += 1;
    if (this.speaking === 1) this.input?.pauseVad();
    const run = this.speechTail.then(async () => {
      if (!this.active) return;
      try {
        await this.options.tts.speak(text);
      } catch (err) {
        // A broken speaker must not stop the pipeline (spec: TTS 播报失败不影响流程).
        this.log('tts failed', err);
      }
    });
    const done = run.finally(() => {
      this.speaking -= 1;
      if (this.speaking === 0) this.input?.resumeVad();
    });
    this.speechTail = done;
    return done;
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

  private note(role: ConversationEntry['role'], text: string): void {
    this.log_.push({ role, text, at: this.clock.now() });
    // A window shows the recent dialogue; an all-day session must not grow without bound.
    if (this.log_.length > MAX_CONVERSATION) this.log_.splice(0, this.log_.length - MAX_CONVERSATION);
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
    this.clearIdleTimers();
    if (!this.usable || (this.currentState !== 'listening' && this.currentState !== 'confirming')) return;
    this.warnTimer = this.clock.setTimeout(() => {
      this.warnTimer = null;
      void this.speak(say.PHRASES.idleWarning);
    }, this.timings.idleWarningMs);
    this.endTimer = this.clock.setTimeout(() => {
      this.endTimer = null;
      void this.enqueue(() => this.end('timeout'));
    }, this.timings.idleTimeoutMs);
  }

  private clearIdleTimers(): void {
    this.clock.clearTimeout(this.warnTimer);
    this.clock.clearTimeout(this.endTimer);
    this.warnTimer = null;
    this.endTimer = null;
  }

  private updateBatch(batch: DraftBatch): void {
    this.draft = batch;
    this.emit({ type: 'draftBatchUpdated', batch: batch.toDto() });
  }

  private clearBatch(): void {
    this.askedForMoreChanges = false;
    if (!this.draft) return;
    this.draft = null;
    this.emit({ type: 'draftBatchUpdated', batch: null });
  }

  private fieldsFor(current: ParseResult, fields: UpdatedFields): UpdatedFields {
    const next = withCategoryForType(current, fields, this.options.context?.().customCategories);
    if (!next.category) return next;
    return { ...next, category: this.categoryFor(next.category, next.description ?? current.description, next.type ?? current.type) };
  }

  private placed(result: ParseResult): ParseResult {
    return result.category ? { ...result, category: this.categoryFor(result.category, result.description, result.type) } : result;
  }

  /**
   * The category the ledger will file the item under, so what is read back is what gets
   * saved: a word the model made up is first placed by the item's words, then by the ledger.
   */
  private categoryFor(name: string, description: string, type: TransactionType): string {
    const place = this.options.ledger.placeCategory?.bind(this.options.ledger);
    // The ledger's own name (a renamed preset too) is kept as it is.
    if (place && place(name, type) === name) return name;
    const known = categoryOfType(name, description, type, this.options.context?.().customCategories) ?? name;
    return place ? place(known, type) : known;
  }

  private understandingContext(): UnderstandingContext {
    return { ...(this.options.context?.() ?? {}), now: this.zonedNow() };
  }

  private count(rows: readonly TransactionRow[], sign: 1 | -1): void {
    this.totals.savedCount += sign * rows.length;
    for (const row of rows) this.addAmount(row.type, sign * row.amountFen);
  }

  private addAmount(type: TransactionRow['type'], fen: number): void {
    if (type === 'EXPENSE') this.totals.expenseFen += fen;
    else if (type === 'INCOME') this.totals.incomeFen += fen;
    else this.totals.transferFen += fen;
  }
}

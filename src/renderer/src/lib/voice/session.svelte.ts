import type { DraftBatchDto, SessionSummary, TransactionRow, VoiceMode, VoiceState } from '@shared/domain';
import type { AppEvent, VoiceEvent } from '@shared/events';
import type { IpcResult, SuikoujiApi, VoiceAction, VoiceSnapshot } from '@shared/ipc/index';
import { afterSavedLine, logLinesFor, nextStepFor, type LogEntry } from './conversation';

/** The part of the window API the session needs (a fake in component tests). */
export type VoiceApi = Pick<
  SuikoujiApi,
  'voiceSnapshot' | 'voiceStart' | 'voiceSetMode' | 'voiceText' | 'voicePushToTalk' | 'voiceAction' | 'onEvent'
>;

const MAX_LOG = 200;

/**
 * The renderer's view of the one voice session in the main process. It never decides
 * anything about drafts: the batch shown is always the last one the orchestrator sent
 * (in an event or in a command's snapshot), so voice and clicks cannot disagree.
 */
export class VoiceSession {
  state = $state<VoiceState>('idle');
  mode = $state<VoiceMode>('auto');
  batch = $state<DraftBatchDto | null>(null);
  online = $state(true);
  partial = $state('');
  hearing = $state(false);
  log = $state<LogEntry[]>([]);
  summary = $state<SessionSummary | null>(null);
  /** The last `saved` event's row count, for pages that close after a save. */
  savedCount = $state(0);
  ready = $state(false);

  #api: VoiceApi;
  #nextLogId = 1;
  /** The rows of a save whose spoken reply has not arrived yet (it is shown without its first sentence). */
  #savedRows: TransactionRow[] | null = null;
  /** Delegate safety: once disposed, late events and answers change nothing. */
  #active = true;
  #unsubscribe: (() => void) | null = null;

  constructor(api: VoiceApi) {
    this.#api = api;
  }

  /** Subscribes to events and loads the snapshot; returns the dispose function. */
  connect(): () => void {
    this.#unsubscribe = this.#api.onEvent((event: AppEvent) => {
      if (event.channel === 'voice') this.apply(event.event);
    });
    void this.#api.voiceSnapshot({}).then((result) => {
      if (!this.#take(result) || !result.ok || !this.#active) return;
      // A window opened mid-session shows what was said so far.
      if (this.log.length === 0) {
        for (const entry of result.value.conversation ?? []) {
          this.#push({ kind: entry.role === 'user' ? 'user' : 'app', text: entry.text, nextStep: null });
        }
      }
      this.ready = true;
    });
    return () => this.dispose();
  }

  dispose(): void {
    this.#active = false;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  get active(): boolean {
    return this.#active;
  }

  get ended(): boolean {
    return this.state === 'ended';
  }

  apply(event: VoiceEvent): void {
    if (!this.#active) return;
    switch (event.type) {
      case 'stateChanged':
        this.state = event.state;
        if (event.state !== 'recognizing') this.hearing = false;
        if (event.state === 'listening' || event.state === 'idle') this.partial = '';
        // Mode and online status have no events of their own (the hotkey may switch the
        // mode, a failed request may take the session offline): re-read them.
        this.#refresh();
        break;
      case 'speechDetected':
        this.hearing = true;
        break;
      case 'partialText':
        this.partial = event.text;
        break;
      case 'finalText':
        this.partial = '';
        this.hearing = false;
        this.batch = event.batch;
        break;
      case 'draftBatchUpdated':
        this.batch = event.batch;
        break;
      case 'saved':
        this.savedCount = event.transactions.length;
        this.#savedRows = event.transactions.length ? event.transactions : null;
        break;
      case 'ttsSpoken': {
        const rows = this.#savedRows;
        this.#savedRows = null;
        if (!rows) break;
        const rest = afterSavedLine(event.text, rows);
        if (rest) this.#push({ kind: 'app', text: rest, nextStep: null });
        return;
      }
      case 'exitSession':
      case 'sessionTimeout':
        this.summary = event.summary;
        this.batch = null;
        this.state = 'ended';
        break;
      default:
        break;
    }
    for (const line of logLinesFor(event)) this.#push(line);
  }

  start(mode?: VoiceMode): Promise<boolean> {
    return this.#run(() => this.#api.voiceStart(mode ? { mode } : {}));
  }

  setMode(mode: VoiceMode): Promise<boolean> {
    return this.#run(() => this.#api.voiceSetMode({ mode }));
  }

  submitText(text: string): Promise<boolean> {
    return this.#run(() => this.#api.voiceText({ text }));
  }

  #talkQueue: Promise<unknown> = Promise.resolve();

  /**
   * Hold-to-talk from the page (main starts a session on a press if none runs): a quick
   * release waits for its own press, so the two always arrive in order.
   */
  pushToTalk(action: 'down' | 'up'): Promise<boolean> {
    const next = this.#talkQueue.then(() => this.#run(() => this.#api.voicePushToTalk({ action })));
    this.#talkQueue = next;
    return next;
  }

  act(action: VoiceAction): Promise<boolean> {
    return this.#run(() => this.#api.voiceAction(action));
  }

  /** Ends the session like saying 「没有了」: the summary shows, audio is released. */
  exit(): Promise<boolean> {
    return this.act({ action: 'exit' });
  }

  /**
   * A brand-new session: the old log and summary go, as the spec's restart requires. Drafts
   * the last session left unconfirmed come back as the new session's batch (its snapshot),
   * and what the new session already said while the command ran stays in the log.
   */
  async restart(): Promise<boolean> {
    const firstNew = this.#nextLogId;
    const ok = await this.act({ action: 'restart' });
    if (ok && this.#active) {
      this.log = this.log.filter((entry) => entry.id >= firstNew);
    }
    return ok;
  }

  /** A snapshot a command outside the session's own answered with (a picture's drafts): shown as the session's. */
  show(snapshot: VoiceSnapshot): void {
    this.#take({ ok: true, value: snapshot });
  }

  #refreshing = false;

  #refresh(): void {
    if (this.#refreshing) return;
    this.#refreshing = true;
    void this.#api
      .voiceSnapshot({})
      .then((result) => {
        if (!this.#active || !result.ok) return;
        this.mode = result.value.mode;
        this.online = result.value.online;
      })
      .catch(() => {})
      .finally(() => (this.#refreshing = false));
  }

  async #run(command: () => Promise<IpcResult<VoiceSnapshot>>): Promise<boolean> {
    let result: IpcResult<VoiceSnapshot>;
    try {
      result = await command();
    } catch {
      result = { ok: false, error: { code: 'ipc_failed', message: '与应用主进程的连接中断，请重启随口记。' } };
    }
    return this.#take(result);
  }

  #take(result: IpcResult<VoiceSnapshot>): boolean {
    if (!this.#active) return result.ok;
    if (!result.ok) {
      this.#push({ kind: 'error', text: result.error.message, nextStep: nextStepFor(result.error.code) });
      return false;
    }
    const snapshot = result.value;
    this.state = snapshot.state;
    this.summary = snapshot.summary ?? null;
    this.mode = snapshot.mode;
    this.batch = snapshot.batch;
    this.online = snapshot.online;
    return true;
  }

  #push(line: Omit<LogEntry, 'id'>): void {
    const next = [...this.log, { ...line, id: this.#nextLogId++ }];
    this.log = next.length > MAX_LOG ? next.slice(-MAX_LOG) : next;
  }
}

// The session manager behind the voice IPC commands: owns one VoiceOrchestrator at a time,
// turns its exit/timeout into the ENDED state (spec: 会话结束态与一键重启) and starts a
// brand-new orchestrator on restart.
import type { SessionSummary, VoiceMode, VoiceState } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import type { VoiceAction, VoiceSnapshot } from '@shared/ipc/index';
import type { VoiceController } from '../ipc/voice-handlers';
import { VoiceOrchestrator, type OrchestratorOptions } from './orchestrator';
import { PendingPictures } from './pending-pictures';
import type { PictureCard, PictureOutcome } from './picture-card';

/** Everything an orchestrator needs besides its mode and event sink. */
export type SessionParts = Omit<OrchestratorOptions, 'mode' | 'emit' | 'pictures'>;

export interface VoiceSessionOptions {
  emit: (event: VoiceEvent) => void;
  /** Mode of the first session; later sessions keep the last mode chosen. */
  mode?: VoiceMode;
  /**
   * Builds the parts for a new session from the current settings; called again after
   * reconfigure(), so changed settings apply from the next (re)started session.
   */
  parts: () => SessionParts;
}

export class VoiceSessionManager implements VoiceController {
  private readonly options: VoiceSessionOptions;
  private orchestrator: VoiceOrchestrator | null = null;
  private mode: VoiceMode;
  private endedSummary: SessionSummary | null = null;
  private cachedParts: SessionParts | null = null;
  private replacing: Promise<unknown> = Promise.resolve();
  /** Outlives each session: a card left for the next session keeps its picture. */
  private readonly pictures = new PendingPictures();

  constructor(options: VoiceSessionOptions) {
    this.options = options;
    this.mode = options.mode ?? 'auto';
  }

  /** The running orchestrator, if any (diagnostics and tests). */
  get current(): VoiceOrchestrator | null {
    return this.orchestrator;
  }

  snapshot(): VoiceSnapshot {
    const o = this.orchestrator;
    const state: VoiceState = this.endedSummary ? 'ended' : (o?.state ?? 'idle');
    return {
      state,
      mode: o?.mode ?? this.mode,
      batch: o?.batch?.toDto() ?? null,
      online: o?.online ?? this.parts().understanding.isOnline(),
      conversation: o ? o.conversation.map((entry) => ({ ...entry })) : [],
      summary: this.endedSummary,
    };
  }

  /** Starts listening; in ENDED (or with no session yet) this is a brand-new session. */
  async start(mode?: VoiceMode): Promise<void> {
    if (mode) this.mode = mode;
    const o = this.orchestrator;
    if (o && !this.endedSummary) {
      if (mode) await o.setMode(mode);
      await o.start();
      return;
    }
    await (await this.fresh()).start();
  }

  async setMode(mode: VoiceMode): Promise<void> {
    this.mode = mode;
    if (this.orchestrator && !this.endedSummary) await this.orchestrator.setMode(mode);
  }

  /** Typing needs no microphone: a session that was never started starts in keyboard mode. */
  async submitText(text: string): Promise<void> {
    if (!this.orchestrator || this.endedSummary) {
      if (!this.orchestrator) this.mode = 'keyboard';
      await this.start();
    }
    await this.orchestrator!.processTextInput(text);
  }

  /**
   * A picture's drafts on the card. Like typing, it needs no microphone: a session that was
   * never started starts in keyboard mode.
   */
  async submitPicture(card: PictureCard): Promise<PictureOutcome> {
    if (!this.orchestrator || this.endedSummary) {
      if (!this.orchestrator) this.mode = 'keyboard';
      await this.start();
    }
    return this.orchestrator!.processPicture(card);
  }

  /** A key press with no session (or a typing one) starts talking: the hotkey is the intent. */
  async pushToTalk(action: 'down' | 'up', options: { endOnSilence?: boolean } = {}): Promise<void> {
    if (action === 'down') {
      if (!this.orchestrator || this.endedSummary) await this.start('pushToTalk');
      else if (this.orchestrator.mode === 'keyboard') await this.setMode('pushToTalk');
    }
    if (!this.orchestrator || this.endedSummary) return;
    await this.orchestrator.pushToTalk(action, options);
  }

  async act(action: VoiceAction): Promise<void> {
    switch (action.action) {
      case 'restart':
        await (await this.fresh()).start();
        return;
      case 'exit':
        if (this.orchestrator && !this.endedSummary) await this.orchestrator.exit();
        return;
      default:
        // Draft actions need drafts, which only a running session has.
        if (!this.orchestrator || this.endedSummary) return;
        await this.orchestrator.act(action);
    }
  }

  /** Settings changed: the next session is built from them (the running one is left alone). */
  reconfigure(): void {
    this.cachedParts = null;
  }

  async dispose(): Promise<void> {
    const o = this.orchestrator;
    this.orchestrator = null;
    await o?.dispose();
  }

  /**
   * Disposes the old orchestrator (its late events are dropped at once) and, once its
   * microphone is released, creates a new one.
   */
  private fresh(): Promise<VoiceOrchestrator> {
    // Serialised: two quick restarts must not leave an orchestrator that nobody disposes.
    const next = this.replacing.then(async () => {
      const old = this.orchestrator;
      this.orchestrator = null;
      await old?.dispose();
      this.endedSummary = null;
      this.cachedParts = null;
      const o: VoiceOrchestrator = new VoiceOrchestrator({
        ...this.parts(),
        pictures: this.pictures,
        mode: this.mode,
        emit: (event) => this.forward(o, event),
      });
      this.orchestrator = o;
      return o;
    });
    this.replacing = next.catch(() => undefined);
    return next;
  }

  private parts(): SessionParts {
    this.cachedParts ??= this.options.parts();
    return this.cachedParts;
  }

  private forward(o: VoiceOrchestrator, event: VoiceEvent): void {
    if (o !== this.orchestrator) return;
    // The orchestrator goes idle when it ends (spec); the window shows ENDED instead.
    if (event.type === 'stateChanged' && event.state === 'idle' && o.ended) return;
    this.options.emit(event);
    if (event.type === 'exitSession' || event.type === 'sessionTimeout') {
      this.endedSummary = event.summary;
      this.options.emit({ type: 'stateChanged', state: 'ended' });
    }
  }
}

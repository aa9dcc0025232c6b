// The conversation of one session: it carries the dialogue's state from step to step, shows
// and speaks each step, performs its effect (asks Understanding, writes the session book) and
// keeps the transcript a window shows.
import { DraftBatch } from '@shared/draft-batch';
import type { ParseResult, VoiceState } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import type { ConversationEntry } from '@shared/ipc/voice';
import { localDate, type ZonedNow } from '@shared/time';
import type { Clock } from '@shared/clock';
import {
  afterSave,
  afterSaveFailure,
  afterUndo,
  cardEvent,
  llmFailureError,
  step,
  type DialogueInput,
  type DialogueState,
  type DraftAction,
  type Step,
} from './dialogue';
import type { LedgerPort, LlmFailure, Understanding, UnderstandingContext } from './ports';
import { withOverdrafts } from './overdraft';
import type { PendingPictures } from './pending-pictures';
import type { PictureCard, PictureOutcome } from './picture-card';
import { linkedResult, SessionBook } from './session-book';
import * as say from './templates';

const MAX_TRANSCRIPT = 200;

export interface ConversationOptions {
  understanding: Understanding;
  ledger: LedgerPort;
  context?: () => Omit<UnderstandingContext, 'now'>;
  clock: Clock;
  /** The user's wall clock with its offset; defaults to the clock's instant in this machine's zone. */
  now?: () => ZonedNow;
  log: (message: string, err?: unknown) => void;
  /** The pictures of cards read off pictures, until they are saved with the entries (absent: none are kept). */
  pictures?: PendingPictures;
}

/** What the conversation needs from the session around it. */
export interface ConversationHost {
  /** The session is running: neither ended nor disposed. */
  usable(): boolean;
  emit(event: VoiceEvent): void;
  setState(state: VoiceState): void;
  say(text: string): void;
  exit(): Promise<void>;
}

export class Conversation {
  readonly book: SessionBook;
  private dialogue: DialogueState = { batch: null, askedForMoreChanges: false, offlineNoticed: false };
  /** LLM failure codes already shown this session: a refused key is said once, not per sentence. */
  private readonly llmFailuresReported = new Set<string>();
  private readonly entries: ConversationEntry[] = [];
  private readonly now: () => ZonedNow;

  constructor(
    private readonly options: ConversationOptions,
    private readonly host: ConversationHost,
  ) {
    this.book = new SessionBook(options.ledger, options.log);
    this.now =
      options.now ??
      (() => {
        const epochMs = options.clock.now();
        return { epochMs, offsetMinutes: -new Date(epochMs).getTimezoneOffset() };
      });
  }

  get batch(): DraftBatch | null {
    return this.dialogue.batch;
  }

  get transcript(): readonly ConversationEntry[] {
    return this.entries;
  }

  /** Words the user typed or said. */
  hear(text: string): Promise<void> {
    this.note('user', text);
    return this.run({ text });
  }

  act(action: DraftAction): Promise<void> {
    return this.run({ action });
  }

  /**
   * A picture's drafts on a card of their own. A card with drafts stays as it is (its drafts
   * and their picture belong together): the user confirms or cancels it first.
   */
  async picture(card: PictureCard): Promise<PictureOutcome> {
    if (this.dialogue.batch) return 'busy';
    this.note('user', `［图片］${card.name}`);
    this.options.pictures?.hold(card.picture);
    await this.run({
      picture: { results: card.results, about: { ...(card.notes.length ? { notes: card.notes } : {}), picture: { name: card.name } } },
    });
    if (this.dialogue.batch) return 'shown';
    this.options.pictures?.release([card.picture.id]);
    return 'empty';
  }

  /** A sentence queued for the speaker: shown in the transcript and to the windows. */
  said(text: string): void {
    this.note('assistant', text);
    this.host.emit({ type: 'ttsSpoken', text });
  }

  private note(role: ConversationEntry['role'], text: string): void {
    this.entries.push({ role, text, at: this.options.clock.now() });
    // A window shows the recent dialogue; an all-day session must not grow without bound.
    if (this.entries.length > MAX_TRANSCRIPT) this.entries.splice(0, this.entries.length - MAX_TRANSCRIPT);
  }

  /**
   * A new session opens with the card the last one left unconfirmed (kept in the ledger's
   * drafts table), read back; what is said next is added to it. False when there is none.
   */
  restore(): boolean {
    let kept = null;
    try {
      kept = this.options.ledger.keptDrafts();
    } catch (err) {
      this.options.log('reading the kept drafts failed', err);
    }
    if (!kept || this.dialogue.batch) return false;
    const batch = DraftBatch.fromDto(kept);
    this.show({ ...this.dialogue, batch, addingMore: true, events: [], sentences: [say.restored(batch)], effect: { kind: 'none' } });
    return true;
  }

  /** Drafts on the card that were not saved: what the ENDED summary lists as 未确认. */
  unconfirmed(): ParseResult[] {
    return this.dialogue.batch?.items.filter((item) => item.status !== 'cancelled').map((item) => item.result) ?? [];
  }

  /** The session is over: the card goes from the screen without another word, and stays kept for the next one. */
  drop(): void {
    const shown = this.dialogue.batch;
    this.dialogue = { ...this.dialogue, batch: null, askedForMoreChanges: false };
    if (shown) this.host.emit({ type: 'draftBatchUpdated', batch: null });
  }

  /** One dialogue step: its card shown, its events sent, its sentences spoken, then its effect. */
  private async run(input: DialogueInput): Promise<void> {
    const { understanding, ledger } = this.options;
    const now = this.now;
    const context = this.options.context?.();
    const place = ledger.placeCategory.bind(ledger);
    const { refundCandidates, proposeSettlement } = ledger;
    const link =
      refundCandidates && proposeSettlement
        ? (result: ParseResult) =>
            linkedResult(
              result,
              { refundCandidates: refundCandidates.bind(ledger), proposeSettlement: proposeSettlement.bind(ledger) },
              localDate(now()),
            )
        : undefined;
    const next = step(this.dialogue, input, {
      now: now(),
      online: understanding.isOnline(),
      customCategories: context?.customCategories ?? [],
      place,
      link,
      ...(ledger.subCategories ? { children: ledger.subCategories.bind(ledger) } : {}),
    });
    this.show(next);
    const effect = next.effect;
    switch (effect.kind) {
      case 'parse': {
        const parsed = await this.understood(understanding.parse(effect.text, { ...context, now: now() }));
        if (parsed) await this.run({ text: effect.text, parsed });
        return;
      }
      case 'correct': {
        const corrected = await this.understood(understanding.correct(effect.batch, effect.text, { ...context, now: now() }));
        if (corrected) await this.run({ text: effect.text, corrected });
        return;
      }
      case 'save': {
        const pictures = this.options.pictures?.pick(effect.resolved.confirmedItems.map((item) => item.result.picture)) ?? [];
        const saved = this.book.save(effect.resolved, now(), pictures);
        if (!saved.ok) return this.show(afterSaveFailure(this.dialogue, effect.before, saved.reason));
        this.host.emit({ type: 'saved', transactions: saved.rows });
        return this.show(afterSave(this.dialogue, saved.rows, saved.alerts, saved.rules));
      }
      case 'undo':
        return this.show(afterUndo(this.dialogue, this.book.undo(now())));
      case 'query':
        return this.host.say(this.book.answer(effect.query));
      case 'budget':
        return this.host.say(this.book.answerBudget(effect.query));
      case 'debt':
        return this.host.say(this.book.answerDebt(effect.query));
      case 'exit':
        return this.host.exit();
      case 'none':
        return;
    }
  }

  /** The card with its overdraft notes; a ledger that cannot say leaves it as it is. */
  private withOverdrafts(batch: DraftBatch): DraftBatch {
    const { ledger } = this.options;
    if (!ledger.accountBalance) return batch;
    try {
      return withOverdrafts(batch, ledger.accountBalance.bind(ledger));
    } catch (err) {
      this.options.log('reading the account balances failed', err);
      return batch;
    }
  }

  /** Every change of card is written through, so a crash or a closed window loses no draft. */
  private keep(batch: DraftBatch | null): void {
    try {
      this.options.ledger.keepDrafts(batch?.toDto() ?? null);
    } catch (err) {
      this.options.log('keeping the drafts failed', err);
    }
  }

  /** Understanding's answer, unless the session ended while it was on its way. */
  private async understood<T extends { failure?: LlmFailure }>(answer: Promise<T>): Promise<T | null> {
    const outcome = await answer;
    if (!this.host.usable()) return null;
    const error = llmFailureError(outcome.failure);
    if (error && !this.llmFailuresReported.has(error.code)) {
      this.llmFailuresReported.add(error.code);
      this.host.emit({ type: 'error', ...error });
    }
    return outcome;
  }

  /** The state follows the card: CONFIRMING while one is shown, LISTENING once it is gone. */
  private show(step: Step): void {
    const before = this.dialogue.batch;
    // Every new card says which drafts overdraw a wallet, however it came (said, edited, restored).
    const next = step.batch && step.batch !== before ? { ...step, batch: this.withOverdrafts(step.batch) } : step;
    this.dialogue = {
      batch: next.batch,
      askedForMoreChanges: next.askedForMoreChanges,
      offlineNoticed: next.offlineNoticed,
      addingMore: next.addingMore ?? false,
    };
    if (before !== next.batch) this.keep(next.batch);
    // The card is gone (saved or cancelled): its picture is with the entries now, or nowhere.
    if (before && !next.batch) this.options.pictures?.release(before.items.map((item) => item.result.picture));
    const card = cardEvent(before, next);
    if (card) this.host.emit(card);
    if (!before !== !next.batch) this.host.setState(next.batch ? 'confirming' : 'listening');
    for (const event of next.events) this.host.emit(event);
    for (const sentence of next.sentences) this.host.say(sentence);
  }
}

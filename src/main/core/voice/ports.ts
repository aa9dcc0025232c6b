// The side-effect boundaries the VoiceOrchestrator talks to. Real implementations live in
// audio/, asr/, tts/, llm/ and ledger/; tests use real parts where they run here and honest
// doubles (speaking the same interface) where they cannot.
import type { DraftBatch } from '@shared/draft-batch';
import type { CorrectionResult, DraftBatchDto, ParseResult, SessionSummary, TransactionRow, TransactionType } from '@shared/domain';
import type { AccountKind, BudgetAlert, BudgetStatus, PersonBalance, RefundCandidate, SettlementProposal } from '@shared/ipc/ledger';
import type { Unsubscribe } from '@shared/listeners';
import type { RecurringRuleInfo } from '@shared/recurrence';
import type { ZonedNow } from '@shared/time';
import type { KeptPicture } from '../ledger/attachments';
import type { RefundQuery } from '../ledger/money-flows';

// ---- microphone + VAD -------------------------------------------------------------

export type VoiceIoErrorCode =
  | 'no_device' // no input device, or the chosen one does not exist
  | 'device_lost' // the device disappeared while capturing
  | 'permission_denied'
  | 'capture_failed'
  | 'vad_failed';

export interface VoiceIoError {
  code: VoiceIoErrorCode;
  message: string;
}

export interface VoiceInputEvents {
  /** PCM16 mono 16 kHz, one VAD frame (10/20/30 ms). */
  frame: (pcm: Int16Array) => void;
  speechStart: () => void;
  speechEnd: () => void;
  misfire: () => void;
  error: (error: VoiceIoError) => void;
}

/** AudioCapture + VAD segmenter as one unit: what the orchestrator needs from the mic. */
export interface VoiceInput {
  /** Opens the device and starts VAD; idempotent. Rejects with a VoiceIoError-shaped error. */
  start(): Promise<void>;
  /** Releases the device; idempotent; no event is emitted after it resolves. */
  stop(): Promise<void>;
  readonly running: boolean;
  /** The last 500 ms of audio (pre-roll), oldest first, so the first syllable reaches ASR. */
  preRoll(): Int16Array;
  /** Ignore speech while TTS speaks without stopping capture. */
  pauseVad(): void;
  resumeVad(): void;
  on<E extends keyof VoiceInputEvents>(event: E, listener: VoiceInputEvents[E]): Unsubscribe;
}

// ---- streaming ASR ----------------------------------------------------------------

export interface AsrError {
  /** e.g. token_failed, connect_failed, server_error, reconnect_failed, no_result */
  code: string;
  message: string;
}

export interface AsrClientEvents {
  partial: (text: string) => void;
  final: (text: string) => void;
  error: (error: AsrError) => void;
  /** The socket closed; `intentional` is true after close(). */
  closed: (info: { intentional: boolean }) => void;
  reconnecting: (info: { attempt: number; delayMs: number }) => void;
  reconnected: () => void;
}

export interface AsrClient {
  /** Gets a token (cached while > 30 s remain), opens the socket, configures the session. */
  connect(): Promise<void>;
  sendAudio(pcm: Int16Array): void;
  /** End of the utterance: the server answers with the final text. */
  commit(): void;
  /** Intentional disconnect: never triggers a reconnect. */
  close(): Promise<void>;
  readonly connected: boolean;
  on<E extends keyof AsrClientEvents>(event: E, listener: AsrClientEvents[E]): Unsubscribe;
}

// ---- text-to-speech ---------------------------------------------------------------

export interface Tts {
  /** Resolves when the speech has finished (or failed: implementations report, not throw). */
  speak(text: string): Promise<void>;
  stop(): void;
  readonly enabled: boolean;
}

// ---- understanding: LLM with local fallback ----------------------------------------

export interface UnderstandingContext {
  now: ZonedNow;
  customCategories?: { name: string; type: TransactionType }[];
  recentCategories?: string[];
  accounts?: string[];
}

/** Why the LLM was tried but not used (the local rules answered instead). */
export interface LlmFailure {
  kind: 'network' | 'aborted' | 'http' | 'malformed' | 'invalid';
  /** The HTTP status of an 'http' failure (401 refused key, 429 rate limit, 5xx). */
  status?: number;
}

export interface ParseOutcome {
  /** 0..n results in mention order; the LLM path returns at most 10. */
  results: ParseResult[];
  source: 'llm' | 'local';
  /** More than 10 items were mentioned and only the first 10 kept. */
  truncated: boolean;
  failure?: LlmFailure;
}

/**
 * A correction whose indexes already point at the ORIGINAL DraftBatch indexes (the client
 * sent the pending items renumbered and mapped the answer back); -1 for append.
 * Confidence below 0.7 has already been turned into `unclear`.
 */
export interface CorrectionOutcome extends CorrectionResult {
  source: 'llm' | 'local';
  failure?: LlmFailure;
}

export interface Understanding {
  parse(text: string, context: UnderstandingContext): Promise<ParseOutcome>;
  /** LLM within 3 s, else the local rules; never rejects. */
  correct(batch: DraftBatch, text: string, context: UnderstandingContext): Promise<CorrectionOutcome>;
  /** False after a network failure until a later request succeeds, or in offline-only mode. */
  isOnline(): boolean;
}

// ---- ledger -----------------------------------------------------------------------

export interface LedgerTotals {
  totalFen: number;
  count: number;
}

/** The account a draft's money would move, as the card needs it for the overdraft note. */
export interface AccountBalanceInfo {
  name: string;
  kind: AccountKind;
  balanceFen: number;
}

export interface LedgerPort {
  /**
   * All-or-nothing; throws LedgerValidationError naming the bad item. `drafts`: the card that
   * remains, kept in the same transaction (null: none).
   */
  saveBatch(
    results: readonly ParseResult[],
    options?: { now?: ZonedNow; drafts?: DraftBatchDto | null; pictures?: readonly KeptPicture[] },
  ): TransactionRow[];
  /** Keeps the card that is not confirmed yet, so it outlives the session and the app (null: none). */
  keepDrafts(batch: DraftBatchDto | null): void;
  /** The card the last session left unconfirmed, or null. */
  keptDrafts(): DraftBatchDto | null;
  /** Removes rows by id in one transaction (undo of the last saved batch). */
  deleteTransactions(ids: readonly string[]): number;
  /** Sum over a calendar-day range (inclusive), for spoken queries. */
  totals(query: { from: string; to: string; type?: TransactionType; category?: string }): LedgerTotals;
  /**
   * The user's category a save would file `name` under for `type`. Drafts carry it so the
   * read-back and the card name what will be stored, not a word the model made up (洗浴 → 其他),
   * nor a category the user hid (its visible parent, else the closest visible one, which the
   * item's `words` help find).
   */
  placeCategory(name: string, type: TransactionType, words?: string): string;
  /** The rows that still exist, as they are now (the ledger page may have edited or deleted some). */
  getMany(ids: readonly string[]): TransactionRow[];
  /** A month's (YYYY-MM) budgets and spending, inherited from an earlier month when it set none. */
  budgetStatus(month: string): BudgetStatus;
  /**
   * The budget thresholds the latest write crossed for the first time, read right after
   * saveBatch so the session names them after 「已保存」. The ledger records each threshold
   * once, so this is the one place they can be read: a port that does not report alerts
   * leaves it out, and the session says nothing of budgets.
   */
  latestBudgetAlerts?(): readonly BudgetAlert[];
  /** Recent expenses a refund may return, best first (absent: refunds stay unlinked). */
  refundCandidates?(query: RefundQuery): RefundCandidate[];
  /** The person a spoken name means, with their balance (absent: debt questions find no one). */
  findPerson?(spoken: string): PersonBalance | undefined;
  /** The 待报销 a reimbursement of this much settles (absent: the ledger picks at save). */
  proposeSettlement?(amountFen: number): SettlementProposal;
  /** The rules the latest saveBatch made of items said to repeat, read right after it (absent: none). */
  latestSpokenRules?(): readonly RecurringRuleInfo[];
  /** Removes a rule (voice 撤销 of the save that made it); the rows it made are the caller's to delete. */
  deleteRecurringRule?(id: number): void;
  /** The sub-categories of a top-level category, for a draft whose words name one (早饭 → 早餐). */
  subCategories?(parent: string, type: TransactionType): string[];
  /**
   * The open account a draft's account name lands in at save (null: the default account), with
   * its balance now; absent or undefined: the card says nothing of balances.
   */
  accountBalance?(spoken: string | null): AccountBalanceInfo | undefined;
}

export type { SessionSummary };

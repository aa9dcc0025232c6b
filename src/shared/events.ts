import type { DraftBatchDto, SessionSummary, TransactionRow, VoiceState } from './domain';
import type { BudgetAlert } from './ipc/ledger';
import type { ModelEvent } from './ipc/models';
import type { SyncStatus } from './ipc/sync';
import type { BookListing } from './ipc/books';

/**
 * The VoiceOrchestrator's delegate events (spec: voice-orchestration, Delegate 模式解耦).
 * They are also the IPC payloads the renderer receives, unchanged.
 */
export type VoiceEvent =
  | { type: 'stateChanged'; state: VoiceState }
  | { type: 'speechDetected' }
  | { type: 'partialText'; text: string }
  | { type: 'finalText'; text: string; batch: DraftBatchDto }
  | { type: 'draftBatchUpdated'; batch: DraftBatchDto | null }
  | { type: 'ttsSpoken'; text: string }
  | { type: 'saved'; transactions: TransactionRow[] }
  | { type: 'error'; code: string; message: string }
  | { type: 'continueRecording' }
  | { type: 'exitSession'; summary: SessionSummary }
  | { type: 'sessionTimeout'; summary: SessionSummary };

export type VoiceEventType = VoiceEvent['type'];

/** Everything main pushes to the renderer over the single event channel. */
export type AppEvent =
  | { channel: 'voice'; event: VoiceEvent }
  /** 'switch': another book is open now; 'recurring': due recurring entries were made. */
  | {
      channel: 'ledger';
      event: { type: 'changed'; reason: 'save' | 'edit' | 'delete' | 'import' | 'undo' | 'sync' | 'recurring' | 'switch' };
    }
  /** This month's spending reached 80 % or 100 % of a budget for the first time (once per category, month, threshold). */
  | { channel: 'ledger'; event: { type: 'budgetAlert'; alerts: BudgetAlert[] } }
  | { channel: 'models'; event: ModelEvent }
  /** The sync status changed (a round started or ended, an error, the devices seen). */
  | { channel: 'sync'; event: { type: 'status'; status: SyncStatus } }
  /** A book was switched to, created, renamed or archived. */
  | { channel: 'books'; event: { type: 'changed'; listing: BookListing } };

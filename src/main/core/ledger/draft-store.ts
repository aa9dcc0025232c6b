import type Database from 'better-sqlite3';
import type { DraftBatchDto } from '@shared/domain';
import { toZonedIso, type ZonedNow } from '@shared/time';
import { keepable, readDrafts } from './drafts';

/** The drafts table: at most one card (id 1), the one a voice session left unconfirmed. */
export class DraftStore {
  /** Every voice save writes the card: prepared once. */
  private readonly clear: Database.Statement;
  private readonly write: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {
    this.clear = db.prepare('DELETE FROM drafts');
    this.write = db.prepare(
      'INSERT INTO drafts (id, batch, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET batch = excluded.batch, updated_at = excluded.updated_at',
    );
  }

  /** Keeps the voice card that is not confirmed yet (null or an all-cancelled card: none). */
  keep(batch: DraftBatchDto | null): void {
    if (!keepable(batch)) {
      this.clear.run();
      return;
    }
    this.write.run(JSON.stringify(batch), toZonedIso(this.clock()));
  }

  /** The card a session left unconfirmed, or null. */
  kept(): DraftBatchDto | null {
    const row = this.db.prepare('SELECT batch FROM drafts WHERE id = 1').get() as { batch: string } | undefined;
    return readDrafts(row?.batch);
  }
}

import type { SYNC_COMMANDS } from '@shared/ipc/sync.names';
import { SyncError } from '../sync/errors';
import type { SyncService } from '../sync/service';
import { CommandError, type AreaHandlers } from './types';

export interface SyncHandlerDeps {
  /** Absent in a core built without sync (tools, old tests); the commands then say so. */
  sync?: SyncService;
  /** The shell's folder picker (also used for model folders). */
  pickFolder?: () => Promise<string | null>;
}

type SyncCommand = (typeof SYNC_COMMANDS)[number];

export function createSyncHandlers(deps: SyncHandlerDeps): AreaHandlers<SyncCommand> {
  const sync = (): SyncService => {
    if (!deps.sync) throw new CommandError('sync_unavailable', '同步暂不可用，请重启应用后再试。');
    return deps.sync;
  };
  const coded = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (err) {
      if (err instanceof SyncError) throw new CommandError(err.code, err.message);
      throw err;
    }
  };
  return {
    syncStatus: () => sync().status(),
    syncTest: (input) => sync().test(input),
    syncConfigure: (input) => coded(() => sync().configure(input)),
    syncNow: () => coded(() => sync().syncNow()),
    syncStop: () => coded(() => sync().stop()),
    syncChooseFolder: async () => ({ path: deps.pickFolder ? await deps.pickFolder() : null }),
  };
}

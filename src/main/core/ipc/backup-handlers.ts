import type { BACKUP_COMMANDS } from '@shared/ipc/backups.names';
import { BackupError, type LedgerBackups } from '../ledger/backups';
import { CommandError, type AreaHandlers } from './types';

export interface BackupHandlerDeps {
  /** Absent in a core built without backups (tools, old tests); the commands then say so. */
  backups?: LedgerBackups;
}

type BackupCommand = (typeof BACKUP_COMMANDS)[number];

export function createBackupHandlers(deps: BackupHandlerDeps): AreaHandlers<BackupCommand> {
  const backups = (): LedgerBackups => {
    if (!deps.backups) throw new CommandError('backups_unavailable', '备份暂不可用，请重启应用后再试。');
    return deps.backups;
  };
  const coded = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (err) {
      if (err instanceof BackupError) throw new CommandError(err.code, err.message);
      throw err;
    }
  };
  return {
    backupList: () => {
      const b = backups();
      return { backups: b.list(), dir: b.dir, restorePending: b.restorePending() };
    },
    backupNow: () => coded(() => backups().backupNow()),
    backupRestore: (input) => coded(async () => ({ restored: await backups().stageRestore(input.name), restartRequired: true as const })),
  };
}

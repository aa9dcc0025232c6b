/** Ledger backup commands (list, back up now, stage a restore). */
export const BACKUP_COMMANDS = ['backupList', 'backupNow', 'backupRestore'] as const;

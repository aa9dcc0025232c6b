import { z } from 'zod';
import type { BACKUP_COMMANDS } from './backups.names';

/** A backup's file name: only the shape the app writes, never a path. */
export const backupNameSchema = z
  .string()
  .max(64)
  .regex(/^ledger-\d{8}-\d{6}(-before-restore)?\.db$/, '不是有效的备份名称');

export const backupSchemas = {
  backupList: z.object({}).strict(),
  backupNow: z.object({}).strict(),
  /** Stages the named backup; it replaces the ledger at the next start. */
  backupRestore: z.object({ name: backupNameSchema }).strict(),
} satisfies Record<(typeof BACKUP_COMMANDS)[number], z.ZodType>;

export interface BackupInfo {
  /** File name in the backups folder, e.g. ledger-20260301-093000.db. */
  name: string;
  /** Local date and time of the copy, `YYYY-MM-DD HH:mm:ss`. */
  takenAt: string;
  /** Bytes. */
  size: number;
  /** Transactions in the copy; null when it could not be counted. */
  rows: number | null;
  /** 'before-restore': the ledger as it was before a restore replaced it. */
  kind: 'daily' | 'before-restore';
}

export interface BackupListing {
  backups: BackupInfo[];
  /** Folder holding the backups. */
  dir: string;
  /** True when a restore is staged and waits for the app to restart. */
  restorePending: boolean;
}

export interface BackupOutputs {
  backupList: BackupListing;
  backupNow: BackupInfo;
  backupRestore: { restored: BackupInfo; restartRequired: true };
}

import { z } from 'zod';
import type { SYNC_COMMANDS } from './sync.names';

const deviceName = z.string().trim().min(1, '请填写本机名称').max(40, '本机名称最多40个字');
const passphrase = z.string().min(8, '同步密码至少8位').max(200);

/** Where the books sync through: the user's own WebDAV server or a folder another tool keeps in step. */
export const syncRemoteSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('webdav'),
      url: z
        .string()
        .trim()
        .max(500)
        .regex(/^https?:\/\/[^\s]+$/i, '请填写以 http:// 或 https:// 开头的 WebDAV 地址'),
      user: z.string().trim().max(200),
      /** Empty: keep the password already stored for this server. */
      password: z.string().max(500),
    })
    .strict(),
  z.object({ kind: z.literal('folder'), path: z.string().trim().min(1, '请选择同步文件夹').max(1000) }).strict(),
]);

export const syncSetupSchema = z
  .object({
    remote: syncRemoteSchema,
    /** Empty: keep the passphrase already stored (changing the server keeps it). */
    passphrase: z.union([z.literal(''), passphrase]),
    deviceName,
  })
  .strict();

export const syncSchemas = {
  syncStatus: z.object({}).strict(),
  /** 测试连接: reaches the remote, checks the login and (when the remote is set up) the passphrase. Saves nothing. */
  syncTest: syncSetupSchema,
  /** Saves the remote (password and passphrase into the keychain) and runs the first round. */
  syncConfigure: syncSetupSchema,
  /** 立即同步. */
  syncNow: z.object({}).strict(),
  /** 停止同步 on this device: forgets the remote and its secrets; the books stay as they are. */
  syncStop: z.object({}).strict(),
  /** The system's folder picker, for the folder backend; null when cancelled. */
  syncChooseFolder: z.object({}).strict(),
} satisfies Record<(typeof SYNC_COMMANDS)[number], z.ZodType>;

export type SyncSetup = z.input<typeof syncSetupSchema>;
export type SyncRemote = z.input<typeof syncRemoteSchema>;

/** A remote as shown back to the user: never the password. */
export type SyncRemoteInfo = { kind: 'webdav'; url: string; user: string } | { kind: 'folder'; path: string };

export interface SyncDevice {
  id: string;
  name: string;
  /** ISO 8601 with offset; null when only its name is known. */
  lastSeen: string | null;
  self: boolean;
  /**
   * Whether that device's books, as it last published them, equal this device's as of its
   * last round: 'same' (账目一致), 'different' (与本机不同), null when it has published none
   * yet (an older version, or never synced since). Always null for this device itself.
   */
  books: 'same' | 'different' | null;
  /** The rows it published with its fingerprint; null when unknown. */
  rows: number | null;
}

/**
 * Another device's change this device cannot apply yet: a file missing from the sequence
 * (lost by the server, or still being copied by a sync tool) or refused as damaged. The
 * writer puts it back on its next round; a newer snapshot of the writer also covers it.
 */
export interface SyncWaiting {
  device: string;
  deviceName: string;
  /** The first of its change files not applied here. */
  seq: number;
  /** When this device first found it missing (ISO 8601). */
  since: string;
  /** 'missing': not on the remote; 'damaged': refused (truncated, altered); 'copying': a synced folder's file still arriving. */
  reason: 'missing' | 'damaged' | 'copying';
}

export interface SyncError {
  /**
   * wrong_passphrase, key_changed (the remote's key file differs from the one this device
   * used), refused_file (tampered, truncated, foreign), unreachable, login_refused,
   * server_error, clock_skew, not_configured, busy.
   */
  code: string;
  /** Plain Chinese: what happened and what to do. */
  message: string;
}

export interface SyncStatus {
  /** 'off': no remote on this device. */
  state: 'off' | 'idle' | 'syncing' | 'error';
  remote: SyncRemoteInfo | null;
  deviceId: string;
  deviceName: string;
  /** The last round that finished, ISO 8601 with offset. */
  lastSyncAt: string | null;
  /** Local changes not yet on the remote. */
  pending: number;
  error: SyncError | null;
  /** When the next automatic round runs after an error (backing off), ISO 8601. */
  retryAt: string | null;
  devices: SyncDevice[];
  /** While a round downloads (joining a remote): files done of total. */
  progress: { done: number; total: number } | null;
  /** Other devices' changes this device waits for (see SyncWaiting). */
  waiting: SyncWaiting[];
  /** This computer's clock minus the server's (its Date header) at the last round, ms; null when unknown (a folder). */
  clockOffsetMs: number | null;
}

export interface SyncTestResult {
  /** True when the setup works: the server (or folder) answered, the login worked and, for books already there, the passphrase is right. */
  reachable: boolean;
  /** True: the remote already holds books (the passphrase was checked against them). */
  existing: boolean;
  /** 连接成功… / the error in plain Chinese. */
  message: string;
  /** Rows of this device that would be merged in on joining (existing remote, non-empty local books). */
  localRows: number;
}

export interface SyncOutputs {
  syncStatus: SyncStatus;
  syncTest: SyncTestResult;
  syncConfigure: SyncStatus;
  syncNow: SyncStatus;
  syncStop: SyncStatus;
  syncChooseFolder: { path: string | null };
}

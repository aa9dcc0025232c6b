import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SyncRemoteInfo } from '@shared/ipc/sync';
import type { SecretBox } from '../settings/secret-box';
import { SyncError } from './errors';

/**
 * This device's sync setup, in `<dataDir>/sync.json` beside settings.json: the remote, the
 * device's name, and the WebDAV password and passphrase encrypted by the OS keychain
 * (SecretBox = Electron safeStorage) — never in plain text, never in settings.json or logs.
 * Kept outside the ledger file so restoring a backup never changes where this device syncs.
 */
const fileSchema = z.object({
  version: z.literal(1),
  remote: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('webdav'), url: z.string(), user: z.string() }),
    z.object({ kind: z.literal('folder'), path: z.string() }),
  ]),
  deviceName: z.string(),
  secrets: z.object({ password: z.string().optional(), passphrase: z.string() }),
});

export interface SyncConfig {
  remote: SyncRemoteInfo;
  deviceName: string;
  password: string;
  passphrase: string;
}

export class SyncConfigStore {
  private readonly path: string;

  constructor(
    dataDir: string,
    private readonly secretBox: SecretBox,
    private readonly log: (message: string, err?: unknown) => void = () => {},
  ) {
    this.path = join(dataDir, 'sync.json');
  }

  /** null when this device does not sync (or its secrets cannot be read here any more). */
  load(): SyncConfig | null {
    if (!existsSync(this.path)) return null;
    try {
      const file = fileSchema.parse(JSON.parse(readFileSync(this.path, 'utf8')));
      return {
        remote: file.remote,
        deviceName: file.deviceName,
        password: file.secrets.password ? this.secretBox.decrypt(file.secrets.password) : '',
        passphrase: this.secretBox.decrypt(file.secrets.passphrase),
      };
    } catch (err) {
      this.log('sync.json unreadable; sync is off until set up again', err);
      return null;
    }
  }

  save(config: SyncConfig): void {
    if (!this.secretBox.available) {
      throw new SyncError('not_configured', '这台电脑没有可用的系统钥匙串，无法安全地保存同步密码，因此不能开启同步。');
    }
    const file: z.infer<typeof fileSchema> = {
      version: 1,
      remote: config.remote,
      deviceName: config.deviceName,
      secrets: {
        ...(config.password ? { password: this.secretBox.encrypt(config.password) } : {}),
        passphrase: this.secretBox.encrypt(config.passphrase),
      },
    };
    const temp = `${this.path}.tmp`;
    writeFileSync(temp, JSON.stringify(file, null, 2), { mode: 0o600 });
    renameSync(temp, this.path);
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}

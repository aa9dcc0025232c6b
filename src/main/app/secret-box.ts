import { safeStorage } from 'electron';
import type { SecretBox } from '@core/settings/index';

/**
 * Keys encrypted with the OS keyring through safeStorage (Keychain, DPAPI, libsecret/kwallet).
 * On Linux without a keyring Electron falls back to a hard-coded password ('basic_text'),
 * which is no protection, so that backend counts as unavailable.
 */
export function createSafeStorageBox(): SecretBox {
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : 'os';
  const available = safeStorage.isEncryptionAvailable() && backend !== 'basic_text';
  return {
    available,
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher, 'base64')),
  };
}

/**
 * Encrypts secrets at rest. The shell passes one backed by Electron's safeStorage; tests
 * pass a reversible double. `available` is false where the OS offers no keyring.
 */
export interface SecretBox {
  readonly available: boolean;
  encrypt(plain: string): string;
  decrypt(cipher: string): string;
}

/** For machines without a keyring: refuses to store, so keys never land in plain text. */
export const unavailableSecretBox: SecretBox = {
  available: false,
  encrypt() {
    throw new Error('secret storage unavailable');
  },
  decrypt() {
    throw new Error('secret storage unavailable');
  },
};

import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { SyncError } from './errors';

/**
 * End-to-end encryption of everything a device puts on the remote: the key comes from the
 * user's passphrase through scrypt with a per-remote salt, and every file is sealed with
 * AES-256-GCM with the remote's id and the file's name (which names its device and kind)
 * bound in as associated data — so a file renamed to look like another device's, moved from
 * another remote or cut short fails authentication as a whole before any of it is used.
 * Node's crypto only: no hand-made primitives.
 */

const MAGIC = Buffer.from('SKJ1', 'latin1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CHECK_TEXT = 'suikouji-sync passphrase check';

export interface KdfParams {
  name: 'scrypt';
  N: number;
  r: number;
  p: number;
  /** base64, 16 bytes. */
  salt: string;
}

/** N = 2^17, r = 8 (~300 ms here): costly enough that guessing a passphrase from a stolen remote is slow. */
export const DEFAULT_KDF: Omit<KdfParams, 'salt'> = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1 };

export function newKdfParams(base: Omit<KdfParams, 'salt'> = DEFAULT_KDF): KdfParams {
  return { ...base, salt: randomBytes(16).toString('base64') };
}

export function deriveKey(passphrase: string, kdf: KdfParams): Promise<Buffer> {
  if (kdf.name !== 'scrypt' || !validKdf(kdf)) return Promise.reject(new SyncError('refused_file', '远端的密钥参数无效，已拒绝。'));
  return new Promise((resolve, reject) => {
    // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below N = 2^17.
    scrypt(
      passphrase.normalize('NFC'),
      Buffer.from(kdf.salt, 'base64'),
      32,
      { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

function validKdf(kdf: KdfParams): boolean {
  const pow2 = Number.isInteger(Math.log2(kdf.N));
  return (
    pow2 &&
    kdf.N >= 2 ** 10 &&
    kdf.N <= 2 ** 20 &&
    kdf.r >= 1 &&
    kdf.r <= 16 &&
    kdf.p >= 1 &&
    kdf.p <= 4 &&
    Buffer.from(kdf.salt, 'base64').length === 16
  );
}

function aad(remoteId: string, name: string): Buffer {
  return Buffer.from(`suikouji-sync/1\u0000${remoteId}\u0000${name}`, 'utf8');
}

/** gzip (unless `zipped` is already), then AES-256-GCM: MAGIC | iv | ciphertext | tag. */
export function seal(key: Buffer, remoteId: string, name: string, plain: Buffer, zipped = false): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(remoteId, name));
  const body = Buffer.concat([cipher.update(zipped ? plain : gzipSync(plain, { level: 6 })), cipher.final()]);
  return Buffer.concat([MAGIC, iv, body, cipher.getAuthTag()]);
}

/** The gzip'd plaintext of a sealed file, or SyncError 'refused_file' when anything about it is wrong. */
export function unseal(key: Buffer, remoteId: string, name: string, sealed: Buffer): Buffer {
  if (sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC))
    throw refusedFile(name, '不是随口记的同步文件或不完整');
  const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad(remoteId, name));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(MAGIC.length + IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw refusedFile(name, '校验失败（被改动、截断、改名或来自别的同步位置）');
  }
}

/** The plaintext of a sealed file (unsealed and gunzip'd on this thread: small files). */
export function open(key: Buffer, remoteId: string, name: string, sealed: Buffer, maxPlainBytes: number): Buffer {
  const zipped = unseal(key, remoteId, name, sealed);
  try {
    return gunzipSync(zipped, { maxOutputLength: maxPlainBytes });
  } catch {
    throw refusedFile(name, '解压失败或过大');
  }
}

/**
 * A sealed file's plaintext written to `path` (a snapshot: tens of megabytes). It is
 * authenticated whole first; gunzip then runs on libuv's pool in 1 MiB chunks (the default
 * 16 KiB makes a round trip per chunk, twice the time), each chunk written as it comes.
 */
export async function openToFile(key: Buffer, remoteId: string, name: string, sealed: Buffer, path: string, maxPlainBytes: number): Promise<void> {
  const zipped = unseal(key, remoteId, name, sealed);
  let total = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done(total > maxPlainBytes ? new Error('too large') : null, chunk);
    },
  });
  try {
    await pipeline(Readable.from([zipped]), createGunzip({ chunkSize: 1024 * 1024 }), limit, createWriteStream(path, { mode: 0o600 }));
  } catch {
    throw refusedFile(name, '解压失败或过大');
  }
}

function refusedFile(name: string, why: string): SyncError {
  return new SyncError('refused_file', `远端文件 ${name} ${why}，已拒绝，未应用其中任何内容。`);
}

/** The sealed check value stored in the remote's key file: opening it proves the passphrase. */
export function sealCheck(key: Buffer, remoteId: string): string {
  return seal(key, remoteId, 'keycheck', Buffer.from(CHECK_TEXT)).toString('base64');
}

export function passphraseMatches(key: Buffer, remoteId: string, check: string): boolean {
  try {
    const plain = open(key, remoteId, 'keycheck', Buffer.from(check, 'base64'), 1024);
    const expected = Buffer.from(CHECK_TEXT);
    return plain.length === expected.length && timingSafeEqual(plain, expected);
  } catch {
    return false;
  }
}

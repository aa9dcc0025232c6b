// Per-install API keys ("accounts"): issued and revoked by `npm run gateway:keys`, stored hashed
// in Redis (REDIS_URL, shared by every instance) or in a file (GATEWAY_KEYS=/path, one host), and
// checked by the gateway with a cache short enough that a revoked key is refused within a second.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Clock } from '@shared/clock';

/** `skj_` + a 10-character id + `_` + 32 random bytes (base64url): the id finds the record. */
const KEY_FORMAT = /^skj_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export const AccountKeyRecordSchema = z.object({
  id: z.string().regex(/^[a-z0-9]{10}$/),
  name: z.string(),
  /** sha256 of the whole key, hex. The key itself is never stored. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
});
export type AccountKeyRecord = z.infer<typeof AccountKeyRecordSchema>;

export interface KeyStore {
  get(id: string): Promise<AccountKeyRecord | null>;
  list(): Promise<AccountKeyRecord[]>;
  put(record: AccountKeyRecord): Promise<void>;
}

const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** The id inside a key of the per-install format, or null for anything else (e.g. GATEWAY_API_KEY). */
export function accountKeyId(presented: string): string | null {
  return KEY_FORMAT.exec(presented)?.[1] ?? null;
}

/** A new key for `name`: the record to store, and the key to hand over once (it is not kept). */
export function newAccountKey(name: string, now: Date): { record: AccountKeyRecord; key: string } {
  const id = Array.from(randomBytes(10), (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
  const key = `skj_${id}_${randomBytes(32).toString('base64url')}`;
  return { key, record: { id, name, hash: hashOf(key), createdAt: now.toISOString() } };
}

export async function issueKey(store: KeyStore, name: string, now: Date): Promise<{ record: AccountKeyRecord; key: string }> {
  const issued = newAccountKey(name, now);
  await store.put(issued.record);
  return issued;
}

/** Marks the key revoked (the record stays, for `keys list`); null when there is no such id. */
export async function revokeKey(store: KeyStore, id: string, now: Date): Promise<AccountKeyRecord | null> {
  const record = await store.get(id);
  if (!record) return null;
  if (record.revokedAt) return record;
  const revoked = { ...record, revokedAt: now.toISOString() };
  await store.put(revoked);
  return revoked;
}

const REDIS_KEY = 'suikouji:keys';

/** One Redis hash, field = key id, value = the record as JSON. */
export function redisKeyStore(client: Redis): KeyStore {
  return {
    async get(id) {
      return parseRecord(await client.hget(REDIS_KEY, id));
    },
    async list() {
      return Object.values(await client.hgetall(REDIS_KEY))
        .map(parseRecord)
        .filter((r): r is AccountKeyRecord => r !== null);
    },
    async put(record) {
      await client.hset(REDIS_KEY, record.id, JSON.stringify(record));
    },
  };
}

const KeysFileSchema = z.object({ keys: z.array(AccountKeyRecordSchema) });

/**
 * A JSON file `{keys: [record…]}` for a gateway without Redis (several instances on one host may
 * share it). Written whole to a temporary file and renamed, so a reader never sees half of it;
 * read again whenever its size or modification time changed.
 */
export function fileKeyStore(path: string): KeyStore {
  let cached: { mtimeMs: number; size: number; records: Map<string, AccountKeyRecord> } | null = null;
  async function load(): Promise<Map<string, AccountKeyRecord>> {
    let info;
    try {
      info = await stat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw err;
    }
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.records;
    const parsed = KeysFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    if (!parsed.success) throw new Error(`${path} is not a keys file: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const records = new Map(parsed.data.keys.map((r) => [r.id, r]));
    cached = { mtimeMs: info.mtimeMs, size: info.size, records };
    return records;
  }
  return {
    async get(id) {
      return (await load()).get(id) ?? null;
    },
    async list() {
      return [...(await load()).values()];
    },
    async put(record) {
      const records = new Map(await load());
      records.set(record.id, record);
      const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temp, `${JSON.stringify({ keys: [...records.values()] }, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, path);
    },
  };
}

function parseRecord(raw: string | null | undefined): AccountKeyRecord | null {
  if (!raw) return null;
  try {
    const parsed = AccountKeyRecordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How long a looked-up key is believed: a revocation shows on every instance within this plus one lookup. */
export const KEY_CACHE_MS = 500;
/** Beyond this many cached ids, entries older than a minute are dropped. */
const CACHE_SOFT_LIMIT = 10_000;

export type AccountCheck =
  | { result: 'valid'; account: string }
  | { result: 'invalid' }
  /** The store did not answer and this key was never seen: neither accepted nor called wrong. */
  | { result: 'unavailable' };

/**
 * Checks a presented per-install key against the store. Each id is looked up at most once per
 * KEY_CACHE_MS (concurrent requests share the lookup). When the store fails, the last answer
 * for that id stands — a Redis outage does not lock out installs this instance already knows —
 * and a key never seen is 'unavailable'.
 */
export function createAccountCheck(options: {
  store: KeyStore;
  clock: Clock;
  onError: (err: unknown) => void;
}): (presented: string) => Promise<AccountCheck> {
  const { store, clock, onError } = options;
  const cache = new Map<string, { record: AccountKeyRecord | null; at: number }>();
  const pending = new Map<string, Promise<{ record: AccountKeyRecord | null } | null>>();

  const lookup = (id: string) => {
    let p = pending.get(id);
    if (!p) {
      p = store.get(id).then(
        (record) => {
          const now = clock.now();
          if (cache.size >= CACHE_SOFT_LIMIT) for (const [k, v] of cache) if (now - v.at > 60_000) cache.delete(k);
          cache.set(id, { record, at: now });
          return { record };
        },
        (err: unknown) => {
          onError(err);
          return null;
        },
      );
      pending.set(id, p);
      void p.finally(() => pending.delete(id));
    }
    return p;
  };

  return async (presented) => {
    const id = accountKeyId(presented);
    if (!id) return { result: 'invalid' };
    const hit = cache.get(id);
    const fresh = hit && clock.now() - hit.at < KEY_CACHE_MS ? hit : ((await lookup(id)) ?? hit);
    if (!fresh) return { result: 'unavailable' };
    const record = fresh.record;
    if (!record || record.revokedAt) return { result: 'invalid' };
    const ok = timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hashOf(presented), 'hex'));
    return ok ? { result: 'valid', account: record.id } : { result: 'invalid' };
  };
}

// ASR tokens shared by every instance through Redis: one minted token serves all of them until
// 30 s before it expires, instead of one token per instance — on a cold start too.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '@shared/clock';
import { AsrTokenResponseSchema, type AsrTokenResponse } from '@shared/gateway';
import { TOKEN_REUSE_MARGIN_MS, type AsrTokenBroker } from '../llm/asr-token';
import type { GatewayMetrics } from './metrics';
import type { RedisLink } from './redis';

/** How often an instance waiting for another's mint looks for the token. */
export const MINT_POLL_MS = 20;
/** How long it waits before minting its own: longer than a mint may take (10-s timeout). */
export const MINT_WAIT_MS = 12_000;
/** The mint lock outlives a mint that times out, and frees itself if its holder dies. */
const MINT_LOCK_MS = 15_000;
/** Deletes the lock only if it is still the one this instance took. */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Tokens are cached under a key derived from the DashScope key, base URL and lifetime, so
 * gateways with other settings sharing one Redis never hand out each other's tokens (and the key
 * itself is not stored). Redis expires the entry at the reuse margin, so it never serves a token
 * with less than 30 s left.
 *
 * A miss takes a mint lock (SET NX with an expiry): the instance that gets it asks its own broker
 * (which reuses its own token if that is fresh, otherwise mints), stores the answer and frees the
 * lock; every other instance that missed meanwhile waits for that token, looking every
 * MINT_POLL_MS. So N instances starting at once mint one token, not N. An instance mints its own
 * only when Redis fails (it then serves its own broker's token) or when the lock holder has not
 * stored a token within MINT_WAIT_MS; a lock holder whose mint failed frees the lock, and the
 * next waiter takes it.
 */
export function sharedTokenBroker(options: {
  local: AsrTokenBroker;
  redis: RedisLink;
  clock: Clock;
  metrics: GatewayMetrics;
  identity: { apiKey: string; baseUrl: string; ttlSeconds: number };
}): AsrTokenBroker {
  const { local, redis, clock, metrics, identity } = options;
  const fingerprint = createHash('sha256')
    .update(`${identity.baseUrl}\n${identity.ttlSeconds}\n${identity.apiKey}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
  const key = `suikouji:asr-token:${fingerprint}`;
  const lockKey = `${key}:mint-lock`;

  /** The shared token if it has more than the margin left; throws when Redis fails. */
  async function shared(): Promise<AsrTokenResponse | null> {
    const raw = await redis.client.get(key);
    if (raw === null) return null;
    const parsed = AsrTokenResponseSchema.safeParse(safeJson(raw));
    return parsed.success && parsed.data.expiresAt * 1000 - clock.now() > TOKEN_REUSE_MARGIN_MS ? parsed.data : null;
  }

  /** Holding the lock: this instance's token, stored for the others; the lock freed either way. */
  async function mintAndShare(owner: string): Promise<AsrTokenResponse> {
    try {
      // Between this instance's look and its lock, another may have stored its token and freed
      // the lock (a busy event loop widens that gap): a second mint would be wasted.
      const stored = await shared().catch((err: unknown) => {
        redis.failed('token_cache', err);
        return null;
      });
      if (stored) {
        metrics.tokenCache.inc({ result: 'miss' });
        return stored;
      }
      const token = await local.get();
      const keepMs = Math.floor(token.expiresAt * 1000 - clock.now() - TOKEN_REUSE_MARGIN_MS);
      if (keepMs > 0) await redis.client.set(key, JSON.stringify(token), 'PX', keepMs).catch((err: unknown) => redis.failed('token_cache', err));
      return token;
    } finally {
      await redis.client.eval(RELEASE_LOCK, 1, lockKey, owner).catch((err: unknown) => redis.failed('token_cache', err));
    }
  }

  return {
    async get() {
      // Wall-clock time on purpose (not the injected clock): it paces the waiting, not the logic.
      const giveUpAt = Date.now() + MINT_WAIT_MS;
      for (let first = true; ; first = false) {
        const owner = randomUUID();
        let token: AsrTokenResponse | null;
        let locked = false;
        try {
          token = await shared();
          if (!token) locked = (await redis.client.set(lockKey, owner, 'PX', MINT_LOCK_MS, 'NX')) === 'OK';
        } catch (err) {
          redis.failed('token_cache', err);
          return local.get();
        }
        if (token) {
          // Found at once: a hit; found after waiting for another instance's mint: a miss.
          metrics.tokenCache.inc({ result: first ? 'hit' : 'miss' });
          return token;
        }
        if (locked) return mintAndShare(owner);
        if (Date.now() > giveUpAt) return local.get();
        await sleep(MINT_POLL_MS);
      }
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

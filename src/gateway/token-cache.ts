// ASR tokens shared by every instance through Redis: one minted token serves all of them until
// 30 s before it expires, instead of one token per instance.
import { createHash } from 'node:crypto';
import type { Clock } from '@shared/clock';
import { AsrTokenResponseSchema } from '@shared/gateway';
import { TOKEN_REUSE_MARGIN_MS, type AsrTokenBroker } from '../llm/asr-token';
import type { GatewayMetrics } from './metrics';
import type { RedisLink } from './redis';

/**
 * Tokens are cached under a key derived from the DashScope key, base URL and lifetime, so
 * gateways with other settings sharing one Redis never hand out each other's tokens (and the key
 * itself is not stored).
 *
 * A miss asks this instance's broker, which reuses its own token if it has a fresh one and
 * otherwise mints; the answer is stored with SET NX and a Redis expiry at the reuse margin, so
 * Redis never serves a token with less than 30 s left. Two instances that miss at the same
 * moment may both mint: both tokens are valid, the first one stored is the one shared from then
 * on, and the cost is one extra mint per window — simpler than a lock that every miss would have
 * to wait on. While Redis is down each instance serves its own broker's token.
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

  return {
    async get() {
      try {
        const raw = await redis.client.get(key);
        if (raw !== null) {
          const parsed = AsrTokenResponseSchema.safeParse(safeJson(raw));
          if (parsed.success && parsed.data.expiresAt * 1000 - clock.now() > TOKEN_REUSE_MARGIN_MS) {
            metrics.tokenCache.inc({ result: 'hit' });
            return parsed.data;
          }
        }
      } catch (err) {
        redis.failed('token_cache', err);
      }
      const token = await local.get();
      const keepMs = Math.floor(token.expiresAt * 1000 - clock.now() - TOKEN_REUSE_MARGIN_MS);
      if (keepMs > 0) {
        await redis.client.set(key, JSON.stringify(token), 'PX', keepMs, 'NX').catch((err: unknown) => redis.failed('token_cache', err));
      }
      return token;
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

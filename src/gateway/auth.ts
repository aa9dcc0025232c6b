import { createHash, timingSafeEqual } from 'node:crypto';
import { accountKeyId, type AccountCheck } from './keys';
import type { Bucket } from './rate-limit';

/**
 * Constant-time check of a presented API key. Both sides are hashed first so the comparison
 * takes the same time whatever the presented key's length.
 */
export function createApiKeyCheck(expected: string): (presented: string | undefined) => boolean {
  const want = createHash('sha256').update(expected, 'utf8').digest();
  return (presented) => {
    const got = createHash('sha256')
      .update(presented ?? '', 'utf8')
      .digest();
    return timingSafeEqual(want, got) && presented !== undefined;
  };
}

/**
 * Who is calling, by the X-API-Key it presents: anyone (no key configured), the holder of the
 * shared GATEWAY_API_KEY, or a per-install account.
 */
export type Caller = { kind: 'open' } | { kind: 'shared' } | { kind: 'account'; account: string };

export interface CallerCheck {
  /** Whether the API routes need a key at all. */
  required: boolean;
  /** 'invalid': wrong, revoked or missing; 'unavailable': a per-install key the store could not check. */
  identify(presented: string | undefined): Promise<Caller | 'invalid' | 'unavailable'>;
}

export function createCallerCheck(options: {
  sharedKey: string | null;
  accounts: ((presented: string) => Promise<AccountCheck>) | null;
}): CallerCheck {
  const shared = options.sharedKey ? createApiKeyCheck(options.sharedKey) : null;
  const { accounts } = options;
  return {
    required: shared !== null || accounts !== null,
    async identify(presented) {
      if (!shared && !accounts) return { kind: 'open' };
      // The per-install format first: a shared key never has it (it would be refused anyway).
      if (accounts && presented !== undefined && accountKeyId(presented) !== null) {
        const checked = await accounts(presented);
        return checked.result === 'valid' ? { kind: 'account', account: checked.account } : checked.result;
      }
      return shared?.(presented) ? { kind: 'shared' } : 'invalid';
    },
  };
}

/**
 * The limits a request passes: a per-install key has its own budget AND shares its address's
 * (larger) one with the other installs there; the shared key and open gateways are limited per
 * address, as they always were.
 */
export function bucketsFor(caller: Caller, address: string, limits: { perMinute: number; perAddressPerMinute: number }): Bucket[] {
  if (caller.kind === 'account') {
    return [
      { key: `acct:${caller.account}`, perMinute: limits.perMinute },
      { key: `addr:${address}`, perMinute: limits.perAddressPerMinute },
    ];
  }
  return [{ key: address, perMinute: limits.perMinute }];
}

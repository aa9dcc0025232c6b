import { createHash, timingSafeEqual } from 'node:crypto';

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

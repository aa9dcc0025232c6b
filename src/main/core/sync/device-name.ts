import { hostname, userInfo } from 'node:os';

/**
 * What this computer is called before the user names it: the OS user's 「…的电脑」, which a
 * household recognises (a host name like DESKTOP-8F3K2LQ says nothing to anyone).
 */
export function defaultDeviceName(user: string | null = osUser()): string {
  const name = (user ?? '').trim().slice(0, 30);
  if (name) return `${name}的电脑`;
  return hostname().slice(0, 40) || '我的电脑';
}

function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    // No entry for this uid (a container's user): the host name stands in.
    return null;
  }
}

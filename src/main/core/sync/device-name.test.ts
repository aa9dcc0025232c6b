import { afterEach, describe, expect, it, vi } from 'vitest';

// node:os stands in for the computer: its host name and, per test, its user entry.
const os = vi.hoisted(() => ({ hostname: 'DESKTOP-8F3K2LQ', user: null as string | null, userThrows: false }));
vi.mock('node:os', () => ({
  hostname: () => os.hostname,
  userInfo: () => {
    if (os.userThrows) throw Object.assign(new Error('no passwd entry for uid 1001'), { code: 'ENOENT' });
    return { username: os.user ?? '' };
  },
}));

const { defaultDeviceName } = await import('./device-name');

afterEach(() => {
  os.hostname = 'DESKTOP-8F3K2LQ';
  os.user = null;
  os.userThrows = false;
});

describe('defaultDeviceName', () => {
  it('names the computer after its OS user, as a household says it', () => {
    os.user = '小王';
    expect(defaultDeviceName()).toBe('小王的电脑');
    os.user = 'wang';
    expect(defaultDeviceName()).toBe('wang的电脑');
  });

  it('takes a given user over the OS one, trimmed', () => {
    os.user = 'root';
    expect(defaultDeviceName('  妈妈 ')).toBe('妈妈的电脑');
  });

  it('keeps a long user name within the sync schema’s 40 characters', () => {
    const name = defaultDeviceName('a'.repeat(60));
    expect(name).toBe(`${'a'.repeat(30)}的电脑`);
    expect(name.length).toBeLessThanOrEqual(40);
  });

  it('falls back to the host name where there is no user entry (a container’s uid)', () => {
    os.userThrows = true;
    expect(defaultDeviceName()).toBe('DESKTOP-8F3K2LQ');
    os.userThrows = false;
    os.user = '   ';
    expect(defaultDeviceName()).toBe('DESKTOP-8F3K2LQ');
  });

  it('cuts a long host name to 40 characters, and says 我的电脑 when there is none', () => {
    os.userThrows = true;
    os.hostname = 'h'.repeat(70);
    expect(defaultDeviceName()).toBe('h'.repeat(40));
    os.hostname = '';
    expect(defaultDeviceName()).toBe('我的电脑');
  });
});

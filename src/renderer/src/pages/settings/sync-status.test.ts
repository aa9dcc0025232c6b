import { describe, expect, it } from 'vitest';
import type { SyncDevice, SyncStatus, SyncWaiting } from '@shared/ipc/sync';
import {
  BOOKS_DIFFERENT_HINT,
  booksBadge,
  clockLine,
  describeProgress,
  describeRemote,
  errorLine,
  formatWhen,
  rowsText,
  sortDevices,
  statusLine,
  waitingLine,
} from './sync-status';

/** A local wall-clock time as an ISO stamp with this machine's offset, so the tests hold in any time zone. */
function local(y: number, m: number, d: number, h: number, min: number): string {
  return new Date(y, m - 1, d, h, min).toISOString();
}

const now = new Date(2026, 2, 5, 15, 0);

const idle: SyncStatus = {
  state: 'idle',
  remote: { kind: 'webdav', url: 'https://dav.jianguoyun.com/dav/随口记/', user: 'a@b.cn' },
  deviceId: 'd1',
  deviceName: '书房电脑',
  lastSyncAt: local(2026, 3, 5, 14, 5),
  pending: 0,
  error: null,
  retryAt: null,
  devices: [],
  progress: null,
  waiting: [],
  clockOffsetMs: null,
};

const device = (over: Partial<SyncDevice>): SyncDevice => ({
  id: 'x',
  name: '客厅电脑',
  lastSeen: null,
  self: false,
  books: null,
  rows: null,
  ...over,
});

describe('sync status wording', () => {
  it('says when in local time: today, yesterday, this year, other years', () => {
    expect(formatWhen(local(2026, 3, 5, 9, 7), now)).toBe('今天 09:07');
    expect(formatWhen(local(2026, 3, 4, 23, 59), now)).toBe('昨天 23:59');
    expect(formatWhen(local(2026, 1, 20, 8, 0), now)).toBe('1月20日 08:00');
    expect(formatWhen(local(2025, 12, 31, 8, 0), now)).toBe('2025年12月31日 08:00');
    // A stamp written with another device's offset is shown in this computer's time.
    const elsewhere = new Date(2026, 2, 5, 10, 30);
    expect(formatWhen(elsewhere.toISOString().replace('Z', '+00:00'), now)).toBe('今天 10:30');
  });

  it('names the remote without any secret', () => {
    expect(describeRemote(idle.remote!)).toBe('WebDAV https://dav.jianguoyun.com/dav/随口记/（用户 a@b.cn）');
    expect(describeRemote({ kind: 'folder', path: '/home/u/Sync/随口记' })).toBe('本地文件夹 /home/u/Sync/随口记');
  });

  it('has one status line for each state', () => {
    expect(statusLine(idle, now)).toBe('上次同步：今天 14:05 · 已全部上传');
    expect(statusLine({ ...idle, pending: 3 }, now)).toBe('上次同步：今天 14:05 · 本地待上传 3 项');
    expect(statusLine({ ...idle, lastSyncAt: null, pending: 2 }, now)).toBe('还没有同步过 · 本地待上传 2 项');
    expect(statusLine({ ...idle, state: 'syncing' }, now)).toBe('正在同步…');
    expect(statusLine({ ...idle, state: 'syncing', progress: { done: 3, total: 10 } }, now)).toBe('正在同步…');
    expect(describeProgress({ done: 3, total: 10 })).toBe('已下载 3 / 10 个文件');
    // After an error the line still tells the last good round; the error has its own line.
    expect(statusLine({ ...idle, state: 'error', pending: 1 }, now)).toBe('上次同步：今天 14:05 · 本地待上传 1 项');
    expect(statusLine({ ...idle, state: 'off', remote: null }, now)).toBe('未开启同步');
  });

  it('adds the retry time to the error', () => {
    const error = { code: 'unreachable', message: '连不上同步服务器，请检查网络' };
    expect(errorLine(idle, now)).toBeNull();
    expect(errorLine({ ...idle, state: 'error', error }, now)).toBe('连不上同步服务器，请检查网络');
    expect(errorLine({ ...idle, state: 'error', error, retryAt: local(2026, 3, 5, 15, 30) }, now)).toBe(
      '连不上同步服务器，请检查网络。将在 15:30 重试。',
    );
    expect(errorLine({ ...idle, state: 'error', error: { ...error, message: '服务器出错了。' }, retryAt: local(2026, 3, 6, 0, 10) }, now)).toBe(
      '服务器出错了。将在 3月6日 00:10 重试。',
    );
  });

  it('lists this device first, then the most recently seen', () => {
    const devices = sortDevices([
      device({ id: 'a', name: '旧笔记本' }),
      device({ id: 'b', name: '客厅电脑', lastSeen: local(2026, 3, 4, 8, 0) }),
      device({ id: 'c', name: '书房电脑', lastSeen: local(2026, 3, 1, 8, 0), self: true }),
      device({ id: 'd', name: '公司电脑', lastSeen: local(2026, 3, 5, 8, 0) }),
    ]);
    expect(devices.map((d) => d.name)).toEqual(['书房电脑', '公司电脑', '客厅电脑', '旧笔记本']);
  });

  it('shows a changed key the way main words it, like any other error', () => {
    const error = { code: 'key_changed', message: '同步位置的密钥文件和本机用过的不一样，请在每台电脑上重新填写同步密码。' };
    expect(errorLine({ ...idle, state: 'error', error }, now)).toBe(error.message);
  });
});

describe('another device’s books against this one', () => {
  it('says whether they match, with why they may differ for a while', () => {
    expect(booksBadge(device({ books: 'same', rows: 1234 }))).toEqual({ books: 'same', text: '账目一致', hint: null });
    expect(booksBadge(device({ books: 'different', rows: 1230 }))).toEqual({ books: 'different', text: '与本机不同', hint: BOOKS_DIFFERENT_HINT });
    expect(BOOKS_DIFFERENT_HINT).toContain('各自同步一次后应当一致');
  });

  it('counts the transactions when known', () => {
    expect(rowsText(device({ rows: 1234 }))).toBe('共 1234 笔');
    expect(rowsText(device({ self: true, rows: 0 }))).toBe('共 0 笔');
    expect(rowsText(device({ rows: null }))).toBeNull();
  });

  it('says nothing when unknown, nor about this device itself', () => {
    expect(booksBadge(device({ books: null }))).toBeNull();
    expect(booksBadge(device({ self: true, books: 'same' }))).toBeNull();
    expect(booksBadge(device({ self: true, books: 'different' }))).toBeNull();
  });
});

describe('changes this computer waits for', () => {
  const entry = (over: Partial<SyncWaiting>): SyncWaiting => ({
    device: 'd2',
    deviceName: '客厅笔记本',
    seq: 42,
    since: local(2026, 3, 5, 10, 2),
    reason: 'missing',
    ...over,
  });
  const webdav = idle.remote;
  const folder = { kind: 'folder', path: '/home/u/Sync/随口记' } as const;

  it('waits for a missing change, which its computer puts back by itself', () => {
    expect(waitingLine(entry({}), webdav, now)).toBe('在等 客厅笔记本 的更改（自今天 10:02）：那台电脑下次同步时会自动补上。');
    expect(waitingLine(entry({ since: local(2026, 2, 28, 10, 2) }), folder, now)).toBe(
      '在等 客厅笔记本 的更改（自 2月28日 10:02）：那台电脑下次同步时会自动补上。',
    );
  });

  it('names where a damaged file lies: the server or the synced folder', () => {
    expect(waitingLine(entry({ reason: 'damaged', since: local(2026, 3, 4, 21, 15) }), webdav, now)).toBe(
      '客厅笔记本 的一个同步文件在服务器上损坏了（自昨天 21:15）：那台电脑下次同步时会自动重写。',
    );
    expect(waitingLine(entry({ reason: 'damaged' }), folder, now)).toBe(
      '客厅笔记本 的一个同步文件在同步文件夹里损坏了（自今天 10:02）：那台电脑下次同步时会自动重写。',
    );
  });

  it('waits for the sync tool to finish copying', () => {
    expect(waitingLine(entry({ reason: 'copying', since: local(2025, 11, 28, 10, 2) }), folder, now)).toBe(
      '等待同步工具传完 客厅笔记本 的文件（自 2025年11月28日 10:02）。',
    );
  });

  it('never shows a raw stamp or an empty name', () => {
    expect(waitingLine(entry({ deviceName: '  ', since: 'not a date' }), webdav, now)).toBe('在等 另一台电脑 的更改：那台电脑下次同步时会自动补上。');
  });
});

describe('this computer’s clock against the server’s', () => {
  const clock = (clockOffsetMs: number | null, error: SyncStatus['error'] = null) => clockLine({ clockOffsetMs, error });

  it('says nothing when unknown or within a minute', () => {
    expect(clock(null)).toBeNull();
    expect(clock(0)).toBeNull();
    expect(clock(59_999)).toBeNull();
    expect(clock(-59_999)).toBeNull();
  });

  it('tells which way and about how many whole minutes, at least one', () => {
    expect(clock(60_000)).toBe('本机时钟比服务器快约 1 分钟。');
    expect(clock(-60_000)).toBe('本机时钟比服务器慢约 1 分钟。');
    expect(clock(-150_000)).toBe('本机时钟比服务器慢约 3 分钟。');
    expect(clock(5 * 60_000)).toBe('本机时钟比服务器快约 5 分钟。');
  });

  it('past five minutes, says sync waits for the clock to be corrected', () => {
    expect(clock(8 * 60_000 + 10_000)).toBe('本机时钟比服务器快约 8 分钟，同步已暂停，请校准系统时间后再同步。');
    expect(clock(-3 * 3_600_000)).toBe('本机时钟比服务器慢约 180 分钟，同步已暂停，请校准系统时间后再同步。');
  });

  it('does not repeat main’s clock error, which says it all', () => {
    const skew = { code: 'clock_skew', message: '本机时钟比服务器快约 8 分钟：请把系统时间设为自动校准后再同步。在此之前本机的修改不会上传。' };
    expect(clock(8 * 60_000, skew)).toBeNull();
    expect(clock(2 * 60_000, skew)).toBeNull();
    // Another error says nothing about the clock: the pause is told here.
    expect(clock(8 * 60_000, { code: 'unreachable', message: '连不上同步服务器' })).toBe(
      '本机时钟比服务器快约 8 分钟，同步已暂停，请校准系统时间后再同步。',
    );
  });
});

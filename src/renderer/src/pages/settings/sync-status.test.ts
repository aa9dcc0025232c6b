import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '@shared/ipc/sync';
import { describeProgress, describeRemote, errorLine, formatWhen, sortDevices, statusLine } from './sync-status';

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
};

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
      { id: 'a', name: '旧笔记本', lastSeen: null, self: false },
      { id: 'b', name: '客厅电脑', lastSeen: local(2026, 3, 4, 8, 0), self: false },
      { id: 'c', name: '书房电脑', lastSeen: local(2026, 3, 1, 8, 0), self: true },
      { id: 'd', name: '公司电脑', lastSeen: local(2026, 3, 5, 8, 0), self: false },
    ]);
    expect(devices.map((d) => d.name)).toEqual(['书房电脑', '公司电脑', '客厅电脑', '旧笔记本']);
  });
});

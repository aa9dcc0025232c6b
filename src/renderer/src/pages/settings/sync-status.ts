import type { SyncDevice, SyncRemoteInfo, SyncStatus } from '@shared/ipc/sync';

const two = (n: number) => String(n).padStart(2, '0');

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** 14:05 in this computer's time zone (the ISO stamps carry the offset of whichever device wrote them). */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * 今天 14:05, 昨天 09:30, 3月5日 14:05, 2025年12月31日 14:05: local time relative to the day,
 * not 「5 分钟前」, so the text changes only at midnight and the live status line is not
 * re-announced every minute while the page stays open.
 */
export function formatWhen(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const clock = formatClock(iso);
  if (sameDay(d, now)) return `今天 ${clock}`;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(d, yesterday)) return `昨天 ${clock}`;
  const day = `${d.getMonth() + 1}月${d.getDate()}日`;
  return d.getFullYear() === now.getFullYear() ? `${day} ${clock}` : `${d.getFullYear()}年${day} ${clock}`;
}

/** The remote as the user recognises it; the password never reaches the renderer at all. */
export function describeRemote(remote: SyncRemoteInfo): string {
  if (remote.kind === 'folder') return `本地文件夹 ${remote.path}`;
  return remote.user ? `WebDAV ${remote.url}（用户 ${remote.user}）` : `WebDAV ${remote.url}`;
}

/** 「已下载 3 / 10 个文件」: joining a remote downloads its files before the books appear. */
export function describeProgress(progress: NonNullable<SyncStatus['progress']>): string {
  return `已下载 ${progress.done} / ${progress.total} 个文件`;
}

/**
 * The one (live) status line: 正在同步…, or the last round and what still waits for upload.
 * The download count is not in it: a screen reader would read out every file.
 */
export function statusLine(status: SyncStatus, now: Date): string {
  if (status.state === 'off') return '未开启同步';
  if (status.state === 'syncing') return '正在同步…';
  const parts = [status.lastSyncAt ? `上次同步：${formatWhen(status.lastSyncAt, now)}` : '还没有同步过'];
  if (status.pending > 0) parts.push(`本地待上传 ${status.pending} 项`);
  else if (status.lastSyncAt && status.state === 'idle') parts.push('已全部上传');
  return parts.join(' · ');
}

/** The error as main words it, and when the engine tries again by itself. */
export function errorLine(status: SyncStatus, now: Date): string | null {
  if (!status.error) return null;
  const message = status.error.message.trim();
  if (!status.retryAt) return message;
  const when = sameDay(new Date(status.retryAt), now) ? formatClock(status.retryAt) : formatWhen(status.retryAt, now);
  return `${message}${/[。！？.!?]$/.test(message) ? '' : '。'}将在 ${when} 重试。`;
}

/** This device first, then the others by when they were last seen (never seen last). */
export function sortDevices(devices: SyncDevice[]): SyncDevice[] {
  // Parsed, not compared as text: devices write their stamps with their own offsets.
  const seen = (d: SyncDevice) => (d.lastSeen ? Date.parse(d.lastSeen) || 0 : 0);
  return [...devices].sort((a, b) => Number(b.self) - Number(a.self) || seen(b) - seen(a) || a.name.localeCompare(b.name));
}

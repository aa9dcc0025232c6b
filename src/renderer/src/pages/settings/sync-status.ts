import type { SyncDevice, SyncRemoteInfo, SyncStatus, SyncWaiting } from '@shared/ipc/sync';
import { formatDateTime, formatTime } from '../../lib/format';

const two = (n: number) => String(n).padStart(2, '0');

/** The day as YYYY-MM-DD on this computer's calendar. */
function localDay(d: Date): string {
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/**
 * The instant on this computer's wall clock, as an ISO date-time without offset: the stamps
 * carry the offset of whichever device wrote them, the user reads them in their own time.
 */
function localIso(iso: string): string | null {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : `${localDay(d)}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** 14:05 in this computer's time zone. */
export function formatClock(iso: string): string {
  const local = localIso(iso);
  return local === null ? iso : formatTime(local);
}

/**
 * 今天 14:05, 昨天 09:30, 3月5日 14:05, 2025年12月31日 14:05 (the app's formatDateTime, in local
 * time): relative to the day, not 「5 分钟前」, so the text changes only at midnight and the live
 * status line is not re-announced every minute while the page stays open.
 */
export function formatWhen(iso: string, now: Date): string {
  const local = localIso(iso);
  return local === null ? iso : formatDateTime(local, localDay(now));
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
  const retry = new Date(status.retryAt);
  const when = localDay(retry) === localDay(now) ? formatClock(status.retryAt) : formatWhen(status.retryAt, now);
  return `${message}${/[。！？.!?]$/.test(message) ? '' : '。'}将在 ${when} 重试。`;
}

/** This device first, then the others by when they were last seen (never seen last). */
export function sortDevices(devices: SyncDevice[]): SyncDevice[] {
  // Parsed, not compared as text: devices write their stamps with their own offsets.
  const seen = (d: SyncDevice) => (d.lastSeen ? Date.parse(d.lastSeen) || 0 : 0);
  return [...devices].sort((a, b) => Number(b.self) - Number(a.self) || seen(b) - seen(a) || a.name.localeCompare(b.name));
}

/** What a device's badge says about its books, as it last published them, against this computer's. */
export interface BooksBadge {
  books: 'same' | 'different';
  text: string;
  /** Why two computers can differ for a while, and what brings them together again. */
  hint: string | null;
}

export const BOOKS_DIFFERENT_HINT = '那台电脑还没收到本机最新的更改，或本机还没收到它的：两台电脑各自同步一次后应当一致。';

/** 「账目一致」 or 「与本机不同」 for another device; null for this one and for a device that has not told yet. */
export function booksBadge(device: SyncDevice): BooksBadge | null {
  if (device.self) return null;
  if (device.books === 'same') return { books: 'same', text: '账目一致', hint: null };
  if (device.books === 'different') return { books: 'different', text: '与本机不同', hint: BOOKS_DIFFERENT_HINT };
  return null;
}

/** 「共 1234 笔」: the transactions a device's books held when it last published them (this one: now). */
export function rowsText(device: SyncDevice): string | null {
  return typeof device.rows === 'number' && Number.isFinite(device.rows) ? `共 ${device.rows} 笔` : null;
}

/** 「（自今天 10:02）」, 「（自 11月28日 10:02）」: nothing when the stamp cannot be read. */
function since(iso: string, now: Date): string {
  if (Number.isNaN(Date.parse(iso))) return '';
  const when = formatWhen(iso, now);
  return `（自${/^\d/.test(when) ? ' ' : ''}${when}）`;
}

/**
 * One line for another device's change this computer waits for. It is information, not an
 * error: the writer puts the file back by itself on its next round.
 */
export function waitingLine(waiting: SyncWaiting, remote: SyncRemoteInfo | null, now: Date): string {
  const name = waiting.deviceName.trim() || '另一台电脑';
  const from = since(waiting.since, now);
  switch (waiting.reason) {
    case 'damaged':
      return `${name} 的一个同步文件在${remote?.kind === 'folder' ? '同步文件夹里' : '服务器上'}损坏了${from}：那台电脑下次同步时会自动重写。`;
    case 'copying':
      return `等待同步工具传完 ${name} 的文件${from}。`;
    default:
      return `在等 ${name} 的更改${from}：那台电脑下次同步时会自动补上。`;
  }
}

/** Below this the clocks count as agreeing: network delays and the server's whole-second Date header. */
const CLOCK_NOTICE_MS = 60_000;
/** Past this sync pauses (main refuses to stamp edits that far from the others). */
const CLOCK_PAUSE_MS = 5 * 60_000;

/**
 * 「本机时钟比服务器快约 3 分钟。」, and past 5 minutes that sync waits for the clock to be
 * corrected. Nothing while main's own clock_skew error is on the page: that one already says
 * which way, how far and what to do.
 */
export function clockLine(status: Pick<SyncStatus, 'clockOffsetMs' | 'error'>): string | null {
  const offset = status.clockOffsetMs;
  if (offset === null || !Number.isFinite(offset) || Math.abs(offset) < CLOCK_NOTICE_MS) return null;
  if (status.error?.code === 'clock_skew') return null;
  const minutes = Math.max(1, Math.round(Math.abs(offset) / 60_000));
  const off = `本机时钟比服务器${offset > 0 ? '快' : '慢'}约 ${minutes} 分钟`;
  return Math.abs(offset) <= CLOCK_PAUSE_MS ? `${off}。` : `${off}，同步已暂停，请校准系统时间后再同步。`;
}

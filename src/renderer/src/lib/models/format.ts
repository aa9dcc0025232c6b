import type { ModelProgress, ModelState } from '@shared/ipc/models';

const MB = 1024 * 1024;

/** 74.0 MB, 512 KB, 300 B: sizes as a download dialog shows them. */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** 1.2 MB/s above a megabyte a second, else 850 KB/s. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond >= MB) return `${(bytesPerSecond / MB).toFixed(1)} MB/s`;
  return `${Math.round(bytesPerSecond / 1024)} KB/s`;
}

/** 「12.3 MB / 74.0 MB · 16.6% · 1.2 MB/s」; the speed is left out before the first bytes. */
export function describeProgress(progress: ModelProgress): string {
  const parts = [`${(progress.receivedBytes / MB).toFixed(1)} MB / ${(progress.totalBytes / MB).toFixed(1)} MB`, `${progress.percent.toFixed(1)}%`];
  if (progress.bytesPerSecond > 0) parts.push(formatSpeed(progress.bytesPerSecond));
  return parts.join(' · ');
}

export const MODEL_STATE_LABELS: Record<ModelState, string> = {
  absent: '未下载',
  downloading: '正在下载',
  extracting: '正在解压',
  verifying: '正在检查',
  ready: '已就绪',
  failed: '下载失败',
};

/** A download, extraction or check is under way: the model can only be cancelled now. */
export function isBusy(state: ModelState): boolean {
  return state === 'downloading' || state === 'extracting' || state === 'verifying';
}

import { CodedError } from '@shared/errors';
import type { ModelErrorCode } from './types';

/** A model step that failed, with the Chinese message the settings page shows as is. */
export class ModelError extends CodedError<ModelErrorCode> {}

export const MESSAGES = {
  network: '无法连接下载服务器，请检查网络',
  notFound: '模型文件不存在（404），下载地址可能已经变更',
  httpError: (status: number) => `下载服务器返回错误（HTTP ${status}），请稍后重试`,
  diskFull: '磁盘空间不足，无法保存模型，请清理磁盘后重试',
  corruptArchive: '模型压缩包已损坏，请重新下载',
  missingFile: (name: string) => `模型文件夹缺少 ${name}`,
  noModelFolder: (name: string) => `模型压缩包里没有 ${name} 文件夹`,
  notAFolder: (path: string) => `找不到模型文件夹：${path}`,
  refused: (detail: string) => `语音识别引擎无法加载这个模型：${detail}`,
  noText: '模型试识别没有得到文字，这个模型可能无法使用',
  cancelled: '下载已取消',
  busy: '这个模型正在下载',
  unknownModel: (id: string) => `没有这个模型：${id}`,
  notInstalled: '这个模型还没有下载，请先下载',
  ioError: (detail: string) => `无法安装模型：${detail}`,
  stalled: (seconds: number) => `下载停滞超过 ${seconds} 秒没有进展`,
  tooLarge: '下载的文件比模型目录登记的大小还大，已停止（可能不是这个模型）',
  certificate: (where: string) => `下载源（${where}）的证书无效，已停止下载`,
  // Each names what it refused (download.ts describeUrl), so a host-less URL never leaves 「（）」.
  redirectRefused: (where: string) => `下载地址跳转到了不受信任的地址（${where}），已拒绝`,
  redirectUnusable: (from: string) => `下载服务器（${from}）要求跳转，但没有给出可用的地址，已拒绝`,
  tooManyRedirects: (where: string) => `下载地址跳转次数过多（最后跳向 ${where}），已拒绝`,
  sourceRefused: (where: string) => `下载地址（${where}）不是这个下载源登记的地址，已拒绝`,
  localFile: '本地文件',
  checksum: (name: string) => `${name} 的校验值（SHA-256）与模型目录登记的不一致，文件可能被替换或损坏`,
  unsafeArchive: (detail: string) => `模型压缩包含有不安全的内容（${detail}），已拒绝安装`,
  unverified: '这个下载源没有公开的校验值，无法确认下载内容；确认后才会使用',
  unverifiedLeft: (last: string, sources: string) =>
    `可校验的下载源都失败了（${last}）。还可以从 ${sources} 下载，但它没有公开的校验值；确认后才会使用`,
  unknownSource: (id: string) => `没有这个下载源：${id}`,
  allSourcesFailed: (detail: string) => `所有下载源都失败了。最后一个错误：${detail}`,
  previousKept: '之前使用的模型保持不变。',
} as const;

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** True for a write that failed because the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}

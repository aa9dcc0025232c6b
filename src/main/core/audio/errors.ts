import { CodedError, errorMessage } from '@shared/errors';
import type { VoiceIoError, VoiceIoErrorCode } from '../voice/ports';

/** A thrown VoiceIoError: `code` tells the UI which Chinese hint to show. */
export class VoiceIoFailure extends CodedError<VoiceIoErrorCode> implements VoiceIoError {
  toJSON(): VoiceIoError {
    return { code: this.code, message: this.message };
  }
}

const MESSAGES: Record<VoiceIoErrorCode, string> = {
  no_device: '没有找到可用的麦克风',
  device_lost: '麦克风已断开',
  permission_denied: '没有麦克风权限，请在系统设置中允许随口记使用麦克风',
  capture_failed: '无法打开麦克风',
  vad_failed: '语音检测出错',
};

export function voiceIoFailure(code: VoiceIoErrorCode, detail?: string, cause?: unknown): VoiceIoFailure {
  return new VoiceIoFailure(code, detail ? `${MESSAGES[code]}（${detail}）` : MESSAGES[code], { cause });
}

/** PortAudio reports everything as text; these are the phrases its host APIs use. */
export function classifyCaptureError(error: unknown, phase: 'open' | 'running'): VoiceIoFailure {
  if (error instanceof VoiceIoFailure) return error;
  const text = errorMessage(error);
  if (/permission|denied|not permitted|EACCES|EPERM|unauthori[sz]ed/i.test(text)) {
    return voiceIoFailure('permission_denied', text, error);
  }
  if (/no default device|invalid device|device unavailable|no such device|not found|bad device/i.test(text)) {
    return voiceIoFailure(phase === 'open' ? 'no_device' : 'device_lost', text, error);
  }
  return voiceIoFailure(phase === 'open' ? 'capture_failed' : 'device_lost', text, error);
}

import type { SessionSummary, TransactionRow } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { savedRowShown, savedSentence } from '@shared/flow-text';
import { formatFenAmount } from '../format';

/** What the user can do about an error, shown as a button next to it. */
export type NextStep = 'openSettings' | 'chooseMicrophone' | 'useKeyboard' | 'downloadModel' | null;

export type LogKind = 'user' | 'app' | 'error' | 'saved' | 'notice';

export interface LogEntry {
  id: number;
  kind: LogKind;
  text: string;
  nextStep: NextStep;
}

const MICROPHONE_CODES = new Set(['no_device', 'device_lost', 'permission_denied', 'capture_failed', 'vad_failed']);
const CONNECTION_CODES = new Set([
  'asr_unavailable',
  'asr_not_configured',
  'token_failed',
  'connect_failed',
  'unauthorized',
  'server_error',
  'reconnect_failed',
  'llm_unavailable',
  // An installed model that is incomplete or refused: 设置 → 语音识别 deletes and re-downloads it.
  'model_incomplete',
  'model_refused',
]);

/** Maps an error code to the one thing most likely to fix it. */
export function nextStepFor(code: string): NextStep {
  if (MICROPHONE_CODES.has(code)) return 'chooseMicrophone';
  // On-device recognition without a model: the first-use dialog downloads one.
  if (code === 'asr_model_missing') return 'downloadModel';
  if (CONNECTION_CODES.has(code)) return 'openSettings';
  if (code === 'no_result' || code === 'too_short' || code === 'tooShort' || code === 'engine_failed') return 'useKeyboard';
  return null;
}

/** The sentence after an error, so every error says what to do next. */
export const NEXT_STEP_HINTS: Record<Exclude<NextStep, null>, { hint: string; button: string }> = {
  openSettings: { hint: '请在「设置 → 高级 → 联网服务」中检查连接方式和密钥，或改用离线模式。', button: '打开设置' },
  chooseMicrophone: { hint: '请在设置中选择一个可用的麦克风。', button: '选择麦克风' },
  useKeyboard: { hint: '可以再说一遍，或改用键盘输入。', button: '改用键盘' },
  downloadModel: { hint: '下载语音模型后就能说话记账，也可以改用键盘输入。', button: '下载语音模型' },
};

/**
 * The orchestrator's own messages usually already say what to do (「请在设置中…」); the
 * hint sentence is added only to those that do not, the button always.
 */
export function needsHint(message: string): boolean {
  return !/请|可以/.test(message);
}

/**
 * 「1 笔：退款 ¥300.00 · 淘宝买鞋」 beside the line's 已保存: each row as the card worded it, so a
 * refund never reads as spending nor a reimbursement as income.
 */
export function describeSaved(rows: readonly TransactionRow[]): string {
  return `${rows.length} 笔：${rows.map(savedRowShown).join('；')}`;
}

export function describeSummary(summary: SessionSummary): string {
  // Drafts left pending are kept; the next session opens with them.
  const pending = summary.unconfirmed?.length ?? 0;
  const kept = `${pending} 笔未确认，下次继续确认`;
  if (summary.savedCount === 0) return pending > 0 ? `本次还没有保存任何交易，${kept}。` : '本次没有记录任何交易。';
  const parts = [`共记录 ${summary.savedCount} 笔`];
  if (summary.expenseFen) parts.push(`支出 ${formatFenAmount(summary.expenseFen)}`);
  if (summary.incomeFen) parts.push(`收入 ${formatFenAmount(summary.incomeFen)}`);
  if (summary.transferFen) parts.push(`转账 ${formatFenAmount(summary.transferFen)}`);
  if (pending > 0) parts.push(kept);
  return parts.join('，');
}

/**
 * The save's spoken reply, minus the sentence that says the save happened: the saved line
 * already says it in the card's words, so a save shows once. What follows (a rule made, a
 * budget threshold crossed) stays; a reply that does not start as expected is kept whole.
 */
export function afterSavedLine(spoken: string, rows: readonly TransactionRow[]): string {
  const said = savedSentence(rows);
  return spoken.startsWith(said) ? spoken.slice(said.length) : spoken;
}

/** The log line(s) one event adds; events that only change state add none. */
export function logLinesFor(event: VoiceEvent): Omit<LogEntry, 'id'>[] {
  switch (event.type) {
    case 'finalText':
      return [{ kind: 'user', text: event.text, nextStep: null }];
    case 'ttsSpoken':
      return [{ kind: 'app', text: event.text, nextStep: null }];
    case 'error':
      return [{ kind: 'error', text: event.message, nextStep: nextStepFor(event.code) }];
    case 'saved':
      // A rule whose entry is not due yet saved no row: the spoken line names the rule.
      return event.transactions.length ? [{ kind: 'saved', text: describeSaved(event.transactions), nextStep: null }] : [];
    case 'exitSession':
      return [{ kind: 'notice', text: `会话已结束。${describeSummary(event.summary)}`, nextStep: null }];
    case 'sessionTimeout':
      return [{ kind: 'notice', text: `长时间没有操作，会话已结束。${describeSummary(event.summary)}`, nextStep: null }];
    default:
      return [];
  }
}

// The two wire protocols, as pure translators between the client's verbs and socket frames.
// They hold only per-connection transcript state; sockets, tokens and timers live in client.ts.
import { randomUUID } from 'node:crypto';
import type { AsrToken } from '@shared/domain';
import { pcmToBytes, SAMPLE_RATE } from '../audio/pcm';

export type AsrProtocolName = 'dashscope' | 'funasr';

export type WireFrame = string | Buffer;

export type ProtocolEvent =
  | { type: 'partial'; text: string }
  | { type: 'final'; text: string }
  | { type: 'error'; message: string }
  /** A frame the protocol does not use; logged, never shown to the user. */
  | { type: 'unknown'; detail: string };

export interface AsrProtocol {
  endpoint(token: AsrToken | null, url: string | undefined): { url: string; headers: Record<string, string> };
  /** Sent once the socket is open. */
  open(): WireFrame[];
  audio(pcm: Int16Array): WireFrame[];
  commit(): WireFrame[];
  receive(data: string): ProtocolEvent[];
}

export interface ProtocolOptions {
  hotwords?: string[];
  /** Whether numbers are written as digits (FunASR `itn`). Default true. */
  itn?: boolean;
}

export function createProtocol(name: AsrProtocolName, options: ProtocolOptions = {}): AsrProtocol {
  return name === 'dashscope' ? dashscope() : funasr(options);
}

export const DASHSCOPE_DEFAULT_MODEL = 'qwen3-asr-flash-realtime';

/** Events DashScope sends that carry nothing the app needs. */
const DASHSCOPE_QUIET = new Set([
  'session.created',
  'session.updated',
  'session.finished',
  'input_audio_buffer.committed',
  'input_audio_buffer.cleared',
  'input_audio_buffer.speech_started',
  'input_audio_buffer.speech_stopped',
  'conversation.created',
  'conversation.item.created',
]);

/**
 * DashScope realtime ASR (qwen3-asr-flash-realtime): OpenAI-Realtime-style JSON events with
 * manual turns (turn_detection null), so each commit is one utterance.
 */
function dashscope(): AsrProtocol {
  const event = (type: string, body: Record<string, unknown> = {}) => JSON.stringify({ event_id: `event_${randomUUID()}`, type, ...body });
  return {
    endpoint(token, url) {
      const target = new URL(url ?? token?.wsUrl ?? '');
      if (!target.searchParams.has('model')) target.searchParams.set('model', token?.model || DASHSCOPE_DEFAULT_MODEL);
      const headers: Record<string, string> = { 'OpenAI-Beta': 'realtime=v1' };
      if (token) headers.Authorization = `Bearer ${token.token}`;
      return { url: target.href, headers };
    },
    open: () => [
      event('session.update', {
        session: {
          modalities: ['text'],
          input_audio_format: 'pcm',
          sample_rate: SAMPLE_RATE,
          input_audio_transcription: { language: 'zh' },
          turn_detection: null,
        },
      }),
    ],
    audio: (pcm) => [event('input_audio_buffer.append', { audio: pcmToBytes(pcm).toString('base64') })],
    commit: () => [event('input_audio_buffer.commit')],
    receive(data) {
      const msg = parseJson(data);
      if (!msg || typeof msg.type !== 'string') return [{ type: 'unknown', detail: `non-event frame: ${data.slice(0, 200)}` }];
      switch (msg.type) {
        case 'conversation.item.input_audio_transcription.text':
          // `text` is the settled prefix, `stash` the still-changing tail.
          return [{ type: 'partial', text: str(msg.text) + str(msg.stash) || str(msg.transcript) || str(msg.delta) }];
        case 'conversation.item.input_audio_transcription.completed':
          return [{ type: 'final', text: str(msg.transcript) || str(msg.text) }];
        case 'conversation.item.input_audio_transcription.failed':
        case 'error': {
          const error = isObject(msg.error) ? msg.error : {};
          const message = str(error.message) || str(msg.message) || '语音识别服务出错';
          const code = str(error.code);
          return [{ type: 'error', message: code ? `${message}（${code}）` : message }];
        }
        default:
          return DASHSCOPE_QUIET.has(msg.type) ? [] : [{ type: 'unknown', detail: `event ${msg.type}` }];
      }
    },
  };
}

/**
 * FunASR runtime, 2pass mode: a JSON config opens a session, audio goes as binary PCM,
 * `{"is_speaking": false}` ends it. Streaming `2pass-online` fragments are provisional and are
 * replaced by each `2pass-offline` sentence; `is_final` marks the end of the session.
 */
function funasr(options: ProtocolOptions): AsrProtocol {
  let sessionOpen = false;
  let settled = '';
  let provisional = '';
  const config = () =>
    JSON.stringify({
      mode: '2pass',
      chunk_size: [5, 10, 5],
      chunk_interval: 10,
      encoder_chunk_look_back: 4,
      decoder_chunk_look_back: 0,
      wav_name: 'suikouji',
      wav_format: 'pcm',
      audio_fs: SAMPLE_RATE,
      is_speaking: true,
      hotwords: JSON.stringify(Object.fromEntries((options.hotwords ?? []).map((w) => [w, 20]))),
      itn: options.itn ?? true,
    });
  const begin = (): WireFrame[] => {
    if (sessionOpen) return [];
    sessionOpen = true;
    settled = '';
    provisional = '';
    return [config()];
  };
  return {
    endpoint: (_token, url) => {
      if (!url) throw new Error('FunASR 需要服务地址（ws://host:10095）');
      return { url, headers: {} };
    },
    open() {
      sessionOpen = false;
      return begin();
    },
    audio: (pcm) => [...begin(), pcmToBytes(pcm)],
    commit: () => [...begin(), JSON.stringify({ is_speaking: false })],
    receive(data) {
      const msg = parseJson(data);
      if (!msg || typeof msg.mode !== 'string') return [{ type: 'unknown', detail: `frame without mode: ${data.slice(0, 200)}` }];
      const text = str(msg.text);
      const events: ProtocolEvent[] = [];
      if (msg.mode === '2pass-online' || msg.mode === 'online') {
        provisional += text;
        events.push({ type: 'partial', text: settled + provisional });
      } else if (msg.mode === '2pass-offline' || msg.mode === 'offline') {
        settled += text;
        provisional = '';
        events.push({ type: 'partial', text: settled });
      } else {
        events.push({ type: 'unknown', detail: `mode ${msg.mode}` });
      }
      if (msg.is_final === true) {
        events.push({ type: 'final', text: settled || provisional });
        sessionOpen = false;
        settled = '';
        provisional = '';
      }
      return events;
    },
  };
}

function parseJson(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

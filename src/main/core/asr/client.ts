// The streaming ASR client: one socket per connect(), audio buffered while the socket is not
// ready, and a reconnect policy for sockets that drop mid-utterance (1 s, 2 s, 4 s; three
// attempts, each with a fresh token; only while the orchestrator says so).
import WebSocket from 'ws';
import { systemClock, type Clock, type TimerHandle } from '@shared/clock';
import type { AsrToken } from '@shared/domain';
import type { AsrClient, AsrClientEvents } from '../voice/ports';
import { Listeners } from '@shared/listeners';
import { msToSamples } from '../audio/pcm';
import { errorMessage } from '@shared/errors';
import { AsrFailure } from './errors';
import { createProtocol, type AsrProtocol, type AsrProtocolName, type WireFrame } from './protocols';
import type { TokenProvider } from './tokens';

export interface AsrClientOptions {
  protocol: AsrProtocolName;
  /** Socket URL; DashScope defaults to the token's wsUrl, FunASR requires it. */
  url?: string;
  tokens?: TokenProvider;
  clock?: Clock;
  /** Asked when the socket drops: reconnect only while this is true (state RECOGNIZING). */
  shouldReconnect: () => boolean;
  hotwords?: string[];
  /** Protocol frames the client does not understand go here, never to the user. */
  log?: (message: string) => void;
  connectTimeoutMs?: number;
}

export const RECONNECT_DELAYS_MS = [1000, 2000, 4000] as const;
/** The audio kept for replay after a reconnect: the longest utterance the segmenter allows. */
const MAX_REPLAY_SAMPLES = msToSamples(60_000);

export interface MeasuredAsrClient extends AsrClient {
  /** Reconnect attempts made since the last successful connection. */
  readonly reconnectAttempts: number;
}

export function createAsrClient(options: AsrClientOptions): MeasuredAsrClient {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? ((m: string) => console.debug(`[asr] ${m}`));
  const listeners = new Listeners<AsrClientEvents>((e) => log(`listener failed: ${errorMessage(e)}`));
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;

  let socket: WebSocket | null = null;
  let protocol: AsrProtocol | null = null;
  let connected = false;
  let intentional = false;
  let connecting: Promise<void> | null = null;
  let reconnectTimer: TimerHandle | null = null;
  let attempts = 0;
  /** Audio of the utterance being spoken (since the last commit), replayed after a reconnect. */
  let current: Int16Array[] = [];
  let currentSamples = 0;
  /** A committed utterance whose final text has not arrived: replayed if the socket drops. */
  let awaitingFinal: Int16Array[] | null = null;
  /** commit() arrived while the socket was (re)connecting. */
  let commitQueued = false;

  const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary || !protocol) return void log('binary frame ignored');
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    for (const event of protocol.receive(text)) {
      if (event.type === 'partial') listeners.emit('partial', event.text);
      else if (event.type === 'final') {
        awaitingFinal = null;
        listeners.emit('final', event.text);
      } else if (event.type === 'error') listeners.emit('error', { code: 'server_error', message: event.message });
      else log(event.detail);
    }
  };

  /** Opens one socket and configures the session; rejects with AsrFailure. */
  const open = async (): Promise<void> => {
    let token: AsrToken | null = null;
    if (options.tokens) token = await options.tokens.get();
    const proto = createProtocol(options.protocol, { hotwords: options.hotwords });
    let endpoint: { url: string; headers: Record<string, string> };
    try {
      endpoint = proto.endpoint(token, options.url);
    } catch (error) {
      throw new AsrFailure('connect_failed', `语音识别地址无效：${errorMessage(error)}`, { cause: error });
    }
    const ws = new WebSocket(endpoint.url, { headers: endpoint.headers, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      const timer = clock.setTimeout(() => {
        ws.terminate();
        reject(new AsrFailure('connect_failed', `连接语音识别服务超时（${connectTimeoutMs} ms）`));
      }, connectTimeoutMs);
      ws.once('open', () => {
        clock.clearTimeout(timer);
        resolve();
      });
      ws.once('error', (error) => {
        clock.clearTimeout(timer);
        reject(new AsrFailure('connect_failed', `连接语音识别服务失败：${errorMessage(error)}`, { cause: error }));
      });
    });
    if (intentional) {
      ws.close(1000);
      throw new AsrFailure('connect_failed', '连接已取消');
    }
    socket = ws;
    protocol = proto;
    connected = true;
    ws.on('error', (error) => log(`socket error: ${errorMessage(error)}`));
    ws.on('message', onMessage);
    ws.on('close', () => onClosed(ws));
    for (const frame of proto.open()) ws.send(frame);
    flushAfterOpen();
  };

  /** Sends, in order, what was said while the socket was not open. */
  const flushAfterOpen = () => {
    const frames: WireFrame[] = [];
    if (awaitingFinal) {
      for (const pcm of awaitingFinal) frames.push(...protocol!.audio(pcm));
      frames.push(...protocol!.commit());
    }
    for (const pcm of current) frames.push(...protocol!.audio(pcm));
    if (commitQueued) {
      commitQueued = false;
      frames.push(...protocol!.commit());
      markCommitted();
    }
    for (const frame of frames) socket!.send(frame);
  };

  const markCommitted = () => {
    awaitingFinal = current;
    current = [];
    currentSamples = 0;
  };

  const onClosed = (ws: WebSocket) => {
    if (ws !== socket) return;
    socket = null;
    protocol = null;
    connected = false;
    listeners.emit('closed', { intentional });
    if (intentional) return;
    if (options.shouldReconnect()) scheduleReconnect(1);
    else dropAudio();
  };

  const dropAudio = () => {
    current = [];
    currentSamples = 0;
    awaitingFinal = null;
    commitQueued = false;
  };

  const scheduleReconnect = (attempt: number) => {
    attempts = attempt;
    const delayMs = RECONNECT_DELAYS_MS[attempt - 1]!;
    listeners.emit('reconnecting', { attempt, delayMs });
    reconnectTimer = clock.setTimeout(() => {
      reconnectTimer = null;
      if (intentional) return;
      if (!options.shouldReconnect()) return dropAudio();
      options.tokens?.invalidate();
      connecting = open()
        .then(() => {
          attempts = 0;
          listeners.emit('reconnected');
        })
        .catch((error: unknown) => {
          options.tokens?.invalidate();
          if (intentional) return;
          if (attempt < RECONNECT_DELAYS_MS.length && options.shouldReconnect()) {
            scheduleReconnect(attempt + 1);
          } else {
            dropAudio();
            listeners.emit('error', {
              code: 'reconnect_failed',
              message: `语音识别连接中断，重连 ${attempt} 次失败：${errorMessage(error)}`,
            });
          }
        })
        .finally(() => {
          connecting = null;
        });
    }, delayMs);
  };

  return {
    get connected() {
      return connected;
    },
    get reconnectAttempts() {
      return attempts;
    },
    connect() {
      if (connected) return Promise.resolve();
      if (connecting) return connecting;
      intentional = false;
      connecting = open()
        .catch((error: unknown) => {
          options.tokens?.invalidate();
          dropAudio();
          throw error instanceof AsrFailure ? error : new AsrFailure('connect_failed', errorMessage(error), { cause: error });
        })
        .finally(() => {
          connecting = null;
        });
      return connecting;
    },
    sendAudio(pcm) {
      if (intentional || pcm.length === 0) return;
      if (currentSamples + pcm.length <= MAX_REPLAY_SAMPLES) {
        current.push(pcm);
        currentSamples += pcm.length;
      }
      if (connected && socket) for (const frame of protocol!.audio(pcm)) socket.send(frame);
    },
    commit() {
      if (intentional) return;
      if (connected && socket) {
        for (const frame of protocol!.commit()) socket.send(frame);
        markCommitted();
      } else if (connecting || reconnectTimer) {
        commitQueued = true;
      } else {
        listeners.emit('error', { code: 'not_connected', message: '语音识别未连接，无法提交' });
      }
    },
    async close() {
      intentional = true;
      clock.clearTimeout(reconnectTimer);
      reconnectTimer = null;
      dropAudio();
      const ws = socket;
      if (!ws) return;
      await new Promise<void>((resolve) => {
        const timer = clock.setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1000);
        ws.once('close', () => {
          clock.clearTimeout(timer);
          resolve();
        });
        ws.close(1000);
      });
    },
    on: (event, listener) => listeners.on(event, listener),
  };
}

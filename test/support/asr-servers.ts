// Loopback stand-ins for the cloud ASR engines (which cannot run here). They speak each
// protocol byte for byte — DashScope realtime JSON events, FunASR 2pass frames — and answer
// from a script: the transcript for the Nth utterance, revealed as partials while audio
// arrives, completed on commit.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ScriptedAsrServer {
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Upgrade requests, accepted or not (headers + url). */
  readonly requests: { url: string; headers: IncomingMessage['headers'] }[];
  /** Every frame received, per connection: JSON objects for text frames, Buffers for binary. */
  readonly frames: (Record<string, unknown> | Buffer)[][];
  /** Refuse the next n upgrade requests with this HTTP status. */
  refuseNext(n: number, status?: number): void;
  /** Kill every open socket without a close handshake (a network drop). */
  dropAll(): void;
  /** Send a raw text frame to the newest socket. */
  sendRaw(text: string): void;
  /** Commits are answered only while this is true. */
  answerCommits: boolean;
  close(): Promise<void>;
}

interface Behaviour {
  /** An upgrade the real service would refuse: the HTTP status and why; null to accept. */
  refuse?(req: IncomingMessage): { status: number; message: string } | null;
  onConnection(ws: WebSocket, server: ScriptedAsrServer, record: (f: Record<string, unknown> | Buffer) => void): void;
}

export interface AsrServerOptions {
  /** Serve the socket on this HTTP server (at /api-ws/v1/realtime) instead of a port of its own. */
  attachTo?: HttpServer;
}

async function startServer(behaviour: Behaviour, options: AsrServerOptions = {}): Promise<ScriptedAsrServer> {
  let refuse = 0;
  let refuseStatus = 503;
  const sockets = new Set<WebSocket>();
  const requests: ScriptedAsrServer['requests'] = [];
  const verifyClient = (info: { req: IncomingMessage }, cb: (ok: boolean, code?: number, message?: string) => void) => {
    requests.push({ url: info.req.url ?? '', headers: info.req.headers });
    const refused = behaviour.refuse?.(info.req);
    if (refuse > 0) {
      refuse--;
      cb(false, refuseStatus, 'refused by test script');
    } else if (refused) cb(false, refused.status, refused.message);
    else cb(true);
  };
  const wss = options.attachTo
    ? new WebSocketServer({ server: options.attachTo, path: '/api-ws/v1/realtime', verifyClient })
    : new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient });
  if (!options.attachTo) await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = ((options.attachTo ?? wss).address() as AddressInfo).port;
  const server: ScriptedAsrServer = {
    url: `ws://127.0.0.1:${port}/api-ws/v1/realtime`,
    connections: 0,
    requests,
    frames: [],
    answerCommits: true,
    refuseNext(n, status = 503) {
      refuse = n;
      refuseStatus = status;
    },
    dropAll() {
      for (const ws of sockets) ws.terminate();
    },
    sendRaw(text) {
      [...sockets].at(-1)?.send(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (ws) => {
    (server as { connections: number }).connections++;
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    const received: (Record<string, unknown> | Buffer)[] = [];
    server.frames.push(received);
    behaviour.onConnection(ws, server, (f) => received.push(f));
  });
  return server;
}

const revealed = (text: string, bytes: number) => Math.min(text.length, Math.floor(bytes / 6400)); // one char per 200 ms

/**
 * DashScope realtime ASR (qwen3-asr-flash-realtime) in manual-commit mode. Like the service, it
 * refuses an upgrade whose URL does not name exactly one model (`?model=`).
 */
export function startDashScopeServer(transcripts: string[], options: AsrServerOptions = {}): Promise<ScriptedAsrServer> {
  let utterance = 0;
  return startServer(
    {
      refuse(req) {
        const models = new URL(req.url ?? '/', 'ws://fake').searchParams.getAll('model');
        if (models.length === 1 && models[0]) return null;
        return { status: 400, message: `expected exactly one model= in the URL, got ${JSON.stringify(models)}` };
      },
      onConnection(ws, server, record) {
        let bytes = 0;
        let eventNo = 0;
        const send = (type: string, body: Record<string, unknown> = {}) =>
          ws.send(JSON.stringify({ event_id: `event_srv_${++eventNo}`, type, ...body }));
        send('session.created', { session: { id: 'sess_1', object: 'realtime.session', model: 'qwen3-asr-flash-realtime' } });
        ws.on('message', (data, isBinary) => {
          if (isBinary) return record(Buffer.from(data as Buffer));
          const msg = JSON.parse(data.toString()) as Record<string, unknown>;
          record(msg);
          const text = transcripts[utterance] ?? '';
          if (msg.type === 'session.update') send('session.updated', { session: msg.session });
          else if (msg.type === 'input_audio_buffer.append') {
            const before = revealed(text, bytes);
            bytes += Buffer.from(String(msg.audio), 'base64').length;
            const now = revealed(text, bytes);
            if (now > before) {
              send('conversation.item.input_audio_transcription.text', {
                item_id: `item_${utterance}`,
                content_index: 0,
                text: text.slice(0, now - 1),
                stash: text.slice(now - 1, now),
                language: 'zh',
                emotion: 'neutral',
              });
            }
          } else if (msg.type === 'input_audio_buffer.commit') {
            if (!server.answerCommits) return;
            send('input_audio_buffer.committed', { item_id: `item_${utterance}` });
            send('conversation.item.input_audio_transcription.completed', {
              item_id: `item_${utterance}`,
              content_index: 0,
              transcript: text,
              language: 'zh',
              emotion: 'neutral',
              usage: { duration: bytes / 32000 },
            });
            utterance++;
            bytes = 0;
          }
        });
      },
    },
    options,
  );
}

/** FunASR runtime websocket server in 2pass mode. */
export function startFunAsrServer(transcripts: string[]): Promise<ScriptedAsrServer> {
  let utterance = 0;
  return startServer({
    onConnection(ws, server, record) {
      let bytes = 0;
      let sent = 0;
      let config: Record<string, unknown> | null = null;
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          const buf = Buffer.from(data as Buffer);
          record(buf);
          if (!config) return ws.close(1002, 'config first');
          bytes += buf.length;
          const text = transcripts[utterance] ?? '';
          const now = revealed(text, bytes);
          if (now > sent) {
            ws.send(JSON.stringify({ mode: '2pass-online', text: text.slice(sent, now), wav_name: config.wav_name, is_final: false }));
            sent = now;
          }
          return;
        }
        const msg = JSON.parse(data.toString()) as Record<string, unknown>;
        record(msg);
        if (msg.is_speaking === true) {
          config = msg;
          bytes = 0;
          sent = 0;
        } else if (msg.is_speaking === false && server.answerCommits) {
          const text = transcripts[utterance] ?? '';
          ws.send(JSON.stringify({ mode: '2pass-offline', text, wav_name: config?.wav_name, is_final: true, timestamp: '[[0,100]]' }));
          utterance++;
          config = null;
        }
      });
    },
  });
}

// A loopback fake of DashScope's temporary-API-key endpoint:
// POST /api/v1/tokens?expire_in_seconds=N with `Authorization: Bearer <key>` →
// {"token":"st-…","expires_at":<unix s>}; a wrong key gets DashScope's 401 error body.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTokenServer {
  /** Use as DASHSCOPE_BASE_URL. */
  baseUrl: string;
  /** Number of tokens minted so far. */
  readonly minted: number;
  /** Seconds requested by the last call. */
  readonly lastTtl: number | null;
  /** When set, the next calls answer this status. */
  failWith: number | null;
  /** The HTTP server, e.g. to attach a fake realtime ASR socket at DashScope's path. */
  server: Server;
  close(): Promise<void>;
}

export async function startFakeTokenServer(options: { apiKey: string; nowMs?: () => number }): Promise<FakeTokenServer> {
  const nowMs = options.nowMs ?? Date.now;
  const state = { minted: 0, lastTtl: null as number | null, failWith: null as number | null };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    if (req.method !== 'POST' || url.pathname !== '/api/v1/tokens') return send(404, { code: 'NotFound', message: 'not found' });
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(401, { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'fake' });
    }
    if (state.failWith) return send(state.failWith, { code: 'InternalError', message: 'scripted failure', request_id: 'fake' });
    const ttl = Number(url.searchParams.get('expire_in_seconds') ?? '60');
    state.lastTtl = ttl;
    state.minted += 1;
    send(200, { token: `st-fake-${state.minted}`, expires_at: Math.floor(nowMs() / 1000) + ttl });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    get minted() {
      return state.minted;
    },
    get lastTtl() {
      return state.lastTtl;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value: number | null) {
      state.failWith = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

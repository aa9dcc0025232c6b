// A reverse proxy on loopback that sits between a WebDAV client and a real server (usually the
// Apache of webdav-server.ts) and spoils chosen exchanges: error statuses, hangs, resets, cut-off
// and endless bodies, a 207 that is not XML, redirects, delays. Everything it is not told to spoil
// passes through unchanged and streamed, so the client sees the real server's behaviour otherwise.
//
// What the `webdav` client (5.11, which fetches through node-fetch 3 via @buttercup/fetch, not
// Node's own fetch) does with these — webdav-server.test.ts pins each one down:
// - A 3xx to ANOTHER host is FOLLOWED (redirect: 'follow', up to 20 hops) and the other host's
//   answer becomes the call's result; a PUT with a Buffer/string body is re-sent there as a PUT
//   with its body (by node-fetch's source, a stream body fails instead: "Cannot follow redirect
//   with body being a readable stream"). node-fetch drops Authorization only when the HOSTNAME changes: a redirect
//   to the same hostname on another port (127.0.0.1:A → 127.0.0.1:B) carries the password along.
//   The sync code must refuse a redirect off its configured origin itself (pass its own fetch /
//   redirect: 'manual', or check where the answer came from); the client will not.
// - It has no timeout of its own: a hanging server or an endless body hangs the call until the
//   `signal` option aborts it (AbortError); it also has no size limit on a GET body.
// - A reset is a FetchError with code ECONNRESET and no `status`; a truncated body is a FetchError
//   ECONNRESET "Invalid response body while trying to fetch …: aborted".
// - A 207 PROPFIND answer that is not XML (or is HTML) is no parse error: the call rejects with
//   "Invalid response: No root multistatus found" and no `status`.
// - Error statuses reject with an Error whose `status` is the code and `response` the fetch
//   Response (so Retry-After is `err.response.headers.get('retry-after')`).
// Node-only, no dependency (node:http).
import { request as httpRequest, createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What to do instead of (or on top of) passing the exchange through. */
export type FaultAction =
  /** Answer with this status (and headers/body) without asking the server. 429 + `{'Retry-After': '2'}`… */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Read the request and never answer: for client timeouts. The socket stays open until the client gives up. */
  | { kind: 'hang' }
  /** Destroy the connection with a TCP reset instead of answering (the client sees ECONNRESET / "fetch failed"). */
  | { kind: 'reset' }
  /** Send the headers with a Content-Length larger than what follows, send part of it, then cut the connection. */
  | { kind: 'truncate'; /** bytes sent of the body; default half of it */ sendBytes?: number }
  /** 200 with a chunked body that never ends: chunks keep coming until the client goes away. */
  | { kind: 'endless'; contentType?: string; chunkBytes?: number; intervalMs?: number }
  /** A 207 Multi-Status whose body is not XML (a captive portal, a broken gateway). */
  | { kind: 'nonXml'; body?: string; contentType?: string }
  /** Answer 302 (or another 3xx) with this absolute Location, e.g. another host/port. */
  | { kind: 'redirect'; location: string; status?: number }
  /** Wait, then pass the exchange through. */
  | { kind: 'delay'; ms: number };

export interface Fault {
  /** Only requests with this method (case-insensitive); all methods when absent. */
  method?: string;
  /** Only requests whose decoded path (no query string) matches. */
  path?: RegExp;
  /** How many matching requests it spoils: default 1 (one-shot); Infinity for a persistent fault. */
  times?: number;
  /**
   * Pass the request to the server FIRST (so it takes effect there: the PUT is stored, the MOVE
   * done), then spoil the answer the client gets — "the write landed but the answer was lost".
   * Works with every action but delay; default false (the server never sees the request).
   */
  forward?: boolean;
  action: FaultAction;
}

export interface FaultHandle {
  /** Requests this fault has spoiled so far. */
  readonly hits: number;
  /** Take it out of the queue (a persistent fault's end). */
  remove(): void;
}

export interface ProxyRequest {
  method: string;
  /** Decoded path, no query string. */
  path: string;
  /** The fault applied to it, if any. */
  fault?: FaultAction['kind'];
  /** The status the client was sent (undefined while pending, or for hang/reset). */
  status?: number;
}

export interface FaultProxy {
  /** `http://127.0.0.1:PORT/`: point the client here instead of at the target. */
  url: string;
  origin: string;
  /** The target's origin, as given. */
  target: string;
  /** Queue a fault. Faults are tried in the order added; the first that matches and has hits left applies. */
  inject(fault: Fault): FaultHandle;
  /** Drop every queued fault. */
  clear(): void;
  /** Every request the proxy has received, oldest first. */
  requests(): ProxyRequest[];
  /** Close the listener and every open connection (hanging and endless ones too). */
  stop(): Promise<void>;
}

// Hop-by-hop headers belong to one connection, not to the exchange; node sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

function endToEnd(headers: IncomingMessage['headers']): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

function decodedPath(url: string | undefined): string {
  const bare = (url ?? '/').split('?')[0] ?? '/';
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Upstream {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const targetOrigin = targetUrl.origin;
  const queue: { fault: Fault; hits: number; removed: boolean }[] = [];
  const log: ProxyRequest[] = [];
  const sockets = new Set<Socket>();
  let origin = '';

  // Rewrite one origin into the other at the start of a URL header (Destination in, Location out),
  // so MOVE/COPY through the proxy name the server's own resources.
  const swapOrigin = (headers: OutgoingHttpHeaders, name: string, from: string, to: string) => {
    const value = headers[name];
    if (typeof value === 'string' && value.startsWith(from)) headers[name] = to + value.slice(from.length);
  };

  const upstreamHeaders = (req: IncomingMessage): OutgoingHttpHeaders => {
    const headers = endToEnd(req.headers);
    headers.host = targetUrl.host;
    swapOrigin(headers, 'destination', origin, targetOrigin);
    return headers;
  };

  const downstreamHeaders = (res: IncomingMessage): OutgoingHttpHeaders => {
    const headers = endToEnd(res.headers);
    swapOrigin(headers, 'location', targetOrigin, origin);
    return headers;
  };

  /** Streams the exchange through unchanged. */
  const pass = (req: IncomingMessage, res: ServerResponse, entry: ProxyRequest) => {
    const up = httpRequest(targetOrigin + (req.url ?? '/'), { method: req.method, headers: upstreamHeaders(req) }, (upRes) => {
      entry.status = upRes.statusCode ?? 502;
      res.writeHead(entry.status, upRes.statusMessage, downstreamHeaders(upRes));
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
    });
    up.on('error', (e) => {
      if (res.headersSent) return res.destroy();
      entry.status = 502;
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`fault-proxy: upstream error ${e.message}`);
    });
    res.on('close', () => {
      if (!res.writableFinished) up.destroy(); // the client went away: so does our request
    });
    req.pipe(up);
  };

  /** Sends the request to the server and collects its whole answer (for faults on the answer). */
  const forwardBuffered = (req: IncomingMessage): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const up = httpRequest(targetOrigin + (req.url ?? '/'), { method: req.method, headers: upstreamHeaders(req) }, (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => resolve({ status: upRes.statusCode ?? 502, headers: downstreamHeaders(upRes), body: Buffer.concat(chunks) }));
        upRes.on('error', reject);
      });
      up.on('error', reject);
      req.pipe(up);
    });

  /** Reads (and discards) the request body, so the client is done sending before we misbehave. */
  const drain = (req: IncomingMessage) =>
    new Promise<void>((resolve) => {
      req.resume();
      if (req.readableEnded) resolve();
      else req.once('end', () => resolve()).once('error', () => resolve());
    });

  const take = (req: IncomingMessage, path: string): Fault | undefined => {
    const item = queue.find(
      (q) =>
        !q.removed &&
        q.hits < (q.fault.times ?? 1) &&
        (!q.fault.method || q.fault.method.toUpperCase() === req.method?.toUpperCase()) &&
        (!q.fault.path || q.fault.path.test(path)),
    );
    if (!item) return undefined;
    item.hits++;
    return item.fault;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodedPath(req.url);
    const entry: ProxyRequest = { method: req.method ?? '', path };
    log.push(entry);
    const fault = take(req, path);
    if (!fault) return pass(req, res, entry);
    const action = fault.action;
    entry.fault = action.kind;
    if (action.kind === 'delay') {
      req.pause();
      await sleep(action.ms);
      if (res.destroyed) return; // the client gave up while we waited
      return pass(req, res, entry);
    }

    let upstream: Upstream | undefined;
    if (fault.forward) {
      try {
        upstream = await forwardBuffered(req);
      } catch {
        upstream = { status: 502, headers: {}, body: Buffer.alloc(0) };
      }
    } else await drain(req);

    switch (action.kind) {
      case 'status': {
        entry.status = action.status;
        const body = action.body ?? `fault-proxy: ${action.status}\n`;
        res.writeHead(action.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), ...action.headers });
        res.end(body);
        return;
      }
      case 'hang':
        return; // never answer; stop() or the client's abort closes the socket
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'truncate': {
        const body = upstream?.body.length ? upstream.body : Buffer.alloc(1024, 'x');
        const sent = Math.min(action.sendBytes ?? Math.floor(body.length / 2), body.length - 1);
        entry.status = upstream?.status ?? 200;
        res.writeHead(entry.status, { ...(upstream?.headers ?? { 'content-type': 'application/octet-stream' }), 'content-length': body.length });
        res.flushHeaders();
        res.write(body.subarray(0, Math.max(0, sent)), () => {
          // Give the bytes a moment on the wire, then cut: the client holds a short body and an error.
          setTimeout(() => req.socket.destroy(), 20);
        });
        return;
      }
      case 'endless': {
        entry.status = 200;
        res.writeHead(200, { 'content-type': action.contentType ?? 'application/octet-stream' }); // chunked: no length
        const chunk = Buffer.alloc(action.chunkBytes ?? 16 * 1024, 'x');
        // Paced (16 KiB every 10 ms by default), so a client that buffers the body fills its memory slowly.
        const timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) clearInterval(timer);
          else if (res.writableNeedDrain)
            return; // the client is not reading: wait
          else res.write(chunk);
        }, action.intervalMs ?? 10);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'nonXml': {
        entry.status = 207;
        const body = action.body ?? 'Service Unavailable: please log in to the hotel Wi-Fi first {';
        res.writeHead(207, { 'content-type': action.contentType ?? 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      case 'redirect': {
        entry.status = action.status ?? 302;
        res.writeHead(entry.status, { location: action.location, 'content-length': 0 });
        res.end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(`fault-proxy: ${String(e)}`);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let stopping: Promise<void> | undefined;
  return {
    url: `${origin}/`,
    origin,
    target: targetOrigin,
    inject(fault) {
      const item = { fault, hits: 0, removed: false };
      queue.push(item);
      return {
        get hits() {
          return item.hits;
        },
        remove() {
          item.removed = true;
        },
      };
    },
    clear() {
      for (const q of queue) q.removed = true;
      queue.length = 0;
    },
    requests: () => log.map((r) => ({ ...r })),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return stopping;
    },
  };
}

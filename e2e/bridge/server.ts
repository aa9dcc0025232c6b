// Test-only stand-in for the Electron shell: serves the built renderer over HTTP and the
// REAL handler table over a WebSocket on the same origin (so the page's CSP holds).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppEvent } from '@shared/events';
import type { Dispatch } from '@core/ipc/handlers';

export const BRIDGE_PATH = '/__bridge';

// Electron's IPC clones bytes (a picture, an attachment) as they are; JSON would turn a
// Uint8Array into an object of numbers, so bytes cross the socket as { $bytes: base64 } both
// ways (shim.ts does the same in the page).
function bytesReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
  return value;
}

function bytesReviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
    return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
  }
  return value;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface Bridge {
  url: string;
  broadcast(event: AppEvent): void;
  close(): Promise<void>;
}

export async function startBridge(options: { rendererDir: string; dispatch: Dispatch }): Promise<Bridge> {
  const root = resolve(options.rendererDir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`${root}/index.html missing: run \`npm run build\` before the browser tests`);
  }
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  const wss = new WebSocketServer({ server, path: BRIDGE_PATH });
  const clients = new Set<WebSocket>();
  wss.on('connection', (socket) => {
    clients.add(socket);
    socket.on('close', () => clients.delete(socket));
    socket.on('message', async (data) => {
      let message: { id?: unknown; name?: unknown; input?: unknown };
      try {
        message = JSON.parse(String(data), bytesReviver);
      } catch {
        return;
      }
      const result = await options.dispatch(message.name, message.input);
      socket.send(JSON.stringify({ id: message.id, result }, bytesReplacer));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('bridge did not bind');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    broadcast(event) {
      const text = JSON.stringify({ event }, bytesReplacer);
      for (const c of clients) c.send(text);
    },
    async close() {
      for (const c of clients) c.terminate();
      await new Promise<void>((ok) => wss.close(() => ok()));
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

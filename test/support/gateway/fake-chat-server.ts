// A loopback server that speaks the OpenAI chat-completions protocol and answers from a
// script: the double for the LLM provider in tests and in e2e fixtures (no LLM is reachable
// from CI). It records every call so tests can assert what the gateway sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCall {
  path: string;
  authorization: string | undefined;
  model: string;
  messages: { role: string; content: string }[];
  responseFormat: unknown;
  body: Record<string, unknown>;
}

export type ChatScriptReply =
  /** A normal completion whose message content is this text. */
  | { content: string; delayMs?: number }
  /** An error status with a body (OpenAI error JSON by default). */
  | { status: number; body?: string; delayMs?: number }
  /** A 200 whose body is this raw text (e.g. not a completion at all). */
  | { raw: string; delayMs?: number }
  /** Never answers; the connection stays open until the caller gives up or the server closes. */
  | { hang: true };

export type ChatScript = (call: ChatCall, callNumber: number) => ChatScriptReply | Promise<ChatScriptReply>;

export interface FakeChatServer {
  /** Use as LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  calls: ChatCall[];
  setScript(script: ChatScript): void;
  /** When true, a request with response_format gets the 400 an older model would give. */
  rejectJsonMode: boolean;
  /** Resolves when a caller hangs up on a request before it was answered (the next time). */
  abandoned(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeChatServer(script: ChatScript): Promise<FakeChatServer> {
  let current = script;
  const calls: ChatCall[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const state = { rejectJsonMode: false };
  const abandonWaiters: (() => void)[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err), type: 'server_error' } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const call: ChatCall = {
      path,
      authorization: req.headers.authorization,
      model: String(body.model),
      messages: body.messages as ChatCall['messages'],
      responseFormat: body.response_format,
      body,
    };
    calls.push(call);
    res.on('close', () => {
      if (res.writableFinished) return;
      for (const resolve of abandonWaiters.splice(0)) resolve();
    });
    if (state.rejectJsonMode && body.response_format !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: "'response_format' is not supported by this model", type: 'invalid_request_error' } }));
      return;
    }
    const reply = await current(call, calls.length);
    if ('hang' in reply) return;
    if (reply.delayMs) await new Promise<void>((resolve) => timers.add(setTimeout(resolve, reply.delayMs)));
    if (res.destroyed) return;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'server_error' } }));
    } else if ('raw' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.raw);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(call.model, reply.content)));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    setScript(next) {
      current = next;
    },
    abandoned() {
      return new Promise<void>((resolve) => abandonWaiters.push(resolve));
    },
    get rejectJsonMode() {
      return state.rejectJsonMode;
    },
    set rejectJsonMode(value: boolean) {
      state.rejectJsonMode = value;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-fake-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

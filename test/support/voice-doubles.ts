// Scripted stand-ins for the ports that cannot run inside a unit test (a microphone, the
// cloud ASR engine, a speaker, the LLM gateway), used by the voice tests and the orchestrator bench.
// They implement the port interfaces exactly, so the orchestrator cannot tell them apart.
import type { ParseResult } from '@shared/domain';
import {
  GATEWAY_PATHS,
  CorrectTransactionRequestSchema,
  CorrectTransactionResponseSchema,
  ParseTransactionRequestSchema,
  ParseTransactionResponseSchema,
  type CorrectTransactionRequest,
  type CorrectTransactionResponse,
  type ParseTransactionRequest,
} from '@shared/gateway';
import type { Clock } from '@shared/clock';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import type { AsrClient, AsrClientEvents, AsrError, Tts, VoiceInput, VoiceInputEvents } from '@core/voice/ports';

/** The app's event hub, except that a throwing listener fails the test instead of being logged. */
class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> extends Listeners<Events> {
  constructor() {
    super((error) => {
      throw error;
    });
  }

  fire<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    this.emit(event, ...args);
  }
}

/** A microphone + VAD whose events the test emits. */
export class ScriptedVoiceInput implements VoiceInput {
  readonly events = new Emitter<VoiceInputEvents>();
  running = false;
  vadPaused = false;
  startCalls = 0;
  stopCalls = 0;
  /** Set to make start() reject like a missing device. */
  failWith: { code: string; message: string } | null = null;
  preRollAudio = new Int16Array(8000).fill(7);

  async start(): Promise<void> {
    this.startCalls += 1;
    if (this.failWith) throw Object.assign(new Error(this.failWith.message), { code: this.failWith.code });
    this.running = true;
  }

  async stop(): Promise<void> {
    this.stopCalls += 1;
    this.running = false;
  }

  preRoll(): Int16Array {
    return this.preRollAudio;
  }

  pauseVad(): void {
    this.vadPaused = true;
  }

  resumeVad(): void {
    this.vadPaused = false;
  }

  on<E extends keyof VoiceInputEvents>(event: E, listener: VoiceInputEvents[E]): Unsubscribe {
    return this.events.on(event, listener);
  }

  /** Listeners still attached (0 after the orchestrator released the mic). */
  get listenerCount(): number {
    return (['frame', 'speechStart', 'speechEnd', 'misfire', 'error'] as const).reduce((n, e) => n + this.events.count(e), 0);
  }

  speechStart(): void {
    this.events.fire('speechStart');
  }

  speechEnd(): void {
    this.events.fire('speechEnd');
  }

  frame(samples = 480, value = 100): void {
    this.events.fire('frame', new Int16Array(samples).fill(value));
  }

  fail(code: 'device_lost' | 'capture_failed', message = code): void {
    this.events.fire('error', { code, message });
  }
}

/** The streaming ASR client as the engine would drive it; the test says what was recognised. */
export class ScriptedAsr implements AsrClient {
  readonly events = new Emitter<AsrClientEvents>();
  connected = false;
  closed = false;
  commits = 0;
  readonly audio: Int16Array[] = [];
  private connectResolvers: { resolve: () => void; reject: (err: Error) => void } | null = null;

  constructor(
    readonly shouldReconnect: () => boolean,
    private readonly autoConnect = true,
  ) {}

  connect(): Promise<void> {
    if (this.autoConnect) {
      this.connected = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.connectResolvers = {
        resolve: () => {
          this.connected = true;
          resolve();
        },
        reject,
      };
    });
  }

  /** For clients created with autoConnect false: lets connect() succeed or fail now. */
  finishConnect(error?: Error): void {
    const r = this.connectResolvers;
    this.connectResolvers = null;
    if (error) r?.reject(error);
    else r?.resolve();
  }

  /** Like the real client, audio sent while connecting is kept and counted. */
  sendAudio(pcm: Int16Array): void {
    this.audio.push(pcm);
  }

  commit(): void {
    this.commits += 1;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
  }

  on<E extends keyof AsrClientEvents>(event: E, listener: AsrClientEvents[E]): Unsubscribe {
    return this.events.on(event, listener);
  }

  get samplesSent(): number {
    return this.audio.reduce((n, chunk) => n + chunk.length, 0);
  }

  partial(text: string): void {
    this.events.fire('partial', text);
  }

  final(text: string): void {
    this.events.fire('final', text);
  }

  fail(error: AsrError): void {
    this.events.fire('error', error);
  }
}

/** Records what would have been said; speech takes `durationMs` on the given clock. */
export class RecordingTts implements Tts {
  readonly spoken: string[] = [];
  enabled = true;
  stops = 0;
  /** Throw from speak (a broken speaker). */
  failing = false;

  constructor(
    private readonly clock?: Clock,
    private readonly durationMs = 0,
  ) {}

  async speak(text: string): Promise<void> {
    this.spoken.push(text);
    if (this.failing) throw new Error('audio device busy');
    if (this.clock && this.durationMs > 0) {
      await new Promise<void>((resolve) => this.clock!.setTimeout(resolve, this.durationMs));
    }
  }

  stop(): void {
    this.stops += 1;
  }

  get last(): string | undefined {
    return this.spoken.at(-1);
  }
}

/** What the LLM answers next, in domain terms; the double turns it into the wire DTO. */
export type ScriptedLlmAnswer =
  | { parse: ParseResult[]; truncated?: boolean }
  | { correct: Omit<CorrectTransactionResponse, 'model'> }
  /** Never answers: the caller's timeout has to give up. */
  | { hang: true }
  /** The network is down. */
  | { offline: true }
  /** The gateway refuses the call with this status and error code (e.g. 401 unauthorized). */
  | { status: number; error: string };

/**
 * The AI gateway's LLM endpoints, scripted, as a `fetch`: it takes and answers exactly the
 * HTTP wire of /api/v1/llm/parse-transaction and /correct-transaction (bodies checked with
 * their zod schemas), so the real Understanding and gateway client (renumbering, 3 s timeout,
 * confidence gate, local fallback) run around it. An unscripted call fails like a network
 * that is down.
 */
export class ScriptedLlm {
  readonly answers: ScriptedLlmAnswer[] = [];
  readonly parseRequests: ParseTransactionRequest[] = [];
  readonly correctRequests: CorrectTransactionRequest[] = [];

  script(...answers: ScriptedLlmAnswer[]): this {
    this.answers.push(...answers);
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body: unknown = JSON.parse(String(init?.body ?? '{}'));
    const signal = init?.signal ?? undefined;
    if (url.pathname.endsWith(GATEWAY_PATHS.parse)) {
      const request = ParseTransactionRequestSchema.parse(body);
      this.parseRequests.push(request);
      const answer = await this.next(signal);
      if ('status' in answer) return json(answer.status, { error: answer.error, message: 'scripted refusal', timestamp: 0 });
      if (!('parse' in answer)) return json(422, { error: 'llm_parse_failed', message: 'scripted answer is not a parse', timestamp: 0 });
      return json(
        200,
        ParseTransactionResponseSchema.parse({
          transactions: answer.parse.map((r) => ({
            amount: r.amount,
            currency: 'CNY',
            // The gateway always answers a calendar day: "today" in the user's zone when unsaid.
            date: r.date ?? (request.context?.now ?? '').slice(0, 10),
            category: r.category ?? '其他',
            description: r.description,
            type: r.type,
            account: r.account ?? '钱包',
            confidence: r.confidence,
          })),
          model: 'scripted',
          ...(answer.truncated ? { truncated: true } : {}),
        }),
      );
    }
    if (url.pathname.endsWith(GATEWAY_PATHS.correct)) {
      this.correctRequests.push(CorrectTransactionRequestSchema.parse(body));
      const answer = await this.next(signal);
      if ('status' in answer) return json(answer.status, { error: answer.error, message: 'scripted refusal', timestamp: 0 });
      if (!('correct' in answer)) return json(422, { error: 'llm_parse_failed', message: 'scripted answer is not a correction', timestamp: 0 });
      return json(200, CorrectTransactionResponseSchema.parse({ ...answer.correct, model: 'scripted' }));
    }
    return json(404, { error: 'not_found', message: url.pathname, timestamp: 0 });
  };

  private next(signal: AbortSignal | undefined): Promise<ScriptedLlmAnswer> {
    const answer = this.answers.shift();
    if (!answer || 'offline' in answer) return Promise.reject(new TypeError('fetch failed'));
    if ('hang' in answer) {
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    return Promise.resolve(answer);
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChatServer, type ChatScript, type FakeChatServer } from '../../../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, type GatewayHarness } from '../../../../test/support/gateway/gateway-harness';
import { DraftBatch } from '@shared/draft-batch';
import type { CorrectionResult, ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import { FakeClock } from '@shared/clock';
import { correctLocal, parseLocal } from '../nlp/index';
import type { UnderstandingContext } from '../voice/ports';
import { createUnderstanding } from './index';

const context: UnderstandingContext = {
  now: toZonedNow('2026-02-17T12:00:00+08:00'),
  customCategories: [{ name: '奶茶', type: 'EXPENSE' }],
  recentCategories: ['餐饮'],
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function gateway(script: ChatScript, env: Record<string, string> = {}, port?: number): Promise<GatewayHarness> {
  const h = await startGatewayHarness({ script, env, port });
  closers.push(() => h.close());
  return h;
}

async function chatServer(script: ChatScript): Promise<FakeChatServer> {
  const s = await startFakeChatServer(script);
  closers.push(() => s.close());
  return s;
}

/** Lets real I/O run until the fake model has received a request. */
async function untilCalled(chat: FakeChatServer): Promise<void> {
  while (chat.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

/** A loopback port nobody listens on (connection refused = what "offline" looks like). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const draft = (amount: number, category: string, description: string, type: ParseResult['type'] = 'EXPENSE'): ParseResult => ({
  amount,
  type,
  category,
  description,
  date: '2026-02-17',
  account: null,
  confidence: 0.9,
  source: 'llm',
});

/** Four drafts; #0 confirmed and #2 cancelled, so pending are #1 and #3 (sent as 0 and 1). */
function mixedBatch(): DraftBatch {
  return DraftBatch.fromResults([
    draft(60, '餐饮', '吃饭'),
    draft(30, '交通', '打车'),
    draft(30, '红包', '抢红包', 'INCOME'),
    draft(15, '餐饮', '奶茶'),
  ])
    .confirmItem(0)
    .cancelItem(2);
}

/** The batch lines of the correction prompt the model received. */
function sentBatch(h: GatewayHarness): string {
  const prompt = h.chat.calls[0]!.messages[0]!.content;
  return prompt.split('Current transactions (index: fields):\n')[1]!.split('\n\n')[0]!;
}

const reply = (value: unknown) => ({ content: JSON.stringify(value) });
const llmTx = (amount: number, description: string, category = '餐饮') => ({
  amount,
  currency: 'CNY',
  date: '2026-02-17',
  category,
  description,
  type: 'EXPENSE',
  account: '钱包',
  confidence: 0.9,
});

/** What the local rules say for the same renumbered items, mapped back: the expected fallback. */
function expectedLocal(batch: DraftBatch, text: string): CorrectionResult {
  const view = batch.pendingView();
  const local = correctLocal(text, view.items, { now: context.now, customCategories: context.customCategories });
  return { ...local, corrections: local.corrections.map((c) => ({ ...c, index: c.index === -1 ? -1 : view.toOriginal[c.index]! })) };
}

function expectLocalFallback(outcome: CorrectionResult & { source: string }, batch: DraftBatch, text: string) {
  expect(outcome.source).toBe('local');
  const expected = expectedLocal(batch, text);
  if (expected.intent === 'correction' || expected.intent === 'append') {
    expect(outcome.corrections).toEqual(expected.corrections);
  }
  if (expected.corrections.length || !['correction', 'append'].includes(expected.intent)) {
    expect(outcome.intent).toBe(expected.intent);
  } else {
    expect(outcome.intent).toBe('unclear');
  }
}

describe('parse', () => {
  it('gateway mode: LLM results in order, with the user clock sent, truncation passed through', async () => {
    const h = await gateway(() => reply({ transactions: Array.from({ length: 11 }, (_, i) => llmTx(i + 1, `项${i + 1}`)) }));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const outcome = await u.parse('好多东西', context);
    expect(outcome.source).toBe('llm');
    expect(outcome.truncated).toBe(true);
    expect(outcome.results).toHaveLength(10);
    expect(outcome.results[0]).toEqual({
      amount: 1,
      type: 'EXPENSE',
      category: '餐饮',
      description: '项1',
      date: '2026-02-17',
      account: '钱包',
      confidence: 0.9,
      source: 'llm',
    });
    const prompt = h.chat.calls[0]!.messages[0]!.content;
    expect(prompt).toContain('Today is 2026-02-17 (星期二)');
    expect(prompt).toContain("User's custom categories: 奶茶");
    expect(u.isOnline()).toBe(true);
  });

  it('direct mode: the LLM core in-process, the key sent only to the provider', async () => {
    const chat = await chatServer(() => reply({ transactions: [llmTx(60, '吃饭'), llmTx(30, '打车', '交通')] }));
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl, model: 'qwen-max' });
    const outcome = await u.parse('吃饭花了60，打车30', context);
    expect(outcome.results.map((r) => [r.description, r.amount, r.category])).toEqual([
      ['吃饭', 60, '餐饮'],
      ['打车', 30, '交通'],
    ]);
    expect(outcome).toMatchObject({ source: 'llm', truncated: false });
    expect(chat.calls[0]).toMatchObject({ authorization: 'Bearer sk-user', model: 'qwen-max' });
  });

  it('an LLM answer with no amount anywhere gives way to the local parser when that finds one', async () => {
    const h = await gateway(() => reply({ transactions: [] }));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const outcome = await u.parse('午饭35块', context);
    expect(outcome).toMatchObject({ source: 'local', results: [{ amount: 35, category: '餐饮' }] });
    // Words with no money stay the model's empty answer.
    expect(await u.parse('今天天气不错', context)).toMatchObject({ source: 'llm', results: [] });
    expect(u.isOnline()).toBe(true);
  });

  it('falls back to the local parser after the parse timeout (FakeClock)', async () => {
    const h = await gateway(() => ({ hang: true }));
    const clock = new FakeClock();
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url, clock });
    let settled = false;
    const pending = u.parse('午饭35', context).finally(() => (settled = true));
    await clock.advance(4999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const outcome = await pending;
    const local = parseLocal('午饭35', { now: context.now, customCategories: context.customCategories });
    expect(outcome).toEqual({
      results: local.results,
      source: 'local',
      truncated: false,
      failure: { kind: 'aborted' },
    });
    expect(u.isOnline()).toBe(true); // slow is not offline
  });

  it('offline mode never calls out and says it is offline', async () => {
    const h = await gateway(() => reply({ transactions: [llmTx(1, 'x')] }));
    const u = createUnderstanding({ mode: 'offline', gatewayUrl: h.url });
    expect(u.isOnline()).toBe(false);
    const outcome = await u.parse('午饭35', context);
    expect(outcome.source).toBe('local');
    await u.correct(mixedBatch(), '改成50', context);
    expect(h.chat.calls).toHaveLength(0);
    expect(u.isOnline()).toBe(false);
  });

  it('a mode without its URL or key works like offline', async () => {
    expect(createUnderstanding({ mode: 'gateway' }).isOnline()).toBe(false);
    expect(createUnderstanding({ mode: 'direct' }).isOnline()).toBe(false);
    expect((await createUnderstanding({ mode: 'direct' }).parse('午饭35', context)).source).toBe('local');
  });
});

describe('correct', () => {
  it('sends only pending items renumbered 0..k-1 and maps the answer back to batch indexes', async () => {
    const h = await gateway(() =>
      reply({
        corrections: [
          { index: 1, updatedFields: { amount: 18 } },
          { index: 0, updatedFields: { category: '交通', description: '出租车' } },
        ],
        intent: 'correction',
        confidence: 0.9,
      }),
    );
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const outcome = await u.correct(mixedBatch(), '奶茶那笔是18，打车改成出租车', context);
    expect(sentBatch(h)).toBe('0: 支出 30元, 交通, 打车, 2026-02-17\n1: 支出 15元, 餐饮, 奶茶, 2026-02-17');
    expect(outcome).toEqual({
      intent: 'correction',
      corrections: [
        { index: 3, updatedFields: { amount: 18 } },
        { index: 1, updatedFields: { category: '交通', description: '出租车' } },
      ],
      confidence: 0.9,
      model: 'qwen-turbo',
      source: 'llm',
    });
  });

  it('keeps an append at -1 and drops edits the intent cannot use', async () => {
    const h = await gateway(() =>
      reply({
        corrections: [
          { index: -1, updatedFields: { amount: 12, type: 'EXPENSE', category: '餐饮', description: '面包' } },
          { index: 0, updatedFields: { amount: 5 } },
        ],
        intent: 'append',
        confidence: 0.88,
      }),
    );
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const outcome = await u.correct(mixedBatch(), '还有一笔面包12', context);
    expect(outcome.intent).toBe('append');
    expect(outcome.corrections).toEqual([{ index: -1, updatedFields: { amount: 12, type: 'EXPENSE', category: '餐饮', description: '面包' } }]);
  });

  it('turns confidence below 0.7 into unclear, keeps a clarifying question, applies 0.7 itself', async () => {
    let confidence = 0.69;
    const h = await gateway(() =>
      reply({ corrections: [{ index: 0, updatedFields: { amount: 50 } }], intent: 'correction', confidence, message: '是哪一笔呢？' }),
    );
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const low = await u.correct(mixedBatch(), '改成50', context);
    expect(low).toMatchObject({ intent: 'unclear', corrections: [], confidence: 0.69, message: '是哪一笔呢？', source: 'llm' });
    confidence = 0.7;
    const ok = await u.correct(mixedBatch(), '改成50', context);
    expect(ok).toMatchObject({ intent: 'correction', corrections: [{ index: 1, updatedFields: { amount: 50 } }], source: 'llm' });
  });

  it('a correction whose edits all name unsent items is unclear', async () => {
    const h = await gateway(() => reply({ corrections: [{ index: 1, updatedFields: { amount: 5 } }], intent: 'correction', confidence: 0.95 }));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const single = DraftBatch.fromResults([draft(60, '餐饮', '吃饭'), draft(30, '交通', '打车')]).cancelItem(1);
    const outcome = await u.correct(single, '改成5', context);
    expect(outcome).toMatchObject({ intent: 'unclear', corrections: [], source: 'llm' });
    // Only the pending item was sent, so the gateway itself dropped index 1.
    expect(sentBatch(h)).toBe('0: 支出 60元, 餐饮, 吃饭, 2026-02-17');
  });

  it('3 s timeout (FakeClock): aborts and delivers the local correction on the renumbered items', async () => {
    const h = await gateway(() => ({ hang: true }));
    const clock = new FakeClock();
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url, clock });
    const batch = mixedBatch();
    const gone = h.chat.abandoned();
    let settled = false;
    const pending = u.correct(batch, '第二笔改成25', context).finally(() => (settled = true));
    await untilCalled(h.chat);
    await clock.advance(2999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const outcome = await pending;
    await gone; // the request was aborted all the way to the model, not left running
    expectLocalFallback(outcome, batch, '第二笔改成25');
    // Whatever the rules found can only name the pending drafts (#1, #3) or an append.
    for (const c of outcome.corrections) expect([-1, 1, 3]).toContain(c.index);
  });

  it('direct mode: the provider refusing the user key is reported as that 401, not as the core 502', async () => {
    const chat = await chatServer(() => ({
      status: 401,
      body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
    }));
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-wrong', llmBaseUrl: chat.baseUrl, model: 'qwen-max', fallbackModel: 'qwen-plus' });
    expect(await u.parse('午饭35', context)).toMatchObject({ source: 'local', failure: { kind: 'http', status: 401 } });
    chat.setScript(() => ({ status: 500 }));
    expect(await u.parse('午饭35', context)).toMatchObject({ source: 'local', failure: { kind: 'http', status: 502 } });
  });

  it('3 s timeout in direct mode aborts the provider call too (FakeClock)', async () => {
    const chat = await chatServer(() => ({ hang: true }));
    const clock = new FakeClock();
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl, clock });
    const batch = mixedBatch();
    const gone = chat.abandoned();
    const pending = u.correct(batch, '第二笔改成25', context);
    await untilCalled(chat);
    await clock.advance(3000);
    expectLocalFallback(await pending, batch, '第二笔改成25');
    await gone;
    expect(chat.calls).toHaveLength(1); // no fallback model after the caller gave up
  });

  it('3 s timeout (real clock, slow upstream): the fallback arrives within 3.1 s', async () => {
    const h = await gateway(() => ({ content: '{}', delayMs: 10_000 }));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const batch = mixedBatch();
    const t0 = performance.now();
    const outcome = await u.correct(batch, '改为收入', context);
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(2990);
    expect(elapsed).toBeLessThanOrEqual(3100);
    expectLocalFallback(outcome, batch, '改为收入');
    expect(h.chat.calls).toHaveLength(1);
  });

  it('a multi-item sentence falls back to every item the local rules find (5xx, refused key, offline)', async () => {
    const h = await gateway(() => ({ status: 500 }));
    const expectAll = (outcome: Awaited<ReturnType<ReturnType<typeof createUnderstanding>['parse']>>) => {
      expect(outcome.source).toBe('local');
      expect(outcome.results.map((r) => [r.amount, r.type, r.category])).toEqual([
        [60, 'EXPENSE', '餐饮'],
        [30, 'EXPENSE', '交通'],
        [9000, 'INCOME', '工资'],
      ]);
    };
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    expectAll(await u.parse('吃饭花了60，打车30，工资收到9000', context));
    h.chat.setScript(() => ({ status: 401 }));
    expectAll(await u.parse('吃饭花了60，打车30，工资收到9000', context));
    expectAll(await createUnderstanding({ mode: 'offline' }).parse('吃饭花了60，打车30，工资收到9000', context));
  });

  it('falls back locally on gateway 5xx and on unusable answers, staying online', async () => {
    const h = await gateway(() => ({ status: 500 }));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const batch = mixedBatch();
    expectLocalFallback(await u.correct(batch, '改成交通', context), batch, '改成交通');
    h.chat.setScript(() => ({ content: 'not json at all' }));
    expectLocalFallback(await u.correct(batch, '改成交通', context), batch, '改成交通');
    expect(u.isOnline()).toBe(true);
  });

  it('direct mode: the same correction protocol in-process, fallback model included', async () => {
    const chat = await chatServer((call) =>
      call.model === 'qwen-turbo'
        ? { status: 503 }
        : reply({ corrections: [{ index: 0, updatedFields: { type: 'INCOME' } }], intent: 'correction', confidence: 0.9 }),
    );
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl, fallbackModel: 'qwen-plus' });
    const outcome = await u.correct(mixedBatch(), '打车那笔应该是收入', context);
    expect(outcome).toMatchObject({ intent: 'correction', model: 'qwen-plus', corrections: [{ index: 1, updatedFields: { type: 'INCOME' } }] });
    // Another provider without a configured fallback: one model only, then the local rules.
    const single = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl });
    expect((await single.correct(mixedBatch(), '打车那笔应该是收入', context)).source).toBe('local');
    expect(chat.calls.map((c) => c.model)).toEqual(['qwen-turbo', 'qwen-plus', 'qwen-turbo']);
  });

  it('a batch with nothing pending is unclear without any call', async () => {
    const h = await gateway(() => reply({}));
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const done = DraftBatch.fromResults([draft(1, '餐饮', 'x')]).confirmAll();
    expect(await u.correct(done, '改成5', context)).toMatchObject({ intent: 'unclear', corrections: [] });
    expect(h.chat.calls).toHaveLength(0);
  });
});

describe('against the original service', () => {
  /** Answers the way the Kotlin service serializes: fields at their default value omitted. */
  async function originalService(answers: Record<string, unknown>): Promise<string> {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answers[req.url ?? '']));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  it('reads its answers leniently: omitted defaults, enum case, uncapped lists, bad fields dropped', async () => {
    const url = await originalService({
      '/api/v1/llm/parse-transaction': {
        transactions: Array.from({ length: 12 }, (_, i) => ({
          amount: i + 1,
          date: '2026-02-17',
          category: '餐饮',
          description: `项${i + 1}`,
          type: 'expense',
        })),
      },
      '/api/v1/llm/correct-transaction': {
        corrections: [
          { index: 1, updatedFields: { amount: '五十', category: '交通' } },
          { index: 0, updatedFields: { amount: 'x' } },
          { updatedFields: { amount: 3 } },
        ],
        intent: 'CORRECTION',
        confidence: 0.9,
      },
    });
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: url });
    const parsed = await u.parse('好多', context);
    expect(parsed).toMatchObject({ source: 'llm', truncated: true });
    expect(parsed.results).toHaveLength(10);
    expect(parsed.results[9]).toEqual({
      amount: 10,
      type: 'EXPENSE',
      category: '餐饮',
      description: '项10',
      date: '2026-02-17',
      account: null,
      confidence: 0.8,
      source: 'llm',
    });
    const corrected = await u.correct(mixedBatch(), '奶茶那笔是交通', context);
    expect(corrected).toEqual({
      intent: 'correction',
      corrections: [{ index: 3, updatedFields: { category: '交通' } }],
      confidence: 0.9,
      model: '',
      source: 'llm',
    });
  });
});

describe('offline detection', () => {
  it('says why the LLM was not used: a refused key is an http failure with its status, a down network is network', async () => {
    const h = await gateway(() => reply({ transactions: [llmTx(35, '午饭')] }), { GATEWAY_API_KEY: 'right' });
    const refused = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url, gatewayApiKey: 'wrong' });
    const parsed = await refused.parse('午饭35', context);
    expect(parsed).toMatchObject({ source: 'local', failure: { kind: 'http', status: 401 } });
    const batch = mixedBatch();
    expect(await refused.correct(batch, '改成50', context)).toMatchObject({ source: 'local', failure: { kind: 'http', status: 401 } });
    expect(refused.isOnline()).toBe(true);
    const accepted = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url, gatewayApiKey: 'right' });
    expect((await accepted.parse('午饭35', context)).failure).toBeUndefined();
    const down = createUnderstanding({ mode: 'gateway', gatewayUrl: `http://127.0.0.1:${await freePort()}` });
    expect((await down.parse('午饭35', context)).failure).toMatchObject({ kind: 'network' });
    // Offline by choice is not a failure.
    expect((await createUnderstanding({ mode: 'offline' }).parse('午饭35', context)).failure).toBeUndefined();
  });

  it('a network error marks offline until a later request succeeds', async () => {
    const port = await freePort();
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: `http://127.0.0.1:${port}` });
    expect(u.isOnline()).toBe(true);
    const outcome = await u.parse('午饭35', context);
    expect(outcome.source).toBe('local');
    expect(u.isOnline()).toBe(false);
    const batch = mixedBatch();
    expectLocalFallback(await u.correct(batch, '改成50', context), batch, '改成50');
    expect(u.isOnline()).toBe(false);

    // The gateway comes up on that address: the next request succeeds and we are online again.
    await gateway(() => reply({ transactions: [llmTx(35, '午饭')] }), {}, port);
    const back = await u.parse('午饭35', context);
    expect(back.source).toBe('llm');
    expect(u.isOnline()).toBe(true);
  });

  it('direct mode: an unreachable provider is offline too', async () => {
    const port = await freePort();
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: `http://127.0.0.1:${port}/v1` });
    expect((await u.parse('午饭35', context)).source).toBe('local');
    expect(u.isOnline()).toBe(false);
  });
});

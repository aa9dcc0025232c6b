import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import {
  AsrTokenResponseSchema,
  CorrectTransactionResponseSchema,
  ErrorBodySchema,
  GATEWAY_PATHS,
  ParseTransactionResponseSchema,
} from '@shared/gateway';
import type { ChatCall, ChatScript } from '../../test/support/gateway/fake-chat-server';
import { startGatewayHarness, TEST_LLM_KEY, type GatewayHarness } from '../../test/support/gateway/gateway-harness';

const NOW = '2026-02-17T12:00:00+08:00'; // a Tuesday

let harness: GatewayHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function start(script: ChatScript, env: Record<string, string> = {}, clock?: FakeClock) {
  harness = await startGatewayHarness({ script, env, clock });
  return harness;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${harness!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as unknown) : undefined };
}

function expectError(res: { status: number; json: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = ErrorBodySchema.parse(res.json);
  expect(body.error).toBe(code);
  expect(body.message.length).toBeGreaterThan(0);
  expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  return body;
}

const tx = (amount: number, description: string, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: 'CNY',
  date: '2026-02-17',
  category: '餐饮',
  description,
  type: 'EXPENSE',
  account: '钱包',
  confidence: 0.9,
  ...extra,
});

const reply = (value: unknown) => ({ content: JSON.stringify(value) });
const system = (call: ChatCall) => call.messages.find((m) => m.role === 'system')!.content;
const user = (call: ChatCall) => call.messages.find((m) => m.role === 'user')!.content;

describe('GET /health', () => {
  it('answers ok with what is configured, a request id, and no auth', async () => {
    const h = await start(() => reply({}), { GATEWAY_API_KEY: 'secret' });
    const res = await fetch(`${h.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', llm: true, asr: true });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST parse-transaction', () => {
  it('returns the model transactions in order and injects date, weekday and categories into the prompt', async () => {
    const h = await start(() =>
      reply({
        transactions: [
          tx(60, '吃饭'),
          { amount: '30', type: '支出', category: '交通', description: '打车' }, // lenient fields
          tx(9000, '工资', { type: 'INCOME', category: '工资', date: '2026-02-16' }),
        ],
      }),
    );
    const res = await post(GATEWAY_PATHS.parse, {
      text: '吃饭花了60，打车30，昨天工资收到9000',
      context: { now: NOW, customCategories: ['奶茶', { name: '副业', type: 'INCOME' }], recentCategories: ['餐饮'] },
    });
    expect(res.status).toBe(200);
    const body = ParseTransactionResponseSchema.parse(res.json);
    expect(body.model).toBe('qwen-turbo');
    expect(body.truncated).toBeUndefined();
    expect(body.transactions.map((t) => [t.description, t.amount, t.type, t.date])).toEqual([
      ['吃饭', 60, 'EXPENSE', '2026-02-17'],
      ['打车', 30, 'EXPENSE', '2026-02-17'], // missing date → today in the user's zone
      ['工资', 9000, 'INCOME', '2026-02-16'],
    ]);
    expect(body.transactions[1]).toMatchObject({ currency: 'CNY', account: '钱包', category: '交通' });

    const call = h.chat.calls[0]!;
    expect(call.authorization).toBe(`Bearer ${TEST_LLM_KEY}`);
    expect(call.model).toBe('qwen-turbo');
    expect(call.responseFormat).toEqual({ type: 'json_object' });
    expect(user(call)).toBe('吃饭花了60，打车30，昨天工资收到9000');
    const prompt = system(call);
    expect(prompt).toContain('Today is 2026-02-17 (星期二)');
    expect(prompt).toContain('上周: 周一 2026-02-09');
    expect(prompt).toContain('周三 2026-02-11');
    expect(prompt).toContain("User's custom categories: 奶茶、副业(收入)");
    expect(prompt).toContain('餐饮、交通、购物');
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
  });

  it('keeps the first 10 of 12 transactions and says it cut them', async () => {
    await start(() => reply({ transactions: Array.from({ length: 12 }, (_, i) => tx(i + 1, `第${i + 1}项`)) }));
    const res = await post(GATEWAY_PATHS.parse, { text: '一堆东西', context: { now: NOW } });
    const body = ParseTransactionResponseSchema.parse(res.json);
    expect(body.transactions.map((t) => t.amount)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(body.truncated).toBe(true);
  });

  it('extracts JSON from code fences and surrounding prose', async () => {
    const h = await start((_, n) =>
      n === 1
        ? { content: '好的：\n```json\n{"transactions":[{"amount":35,"type":"EXPENSE","category":"餐饮","description":"午饭"}]}\n```' }
        : { content: '结果是 {"transactions":[{"amount":12.5,"description":"奶茶 {多冰}"}]} 希望有帮助' },
    );
    const first = ParseTransactionResponseSchema.parse((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).json);
    expect(first.transactions[0]).toMatchObject({ amount: 35, description: '午饭' });
    const second = ParseTransactionResponseSchema.parse((await post(GATEWAY_PATHS.parse, { text: '奶茶十二块五' })).json);
    expect(second.transactions[0]).toMatchObject({ amount: 12.5, description: '奶茶 {多冰}', category: '其他' });
    expect(h.chat.calls).toHaveLength(2);
  });

  it('asks again without response_format when the model refuses JSON mode, and remembers', async () => {
    const h = await start(() => reply({ transactions: [tx(20, '早饭')] }));
    h.chat.rejectJsonMode = true;
    for (let i = 0; i < 2; i++) {
      const res = await post(GATEWAY_PATHS.parse, { text: '早饭20' });
      expect(res.status).toBe(200);
    }
    expect(h.chat.calls.map((c) => c.responseFormat !== undefined)).toEqual([true, false, false]);
  });

  it('falls back to the second model when the first answers something that is not JSON', async () => {
    const h = await start((call) => (call.model === 'qwen-turbo' ? { content: '抱歉，我无法理解。' } : reply({ transactions: [tx(35, '午饭')] })));
    const res = await post(GATEWAY_PATHS.parse, { text: '午饭35' });
    expect(res.status).toBe(200);
    expect(ParseTransactionResponseSchema.parse(res.json).model).toBe('qwen-plus');
    expect(h.chat.calls.map((c) => c.model)).toEqual(['qwen-turbo', 'qwen-plus']);
    expect(h.logs.some((l) => l.event === 'llm_attempt_failed' && l.kind === 'malformed_reply')).toBe(true);
  });

  it('falls back when the first model answers 500, with the configured model names', async () => {
    const h = await start((call) => (call.model === 'm1' ? { status: 500 } : reply({ transactions: [tx(8, '地铁')] })), {
      LLM_MODEL: 'm1',
      LLM_FALLBACK_MODEL: 'm2',
    });
    const body = ParseTransactionResponseSchema.parse((await post(GATEWAY_PATHS.parse, { text: '地铁8块' })).json);
    expect(body.model).toBe('m2');
    expect(h.chat.calls.map((c) => c.model)).toEqual(['m1', 'm1', 'm1', 'm2']); // two retries first
  });

  it('answers 422 llm_parse_failed when both models answer unusably (not JSON / wrong shape)', async () => {
    await start((call) => (call.model === 'qwen-turbo' ? { content: 'no json here' } : reply({ items: [] })));
    expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }), 422, 'llm_parse_failed');
  });

  it('answers 422 llm_parse_failed with the upstream causes when both models fail with 500 or a non-completion body', async () => {
    await start((call) => (call.model === 'qwen-turbo' ? { status: 500 } : { raw: '<html>bad gateway</html>' }));
    const err = expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }), 422, 'llm_parse_failed');
    expect(err.message).toMatch(/qwen-turbo: LLM provider answered 500: .*scripted 500/);
    expect(err.message).toMatch(/qwen-plus: LLM provider answer is not a chat completion/);
  });

  it('never holds a request past the provider timeout when the models hang', async () => {
    const h = await start(() => ({ hang: true }), { LLM_TIMEOUT_MS: '300' });
    const t0 = performance.now();
    const err = expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }), 422, 'llm_parse_failed');
    expect(err.message).toMatch(/no answer within \d+ ms/);
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(590); // two attempts of 300 ms
    expect(elapsed).toBeLessThan(1500);
    expect(h.chat.calls).toHaveLength(2);
  });

  it('gives up on the model when the client hangs up', async () => {
    const h = await start(() => ({ hang: true }));
    const gone = h.chat.abandoned();
    const controller = new AbortController();
    const request = fetch(`${h.url}${GATEWAY_PATHS.parse}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: '午饭35' }),
      signal: controller.signal,
    }).catch((err: unknown) => err);
    while (h.chat.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await request;
    await gone; // the upstream request was closed, not left to run to its timeout
    expect(h.chat.calls).toHaveLength(1); // and the fallback model was not asked either
  });

  it('answers 503 when no provider key is configured', async () => {
    await start(() => reply({}), { LLM_API_KEY: '', DASHSCOPE_API_KEY: '' });
    expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }), 503, 'provider_not_configured');
    expectError(await post(GATEWAY_PATHS.correct, correctBody('确认')), 503, 'provider_not_configured');
  });
});

describe('bad input never reaches the model and never yields 500', () => {
  const cases: [string, unknown, RegExp][] = [
    ['empty text', { text: '' }, /text/],
    ['whitespace text', { text: '   \n ' }, /text must not be empty/],
    ['oversized text', { text: '很'.repeat(2001) }, /at most 2000/],
    ['missing text', {}, /text/],
    ['wrong type', { text: 35 }, /text must be a string/],
    ['array body', [1, 2], /.+/],
    ['bad context', { text: '午饭35', context: { recentCategories: 'x' } }, /context\.recentCategories/],
    ['a clock without an offset', { text: '午饭35', context: { now: 'garbage' } }, /context\.now must be an ISO 8601 instant/],
  ];
  it.each(cases)('parse: %s → 400', async (_, body, message) => {
    const h = await start(() => reply({ transactions: [] }));
    const err = expectError(await post(GATEWAY_PATHS.parse, body), 400, 'validation_failed');
    expect(err.message).toMatch(message);
    expect(h.chat.calls).toHaveLength(0);
  });

  it('parse: malformed JSON and non-JSON content types → 400', async () => {
    await start(() => reply({ transactions: [] }));
    expectError(await post(GATEWAY_PATHS.parse, '{"text": "午饭'), 400, 'validation_failed');
    const plain = await fetch(`${harness!.url}${GATEWAY_PATHS.parse}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '午饭35' });
    expectError({ status: plain.status, json: await plain.json() }, 400, 'validation_failed');
    const form = await fetch(`${harness!.url}${GATEWAY_PATHS.parse}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=x',
    });
    expectError({ status: form.status, json: await form.json() }, 400, 'validation_failed');
    const empty = await fetch(`${harness!.url}${GATEWAY_PATHS.parse}`, { method: 'POST' });
    expectError({ status: empty.status, json: await empty.json() }, 400, 'validation_failed');
  });

  it('correct: batches of 0 and 11 items, duplicate indexes, empty correction text, a date that is no day → 400', async () => {
    const h = await start(() => reply({}));
    const item = (index: number) => ({ index, amount: 1, category: '餐饮', type: 'EXPENSE', description: 'x' });
    for (const body of [
      { currentBatch: [], correctionText: '确认' },
      { currentBatch: Array.from({ length: 11 }, (_, i) => item(i)), correctionText: '确认' },
      { currentBatch: [item(0), item(0)], correctionText: '确认' },
      { currentBatch: [item(0)], correctionText: ' ' },
      { currentBatch: [{ ...item(0), amount: 'sixty' }], correctionText: '改成50' },
      { currentBatch: [{ ...item(0), date: 'yesterday' }], correctionText: '改成50' },
    ]) {
      const err = expectError(await post(GATEWAY_PATHS.correct, body), 400, 'validation_failed');
      expect(err.message).toMatch(/currentBatch|correctionText/);
    }
    expect(h.chat.calls).toHaveLength(0);
  });

  it('takes an empty JSON body as no body: fine for asr/token, a 400 for the LLM routes', async () => {
    await start(() => reply({}));
    const empty = (path: string) =>
      fetch(`${harness!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as unknown,
      }));
    expect((await empty(GATEWAY_PATHS.asrToken)).status).toBe(200);
    expect(expectError(await empty(GATEWAY_PATHS.parse), 400, 'validation_failed').message).toMatch(/JSON object/);
  });

  it('refuses bodies over 64 KiB with 413', async () => {
    await start(() => reply({}));
    const res = await post(GATEWAY_PATHS.parse, { text: '午饭35', padding: 'x'.repeat(70_000) });
    expectError(res, 413, 'payload_too_large');
  });

  it('answers unknown routes with the error body', async () => {
    await start(() => reply({}));
    expectError(await post('/api/v1/llm/nope', { text: 'x' }), 404, 'not_found');
  });
});

function correctBody(correctionText: string) {
  return {
    currentBatch: [
      { index: 0, amount: 60, category: '餐饮', type: 'EXPENSE', description: '吃饭' },
      { index: 1, amount: 30, category: '交通', type: 'EXPENSE', description: '打车', date: '2026-02-17' },
    ],
    correctionText,
    context: { now: NOW },
  };
}

describe('POST correct-transaction', () => {
  it('sends the batch as numbered lines and returns the correction', async () => {
    const h = await start(() => reply({ corrections: [{ index: 0, updatedFields: { amount: 50.0 } }], intent: 'correction', confidence: 0.92 }));
    const res = await post(GATEWAY_PATHS.correct, correctBody('第一笔改成50'));
    expect(res.status).toBe(200);
    expect(CorrectTransactionResponseSchema.parse(res.json)).toEqual({
      corrections: [{ index: 0, updatedFields: { amount: 50 } }],
      intent: 'correction',
      confidence: 0.92,
      model: 'qwen-turbo',
    });
    const prompt = system(h.chat.calls[0]!);
    expect(prompt).toContain('0: 支出 60元, 餐饮, 吃饭');
    expect(prompt).toContain('1: 支出 30元, 交通, 打车, 2026-02-17');
    expect(prompt).toContain('「第N笔」 means index N-1');
    expect(user(h.chat.calls[0]!)).toBe('第一笔改成50');
  });

  it('lightly validates: drops out-of-range indexes, unknown fields and non-numeric amounts; keeps -1', async () => {
    await start(() =>
      reply({
        corrections: [
          { index: 5, updatedFields: { amount: 10 } },
          { index: 1, updatedFields: { amount: 'thirty-five', color: 'red', category: '交通出行' } },
          { index: 0, updatedFields: { amount: '45', type: 'income', date: '2026-02-30' } },
          { index: -1, updatedFields: { amount: 15, type: 'EXPENSE', category: '餐饮', description: '奶茶' } },
          { index: 1, updatedFields: { nonsense: 1 } },
        ],
        intent: 'correction',
        confidence: '0.8',
      }),
    );
    const body = CorrectTransactionResponseSchema.parse((await post(GATEWAY_PATHS.correct, correctBody('改一下'))).json);
    expect(body.corrections).toEqual([
      { index: 1, updatedFields: { category: '交通出行' } },
      { index: 0, updatedFields: { amount: 45, type: 'INCOME' } },
      { index: -1, updatedFields: { amount: 15, type: 'EXPENSE', category: '餐饮', description: '奶茶' } },
    ]);
    expect(body.confidence).toBe(0.8);
  });

  it('turns an unknown intent into unclear and passes a clarifying message through', async () => {
    await start(() =>
      reply({ corrections: [{ index: 0, updatedFields: { amount: 1 } }], intent: 'clarify', confidence: 0.9, message: '要改哪一笔？' }),
    );
    const body = CorrectTransactionResponseSchema.parse((await post(GATEWAY_PATHS.correct, correctBody('那个不对'))).json);
    expect(body).toMatchObject({ intent: 'unclear', corrections: [], message: '要改哪一笔？' });
  });

  it('falls back to the second model on a wrong shape and answers 422 when both are wrong', async () => {
    const h = await start((call) =>
      call.model === 'qwen-turbo' ? reply([1, 2, 3]) : reply({ corrections: [], intent: 'confirm', confidence: 0.85 }),
    );
    const ok = CorrectTransactionResponseSchema.parse((await post(GATEWAY_PATHS.correct, correctBody('嗯对就这样'))).json);
    expect(ok).toMatchObject({ intent: 'confirm', model: 'qwen-plus' });
    h.chat.setScript(() => ({ content: '{"corrections": "none"}' }));
    expectError(await post(GATEWAY_PATHS.correct, correctBody('嗯')), 422, 'llm_parse_failed');
  });
});

describe('auth, request ids, logs, rate limits', () => {
  it('requires X-API-Key on the API when GATEWAY_API_KEY is set', async () => {
    const h = await start(() => reply({ transactions: [tx(35, '午饭')] }), { GATEWAY_API_KEY: 'k-123' });
    expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }), 401, 'unauthorized');
    expectError(await post(GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-api-key': 'k-12' }), 401, 'unauthorized');
    expectError(await post(GATEWAY_PATHS.asrToken, {}, { 'x-api-key': 'k-1234' }), 401, 'unauthorized');
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-api-key': 'k-123' })).status).toBe(200);
    expect(h.chat.calls).toHaveLength(1);
  });

  it('needs no key when GATEWAY_API_KEY is unset', async () => {
    await start(() => reply({ transactions: [tx(35, '午饭')] }));
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
  });

  it('echoes a valid X-Request-ID, replaces an unsafe one, and logs JSON lines carrying it', async () => {
    const h = await start(() => reply({ transactions: [tx(35, '午饭')] }));
    const res = await post(GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-request-id': 'req-abc.123' });
    expect(res.headers.get('x-request-id')).toBe('req-abc.123');
    const lines = h.logs.filter((l) => l.reqId === 'req-abc.123');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.route === 'parse' && l.model === 'qwen-turbo' && l.items === 1)).toBe(true);
    expect(JSON.stringify(h.logs)).not.toContain('午饭35'); // the user's words stay out of logs
    const bad = await post(GATEWAY_PATHS.parse, { text: '午饭35' }, { 'x-request-id': 'a b"}{' });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const err = await post(GATEWAY_PATHS.parse, { text: '' }, { 'x-request-id': 'err-1' });
    expect(err.headers.get('x-request-id')).toBe('err-1');
  });

  it('limits each client per route group with a token bucket and says when to retry', async () => {
    const clock = new FakeClock();
    const h = await start(() => reply({ transactions: [tx(35, '午饭')] }), { RATE_LIMIT_LLM_PER_MIN: '3', RATE_LIMIT_ASR_PER_MIN: '2' }, clock);
    for (let i = 0; i < 3; i++) expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    const limited = await post(GATEWAY_PATHS.correct, correctBody('确认'));
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).toBe('20');
    // The ASR group has its own bucket.
    expect((await post(GATEWAY_PATHS.asrToken, {})).status).toBe(200);
    await clock.advance(20_000); // one LLM token back
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(200);
    expect((await post(GATEWAY_PATHS.parse, { text: '午饭35' })).status).toBe(429);
    expect(h.chat.calls).toHaveLength(4);
    // Health is never limited.
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
  });
});

describe('POST asr/token', () => {
  it('mints a DashScope temporary key, reuses it until 30 s before expiry, then mints again', async () => {
    const clock = new FakeClock();
    const h = await start(() => reply({}), {}, clock);
    const first = AsrTokenResponseSchema.parse((await post(GATEWAY_PATHS.asrToken, {})).json);
    expect(first.token).toBe('st-fake-1');
    expect(first.model).toBe('qwen3-asr-flash-realtime');
    // The plain endpoint: the client appends ?model= itself, as the original service's clients do.
    expect(first.wsUrl).toBe(`${h.tokens.baseUrl.replace('http', 'ws')}/api-ws/v1/realtime`);
    expect(first.expiresAt).toBe(Math.floor(clock.now() / 1000) + 1800);
    expect(h.tokens.lastTtl).toBe(1800);

    await clock.advance(1769_000); // 31 s of validity left
    expect(AsrTokenResponseSchema.parse((await post(GATEWAY_PATHS.asrToken, {})).json).token).toBe('st-fake-1');
    await clock.advance(2_000); // 29 s left: too little for a session
    expect(AsrTokenResponseSchema.parse((await post(GATEWAY_PATHS.asrToken, {})).json).token).toBe('st-fake-2');
    expect(h.tokens.minted).toBe(2);
  });

  it('answers 502 when the token endpoint fails and 503 without a DashScope key', async () => {
    const h = await start(() => reply({}));
    h.tokens.failWith = 500;
    expectError(await post(GATEWAY_PATHS.asrToken, {}), 502, 'upstream_error');
    await h.close();
    harness = null;
    await start(() => reply({}), { DASHSCOPE_API_KEY: '' });
    expectError(await post(GATEWAY_PATHS.asrToken, {}), 503, 'provider_not_configured');
  });
});

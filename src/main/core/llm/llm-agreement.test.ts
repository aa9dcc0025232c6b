// Issue 43, item 5: the LLM path gives the fields the local path gives. A model's answers are
// recorded (the chat content a model following our prompt returns) and played through the real
// gateway (HTTP) and the real in-process core; what the client makes of them is judged by the
// same golden rules, on the same golden lines, as the local parser's answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { startFakeChatServer } from '../../../../test/support/gateway/fake-chat-server';
import { startGatewayHarness } from '../../../../test/support/gateway/gateway-harness';
import { judge, type GoldenCase } from '../nlp/golden-judge';
import { parseAnswer } from '../nlp/protocol';
import { createUnderstanding } from './index';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const golden = new Map(
  ['golden-money.jsonl', 'golden-asr-style.jsonl'].flatMap((file) =>
    readFileSync(join(__dirname, '../nlp/testdata', file), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as GoldenCase & { now: string })
      .map((c) => [c.id, c] as const),
  ),
);

const tx = (amount: number, category: string, description: string, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: 'CNY',
  date: '2026-11-24',
  category,
  description,
  type: 'EXPENSE',
  account: '钱包',
  confidence: 0.9,
  ...extra,
});

/**
 * What a model following the prompt answers, by golden id. Some are as sloppy as models are
 * (a flow in capitals, no type on a loan, a tag with its #): the client must read them alike.
 */
const RECORDED: Record<string, unknown[]> = {
  // Lending with 把 or the object first: the verb decides the direction.
  m21: [tx(600, '转账', '还阿峰', { type: 'TRANSFER', flow: 'repay', counterparty: '阿峰' })],
  m22: [tx(950, '转账', '老郑还钱', { type: 'TRANSFER', flow: 'collect', counterparty: '老郑' })],
  m23: [tx(2700, '转账', '收回借款', { type: undefined, flow: 'Collect', counterparty: '堂弟' })],
  m24: [tx(1600, '转账', '还二叔', { type: 'TRANSFER', flow: 'repay', counterparty: '二叔' })],
  m25: [tx(4000, '转账', '表哥借我', { type: 'TRANSFER', flow: 'borrow', counterparty: '表哥' })],
  m26: [tx(1800, '转账', '借给室友', { type: 'EXPENSE', flow: 'lend', counterparty: '室友' })],
  // A refund that names the price: one refund of what came back.
  m27: [tx(220, '购物', '外套', { type: 'INCOME', date: '2026-11-22', flow: 'refund' })],
  m29: [tx(1100, '购物', '吸尘器', { type: 'INCOME', flow: 'refund' })],
  // Advanced for the employer, and paid back by it.
  m33: [tx(68, '其他', '快递费', { reimbursable: true })],
  m35: [tx(1760, '交通', '机票', { reimbursable: true })],
  m36: [tx(2300, '其他', '出差费', { type: 'INCOME', flow: 'reimbursement' })],
  m38: [tx(1900, '其他', '培训费', { type: 'INCOME', flow: 'reimbursement' })],
  // Look-alikes: income without a flow; a habit and a wish; a borrowed thing.
  m39: [tx(5100, '其他', '退休金', { type: 'INCOME' })],
  m40: [tx(2900, '其他', '养老金', { type: 'INCOME' })],
  m41: [tx(74, '交通', '打车回来')],
  // Tags said aloud, out of the description.
  m45: [tx(280, '餐饮', '给宝宝买奶粉', { tags: ['#育儿'] })],
  m47: [tx(3400, '住房', '装修买瓷砖', { tags: ['新房'] })],
  m49: [tx(310, '交通', '加油', { tags: ['自驾', '自驾'] })],
  // Speech: a self-correction, the account said anywhere, the recognizer's homophones.
  a46: [tx(26, '餐饮', '午饭')],
  a50: [tx(435, '交通', '高铁票')],
  a55: [tx(420, '住房', '物业费', { account: '银行卡' })],
  a57: [tx(320, '购物', '吹风机', { account: '花呗' })],
  a58: [tx(93, '账单', '电费', { account: '支付宝' })],
  a60: [tx(14, '餐饮', '奶茶', { account: '微信' })],
  a62: [tx(41, '餐饮', '外卖')],
  a63: [tx(31, '交通', '打车去医院')],
};

/** A model answering each sentence (the user message) from RECORDED; anything else is no transaction. */
const recordedModel = (call: { messages: { role: string; content: string }[] }) => {
  const text = call.messages.at(-1)!.content;
  const id = [...golden.values()].find((c) => c.text === text)?.id;
  return { content: JSON.stringify({ transactions: (id && RECORDED[id]) ?? [] }) };
};

describe('the LLM path and the local path give the same fields', () => {
  it.each(Object.keys(RECORDED))('%s: the recorded answer, through the gateway, passes the golden line the local parser is judged by', async (id) => {
    const h = await startGatewayHarness({ script: recordedModel });
    closers.push(() => h.close());
    const c = golden.get(id)!;
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    const outcome = await u.parse(c.text, { now: toZonedNow(c.now) });
    expect(outcome.source).toBe('llm');
    expect(judge(c, parseAnswer(outcome.results, false))).toBeNull();
  });

  it('in-process (direct mode) the same answers become the same drafts, keys present only when said', async () => {
    const chat = await startFakeChatServer(recordedModel);
    closers.push(() => chat.close());
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl });
    const now = toZonedNow('2026-11-24T20:00:00+08:00');
    const parse = async (id: string) => (await u.parse(golden.get(id)!.text, { now })).results;
    expect(await parse('m23')).toMatchObject([{ amount: 2700, type: 'TRANSFER', flow: 'collect', counterparty: '堂弟' }]);
    expect(await parse('m26')).toMatchObject([{ type: 'TRANSFER', flow: 'lend', counterparty: '室友' }]);
    expect(await parse('m45')).toMatchObject([{ amount: 280, tags: ['育儿'], description: '给宝宝买奶粉' }]);
    expect(await parse('m49')).toMatchObject([{ tags: ['自驾'] }]);
    const [pension] = await parse('m39');
    expect(pension).toMatchObject({ type: 'INCOME', amount: 5100 });
    for (const key of ['flow', 'counterparty', 'reimbursable', 'tags', 'recurrence']) expect(pension).not.toHaveProperty(key);
  });

  it('a wish and a borrowed thing are no transaction: the model says none, and no local draft replaces it', async () => {
    // The golden lines (m43, m44) ask the local parser for no amount and no schedule or flow;
    // the model's empty answer is that, and the client keeps it (the local reading finds no amount).
    const h = await startGatewayHarness({ script: recordedModel });
    closers.push(() => h.close());
    const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
    for (const id of ['m43', 'm44']) {
      const c = golden.get(id)!;
      expect(await u.parse(c.text, { now: toZonedNow(c.now) })).toMatchObject({ source: 'llm', results: [] });
    }
  });

  it('the prompt the model reads states each class of issue 43', async () => {
    const chat = await startFakeChatServer(recordedModel);
    closers.push(() => chat.close());
    const u = createUnderstanding({ mode: 'direct', apiKey: 'sk-user', llmBaseUrl: chat.baseUrl });
    await u.parse('我把欠阿峰的六百还了', { now: toZonedNow('2026-11-24T20:00:00+08:00') });
    const prompt = chat.calls[0]!.messages[0]!.content;
    for (const said of ['我把欠阿峰的六百还了', '收回来了', '退了两百二', '帮公司垫付', '报下来了', '退休金', '每周都想去游泳']) {
      expect(prompt).toContain(said);
    }
    for (const said of ['跟邻居借了把梯子', '哦不是', '我说错了是', '支付包', '威信', '标记育儿', '记到团建里', '算新房的', '用的微信']) {
      expect(prompt).toContain(said);
    }
    for (const key of ['"flow"', '"counterparty"', '"reimbursable"', '"tags"']) expect(prompt).toContain(key);
  });
});

import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatProvider } from '../src/llm/chat-provider';
import { createTransactionLlm } from '../src/llm/transaction-llm';
import { startFakeChatServer, type FakeChatServer } from '../test/support/gateway/fake-chat-server';
import { formatScores, GOLDEN_SETS, judgeCorrect, judgeParse, loadGoldenCases, runEval, SEED_CASES } from './eval-llm';

let chat: FakeChatServer | null = null;
afterEach(async () => {
  await chat?.close();
  chat = null;
});

const tx = (amount: number | null, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: 'CNY',
  date: '2026-02-17',
  category: '餐饮',
  description: '',
  type: 'EXPENSE' as const,
  account: '钱包',
  confidence: 0.9,
  ...extra,
});

describe('eval-llm judging', () => {
  it('parse: one expectation judges the first item; a list judges every item in order', () => {
    expect(judgeParse({ amount: 35 }, [tx(35), tx(1)])).toBe(true);
    expect(judgeParse({ amount: null }, [])).toBe(true);
    expect(judgeParse({ category: ['餐饮', '购物'] }, [tx(1)])).toBe(true);
    expect(judgeParse([{ amount: 60 }, { amount: 30 }], [tx(60), tx(30)])).toBe(true);
    expect(judgeParse([{ amount: 60 }, { amount: 30 }], [tx(30), tx(60)])).toBe(false);
    expect(judgeParse([{ amount: 60 }], [tx(60), tx(30)])).toBe(false);
  });

  it('correct: intent, expected edits present, no edit of another index', () => {
    const want = { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 50 } }] };
    const got = (corrections: { index: number; updatedFields: Record<string, unknown> }[], intent = 'correction') =>
      ({ intent, corrections, confidence: 0.9, model: 'm' }) as never;
    expect(judgeCorrect(want, got([{ index: 0, updatedFields: { amount: 50, description: 'x' } }]))).toBe(true);
    expect(
      judgeCorrect(
        want,
        got([
          { index: 0, updatedFields: { amount: 50 } },
          { index: 1, updatedFields: { amount: 1 } },
        ]),
      ),
    ).toBe(false);
    expect(judgeCorrect(want, got([{ index: 0, updatedFields: { amount: 5 } }]))).toBe(false);
    expect(judgeCorrect(want, got([{ index: 0, updatedFields: { amount: 50 } }], 'append'))).toBe(false);
  });

  it('runs the seed cases through the gateway core and scores them per kind', async () => {
    // A model that finds nothing and never understands a correction.
    chat = await startFakeChatServer((call) => ({
      content: call.messages[0]!.content.includes('correction assistant')
        ? JSON.stringify({ corrections: [], intent: 'unclear', confidence: 0.2 })
        : JSON.stringify({ transactions: [] }),
    }));
    const llm = createTransactionLlm({ provider: createChatProvider({ baseUrl: chat.baseUrl, apiKey: 'k', timeoutMs: 5000 }), model: 'm' });
    const scores = await runEval(llm, SEED_CASES);
    const byKind = Object.fromEntries(scores.map((s) => [s.kind, `${s.passed}/${s.total}`]));
    expect(byKind['correct: unclear']).toBe('1/1');
    expect(byKind['correct: ordinal']).toBe('0/1');
    expect(byKind['parse: multi-item']).toBe('0/3');
    expect(scores.reduce((n, s) => n + s.total, 0)).toBe(SEED_CASES.length);
    expect(chat.calls).toHaveLength(SEED_CASES.length);
    // 「打车那笔不要了」 is unclear (drop one, not all), so the never-understanding model scores it.
    expect(byKind['correct: confirm/cancel']).toBe('1/3');
    expect(formatScores(scores)).toMatch(/\| all +\| 2\/18 +\| 11% +\|/);
  });
});

describe('eval-llm on the golden sets', () => {
  it('runs every set by default, money.jsonl included, one kind per set and op', () => {
    expect(GOLDEN_SETS.map((p) => p.split('/').at(-1))).toEqual([
      'golden-nlp.jsonl',
      'golden-split.jsonl',
      'golden-asr-style.jsonl',
      'golden-money.jsonl',
    ]);
    // The repository's copies: a fresh clone has them (../shared/golden is not part of it).
    for (const path of GOLDEN_SETS) expect(existsSync(path), path).toBe(true);
    const money = loadGoldenCases('src/main/core/nlp/testdata/golden-money.jsonl');
    expect(money).toHaveLength(50);
    expect(new Set(money.map((c) => c.kind))).toEqual(new Set(['golden money: parse']));
  });

  it('judges an answer as the local parser is judged: items, the flow and its person, tags as a set', async () => {
    const cases = loadGoldenCases('src/main/core/nlp/testdata/golden-money.jsonl').filter((c) => ['m12', 'm21', 'm45'].includes(c.id));
    const answers: Record<string, unknown[]> = {
      借给小李一千: [tx(1000, { type: 'TRANSFER', category: '转账', flow: 'lend', counterparty: '小李' })],
      // A repayment read as a loan: the judge sees the wrong flow.
      我把欠阿峰的六百还了: [tx(600, { type: 'TRANSFER', category: '转账', flow: 'lend', counterparty: '阿峰' })],
      给宝宝买奶粉两百八标记育儿: [tx(280, { description: '给宝宝买奶粉', tags: ['育儿', '#育儿'] })],
    };
    chat = await startFakeChatServer((call) => ({ content: JSON.stringify({ transactions: answers[call.messages.at(-1)!.content] ?? [] }) }));
    const llm = createTransactionLlm({ provider: createChatProvider({ baseUrl: chat.baseUrl, apiKey: 'k', timeoutMs: 5000 }), model: 'm' });
    const [score] = await runEval(llm, cases);
    expect(score).toMatchObject({ kind: 'golden money: parse', passed: 2, total: 3 });
    expect(score!.failures.map((f) => f.id)).toEqual(['m21']);
  });
});

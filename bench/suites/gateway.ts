// AI gateway and LLM client overhead on loopback, with the LLM replaced by the scripted
// OpenAI-compatible fake (answers at once), so the figures are our own cost, not a model's.
import { performance } from 'node:perf_hooks';
import { extractJson } from '../../src/gateway/core/json-extract';
import { startGatewayHarness } from '../../test/support/gateway/gateway-harness';
import { createUnderstanding } from '@core/llm/index';
import { DraftBatch } from '@shared/draft-batch';
import type { ParseResult } from '@shared/domain';
import { toZonedNow } from '@shared/time';
import type { Suite } from '../harness';

const now = toZonedNow('2026-02-17T12:00:00+08:00');
const parseReply = JSON.stringify({
  transactions: Array.from({ length: 4 }, (_, i) => ({
    amount: 10 * (i + 1),
    currency: 'CNY',
    date: '2026-02-17',
    category: '餐饮',
    description: `第${i + 1}项`,
    type: 'EXPENSE',
    account: '钱包',
    confidence: 0.9,
  })),
});
const correctReply = JSON.stringify({ corrections: [{ index: 1, updatedFields: { amount: 35 } }], intent: 'correction', confidence: 0.92 });

const draft = (amount: number): ParseResult => ({
  amount,
  type: 'EXPENSE',
  category: '餐饮',
  description: '吃饭',
  date: '2026-02-17',
  account: null,
  confidence: 0.9,
  source: 'llm',
});

const suite: Suite = {
  name: 'gateway',
  async run(ctx) {
    await ctx.measure('gateway.extract_json_fenced', () => extractJson(`好的：\n\`\`\`json\n${parseReply}\n\`\`\`\n以上`), {
      iterations: 5000,
      budget: { p50: 0.1 },
    });

    const h = await startGatewayHarness({
      script: (call) => ({ content: call.messages[0]!.content.includes('correction assistant') ? correctReply : parseReply }),
      env: { RATE_LIMIT_LLM_PER_MIN: '1000000' },
    });
    // The gateway's own request log would flood the bench output.
    h.app.log.level = 'silent';
    try {
      const u = createUnderstanding({ mode: 'gateway', gatewayUrl: h.url });
      await ctx.measureAsync('gateway.parse_roundtrip', () => u.parse('吃饭10，打车20，奶茶30，面包40', { now }), {
        iterations: 300,
        budget: { p50: 15, p99: 60 },
      });
      const batch = DraftBatch.fromResults([draft(60), draft(30), draft(15)]).confirmItem(0);
      await ctx.measureAsync('gateway.correct_roundtrip', () => u.correct(batch, '第二笔改成35', { now }), {
        iterations: 300,
        budget: { p50: 15, p99: 60 },
      });

      const direct = createUnderstanding({ mode: 'direct', apiKey: 'bench', llmBaseUrl: h.chat.baseUrl });
      await ctx.measureAsync('llm.direct_parse_roundtrip', () => direct.parse('吃饭10，打车20，奶茶30，面包40', { now }), {
        iterations: 300,
        budget: { p50: 5, p99: 30 },
      });

      // A hung model: the local fallback must arrive at the 3 s deadline, not later.
      h.chat.setScript(() => ({ hang: true }));
      const samples: number[] = [];
      for (let i = 0; i < 2; i++) {
        const t0 = performance.now();
        await u.correct(batch, '第二笔改成35', { now });
        samples.push(performance.now() - t0);
      }
      const worst = Math.max(...samples);
      ctx.record('llm.correction_fallback_after_timeout', {
        value: Math.round(worst),
        unit: 'ms',
        n: samples.length,
        budget: '≤ 3100 ms',
        ok: worst <= 3100,
      });
    } finally {
      await h.close();
    }
  },
};

export default suite;

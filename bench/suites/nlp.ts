// Local NLP latency over the golden sentences: Layer-1 classify (spec: < 1 ms worst case; our
// budget p99 ≤ 50 µs) and offline parse (p99 ≤ 200 µs). Each sample is one call on the next
// sentence, so the percentiles span the whole set.
import { readFileSync } from 'node:fs';
import { toZonedNow } from '@shared/time';
import { classifyIntent, parseLocal } from '@core/nlp/index';
import type { Suite } from '../harness';

interface GoldenLine {
  op: string;
  text: string;
  batchSize?: number;
}

const lines = readFileSync(new URL('../../src/main/core/nlp/testdata/golden-nlp.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as GoldenLine);

const suite: Suite = {
  name: 'nlp',
  async run(ctx) {
    const now = toZonedNow('2026-02-17T12:00:00+08:00');
    const classifyCases = lines.filter((l) => l.op === 'classify').map((l) => ({ text: l.text, size: l.batchSize ?? 1 }));
    const parseTexts = lines.filter((l) => l.op === 'parse').map((l) => l.text);
    let c = 0;
    await ctx.measure(
      'nlp.classify',
      () => {
        const next = classifyCases[c++ % classifyCases.length]!;
        return classifyIntent(next.text, next.size);
      },
      { iterations: 20_000, warmup: 2_000, budget: { p99: 0.05 } },
    );
    let p = 0;
    await ctx.measure('nlp.parse', () => parseLocal(parseTexts[p++ % parseTexts.length]!, { now }), {
      iterations: 20_000,
      warmup: 2_000,
      budget: { p99: 0.2 },
    });
  },
};

export default suite;

// Local NLP latency over the golden sentences: Layer-1 classify (spec: < 1 ms worst case; our
// budget p99 ≤ 50 µs), offline parse (p99 ≤ 100 µs) and offline parse of an utterance of ten
// items (p99 ≤ 250 µs, issue 43's goal). Each sample is one call on the next sentence, so the percentiles span the
// whole set.
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

// Ten items each, in the ways they are said: punctuated, ASR without punctuation, connectives,
// numbered, with days, incomes and a total.
const tenItems = [
  '早饭8块、午饭25、晚饭38、夜宵22、奶茶16、咖啡28、零食12、水果20、打车30、地铁4',
  '早饭十块午饭二十晚饭三十夜宵四十奶茶十五咖啡二十五零食十二水果十八打车三十地铁四块',
  '昨天打车三十还有奶茶十五，今天午饭二十，然后咖啡二十八，另外停车十块，加油三百，洗车四十，过路费二十五，晚饭也是二十，电影票七十',
  '1.房租3000 2.水电200 3.网费100 4.话费50 5.物业费300 6.燃气80 7.停车费150 8.保险500 9.会员费30 10.快递12',
  '工资到账八千，奖金两千，收到红包两百，发了个红包五十，理财收益一百二十三块四，手续费两块，还信用卡三千，转给小王五百，买菜六十八，打车二十八块五',
  '周一打车25，周二打车31，周三午饭30，周四午饭也是30，周五聚餐两百，周六看电影八十，周日买菜五十，上周五加油三百，前天洗车四十，昨天停车十块',
];

const suite: Suite = {
  name: 'nlp',
  description: 'Local NLP latency over the golden sentences: classify, parse, and a ten-item parse',
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
      budget: { p99: 0.1 },
    });
    let m = 0;
    await ctx.measure('nlp.parseMulti10', () => parseLocal(tenItems[m++ % tenItems.length]!, { now }), {
      iterations: 20_000,
      warmup: 2_000,
      budget: { p99: 0.25 },
    });
  },
};

export default suite;

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judge, type GoldenCase } from './golden-judge';
import { answerRequest } from './protocol';

// Relative amount corrections (加10块, 多算了3块, 便宜了5块) in the golden format of
// ../shared/golden/README.md, graded exactly as golden.test.ts grades its files.
function load(name: string): GoldenCase[] {
  const text = readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as GoldenCase);
}

for (const file of ['corpus-correct-relative.jsonl']) {
  describe(`NLP cases from ${file}`, () => {
    const cases = load(file);
    it('has cases', () => expect(cases.length).toBeGreaterThan(20));
    it.each(cases.map((c) => [`${c.id} ${c.op} ${c.text}`, c] as const))('%s', (_name, c) => {
      expect(judge(c, answerRequest(c))).toBeNull();
    });
  });
}

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerLine, answerRequest } from './protocol';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

const GOOD = '{"op":"parse","text":"午饭35","now":"2026-02-17T12:00:00+08:00"}';

/** Each line, and whether its answer is an error. */
const STREAM: [string, 'ok' | 'error'][] = [
  [GOOD, 'ok'],
  ['this is not json', 'error'],
  ['{"op":"parse","text":"午饭35","now":"0001-02-17T12:00:00+08:00"}', 'ok'],
  ['{"op":"parse","text":"昨天午饭35","now":"0001-01-01T01:00:00+08:00"}', 'error'],
  ['{"op":"parse","text":"明天午饭35","now":"9999-12-31T23:00:00+08:00"}', 'error'],
  ['{"op":"query","text":"上个月花了多少","now":"0001-01-17T12:00:00+08:00"}', 'error'],
  ['{"op":"correct","text":"改成明天","batch":[{"index":0,"amount":5}],"now":"9999-12-31T23:00:00+08:00"}', 'error'],
  ['{"op":"parse","text":"午饭35","now":"0000-06-01T12:00:00+08:00"}', 'error'],
  ['{"op":"parse","text":"午饭35","now":"+010000-01-01T00:00:00+08:00"}', 'error'],
  ['{"op":"parse","text":"午饭35","now":"2026-02-30T12:00:00+08:00"}', 'error'],
  ['{"op":"classify","text":"确认","batchSize":1e309}', 'error'],
  ['null', 'error'],
  ['[]', 'error'],
  ['"parse"', 'error'],
  ['{"op":"parse","text":123}', 'error'],
  ['{"op":"parse","text":"x","__proto__":{"now":"bad"}}', 'ok'],
  ['\u0000\uFFFD{"op":', 'error'],
  ['{"op":"correct","text":"第一笔改成50","batch":[{"index":1000000000000,"amount":5}]}', 'error'],
  ['{"op":"correct","text":"都加10块","batch":[{"index":0,"amount":1e308}]}', 'error'],
  ['{"op":"correct","text":"改成昨天","batch":[{"index":0,"amount":5,"date":"2026-02-30"}]}', 'error'],
  ['{"op":"correct","text":"第一笔改成50","batch":[{"index":0,"amount":60,"date":"2026-02-01"}]}', 'ok'],
  [GOOD, 'ok'],
];

function expectAnswers(answers: unknown[]): void {
  expect(answers).toHaveLength(STREAM.length);
  STREAM.forEach(([line, expected], i) => {
    const answer = answers[i] as Record<string, unknown>;
    if (expected === 'error') expect(answer, line).toEqual({ error: expect.any(String) });
    else expect(answer, line).not.toHaveProperty('error');
  });
  expect(answers.at(-1)).toEqual(answers[0]);
}

describe('the JSON-lines protocol never gives up on a stream', () => {
  it('answers every line in-process, an {error} for each it cannot process', () => {
    expectAnswers(STREAM.map(([line]) => answerLine(line)));
  });

  it('turns a parser that throws into that line’s {error}', () => {
    const broken = () => ({ epochMs: Number.NaN, offsetMinutes: 0 });
    const requests = [
      { op: 'parse', text: '昨天午饭35' },
      { op: 'query', text: '这个月花了多少' },
      { op: 'correct', text: '改成昨天', batch: [{ index: 0, amount: 5 }] },
    ];
    for (const request of requests) {
      const answer = answerRequest(request, broken);
      expect(answer, request.op).toEqual({ error: expect.stringMatching(/^cannot process the request: /) });
    }
  });

  it('names the years a `now` may have', () => {
    expect(answerLine('{"op":"parse","text":"午饭35","now":"0000-06-01T12:00:00+08:00"}')).toEqual({
      error: expect.stringContaining('0001–9999'),
    });
    expect(answerLine('{"op":"parse","text":"明天午饭35","now":"9999-12-31T23:00:00+08:00"}')).toEqual({
      error: expect.stringContaining('+010000-01-01 is outside the years 0001–9999'),
    });
  });

  it('keeps the real tool running to the end of a stream with bad lines between good ones', () => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'tools/nlp.ts', '--jsonl'], {
      cwd: root,
      input: STREAM.map(([line]) => line).join('\n') + '\n',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const answers = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expectAnswers(answers);
    expect(answers).toEqual(STREAM.map(([line]) => answerLine(line)));
  });
});

describe('money flows in the parse answer', () => {
  const parse = (text: string) => answerRequest({ op: 'parse', text, now: '2026-11-24T20:00:00+08:00' });

  it('names the flow and the person only when the sentence says so', () => {
    expect(parse('借给小李一千')).toMatchObject({ transactions: [{ amount: 1000, type: 'TRANSFER', flow: 'lend', counterparty: '小李' }] });
    expect(parse('打车八十可以报销')).toMatchObject({ transactions: [{ amount: 80, type: 'EXPENSE', category: '交通', reimbursable: true }] });
    const plain = (parse('午饭35') as { transactions: Record<string, unknown>[] }).transactions[0]!;
    expect(Object.keys(plain)).not.toContain('flow');
    expect(Object.keys(plain)).not.toContain('counterparty');
    expect(Object.keys(plain)).not.toContain('reimbursable');
  });
});

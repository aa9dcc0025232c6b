import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judge, type GoldenCase } from '@core/nlp/golden-judge';
import { answerLine } from '@core/nlp/protocol';

const root = fileURLToPath(new URL('..', import.meta.url));
const golden = readFileSync(new URL('../src/main/core/nlp/testdata/golden-nlp.jsonl', import.meta.url), 'utf8');

function runTool(args: string[], input = '') {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'tools/nlp.ts', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('npm run nlp -- --jsonl', () => {
  it('answers every golden request on its own line, passing the judge', () => {
    const { code, stdout } = runTool(['--jsonl'], golden);
    expect(code).toBe(0);
    const requests = golden.split('\n').filter((l) => l.trim() !== '');
    const answers = stdout.trim().split('\n');
    expect(answers).toHaveLength(requests.length);
    const failures = requests
      .map((line, i) => ({ c: JSON.parse(line) as GoldenCase, answer: JSON.parse(answers[i]!) }))
      .map(({ c, answer }) => judge(c, answer) && `${c.id}: ${judge(c, answer)}`)
      .filter(Boolean);
    expect(failures).toEqual([]);
  });

  it('answers an unreadable request with {error} on its line and keeps going', () => {
    const lines = [
      '{"op":"classify","text":"确认第二笔","batchSize":3}',
      'this is not json',
      '{"op":"parse"}',
      '{"op":"teleport","text":"x"}',
      '{"op":"parse","text":"午饭35","now":"2026-02-17T12:00:00"}',
      '',
      '{"op":"parse","text":"午饭35","now":"2026-02-17T12:00:00+08:00"}',
    ];
    const { code, stdout } = runTool(['--jsonl'], lines.join('\n') + '\n');
    expect(code).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers).toHaveLength(6);
    expect(answers[0]).toEqual({ intent: 'confirmItem', index: 1 });
    for (const bad of answers.slice(1, 5)) expect(bad.error).toEqual(expect.any(String));
    expect(answers[4].error).toContain('offset');
    expect(answers[5].transactions[0]).toMatchObject({ amount: 35, category: '餐饮', type: 'EXPENSE' });
  });

  it('gives the same answers as the app code in-process', () => {
    const lines = golden
      .split('\n')
      .filter((l) => l.includes('"correct"') || l.includes('"parse"'))
      .slice(0, 30);
    const { stdout } = runTool(['--jsonl'], lines.join('\n'));
    expect(
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(lines.map((l) => answerLine(l)));
  });
});

describe('npm run nlp -- <op> TEXT', () => {
  it('prints a readable parse', () => {
    const { code, stdout } = runTool(['parse', '昨天打车花了28块5', '--now', '2026-02-17T12:00:00+08:00']);
    expect(code).toBe(0);
    expect(stdout).toContain('金额 28.5');
    expect(stdout).toContain('交通');
    expect(stdout).toContain('2026-02-16');
    expect(stdout).toContain('「打车」');
  });

  it('shows a day that does not exist as no date, not as today', () => {
    const { stdout } = runTool(['parse', '2月30号吃饭30', '--now', '2026-03-17T12:00:00+08:00']);
    expect(stdout).toContain('金额 30');
    expect(stdout).toContain('日期 —');
    expect(stdout).not.toContain('今天');
  });

  it('prints a readable classification and correction', () => {
    expect(runTool(['classify', '删掉第三笔', '--batch-size', '3']).stdout).toContain('cancelItem 第3笔');
    const batch = JSON.stringify([{ index: 0, amount: 60, type: 'EXPENSE', category: '餐饮', description: '吃饭' }]);
    expect(runTool(['correct', '改成50', '--batch', batch]).stdout).toContain('第1笔: {"amount":50}');
  });

  it('tells a budget question from a spending question', () => {
    const now = ['--now', '2026-11-23T10:00:00+08:00'];
    expect(runTool(['query', '这个月餐饮预算还剩多少', ...now]).stdout).toContain('预算查询 本月（2026-11）· 分类 餐饮');
    expect(runTool(['query', '这个月花了多少', ...now]).stdout).toContain('查询 这个月（2026-11-01 ~ 2026-11-23）· EXPENSE');
  });

  it('explains its usage and fails on an unknown op', () => {
    const { code, stderr } = runTool(['frobnicate', 'x']);
    expect(code).toBe(2);
    expect(stderr).toContain('usage');
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judge, type GoldenCase } from '@core/nlp/golden-judge';
import { answerLine, answerRequest, type ParseAnswer } from '@core/nlp/protocol';
import { checkGolden, fieldText, show } from './nlp';

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
    expect(stderr).toContain('Usage: npm run nlp');
  });
});

describe('the readable parse shows every field the parse answers', () => {
  const now = '2026-02-17T12:00:00+08:00';
  const parse = (text: string) => show(answerRequest({ op: 'parse', text, now }));

  it('prints each key of an item with every field set, in the answer order', () => {
    // Required<>: a field added to the answer must be added here, and is then checked below.
    const item: Required<ParseAnswer['transactions'][number]> = {
      amount: 3000,
      type: 'TRANSFER',
      category: '借贷',
      date: '2026-02-05',
      description: '房租',
      account: '微信',
      flow: 'lend',
      counterparty: '小李',
      reimbursable: true,
      recurrence: { every: 'month', day: 5 },
      tags: ['出差', '团建'],
    };
    const text = show({ transactions: [item], truncated: false });
    for (const [key, value] of Object.entries(item)) {
      const piece = fieldText(key, value);
      expect(piece, key).toBeTruthy();
      expect(text, key).toContain(piece);
    }
    expect(text).toBe(
      '金额 3000 · 转账 · 分类 借贷 · 日期 2026-02-05 · 描述「房租」 · 账户 微信 · 往来 借出 · 对方 小李 · 待报销 · 周期 每月5日 · 标签 出差、团建',
    );
  });

  it('still shows a key it has no words for', () => {
    const item = { amount: 5, type: 'EXPENSE', category: null, date: null, description: '', account: null, mood: 'happy' };
    expect(show({ transactions: [item], truncated: false })).toBe('金额 5 · 支出 · 分类 — · 日期 —（未识别到日期） · mood "happy"');
  });

  it('shows the flows, counterparty, reimbursement, repeating rule and tags the app parses', () => {
    expect(parse('借给小李一千')).toContain('往来 借出 · 对方 小李');
    expect(parse('出差打车八十可以报销')).toContain('待报销');
    expect(parse('每个月五号交房租三千')).toContain('周期 每月5日');
    expect(parse('打车三十五标签出差')).toContain('标签 出差');
    expect(parse('午饭三十五用的微信')).toContain('账户 微信');
  });
});

describe('npm run nlp -- --check FILE...', () => {
  it('grades the golden sets kept in the repository and exits 0 when all pass', () => {
    const files = ['golden-nlp', 'golden-split'].map((name) => `src/main/core/nlp/testdata/${name}.jsonl`);
    const { code, stdout } = runTool(['--check', ...files]);
    expect(stdout).toMatch(/^golden-nlp\.jsonl: (\d+)\/\1$/m);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^(\d+)\/\1 passed$/);
    expect(code).toBe(0);
  });

  it('prints each failing case and the count, and says so by its exit code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skj-nlp-check-'));
    try {
      const file = join(dir, 'cases.jsonl');
      const line = (id: string, amount: number) =>
        JSON.stringify({ op: 'parse', text: '午饭35', now: '2026-02-17T12:00:00+08:00', expect: { amount }, id });
      writeFileSync(file, [line('ok', 35), line('wrong', 36), 'not json', ''].join('\n'));
      const lines: string[] = [];
      expect(checkGolden([file], (l) => lines.push(l))).toEqual({ passed: 1, total: 3 });
      expect(lines).toEqual(['✗ wrong parse 「午饭35」: amount: got 35, expected 36', '✗ line 3: not JSON', '1/3 passed']);
      const { code, stdout } = runTool(['--check', file]);
      expect(code).toBe(1);
      expect(stdout).toBe(lines.join('\n') + '\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses --check without a file', () => {
    const { code, stderr } = runTool(['--check']);
    expect(code).toBe(2);
    expect(stderr).toContain('--check needs');
  });
});

// `npm run eval:llm -- --help` for the options. Runs the seed's parse and correction examples, plus
// the golden parse/correct cases (by default every set the repository keeps in
// src/main/core/nlp/testdata: nlp, split, asr-style, money), through the gateway core against a
// real OpenAI-compatible endpoint and prints accuracy per case kind. Golden cases are judged by
// the rules the local NLP is judged by, so the two paths are held to the same fields.
// Not part of CI (no LLM is reachable there); see README.
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createChatProvider } from '../src/llm/chat-provider';
import { createTransactionLlm, type TransactionLlm } from '../src/llm/transaction-llm';
import { wireTags, type CorrectTransactionResponse, type ParsedTransaction, type WireBatchItem } from '@shared/gateway';
import { toZonedNow } from '@shared/time';
import { judge, type GoldenCase } from '../src/main/core/nlp/golden-judge';
import type { ParseAnswer } from '../src/main/core/nlp/protocol';

type Expected = Record<string, unknown>;

export interface ParseCase {
  op: 'parse';
  id: string;
  kind: string;
  text: string;
  now: string;
  /** Either fields of the first transaction (golden style) or the whole list in order. */
  expect: Expected | Expected[];
  /** A golden line, judged by the golden rules (items, count, tags as a set, null = left out). */
  golden?: GoldenCase;
}

export interface CorrectCase {
  op: 'correct';
  id: string;
  kind: string;
  text: string;
  now: string;
  batch: WireBatchItem[];
  expect: { intent: string; corrections?: { index: number; updatedFields: Expected }[] };
  golden?: GoldenCase;
}

export type EvalCase = ParseCase | CorrectCase;

const SEED_NOW = '2026-02-17T12:00:00+08:00';
const MEAL_TAXI: WireBatchItem[] = [
  { index: 0, amount: 60, type: 'EXPENSE', category: '餐饮', description: '吃饭' },
  { index: 1, amount: 30, type: 'EXPENSE', category: '交通', description: '打车' },
];
const RED_PACKET: WireBatchItem[] = [
  { index: 0, amount: 60, type: 'EXPENSE', category: '餐饮', description: '吃饭' },
  { index: 1, amount: 30, type: 'EXPENSE', category: '红包', description: '红包' },
];

/** The examples of the design doc and the correction-dialogue spec. */
export const SEED_CASES: EvalCase[] = [
  {
    op: 'parse',
    id: 's-parse-1',
    kind: 'parse: multi-item',
    text: '吃饭花了60，洗脚花了60，抢红包抢了30，工资收到90',
    now: SEED_NOW,
    expect: [
      { amount: 60, type: 'EXPENSE', category: '餐饮' },
      { amount: 60, type: 'EXPENSE' },
      { amount: 30, type: 'INCOME', category: '红包' },
      { amount: 90, type: 'INCOME', category: '工资' },
    ],
  },
  {
    op: 'parse',
    id: 's-parse-2',
    kind: 'parse: multi-item',
    text: '吃饭花了60，打车30',
    now: SEED_NOW,
    expect: [
      { amount: 60, category: '餐饮' },
      { amount: 30, category: '交通' },
    ],
  },
  {
    op: 'parse',
    id: 's-parse-3',
    kind: 'parse: multi-item',
    text: '吃饭60、打车30，然后工资收到9000',
    now: SEED_NOW,
    expect: [
      { amount: 60, type: 'EXPENSE' },
      { amount: 30, type: 'EXPENSE' },
      { amount: 9000, type: 'INCOME' },
    ],
  },
  {
    op: 'parse',
    id: 's-parse-4',
    kind: 'parse: shared date context',
    text: '昨天早饭10块午饭25',
    now: SEED_NOW,
    expect: [
      { amount: 10, date: '2026-02-16' },
      { amount: 25, date: '2026-02-16' },
    ],
  },
  {
    op: 'parse',
    id: 's-parse-5',
    kind: 'parse: relative date',
    text: '上周三买书一百二十元',
    now: SEED_NOW,
    expect: [{ amount: 120, date: '2026-02-11', category: '教育' }],
  },
  { op: 'parse', id: 's-parse-6', kind: 'parse: type', text: '红包收了60', now: SEED_NOW, expect: [{ amount: 60, type: 'INCOME' }] },
  { op: 'parse', id: 's-parse-7', kind: 'parse: type', text: '给妈妈转账500', now: SEED_NOW, expect: [{ amount: 500, type: 'TRANSFER' }] },
  {
    op: 'correct',
    id: 's-corr-1',
    kind: 'correct: ordinal',
    text: '第一笔改成50',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 50 } }] },
  },
  {
    op: 'correct',
    id: 's-corr-2',
    kind: 'correct: descriptor',
    text: '红包那笔改为收入',
    now: SEED_NOW,
    batch: RED_PACKET,
    expect: { intent: 'correction', corrections: [{ index: 1, updatedFields: { type: 'INCOME' } }] },
  },
  {
    op: 'correct',
    id: 's-corr-3',
    kind: 'correct: descriptor',
    text: '打车那个其实是35',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'correction', corrections: [{ index: 1, updatedFields: { amount: 35 } }] },
  },
  {
    op: 'correct',
    id: 's-corr-4',
    kind: 'correct: multi-field',
    text: '改为收入100块',
    now: SEED_NOW,
    batch: MEAL_TAXI.slice(0, 1),
    expect: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'INCOME', amount: 100 } }] },
  },
  {
    op: 'correct',
    id: 's-corr-5',
    kind: 'correct: single item',
    text: '应该是支出不是收入',
    now: SEED_NOW,
    batch: [{ index: 0, amount: 60, type: 'INCOME', category: '红包', description: '红包' }],
    expect: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'EXPENSE' } }] },
  },
  {
    op: 'correct',
    id: 's-corr-6',
    kind: 'correct: single item',
    text: '那个应该是收入不是支出啊',
    now: SEED_NOW,
    batch: [{ index: 0, amount: 60, type: 'EXPENSE', category: '红包', description: '红包' }],
    expect: { intent: 'correction', corrections: [{ index: 0, updatedFields: { type: 'INCOME' } }] },
  },
  {
    op: 'correct',
    id: 's-corr-7',
    kind: 'correct: confirm/cancel',
    text: '嗯对就这样',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'confirm', corrections: [] },
  },
  {
    op: 'correct',
    id: 's-corr-8',
    kind: 'correct: confirm/cancel',
    text: '算了都不要了',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'cancel', corrections: [] },
  },
  {
    op: 'correct',
    id: 's-corr-8b',
    kind: 'correct: confirm/cancel',
    text: '打车那笔不要了',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'unclear', corrections: [] },
  },
  {
    op: 'correct',
    id: 's-corr-9',
    kind: 'correct: append',
    text: '还有一笔奶茶15',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'append', corrections: [{ index: -1, updatedFields: { amount: 15, type: 'EXPENSE' } }] },
  },
  {
    op: 'correct',
    id: 's-corr-10',
    kind: 'correct: unclear',
    text: '嗯嗯嗯',
    now: SEED_NOW,
    batch: MEAL_TAXI,
    expect: { intent: 'unclear', corrections: [] },
  },
];

/**
 * Golden parse/correct cases (the offline behaviours are a floor for the LLM too), one kind per
 * set (「golden money: parse」); classify cases are the local first layer's, not the LLM's.
 */
export function loadGoldenCases(path: string): EvalCase[] {
  const set = basename(path, '.jsonl').replace(/^golden-/, '');
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as GoldenCase & { now?: string; batch?: WireBatchItem[]; expect: never })
    .flatMap((c): EvalCase[] => {
      const common = { id: c.id, text: c.text, now: c.now ?? SEED_NOW, expect: c.expect, golden: c };
      if (c.op === 'parse') return [{ ...common, op: 'parse', kind: `golden ${set}: parse` }];
      if (c.op === 'correct') return [{ ...common, op: 'correct', kind: `golden ${set}: correct`, batch: c.batch ?? [] }];
      return [];
    });
}

/** The golden sets run by default: every one the local NLP is judged on (the repository's copies). */
export const GOLDEN_SETS = ['nlp', 'split', 'asr-style', 'money'].map((name) =>
  fileURLToPath(new URL(`../src/main/core/nlp/testdata/golden-${name}.jsonl`, import.meta.url)),
);

export const USAGE = `Usage: npm run eval:llm -- --base-url URL --model NAME [options]

Runs ${SEED_CASES.length} spec examples and the golden parse/correct cases against a real
OpenAI-compatible chat endpoint and prints accuracy per kind of case. Not part of CI.

Options:
  --base-url URL           the endpoint's base, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1
  --model NAME             the model to ask
  --fallback-model NAME    asked when the first model fails, as the gateway does (default: none)
  --key-env VAR            the environment variable holding the API key
                           (default: LLM_API_KEY when set, else DASHSCOPE_API_KEY)
  --golden PATH[,PATH...]  golden files to run (default: every set in src/main/core/nlp/testdata:
                           golden-nlp, golden-split, golden-asr-style, golden-money)
  --verbose                also list each failing case with the model's answer
  --help                   this text

Example:
  DASHSCOPE_API_KEY=sk-… npm run eval:llm -- --base-url https://dashscope.aliyuncs.com/compatible-mode/v1 --model qwen-turbo

Exit: 0 done (whatever the accuracy), 1 the run failed, 2 usage or no API key.`;

/** An LLM parse as the golden judge reads a local one: the same fields, tags as a row keeps them. */
function parseAnswer(transactions: readonly ParsedTransaction[]): ParseAnswer {
  return {
    transactions: transactions.map(({ tags, ...tx }) => {
      const kept = wireTags(tags);
      return kept ? { ...tx, tags: kept } : tx;
    }),
    truncated: false,
  };
}

function sameValue(got: unknown, want: unknown): boolean {
  if (Array.isArray(want)) return want.some((w) => sameValue(got, w));
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(got - want) < 1e-9;
  return got === want;
}

function matchesFields(got: Record<string, unknown> | undefined, want: Expected): boolean {
  return Object.entries(want).every(([key, value]) => {
    if (key === 'amount' && value === null) return got === undefined || got.amount === null;
    return got !== undefined && sameValue(got[key], value);
  });
}

/** Golden rules: a single expectation judges the first transaction; a list judges all, in order. */
export function judgeParse(expected: ParseCase['expect'], got: ParsedTransaction[]): boolean {
  if (!Array.isArray(expected)) return matchesFields(got[0] as Record<string, unknown> | undefined, expected);
  return got.length === expected.length && expected.every((want, i) => matchesFields(got[i] as Record<string, unknown>, want));
}

/** Intent must match; every expected correction present; no correction on an unexpected index. */
export function judgeCorrect(expected: CorrectCase['expect'], got: CorrectTransactionResponse): boolean {
  if (got.intent !== expected.intent) return false;
  const want = expected.corrections ?? [];
  const allowed = new Set(want.map((c) => c.index));
  if (got.corrections.some((c) => !allowed.has(c.index))) return false;
  return want.every((w) =>
    got.corrections.some((c) => c.index === w.index && matchesFields(c.updatedFields as Record<string, unknown>, w.updatedFields)),
  );
}

export interface KindScore {
  kind: string;
  passed: number;
  total: number;
  failures: { id: string; text: string; got: unknown }[];
}

export async function runEval(llm: TransactionLlm, cases: EvalCase[], onCase?: (c: EvalCase, ok: boolean) => void): Promise<KindScore[]> {
  const scores = new Map<string, KindScore>();
  for (const c of cases) {
    const score = scores.get(c.kind) ?? { kind: c.kind, passed: 0, total: 0, failures: [] };
    scores.set(c.kind, score);
    score.total += 1;
    const now = toZonedNow(c.now);
    let ok = false;
    let got: unknown;
    try {
      if (c.op === 'parse') {
        const answer = await llm.parse({ text: c.text, context: { now: c.now } }, { now });
        got = answer.transactions;
        ok = c.golden ? judge(c.golden, parseAnswer(answer.transactions)) === null : judgeParse(c.expect, answer.transactions);
      } else {
        const answer = await llm.correct({ currentBatch: c.batch, correctionText: c.text, context: { now: c.now } }, { now });
        got = answer;
        ok = c.golden ? judge(c.golden, answer) === null : judgeCorrect(c.expect, answer);
      }
    } catch (err) {
      got = `error: ${(err as Error).message}`;
    }
    if (ok) score.passed += 1;
    else score.failures.push({ id: c.id, text: c.text, got });
    onCase?.(c, ok);
  }
  return [...scores.values()];
}

export function formatScores(scores: KindScore[]): string {
  const rows = scores.map((s) => [s.kind, `${s.passed}/${s.total}`, `${((100 * s.passed) / Math.max(1, s.total)).toFixed(0)}%`]);
  const passed = scores.reduce((n, s) => n + s.passed, 0);
  const total = scores.reduce((n, s) => n + s.total, 0);
  rows.push(['all', `${passed}/${total}`, `${((100 * passed) / Math.max(1, total)).toFixed(0)}%`]);
  const header = ['kind', 'passed', 'accuracy'];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => [...r[i]!].length)));
  const line = (r: string[]) => `| ${r.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function parseArgs(argv: string[]): Record<string, string | true> {
  const args: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args[a.slice(2)] = next;
      i++;
    } else args[a.slice(2)] = true;
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const baseUrl = args['base-url'];
  const model = args.model;
  if (typeof baseUrl !== 'string' || typeof model !== 'string') {
    console.error(`--base-url and --model are required\n\n${USAGE}`);
    process.exit(2);
  }
  const keyEnv = typeof args['key-env'] === 'string' ? args['key-env'] : process.env.LLM_API_KEY ? 'LLM_API_KEY' : 'DASHSCOPE_API_KEY';
  const apiKey = process.env[keyEnv];
  if (!apiKey) {
    console.error(`no API key: set ${keyEnv} (or pass --key-env VAR)`);
    process.exit(2);
  }
  const goldenPaths = (typeof args.golden === 'string' ? args.golden.split(',') : GOLDEN_SETS).map((p) => resolve(p));
  const cases = [...SEED_CASES];
  for (const path of goldenPaths) {
    if (existsSync(path)) cases.push(...loadGoldenCases(path));
    else console.error(`golden file not found at ${path}; left out`);
  }

  const llm = createTransactionLlm({
    provider: createChatProvider({ baseUrl, apiKey, timeoutMs: 30_000 }),
    model,
    fallbackModel: typeof args['fallback-model'] === 'string' ? args['fallback-model'] : null,
  });
  console.error(`evaluating ${cases.length} cases against ${model} at ${baseUrl}`);
  const scores = await runEval(llm, cases, (c, ok) => process.stderr.write(ok ? '.' : 'x'));
  process.stderr.write('\n');
  console.log(formatScores(scores));
  if (args.verbose) {
    for (const s of scores) for (const f of s.failures) console.log(`${f.id} ${f.text} → ${JSON.stringify(f.got)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  void main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

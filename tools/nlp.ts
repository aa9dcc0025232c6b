// `npm run nlp -- --help` lists the commands. Runs exactly the app's local NLP (src/main/core/nlp):
// one sentence readably, JSON lines in the golden sets' protocol, or a whole golden file graded
// by the judge the tests use (golden-judge.ts), so a change can be checked from the shell.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { FLOW_LABELS } from '@shared/flow-text';
import { recurrenceLabel } from '@shared/recurrence';
import { judge, type GoldenCase } from '@core/nlp/golden-judge';
import { answerLine, answerRequest, type NlpAnswer, type ParseAnswer } from '@core/nlp/protocol';

const GOLDEN = 'src/main/core/nlp/testdata';

export const USAGE = `Usage: npm run nlp -- COMMAND

Commands:
  parse TEXT [--now ISO]                 the items a sentence says, every field the parse answers
  classify TEXT [--batch-size N]         what a sentence does to a card of N items (default 1)
  correct TEXT --batch JSON [--now ISO]  the changes a sentence makes to the card's items
  query TEXT [--now ISO]                 the spending or budget question a sentence asks
  --jsonl                                JSON requests on stdin, one a line; one JSON answer a line
  --check FILE...                        grade golden files (JSON lines with "expect"): prints each
                                         failing case and N/M passed; exits 1 when one fails
  --help                                 this text

Options:
  --now ISO         the moment the sentence is said, with its UTC offset (default: now)
  --batch-size N    items on the card (classify)
  --batch JSON      the card's items: [{"index":0,"amount":60,"type":"EXPENSE","category":"餐饮","description":"吃饭"}]

Examples:
  npm run nlp -- parse "昨天打车花了28块5" --now 2026-02-17T12:00:00+08:00
  npm run nlp -- classify "删掉第三笔" --batch-size 3
  npm run nlp -- correct "第一笔改成50" --batch '[{"index":0,"amount":60,"type":"EXPENSE","category":"餐饮","description":"吃饭"}]'
  npm run nlp -- query "这个月餐饮花了多少"
  npm run -s nlp -- --jsonl < ${GOLDEN}/golden-nlp.jsonl
  npm run nlp -- --check ${GOLDEN}/golden-*.jsonl

Exit: 0 done, 1 an {error} answer or a failing golden case, 2 usage.`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function runJsonl(): Promise<void> {
  // A reader that goes away (`| head`) ends the stream; it is not an error of ours.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    process.stdout.write(safeAnswer(line) + '\n');
  }
}

/** One line's answer as JSON; whatever goes wrong is that line's `{error}`, never the tool's exit. */
function safeAnswer(line: string): string {
  try {
    return JSON.stringify(answerLine(line));
  } catch (e) {
    return JSON.stringify({ error: `cannot process the request: ${e instanceof Error ? e.message : String(e)}` });
  }
}

/**
 * Grades golden files as golden.test.ts does (the same judge): one line per failing case, a
 * count per file when there are several, then `N/M passed`. A line that is no case fails too.
 */
export function checkGolden(files: string[], out: (line: string) => void): { passed: number; total: number } {
  let passed = 0;
  let total = 0;
  for (const file of files) {
    const where = files.length > 1 ? `${basename(file)} ` : '';
    let filePassed = 0;
    let fileTotal = 0;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '') return;
        fileTotal += 1;
        let c: GoldenCase;
        try {
          c = JSON.parse(line) as GoldenCase;
        } catch {
          out(`✗ ${where}line ${i + 1}: not JSON`);
          return;
        }
        const why = judge(c, answerRequest(c));
        if (why === null) filePassed += 1;
        else out(`✗ ${where}${c.id ?? `line ${i + 1}`} ${c.op} 「${c.text}」: ${why}`);
      });
    if (files.length > 1) out(`${basename(file)}: ${filePassed}/${fileTotal}`);
    passed += filePassed;
    total += fileTotal;
  }
  out(`${passed}/${total} passed`);
  return { passed, total };
}

type Item = ParseAnswer['transactions'][number];

const TYPE_WORDS: Partial<Record<string, string>> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

/**
 * How each field of a parsed item reads. Typed over every key of the answer's item, so a field
 * added to the parse answer does not compile until it has words here.
 */
const FIELD_WORDS: { [K in keyof Item]-?: (value: NonNullable<Item[K]>) => string } = {
  amount: (v) => `金额 ${v}`,
  type: (v) => TYPE_WORDS[v] ?? v,
  category: (v) => `分类 ${v}`,
  date: (v) => `日期 ${v}`,
  description: (v) => `描述「${v}」`,
  account: (v) => `账户 ${v}`,
  flow: (v) => `往来 ${FLOW_LABELS[v]}`,
  counterparty: (v) => `对方 ${v}`,
  reimbursable: () => '待报销',
  recurrence: (v) => `周期 ${recurrenceLabel(v)}`,
  tags: (v) => `标签 ${v.join('、')}`,
};

/** Unset fields that are still shown: the card asks the user for them. */
const UNSET_WORDS: Partial<Record<string, string>> = { amount: '金额 —', category: '分类 —', date: '日期 —（未识别到日期）' };

/** One field as the readable output shows it, or null when it is unset and not worth a word. */
export function fieldText(key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '' || value === false) return UNSET_WORDS[key] ?? null;
  const words = (FIELD_WORDS as Partial<Record<string, (v: unknown) => string>>)[key];
  // A key this table does not know (a new field reached the answer untyped) is still shown.
  return words ? words(value) : `${key} ${JSON.stringify(value)}`;
}

/** Every field the item carries, in the answer's own order. */
function itemText(item: Item): string {
  return Object.entries(item)
    .map(([key, value]) => fieldText(key, value))
    .filter((text) => text !== null)
    .join(' · ');
}

export function show(answer: NlpAnswer): string {
  if ('error' in answer) return `错误: ${answer.error}`;
  if ('transactions' in answer) {
    if (answer.transactions.length === 0) return '（没有识别到交易）';
    const numbered = answer.transactions.length > 1;
    const lines = answer.transactions.map((t, i) => (numbered ? `${i + 1}. ` : '') + itemText(t));
    if (answer.truncated) lines.push(`（超过${answer.transactions.length}笔：只取前${answer.transactions.length}笔）`);
    return lines.join('\n');
  }
  if ('query' in answer) {
    const { query: q, budget: b } = answer;
    if (b) return `预算查询 ${b.periodLabel}（${b.month}）· 分类 ${b.category ?? '全部'}`;
    return q ? `查询 ${q.periodLabel}（${q.from} ~ ${q.to}）· ${q.type} · 分类 ${q.category ?? '全部'}` : '（不是查询）';
  }
  if ('corrections' in answer) {
    const lines = [`意图 ${answer.intent}`];
    for (const c of answer.corrections) lines.push(`  ${c.index === -1 ? '追加' : `第${c.index + 1}笔`}: ${JSON.stringify(c.updatedFields)}`);
    return lines.join('\n');
  }
  const where = answer.index !== null ? ` 第${answer.index + 1}笔` : '';
  return `意图 ${answer.intent}${where}${answer.outOfRange ? '（超出范围）' : ''}`;
}

function usageError(message: string): number {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (argv.includes('--jsonl')) {
    await runJsonl();
    return 0;
  }
  if (argv[0] === '--check') {
    const files = argv.slice(1);
    if (files.length === 0) return usageError('--check needs one or more golden files');
    try {
      const { passed, total } = checkGolden(files, (line) => process.stdout.write(line + '\n'));
      return passed === total ? 0 : 1;
    } catch (e) {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  const [op, text] = argv;
  if (!op || text === undefined || !['parse', 'classify', 'correct', 'query'].includes(op)) {
    return usageError(op ? `unknown command or missing TEXT: ${argv.join(' ')}` : 'missing command');
  }
  const request: Record<string, unknown> = { op, text };
  const now = option(argv, '--now');
  if (now) request.now = now;
  if (op === 'classify') request.batchSize = Number(option(argv, '--batch-size') ?? 1);
  if (op === 'correct') {
    try {
      request.batch = JSON.parse(option(argv, '--batch') ?? '[]');
    } catch {
      return usageError('--batch must be a JSON array of items');
    }
  }
  const answer = answerRequest(request);
  process.stdout.write(show(answer) + '\n');
  return 'error' in answer ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}

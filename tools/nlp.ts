// `npm run nlp -- --jsonl` < requests.jsonl   — one JSON answer a line (golden README format)
// `npm run nlp -- parse "午饭35" [--now ISO]`  — one-off, readable output
// `npm run nlp -- classify "确认第二笔" [--batch-size N]`
// `npm run nlp -- correct "第一笔改成50" --batch '[{"index":0,"amount":60,...}]' [--now ISO]`
// `npm run nlp -- query "这个月花了多少" [--now ISO]`
// Runs exactly the app's local NLP (src/main/core/nlp).
import { createInterface } from 'node:readline';
import type { Recurrence } from '@shared/domain';
import { answerLine, answerRequest, type NlpAnswer } from '@core/nlp/protocol';

const USAGE = `usage:
  nlp --jsonl                          JSON requests on stdin, one answer a line
  nlp parse TEXT [--now ISO]
  nlp classify TEXT [--batch-size N]
  nlp correct TEXT --batch JSON [--now ISO]
  nlp query TEXT [--now ISO]`;

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

const WEEKDAY_NAMES = ['一', '二', '三', '四', '五', '六', '日'];

/** 每天, 每周五, 每月5日, 每月月底, 每年3月5日. */
function ruleText(rule: Recurrence): string {
  const { every, day, month } = rule;
  if (every === 'day') return '每天';
  if (every === 'week') return day === undefined ? '每周' : `每周${WEEKDAY_NAMES[day - 1]}`;
  if (every === 'month') return day === undefined ? '每月' : day === -1 ? '每月月底' : `每月${day}日`;
  return `每年${month === undefined ? '' : `${month}月`}${day === undefined ? '' : `${day}日`}`;
}

function show(answer: NlpAnswer): string {
  if ('error' in answer) return `错误: ${answer.error}`;
  if ('transactions' in answer) {
    if (answer.transactions.length === 0) return '（没有识别到交易）';
    const numbered = answer.transactions.length > 1;
    const lines = answer.transactions.map(
      (t, i) =>
        (numbered ? `${i + 1}. ` : '') +
        `金额 ${t.amount ?? '—'} · ${t.type} · 分类 ${t.category ?? '—'} · 日期 ${t.date ?? '—（未识别到日期）'} · 描述「${t.description}」` +
        (t.account ? ` · 账户 ${t.account}` : '') +
        (t.recurrence ? ` · 周期 ${ruleText(t.recurrence)}` : '') +
        (t.tags ? ` · 标签 ${t.tags.join('、')}` : ''),
    );
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

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--jsonl')) {
    await runJsonl();
    return 0;
  }
  const [op, text] = argv;
  if (!op || text === undefined || !['parse', 'classify', 'correct', 'query'].includes(op)) {
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  const request: Record<string, unknown> = { op, text };
  const now = option(argv, '--now');
  if (now) request.now = now;
  if (op === 'classify') request.batchSize = Number(option(argv, '--batch-size') ?? 1);
  if (op === 'correct') {
    try {
      request.batch = JSON.parse(option(argv, '--batch') ?? '[]');
    } catch {
      process.stderr.write('--batch must be a JSON array of items\n');
      return 2;
    }
  }
  const answer = answerRequest(request);
  process.stdout.write(show(answer) + '\n');
  return 'error' in answer ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));

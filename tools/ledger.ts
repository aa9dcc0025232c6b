// `npm run ledger -- --db PATH COMMAND …` — the ledger for scripts, through the app's own Ledger.
//   list                                  one JSON object a line per row, newest first
//   add JSON                              adds one row, prints {"id": …}
//   edit ID JSON                          patches a row (any subset of the keys), prints the row
//   delete ID                             deletes a row
//   category-rename OLD NEW [--type T]    renames a category (the EXPENSE one unless --type)
//   import FILE                           imports a bill or export, all or nothing
//   summary [--from D --to D]             income and spending as 统计 counts them
//   digest                                {"rows": …, "digest": …}: a fingerprint of the synced books
// A row: {"id", "date": "YYYY-MM-DD", "time": "HH:MM:SS", "amount": 35.5 (yuan), "type",
// "category", "account", "description"} and, for a TRANSFER, "toAccount" or "counterparty".
// A missing --db file is created as a new ledger. Bad input: one line on stderr, exit 1, and
// the ledger is left as it was (a file this run created is removed again).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { TRANSACTION_TYPES, type TransactionRow, type TransactionType } from '@shared/domain';
import { errorMessage } from '@shared/errors';
import { fenToYuan, MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { isCalendarDate, localDate, systemNow, toZonedIso, type ZonedNow } from '@shared/time';
import { type Ledger, LedgerHistory, LedgerValidationError, type ManualEntry, openLedger, type TransactionPatch } from '@core/ledger/index';
import { booksDigest } from '@core/sync/digest';

export const USAGE = `Usage: npm run ledger -- --db PATH COMMAND

Commands:
  list                                  every row, one JSON object a line (newest first)
  add JSON                              add one row; prints {"id": …}
  edit ID JSON                          change some fields of a row; prints the row
  delete ID                             delete a row
  category-rename OLD NEW [--type TYPE] rename a category (the EXPENSE one unless --type)
  import FILE                           import an Alipay, WeChat Pay, JD or Meituan bill
                                        (CSV or .xlsx) or our own CSV/.xlsx, all or nothing;
                                        prints {"format","imported","skipped","duplicates","deleted"}:
                                        rows written; lines left out by reason (refunded in
                                        full, closed, 提现…); lines imported before (whatever
                                        was since changed on them); lines deleted since
  summary [--from DATE --to DATE]       {"incomeFen","expenseFen"} as 统计 counts them
                                        (transfers apart, spending net of refunds)
  digest                                {"rows","digest"}: the number of rows and a SHA-256 of
                                        the synced books (rows, categories, accounts, budgets,
                                        tags…): two computers print the same digest exactly
                                        when they hold the same books, whatever their local ids
Row keys: id, date (YYYY-MM-DD), time (HH:MM:SS, local), amount (yuan, e.g. 35.5),
  type (EXPENSE|INCOME|TRANSFER), category, account, description, and for a TRANSFER
  toAccount (one of your accounts) or counterparty (anyone else).
add: amount is required; type defaults to EXPENSE, date to today, time to now,
  category and account to the defaults. A missing --db file is created as a new ledger.
Bad input prints one line on stderr and exits 1; nothing is written.

Examples:
  npm run ledger -- --db books.db add '{"amount":35.5,"category":"餐饮","description":"午饭"}'
  npm run ledger -- --db books.db list
  npm run ledger -- --db books.db import 支付宝交易明细.csv
  npm run ledger -- --db books.db summary --from 2026-03-01 --to 2026-03-31`;

/** Where the tool writes; tests pass their own. */
export interface LedgerIo {
  out(line: string): void;
  err(line: string): void;
  /** The wall clock (the app's default: the system clock). */
  now?: () => ZonedNow;
  /** What a relative --db is relative to (default: the working directory). */
  cwd?: string;
}

/** Input the tool refuses before (or instead of) asking the ledger. */
class InputError extends Error {}

const TYPE_NAMES: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };
const HH_MM_SS = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;
const name = (what: string) =>
  z
    .string({ error: `${what}必须是文字` })
    .trim()
    .min(1, `${what}不能为空`);

const rowFields = {
  date: z.string({ error: 'date 必须是 YYYY-MM-DD 形式的文字' }).refine(isCalendarDate, 'date 必须是存在的日期（YYYY-MM-DD）'),
  time: z.string({ error: 'time 必须是 HH:MM:SS 形式的文字' }).regex(HH_MM_SS, 'time 必须是 HH:MM 或 HH:MM:SS（00:00–23:59）'),
  amount: z
    .number({ error: 'amount 必须是数字（元）' })
    .refine((yuan) => Number.isFinite(yuan) && yuan > 0, 'amount 必须大于0')
    .refine((yuan) => yuan <= MAX_AMOUNT_YUAN, 'amount 超过上限（1亿元）')
    // As yuanToFen scales: 19.99 is 1999 fen, 1.005 is not a whole number of fen.
    .refine((yuan) => Number.isInteger(Number((yuan * 100).toFixed(4))), 'amount 最多两位小数（精确到分）'),
  type: z.enum(TRANSACTION_TYPES, { error: 'type 必须是 EXPENSE、INCOME 或 TRANSFER' }),
  category: name('category '),
  account: name('account '),
  description: z.string({ error: 'description 必须是文字' }).max(200, 'description 最多200个字'),
  toAccount: name('toAccount '),
  counterparty: name('counterparty ').max(50, 'counterparty 最多50个字'),
};

/** What `edit` takes: any subset of the row's keys. */
export const editSchema = z.object(rowFields).partial().strict();
/** What `add` takes: the same keys, amount required. */
export const addSchema = editSchema.required({ amount: true });
export type AddInput = z.output<typeof addSchema>;
export type EditInput = z.output<typeof editSchema>;

const ROW_KEYS = Object.keys(rowFields).join(', ');

/** Parses a command's JSON argument with `schema`; the first problem as one line. */
function parseJson<T>(text: string | undefined, schema: z.ZodType<T>, what: string): T {
  if (text === undefined) throw new InputError(`${what} 需要一个 JSON 参数`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(`${what} 的参数不是有效的 JSON：${text}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InputError(`${what} 的参数必须是一个 JSON 对象`);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  // An unknown key (a typo of a known one) says more than the missing key it stands for.
  const issues = parsed.error.issues;
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  if (issue.code === 'unrecognized_keys') throw new InputError(`${what}：未知字段 ${issue.keys.join(', ')}（可用：${ROW_KEYS}）`);
  const key = issue.path.join('.');
  if (issue.code === 'invalid_type' && !(key in json)) throw new InputError(`${what}：缺少 ${key}`);
  throw new InputError(`${what}：${issue.message}`);
}

interface Args {
  db: string | undefined;
  type: TransactionType | undefined;
  from: string | undefined;
  to: string | undefined;
  help: boolean;
  positional: string[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { db: undefined, type: undefined, from: undefined, to: undefined, help: false, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      args.positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') {
      args.help = true;
      continue;
    }
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--db' || flag === '--type' || flag === '--from' || flag === '--to') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) throw new InputError(`${flag} 需要一个值`);
      if (flag === '--db') args.db = value;
      else if (flag === '--from' || flag === '--to') {
        if (!isCalendarDate(value)) throw new InputError(`${flag} 必须是存在的日期（YYYY-MM-DD，收到 ${value}）`);
        args[flag === '--from' ? 'from' : 'to'] = value;
      } else if ((TRANSACTION_TYPES as readonly string[]).includes(value)) args.type = value as TransactionType;
      else throw new InputError(`--type 必须是 EXPENSE、INCOME 或 TRANSFER（收到 ${value}）`);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) throw new InputError(`未知选项 ${arg}`);
    args.positional.push(arg);
  }
  return args;
}

/** A row as the tool prints it: amounts in yuan, the time of day in the row's own offset. */
export function rowJson(row: TransactionRow): Record<string, unknown> {
  return {
    id: row.id,
    date: row.date,
    time: row.occurredAt.slice(11, 19),
    amount: fenToYuan(row.amountFen),
    type: row.type,
    category: row.category,
    account: row.account,
    description: row.description,
    ...(row.type === 'TRANSFER' ? (row.toAccount ? { toAccount: row.toAccount } : { counterparty: row.counterparty ?? '' }) : {}),
  };
}

function needArgs(positional: string[], count: number, usage: string): void {
  if (positional.length < count + 1) throw new InputError(`参数不够，用法：${usage}`);
  if (positional.length > count + 1) throw new InputError(`参数太多（多了 ${positional.slice(count + 1).join(' ')}），用法：${usage}`);
}

/** A command checked against its arguments, ready to run on an open ledger. */
type Sink = Required<Omit<LedgerIo, 'cwd'>>;
type Command = (ledger: Ledger, io: Sink) => void | Promise<void>;

function prepareCommand(args: Args, cwd: string): Command {
  const [command, ...rest] = args.positional;
  if (args.type && command !== 'category-rename') throw new InputError('--type 只用于 category-rename');
  if ((args.from || args.to) && command !== 'summary') throw new InputError('--from 和 --to 只用于 summary');
  switch (command) {
    case 'list':
      needArgs(args.positional, 0, 'list');
      return listRows;
    case 'add': {
      needArgs(args.positional, 1, 'add JSON');
      const input = parseJson(rest[0], addSchema, 'add');
      return (ledger, io) => io.out(JSON.stringify({ id: addRow(ledger, input, io.now()).id }));
    }
    case 'edit': {
      needArgs(args.positional, 2, 'edit ID JSON');
      const input = parseJson(rest[1], editSchema, 'edit');
      if (Object.keys(input).length === 0) throw new InputError(`edit：没有要修改的字段（可用：${ROW_KEYS}）`);
      return (ledger, io) => io.out(JSON.stringify(rowJson(editRow(ledger, rest[0]!, input))));
    }
    case 'delete':
      needArgs(args.positional, 1, 'delete ID');
      return (ledger) => {
        existing(ledger, rest[0]!);
        ledger.deleteTransaction(rest[0]!);
      };
    case 'category-rename': {
      needArgs(args.positional, 2, 'category-rename OLD NEW [--type TYPE]');
      const [from, to] = rest as [string, string];
      return (ledger, io) => {
        const renamed = ledger.renameCategory(categoryNamed(ledger, from, args.type).id, to);
        io.out(JSON.stringify({ category: renamed.name, type: renamed.type }));
      };
    }
    case 'import': {
      needArgs(args.positional, 1, 'import FILE');
      const bytes = readBill(resolve(cwd, rest[0]!));
      return async (ledger, io) => {
        const outcome = await new LedgerHistory(ledger).importFile(bytes);
        const { format, imported, skipped, duplicates, deleted } = outcome;
        io.out(JSON.stringify({ format, imported, skipped, duplicates, deleted }));
      };
    }
    case 'summary': {
      needArgs(args.positional, 0, 'summary [--from YYYY-MM-DD --to YYYY-MM-DD]');
      const from = args.from ?? '0001-01-01';
      const to = args.to ?? '9999-12-31';
      if (from > to) throw new InputError(`--from（${from}）晚于 --to（${to}）`);
      return (ledger, io) => {
        const incomeFen = ledger.totals({ from, to, type: 'INCOME' }).totalFen;
        const expenseFen = ledger.totals({ from, to, type: 'EXPENSE' }).totalFen;
        io.out(JSON.stringify({ incomeFen, expenseFen }));
      };
    }
    case 'digest':
      needArgs(args.positional, 0, 'digest');
      return (ledger, io) => {
        const { rows, digest } = booksDigest(ledger.database);
        io.out(JSON.stringify({ rows, digest }));
      };
    case undefined:
      throw new InputError(`缺少命令（${COMMANDS}），见 --help`);
    default:
      throw new InputError(`未知命令 ${command}（可用：${COMMANDS}）`);
  }
}

const COMMANDS = 'list、add、edit、delete、category-rename、import、summary、digest';

/** A bill file's bytes; one a person would export is far below the cap. */
function readBill(path: string): Uint8Array {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `文件不存在：${path}` : code === 'EISDIR' ? `这是一个文件夹：${path}` : `无法读取文件：${path}`);
  }
  if (bytes.length > MAX_IMPORT_BYTES) throw new InputError(`文件太大（超过 ${MAX_IMPORT_BYTES / 1024 / 1024} MB）`);
  return bytes;
}

const MAX_IMPORT_BYTES = 40 * 1024 * 1024;
const PAGE = 500;

function listRows(ledger: Ledger, io: Sink): void {
  for (let page = ledger.list({ limit: PAGE }); ; page = ledger.list({ limit: PAGE, after: page.next })) {
    for (const row of page.rows) io.out(JSON.stringify(rowJson(row)));
    if (!page.next) return;
  }
}

function existing(ledger: Ledger, id: string): TransactionRow {
  const row = ledger.getTransaction(id);
  if (!row) throw new InputError(`没有 id 为 ${id} 的记录`);
  return row;
}

function addRow(ledger: Ledger, input: AddInput, now: ZonedNow): TransactionRow {
  const entry: ManualEntry = {
    amountFen: yuanToFen(input.amount),
    type: input.type ?? 'EXPENSE',
    date: input.date ?? localDate(now),
    time: input.time ?? toZonedIso(now).slice(11, 19),
    ...(input.category !== undefined ? { category: input.category } : {}),
    ...(input.account !== undefined ? { account: input.account } : {}),
    ...(input.description !== undefined ? { note: input.description } : {}),
    ...(input.toAccount !== undefined ? { toAccount: input.toAccount } : {}),
    ...(input.counterparty !== undefined ? { counterparty: input.counterparty } : {}),
  };
  return ledger.addTransaction(entry);
}

/**
 * The ledger's edit takes a category by loose match and keeps a transfer's target as it can;
 * a script gets the form's strictness instead: the category must exist for the row's type,
 * and a TRANSFER ends up with exactly one of toAccount and counterparty.
 */
function editRow(ledger: Ledger, id: string, input: EditInput): TransactionRow {
  const current = existing(ledger, id);
  const type = input.type ?? current.type;
  if (input.category !== undefined && !ledger.listCategories().some((c) => c.type === type && c.name === input.category)) {
    throw new InputError(`没有名为「${input.category}」的${TYPE_NAMES[type]}分类`);
  }
  for (const account of [input.account, input.toAccount]) {
    if (account !== undefined && !ledger.listAccounts().some((a) => a.name === account)) throw new InputError(`账户不存在（${account}）`);
  }
  if (type === 'TRANSFER') {
    if (input.toAccount !== undefined && input.counterparty !== undefined) throw new InputError('转账的转入账户和对方只能填一个');
    const keeps = current.type === 'TRANSFER' && (current.toAccount || current.counterparty);
    if (input.toAccount === undefined && input.counterparty === undefined && !keeps) throw new InputError('转账需要填写转入账户或对方（二选一）');
  } else if (input.toAccount !== undefined || input.counterparty !== undefined) {
    throw new InputError('只有转账才有转入账户或对方');
  }
  const patch: TransactionPatch = {
    ...(input.amount !== undefined ? { amountFen: yuanToFen(input.amount) } : {}),
    ...(input.type !== undefined ? { type: input.type } : {}),
    ...(input.category !== undefined ? { category: input.category } : {}),
    ...(input.account !== undefined ? { account: input.account } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.date !== undefined ? { date: input.date } : {}),
    ...(input.toAccount !== undefined ? { toAccount: input.toAccount } : {}),
    ...(input.counterparty !== undefined ? { counterparty: input.counterparty } : {}),
  };
  return ledger.transaction(() => {
    const edited = ledger.updateTransaction(id, patch);
    const time = input.time;
    if (time === undefined) return edited;
    // The app's edit keeps the time of day; a script may move it, in the row's own offset.
    const [raw] = ledger.rawRows([id]);
    const occurredAt = `${raw!.occurred_date}T${time.length === 5 ? `${time}:00` : time}${raw!.occurred_at.slice(19)}`;
    ledger.replaceRaw([{ ...raw!, occurred_at: occurredAt, occurred_ms: Date.parse(occurredAt) }]);
    return ledger.getTransaction(id)!;
  });
}

/** The category named `wanted`: of `type`, else the only one of that name, else the EXPENSE one. */
function categoryNamed(ledger: Ledger, wanted: string, type: TransactionType | undefined) {
  const named = ledger.listCategories().filter((c) => c.name === wanted.trim());
  if (type) {
    const found = named.find((c) => c.type === type);
    if (!found) throw new InputError(`没有名为「${wanted}」的${TYPE_NAMES[type]}分类`);
    return found;
  }
  if (named.length === 0) throw new InputError(`没有名为「${wanted}」的分类`);
  const found = named.length === 1 ? named[0] : named.find((c) => c.type === 'EXPENSE');
  if (!found) throw new InputError(`「${wanted}」有多个类型的分类（${named.map((c) => c.type).join('、')}），请用 --type 指定`);
  return found;
}

function removeCreated(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

/** Runs one command that answers at once (every command but import); returns the exit code. */
export function runLedgerCommand(argv: readonly string[], io: LedgerIo): number {
  const run = start(argv, io);
  if (typeof run === 'number') return run;
  try {
    const pending = run.command(run.ledger, run.sink);
    if (pending instanceof Promise) {
      pending.catch(() => undefined);
      throw new InputError('这个命令需要异步运行（runLedgerTool）');
    }
    return run.finish(null);
  } catch (error) {
    return run.finish(error);
  }
}

/** Runs any command, import included; resolves to the exit code (0, or 1 with one line on `io.err`). */
export async function runLedgerTool(argv: readonly string[], io: LedgerIo): Promise<number> {
  const run = start(argv, io);
  if (typeof run === 'number') return run;
  try {
    await run.command(run.ledger, run.sink);
    return run.finish(null);
  } catch (error) {
    return run.finish(error);
  }
}

interface Started {
  ledger: Ledger;
  sink: Sink;
  command: Command;
  /** Closes the ledger (removing a file this run created when it failed) and reports. */
  finish(error: unknown): number;
}

/** Parses, checks and opens: everything that can be refused without the ledger is, before the file is touched. */
function start(argv: readonly string[], io: LedgerIo): Started | number {
  const sink: Sink = { out: io.out, err: io.err, now: io.now ?? (() => systemNow()) };
  const fail = (error: unknown): number => {
    const message = error instanceof LedgerValidationError ? error.reason : errorMessage(error);
    sink.err(`ledger: ${message.replace(/\s*\n\s*/g, ' ')}`);
    return 1;
  };
  try {
    const args = parseArgs(argv);
    if (args.help) {
      sink.out(USAGE);
      return 0;
    }
    if (!args.db) throw new InputError('缺少 --db PATH（账本文件），见 --help');
    const cwd = io.cwd ?? process.cwd();
    const db = args.db === ':memory:' ? args.db : resolve(cwd, args.db);
    const command = prepareCommand(args, cwd);
    const created = db !== ':memory:' && !existsSync(db);
    let ledger: Ledger;
    try {
      ledger = openLedger({ path: db, now: sink.now });
    } catch (error) {
      if (created) removeCreated(db);
      throw error;
    }
    return {
      ledger,
      sink,
      command,
      finish: (error) => {
        ledger.close();
        if (error === null) return 0;
        if (created) removeCreated(db);
        return fail(error);
      },
    };
  } catch (error) {
    return fail(error);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // A reader that goes away (`| head`) ends the listing; it is not an error of ours.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  process.exitCode = await runLedgerTool(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    // `npm run` works in the package folder; a relative --db or FILE means the folder npm was run in.
    cwd: process.env.INIT_CWD ?? process.cwd(),
  });
}

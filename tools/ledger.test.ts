// The `ledger` scripting tool: argv, stdout, stderr and exit codes in a child process as a
// user's script runs it, and the many input cases in-process through runLedgerCommand, all
// on real SQLite files. Bad input must leave the file exactly as it was.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '@core/ledger/index';
import { booksDigest } from '@core/sync/digest';
import { parseZonedIso } from '@shared/time';
import {
  ALIPAY_EXPECTED,
  alipayCurrent,
  bankStatement,
  gbk,
  JD_EXPECTED,
  jdCsv,
  MEITUAN_EXPECTED,
  meituanCsv,
  utf8,
  utf8Bom,
  WECHAT_EXPECTED,
  wechatCsv,
} from '../test/support/bill-fixtures';
import { runLedgerCommand, runLedgerTool } from './ledger';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'skj-ledger-tool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = parseZonedIso('2026-02-17T12:34:56+08:00')!;

interface Run {
  code: number;
  out: string[];
  err: string[];
}

/** In-process, on a fixed clock. */
function run(...argv: string[]): Run {
  const out: string[] = [];
  const err: string[] = [];
  const code = runLedgerCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l), now: () => NOW });
  return { code, out, err };
}

/** As a script runs it: a child process through tsx, as `npm run ledger` does. */
function cli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/ledger.ts', ...argv], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Row = Record<string, unknown>;

function list(db: string): Row[] {
  const r = run('--db', db, 'list');
  expect(r.code, r.err.join('\n')).toBe(0);
  return r.out.map((l) => JSON.parse(l) as Row);
}

function add(db: string, fields: Row): string {
  const r = run('--db', db, 'add', JSON.stringify(fields));
  expect(r.code, r.err.join('\n')).toBe(0);
  return (JSON.parse(r.out[0]!) as { id: string }).id;
}

let n = 0;
let db: string;

/** A ledger with a second account (招行), an archived one (旧卡) and a category name in two types. */
function freshLedger(): string {
  const path = join(dir, `ledger-${++n}.db`);
  const ledger = openLedger({ path, now: () => NOW });
  ledger.addAccount('招行');
  const old = ledger.addAccount('旧卡');
  ledger.archiveAccount(old.id, true);
  ledger.addCategory('副业', 'EXPENSE');
  ledger.addCategory('副业', 'INCOME');
  ledger.addCategory('调账', 'INCOME');
  ledger.addCategory('调账', 'TRANSFER');
  ledger.close();
  return path;
}

beforeEach(() => {
  db = freshLedger();
});

describe('npm run ledger (child process)', () => {
  it('creates a missing file, adds, lists, edits, renames and deletes', () => {
    const path = join(dir, 'cli-new.db');
    expect(existsSync(path)).toBe(false);
    const empty = cli('--db', path, 'list');
    expect(empty).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(path)).toBe(true);

    const added = cli('--db', path, 'add', '{"amount": 35.5, "category": "餐饮", "description": "午饭", "date": "2026-02-17", "time": "12:05"}');
    expect(added.code, added.stderr).toBe(0);
    const { id } = JSON.parse(added.stdout) as { id: string };
    expect(added.stdout).toBe(`${JSON.stringify({ id })}\n`);

    const listed = cli('--db', path, 'list');
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ id, date: '2026-02-17', time: '12:05:00', amount: 35.5, type: 'EXPENSE', category: '餐饮', account: '钱包', description: '午饭' }]);

    const edited = cli('--db', path, 'edit', id, '{"amount": 40}');
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ id, amount: 40, category: '餐饮' });

    const renamed = cli('--db', path, 'category-rename', '餐饮', '吃饭');
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(cli('--db', path, 'list').stdout)).toMatchObject({ id, category: '吃饭', amount: 40 });

    expect(cli('--db', path, 'delete', id)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(cli('--db', path, 'list').stdout).toBe('');
  });

  it('prints --help on stdout and exits 0', () => {
    const r = cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('category-rename OLD NEW');
    expect(r.stderr).toBe('');
  });

  it('exits 1 with one line on stderr: missing --db, malformed JSON, unknown command', () => {
    for (const argv of [['list'], ['--db', db, 'add', '{amount: 1}'], ['--db', db, 'frobnicate']]) {
      const before = readFileSync(db);
      const r = cli(...argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^ledger: /);
      expect(readFileSync(db).equals(before)).toBe(true);
    }
    expect(cli('list').stderr).toContain('--db');
  });
});

describe('runLedgerCommand', () => {
  it('adds with the defaults: EXPENSE, 其他, the default account, now', () => {
    const id = add(db, { amount: 12 });
    expect(list(db)).toEqual([
      { id, date: '2026-02-17', time: '12:34:56', amount: 12, type: 'EXPENSE', category: '其他', account: '钱包', description: '' },
    ]);
    const income = add(db, { amount: 8000, type: 'INCOME', date: '2026-02-01' });
    expect(list(db).find((r) => r.id === income)).toMatchObject({ type: 'INCOME', category: '其他', date: '2026-02-01', time: '12:34:56' });
  });

  it('lists what was added, key for key, newest first; a list line without its id adds the same row', () => {
    const rows = [
      { date: '2026-01-05', time: '08:00:00', amount: 19.99, type: 'EXPENSE', category: '交通', account: '招行', description: '地铁' },
      { date: '2026-01-06', time: '09:30:15', amount: 5000, type: 'INCOME', category: '工资', account: '钱包', description: '' },
      {
        date: '2026-01-07',
        time: '23:59:59',
        amount: 200,
        type: 'TRANSFER',
        category: '转账',
        account: '钱包',
        description: '还钱',
        toAccount: '招行',
      },
      {
        date: '2026-01-08',
        time: '00:00:00',
        amount: 0.01,
        type: 'TRANSFER',
        category: '转账',
        account: '招行',
        description: '',
        counterparty: '小王',
      },
    ];
    const ids = rows.map((r) => add(db, r));
    const listed = list(db);
    expect(listed).toEqual(rows.map((r, i) => ({ id: ids[i], ...r })).reverse());
    const { id: _id, ...again } = listed[0]!;
    add(db, again);
    const copies = list(db).filter((r) => r.date === '2026-01-08');
    expect(copies).toHaveLength(2);
    expect(copies[0]).toEqual({ ...copies[1], id: copies[0]!.id });
  });

  it('takes any amount of whole fen up to the cap', () => {
    for (const amount of [0.01, 0.07, 19.99, 1.1, 99999999.99, 100000000]) {
      const id = add(db, { amount });
      expect(list(db).find((r) => r.id === id)?.amount).toBe(amount);
    }
  });

  it('lists past one page', () => {
    const ledger = openLedger({ path: db, now: () => NOW });
    ledger.transaction(() => {
      for (let i = 0; i < 1203; i++) ledger.addTransaction({ amountFen: i + 1, type: 'EXPENSE', date: '2026-02-01', time: '10:00' });
    });
    ledger.close();
    const listed = list(db);
    expect(listed).toHaveLength(1203);
    expect(new Set(listed.map((r) => r.id)).size).toBe(1203);
  });

  it('edits any subset of the keys and keeps the others', () => {
    const id = add(db, { amount: 30, category: '餐饮', date: '2026-02-10', time: '12:00', description: '午饭' });
    const edit = (fields: Row) => {
      const r = run('--db', db, 'edit', id, JSON.stringify(fields));
      expect(r.code, r.err.join('\n')).toBe(0);
      expect(JSON.parse(r.out[0]!)).toEqual(list(db)[0]);
      return list(db)[0];
    };
    const base = { id, date: '2026-02-10', time: '12:00:00', amount: 30, type: 'EXPENSE', category: '餐饮', account: '钱包', description: '午饭' };
    expect(edit({ amount: 32.8 })).toEqual({ ...base, amount: 32.8 });
    expect(edit({ date: '2026-02-11' })).toEqual({ ...base, amount: 32.8, date: '2026-02-11' });
    expect(edit({ time: '19:45:30' })).toEqual({ ...base, amount: 32.8, date: '2026-02-11', time: '19:45:30' });
    expect(edit({ category: '购物', account: '招行', description: '' })).toEqual({
      ...base,
      amount: 32.8,
      date: '2026-02-11',
      time: '19:45:30',
      category: '购物',
      account: '招行',
      description: '',
    });
    // A new type without a category takes that type's fallback.
    expect(edit({ type: 'INCOME' })).toMatchObject({ type: 'INCOME', category: '其他', account: '招行' });
    expect(edit({ type: 'EXPENSE', category: '副业', date: '2026-02-12', time: '07:00' })).toMatchObject({
      type: 'EXPENSE',
      category: '副业',
      date: '2026-02-12',
      time: '07:00:00',
    });
  });

  it('edits transfers: the target moves between toAccount and counterparty, and goes with the type', () => {
    const id = add(db, { amount: 100, type: 'TRANSFER', toAccount: '招行' });
    const edit = (fields: Row) => {
      const r = run('--db', db, 'edit', id, JSON.stringify(fields));
      expect(r.code, r.err.join('\n')).toBe(0);
      return list(db)[0]!;
    };
    expect(list(db)[0]).toMatchObject({ type: 'TRANSFER', category: '转账', account: '钱包', toAccount: '招行' });
    const toPerson = edit({ counterparty: '房东' });
    expect(toPerson).toMatchObject({ counterparty: '房东' });
    expect(toPerson).not.toHaveProperty('toAccount');
    expect(edit({ amount: 120 })).toMatchObject({ amount: 120, counterparty: '房东' });
    const expense = edit({ type: 'EXPENSE' });
    expect(expense).toMatchObject({ type: 'EXPENSE', category: '其他' });
    expect(expense).not.toHaveProperty('counterparty');
    expect(edit({ type: 'TRANSFER', account: '招行', toAccount: '钱包' })).toMatchObject({
      type: 'TRANSFER',
      category: '转账',
      account: '招行',
      toAccount: '钱包',
    });
  });

  it('deletes a row', () => {
    const keep = add(db, { amount: 1 });
    const gone = add(db, { amount: 2 });
    const r = run('--db', db, 'delete', gone);
    expect(r).toEqual({ code: 0, out: [], err: [] });
    expect(list(db).map((row) => row.id)).toEqual([keep]);
  });

  it('renames a category: its rows follow; a name in several types means the EXPENSE one unless --type', () => {
    const expense = add(db, { amount: 1, category: '副业' });
    const income = add(db, { amount: 2, type: 'INCOME', category: '副业' });
    const category = (id: string) => list(db).find((r) => r.id === id)!.category;

    expect(run('--db', db, 'category-rename', '副业', '外快')).toEqual({ code: 0, out: ['{"category":"外快","type":"EXPENSE"}'], err: [] });
    expect([category(expense), category(income)]).toEqual(['外快', '副业']);

    expect(run('--db', db, 'category-rename', '--type', 'INCOME', '副业', '兼职收入').code).toBe(0);
    expect(category(income)).toBe('兼职收入');

    // Only one of that name, of another type: that one.
    expect(run('--db', db, 'category-rename', '工资', '薪水')).toMatchObject({ code: 0, out: ['{"category":"薪水","type":"INCOME"}'] });
    expect(run('--db', db, 'category-rename', '调账', '平账', '--type=TRANSFER')).toMatchObject({
      code: 0,
      out: ['{"category":"平账","type":"TRANSFER"}'],
    });
  });

  it('creates a missing file as a new ledger', () => {
    const path = join(dir, 'fresh.db');
    const id = add(path, { amount: 9.9, description: '咖啡' });
    expect(list(path)).toMatchObject([{ id, amount: 9.9, account: '钱包', category: '其他' }]);
  });

  it('takes a relative --db relative to io.cwd', () => {
    const code = runLedgerCommand(['--db', 'relative.db', 'add', '{"amount":1}'], { out: () => {}, err: () => {}, now: () => NOW, cwd: dir });
    expect(code).toBe(0);
    expect(list(join(dir, 'relative.db'))).toHaveLength(1);
  });

  describe('bad input: exit 1, one line on stderr, nothing on stdout, the file byte for byte as it was', () => {
    let id: string;
    let transfer: string;
    beforeEach(() => {
      id = add(db, { amount: 35, category: '餐饮', date: '2026-02-10' });
      transfer = add(db, { amount: 100, type: 'TRANSFER', counterparty: '小王' });
    });

    const cases: [string, () => string[], RegExp][] = [
      ['missing --db', () => ['list'], /--db/],
      ['--db without a value', () => ['list', '--db'], /--db/],
      ['no command', () => ['--db', db], /缺少命令/],
      ['unknown command', () => ['--db', db, 'remove', id], /未知命令 remove/],
      ['unknown option', () => ['--db', db, '--force', 'list'], /未知选项 --force/],
      ['too many arguments', () => ['--db', db, 'list', 'all'], /参数太多/],
      ['add without JSON', () => ['--db', db, 'add'], /参数不够/],
      ['malformed JSON', () => ['--db', db, 'add', '{"amount": 1,}'], /不是有效的 JSON/],
      ['JSON that is not an object', () => ['--db', db, 'add', '[{"amount": 1}]'], /JSON 对象/],
      ['unknown key', () => ['--db', db, 'add', '{"amount": 1, "note": "x"}'], /未知字段 note/],
      ['a typo of amount', () => ['--db', db, 'add', '{"amont": 1}'], /未知字段 amont/],
      ['id in add', () => ['--db', db, 'add', '{"amount": 1, "id": "x"}'], /未知字段 id/],
      ['missing amount', () => ['--db', db, 'add', '{"category": "餐饮"}'], /缺少 amount/],
      ['amount as text', () => ['--db', db, 'add', '{"amount": "35"}'], /amount 必须是数字/],
      ['amount zero', () => ['--db', db, 'add', '{"amount": 0}'], /amount 必须大于0/],
      ['amount negative', () => ['--db', db, 'add', '{"amount": -5}'], /amount 必须大于0/],
      ['amount below a fen', () => ['--db', db, 'add', '{"amount": 0.001}'], /amount/],
      ['amount with three decimals', () => ['--db', db, 'add', '{"amount": 1.234}'], /两位小数/],
      ['amount over the cap', () => ['--db', db, 'add', '{"amount": 100000000.01}'], /上限/],
      ['amount null', () => ['--db', db, 'add', '{"amount": null}'], /amount 必须是数字/],
      ['date not in the calendar', () => ['--db', db, 'add', '{"amount": 1, "date": "2026-02-30"}'], /date/],
      ['date in another form', () => ['--db', db, 'add', '{"amount": 1, "date": "2026/02/10"}'], /date/],
      ['time past midnight', () => ['--db', db, 'add', '{"amount": 1, "time": "24:00"}'], /time/],
      ['bad type', () => ['--db', db, 'add', '{"amount": 1, "type": "expense"}'], /type 必须是/],
      ['empty category', () => ['--db', db, 'add', '{"amount": 1, "category": " "}'], /category 不能为空/],
      ['unknown category', () => ['--db', db, 'add', '{"amount": 1, "category": "火锅"}'], /没有名为「火锅」的支出分类/],
      ['category of another type', () => ['--db', db, 'add', '{"amount": 1, "category": "工资"}'], /没有名为「工资」的支出分类/],
      ['unknown account', () => ['--db', db, 'add', '{"amount": 1, "account": "花呗"}'], /账户不存在（花呗）/],
      ['archived account', () => ['--db', db, 'add', '{"amount": 1, "account": "旧卡"}'], /已归档/],
      ['description too long', () => ['--db', db, 'add', JSON.stringify({ amount: 1, description: '长'.repeat(201) })], /200/],
      ['transfer without a target', () => ['--db', db, 'add', '{"amount": 1, "type": "TRANSFER"}'], /二选一/],
      [
        'transfer with both targets',
        () => ['--db', db, 'add', '{"amount": 1, "type": "TRANSFER", "toAccount": "招行", "counterparty": "小王"}'],
        /二选一/,
      ],
      ['transfer to its own account', () => ['--db', db, 'add', '{"amount": 1, "type": "TRANSFER", "toAccount": "钱包"}'], /同一个账户/],
      ['transfer to an unknown account', () => ['--db', db, 'add', '{"amount": 1, "type": "TRANSFER", "toAccount": "花呗"}'], /账户不存在/],
      ['a target on an expense', () => ['--db', db, 'add', '{"amount": 1, "counterparty": "小王"}'], /只有转账/],
      ['edit an unknown id', () => ['--db', db, 'edit', 'no-such-id', '{"amount": 1}'], /no-such-id/],
      ['edit without JSON', () => ['--db', db, 'edit', id], /参数不够/],
      ['edit with nothing to change', () => ['--db', db, 'edit', id, '{}'], /没有要修改的字段/],
      ['edit an unknown key', () => ['--db', db, 'edit', id, '{"amountFen": 100}'], /未知字段 amountFen/],
      ['edit a bad amount', () => ['--db', db, 'edit', id, '{"amount": -1}'], /amount/],
      ['edit a bad date', () => ['--db', db, 'edit', id, '{"date": "2026-13-01"}'], /date/],
      ['edit a bad time', () => ['--db', db, 'edit', id, '{"time": "7:00"}'], /time/],
      ['edit to an unknown category', () => ['--db', db, 'edit', id, '{"category": "火锅"}'], /没有名为「火锅」的支出分类/],
      ['edit to a category of the old type', () => ['--db', db, 'edit', id, '{"type": "INCOME", "category": "餐饮"}'], /收入分类/],
      ['edit to an unknown account', () => ['--db', db, 'edit', id, '{"account": "花呗"}'], /账户不存在（花呗）/],
      ['edit into an archived account', () => ['--db', db, 'edit', id, '{"account": "旧卡"}'], /已归档/],
      ['edit an expense into a transfer without a target', () => ['--db', db, 'edit', id, '{"type": "TRANSFER"}'], /二选一/],
      ['edit a target onto an expense', () => ['--db', db, 'edit', id, '{"toAccount": "招行"}'], /只有转账/],
      ['edit a transfer with both targets', () => ['--db', db, 'edit', transfer, '{"toAccount": "招行", "counterparty": "老李"}'], /只能填一个/],
      ['edit a transfer to its own account', () => ['--db', db, 'edit', transfer, '{"toAccount": "钱包"}'], /同一个账户/],
      ['delete an unknown id', () => ['--db', db, 'delete', 'no-such-id'], /no-such-id/],
      ['delete without an id', () => ['--db', db, 'delete'], /参数不够/],
      ['rename an unknown category', () => ['--db', db, 'category-rename', '火锅', '涮锅'], /没有名为「火锅」的分类/],
      ['rename to a name taken', () => ['--db', db, 'category-rename', '餐饮', '交通'], /交通/],
      ['rename to nothing', () => ['--db', db, 'category-rename', '餐饮', '  '], /名称不能为空/],
      ['rename a name of several types, none EXPENSE, without --type', () => ['--db', db, 'category-rename', '调账', '平账'], /--type/],
      [
        'rename with a --type it does not have',
        () => ['--db', db, 'category-rename', '--type', 'TRANSFER', '餐饮', '吃饭'],
        /没有名为「餐饮」的转账分类/,
      ],
      ['rename with a bad --type', () => ['--db', db, 'category-rename', '--type', 'OUTGO', '餐饮', '吃饭'], /--type/],
      ['--type on another command', () => ['--db', db, '--type', 'INCOME', 'list'], /--type 只用于/],
      ['digest with an argument', () => ['--db', db, 'digest', 'all'], /参数太多/],
      ['--from on digest', () => ['--db', db, 'digest', '--from', '2026-02-01'], /只用于 summary/],
    ];

    it.each(cases)('%s', (_name, argv, message) => {
      const before = readFileSync(db);
      const rows = list(db);
      const r = run(...argv());
      expect(r.code).toBe(1);
      expect(r.out).toEqual([]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).not.toContain('\n');
      expect(r.err[0]).toMatch(message);
      expect(readFileSync(db).equals(before)).toBe(true);
      expect(list(db)).toEqual(rows);
    });

    it('(the comparison sees a write: a good command changes the bytes)', () => {
      const before = readFileSync(db);
      expect(run('--db', db, 'edit', id, '{"amount": 36}').code).toBe(0);
      expect(readFileSync(db).equals(before)).toBe(false);
    });

    it('creates no file when the command fails, before or after opening', () => {
      for (const argv of [
        ['add', '{"amount": "x"}'],
        ['add', '{"amount": 1, "category": "火锅"}'],
        ['delete', 'no-such-id'],
      ]) {
        const path = join(dir, `never-${argv[0]}-${argv[1]!.length}.db`);
        expect(run('--db', path, ...argv).code).toBe(1);
        for (const suffix of ['', '-wal', '-shm']) expect(existsSync(path + suffix), path + suffix).toBe(false);
      }
    });

    it('refuses a file that is not a ledger, leaving it as it was', () => {
      const path = join(dir, 'notes.db');
      writeFileSync(path, 'not a database at all, just some text that is long enough to have a header');
      const before = readFileSync(path);
      const r = run('--db', path, 'add', '{"amount": 1}');
      expect(r.code).toBe(1);
      expect(r.err).toHaveLength(1);
      expect(readFileSync(path).equals(before)).toBe(true);
    });
  });
});

describe('import and summary', () => {
  /** In-process through the async runner, as the CLI runs every command. */
  async function runAsync(...argv: string[]): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runLedgerTool(argv, { out: (l) => out.push(l), err: (l) => err.push(l), now: () => NOW, cwd: dir });
    return { code, out, err };
  }

  it('imports a bill as a script runs it: one JSON line, then the same figures as 统计 from summary', () => {
    const bill = join(dir, 'alipay.csv');
    writeFileSync(bill, gbk(alipayCurrent()));
    const path = join(dir, 'imported.db');
    const first = cli('--db', path, 'import', bill);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // Lines left out by reason: those that move no money, and those netted with their refunds.
    const skipped = ALIPAY_EXPECTED.skipped.reduce((n, s) => n + s.count, 0) + ALIPAY_EXPECTED.netted.count;
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ format: 'alipay', imported: ALIPAY_EXPECTED.rows, skipped, duplicates: 0, deleted: 0 }]);
    const again = cli('--db', path, 'import', bill);
    expect(JSON.parse(again.stdout)).toEqual({ format: 'alipay', imported: 0, skipped, duplicates: ALIPAY_EXPECTED.toImport, deleted: 0 });
    const summary = cli('--db', path, 'summary', '--from', '2026-03-01', '--to', '2026-03-31');
    expect(summary.code).toBe(0);
    expect(JSON.parse(summary.stdout)).toEqual({ incomeFen: ALIPAY_EXPECTED.incomeFen, expenseFen: ALIPAY_EXPECTED.expenseFen });
  });

  it('reads each format and answers summary over the whole ledger without dates', async () => {
    const path = join(dir, 'formats.db');
    const files: [string, Uint8Array, string][] = [
      ['wechat.csv', utf8(wechatCsv()), 'wechat'],
      ['jd.csv', utf8Bom(jdCsv()), 'jd'],
      ['meituan.csv', utf8Bom(meituanCsv()), 'meituan'],
    ];
    for (const [name, bytes, format] of files) {
      writeFileSync(join(dir, name), bytes);
      const r = await runAsync('--db', path, 'import', name);
      expect(r.err).toEqual([]);
      expect(JSON.parse(r.out[0]!)).toMatchObject({ format, duplicates: 0 });
    }
    const r = await runAsync('--db', path, 'summary');
    expect(JSON.parse(r.out[0]!)).toEqual({
      incomeFen: WECHAT_EXPECTED.incomeFen + JD_EXPECTED.incomeFen + MEITUAN_EXPECTED.incomeFen,
      expenseFen: WECHAT_EXPECTED.expenseFen + JD_EXPECTED.expenseFen + MEITUAN_EXPECTED.expenseFen,
    });
    // Outside the bills' month there is nothing.
    expect(JSON.parse((await runAsync('--db', path, 'summary', '--from', '2026-04-01', '--to', '2026-04-30')).out[0]!)).toEqual({
      incomeFen: 0,
      expenseFen: 0,
    });
  });

  it('refuses a file it cannot import with one line and exit 1, writing nothing', async () => {
    const path = join(dir, 'untouched.db');
    expect((await runAsync('--db', path, 'import', 'nothing-here.csv')).code).toBe(1);
    writeFileSync(join(dir, 'bank.csv'), utf8(bankStatement()));
    const bank = cli('--db', path, 'import', join(dir, 'bank.csv'));
    expect(bank.code).toBe(1);
    expect(bank.stdout).toBe('');
    expect(bank.stderr.trim().split('\n')).toHaveLength(1);
    expect(bank.stderr).toMatch(/这是银行流水，暂不支持/);
    // A file the run created is gone again; an existing ledger keeps its bytes.
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(path + suffix)).toBe(false);
    const kept = join(dir, 'kept.db');
    await runAsync('--db', kept, 'add', '{"amount": 1}');
    const before = readFileSync(kept);
    const broken = alipayCurrent().replace('23.40 ', '二十三');
    writeFileSync(join(dir, 'broken.csv'), gbk(broken));
    const r = await runAsync('--db', kept, 'import', 'broken.csv');
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/金额「二十三\s*」无效/);
    expect(readFileSync(kept).equals(before)).toBe(true);
  });

  it('refuses bad dates and options where they do not belong', async () => {
    expect((await runAsync('--db', ':memory:', 'summary', '--from', '2026-02-30')).err[0]).toMatch(/--from 必须是存在的日期/);
    expect((await runAsync('--db', ':memory:', 'summary', '--from', '2026-03-02', '--to', '2026-03-01')).err[0]).toMatch(/晚于/);
    expect((await runAsync('--db', ':memory:', 'list', '--from', '2026-03-01')).err[0]).toMatch(/只用于 summary/);
    expect((await runAsync('--db', ':memory:', 'import')).err[0]).toMatch(/参数不够/);
    expect(run('--db', ':memory:', 'import', join(dir, 'alipay.csv')).err[0]).toMatch(/异步/);
  });
});

describe('digest', () => {
  const digestOf = (path: string) => {
    const r = run('--db', path, 'digest');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    return JSON.parse(r.out[0]!) as { rows: number; digest: string };
  };

  it('prints one JSON line as a script reads it: the rows and the books’ SHA-256, writing nothing', () => {
    add(db, { amount: 35.5, category: '餐饮', description: '午饭' });
    add(db, { amount: 100, type: 'TRANSFER', toAccount: '招行' });
    const before = readFileSync(db);
    const r = cli('--db', db, 'digest');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{"rows":2,"digest":"[0-9a-f]{64}"\}\n$/);
    expect(readFileSync(db).equals(before)).toBe(true);
    const ledger = openLedger({ path: db, now: () => NOW });
    try {
      expect(JSON.parse(r.stdout)).toEqual(booksDigest(ledger.database));
    } finally {
      ledger.close();
    }
    expect(cli('--help').stdout).toContain('digest');
  });

  it('follows the books: an edit changes it, the edit undone and a row added then deleted leave it as it was', () => {
    const id = add(db, { amount: 12, description: '早餐' });
    const first = digestOf(db);
    expect(first.rows).toBe(1);
    expect(digestOf(db)).toEqual(first);
    expect(run('--db', db, 'edit', id, '{"amount": 12.5}').code).toBe(0);
    const edited = digestOf(db);
    expect(edited.rows).toBe(1);
    expect(edited.digest).not.toBe(first.digest);
    expect(run('--db', db, 'edit', id, '{"amount": 12}').code).toBe(0);
    expect(digestOf(db)).toEqual(first);
    const extra = add(db, { amount: 3 });
    expect(digestOf(db).rows).toBe(2);
    expect(run('--db', db, 'delete', extra).code).toBe(0);
    expect(digestOf(db)).toEqual(first);
  });

  it('treats a missing --db file as list does: a new, empty ledger', () => {
    const path = join(dir, 'digest-new.db');
    expect(existsSync(path)).toBe(false);
    const created = digestOf(path);
    expect(existsSync(path)).toBe(true);
    expect(created.rows).toBe(0);
    expect(digestOf(path)).toEqual(created);
  });
});

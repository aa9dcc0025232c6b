import { DEBT_FLOWS, type LedgerFlow, type TransactionType } from '@shared/domain';
import { errorMessage } from '@shared/errors';
import { FLOW_LABELS } from '@shared/flow-text';
import { startsLikeFormula } from '@shared/ipc/fields';
import type { ImportFormat, SkippedLines } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { isCalendarDate } from '@shared/time';
import type { CategoryCandidate } from '../categories/index';
import type { Categorizer } from './bills/bill-categories';
import { billRows } from './bills/bill-rows';
import { findLayout, readLines } from './bills/layouts';
import { pacer, type Pacer } from './pace';
import type { ImportContext, TableRow } from './bills/table';
import { createWordCategorizer } from './bills/words';
import { isLegacyXls, isXlsx, readXlsxTable } from './bills/xlsx-table';
import { CSV_HEADER, LEGACY_COLUMNS, REIMBURSE_LABELS, TYPE_LABELS } from './csv-export';
import { CsvSyntaxError, parseCsvPaced, unescapeCell } from './csv';
import { DETAIL_HEADER, DETAIL_LEGACY_COLUMNS } from './export-file';
import { ImportError } from './import-error';
import type { ImportRow } from './ledger';
import { cleanTags, TAG_SEPARATOR } from './tags';

export { ImportError };

export interface ParsedImport {
  format: ImportFormat;
  encoding: 'utf-8' | 'gbk' | 'xlsx';
  rows: ImportRow[];
  /** Every line of the file's table (a bill's trades, our own file's rows). */
  lines: number;
  /** Bill lines left out, by reason. */
  skipped: SkippedLines[];
  /** Bill lines that cancel out: purchases refunded in full or closed, with their refunds. */
  netted: { count: number; fen: number };
  /** Refunds in the ledger waiting for a purchase this bill brings. */
  links: { refundId: string; purchaseId: string; fen: number }[];
}

const TYPE_BY_LABEL = new Map(Object.entries(TYPE_LABELS).map(([type, label]) => [label, type as TransactionType]));

/**
 * Reads an import file — our own CSV or workbook, or a bill exported by Alipay, WeChat Pay,
 * JD or Meituan, as CSV (GBK or UTF-8) or .xlsx — recognised by its content. A name from the
 * file that starts like a formula is refused unless the ledger already has it (see
 * importName). Runs on the main thread in slices (see pace.ts); nothing is written.
 */
export async function parseImport(bytes: Uint8Array, context: ImportContext): Promise<ParsedImport> {
  const pace = pacer();
  const { table, encoding } = await readTable(bytes, pace);
  if (table.length === 0) throw new ImportError(0, '文件是空的');
  const first = table[0]!.cells.map((f) => f.trim());
  // Our workbook's 明细 sheet starts like our CSV (日期, 时间) and has its own columns after.
  if (encoding === 'xlsx' && DETAIL_HEADER.slice(0, DETAIL_LEGACY_COLUMNS).every((h, i) => first[i] === h)) {
    return own(encoding, await parseOwn(fromWorkbook(table, context.accounts), context.categories, context.accounts, pace));
  }
  if (first[0] === CSV_HEADER[0] && first[1] === CSV_HEADER[1]) {
    return own(encoding, await parseOwn(table, context.categories, context.accounts, pace));
  }
  const found = findLayout(table);
  if (!found) throw new ImportError(0, '无法识别的文件格式：应为支付宝、微信支付、京东或美团导出的账单（CSV 或 Excel），或随口记导出的 CSV/Excel');
  const lines = await readLines(found, table, pace);
  const format = found.layout.format;
  const categorize: Categorizer = {
    categories: context.categories,
    memory: context.merchantCategories,
    words: createWordCategorizer(context.categories),
  };
  return { format, encoding, ...(await billRows(format, lines, categorize, pace, context.refunds)) };
}

/** Our own file: every row is a line, none is left out or netted. */
function own(encoding: ParsedImport['encoding'], rows: ImportRow[]): ParsedImport {
  return { format: 'suikouji', encoding, rows, lines: rows.length, skipped: [], netted: { count: 0, fen: 0 }, links: [] };
}

async function readTable(bytes: Uint8Array, pace: Pacer): Promise<{ table: TableRow[]; encoding: 'utf-8' | 'gbk' | 'xlsx' }> {
  if (isXlsx(bytes) || isLegacyXls(bytes)) {
    try {
      return { table: await readXlsxTable(bytes), encoding: 'xlsx' };
    } catch (err) {
      throw new ImportError(0, errorMessage(err));
    }
  }
  const { text, encoding } = await decode(bytes, pace);
  try {
    return { table: (await parseCsvPaced(text, pace)).map((r) => ({ line: r.line, cells: r.fields })), encoding };
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new ImportError(err.line, '引号没有闭合');
    throw err;
  }
}

/** Our workbook's 明细 sheet in the CSV's columns: its 转入账户/对方 is an account of the user's or a person. */
function fromWorkbook(table: readonly TableRow[], accounts: readonly string[]): TableRow[] {
  const rows = table.slice(1).map(({ line, cells }) => {
    const [
      date = '',
      time = '',
      type = '',
      category = '',
      amount = '',
      account = '',
      other = '',
      description = '',
      flow = '',
      reimburse = '',
      tags = '',
      parent = '',
      picture = '',
    ] = cells;
    const toAccount = type.trim() === TYPE_LABELS.TRANSFER && !flow.trim() && accounts.includes(other.trim()) ? other : '';
    return {
      line,
      cells: [
        date.replace(/ 00:00:00$/, ''),
        time.replace(/^1899-12-3[01] /, ''),
        type,
        category,
        amount,
        account,
        description,
        toAccount,
        toAccount ? '' : other,
        flow,
        reimburse,
        '',
        '',
        '',
        tags,
        parent,
        picture,
      ],
    };
  });
  return [{ line: table[0]!.line, cells: [...CSV_HEADER] }, ...rows];
}

/** Bytes decoded at a time between turns of the event loop: a 10 000-line GBK bill is 40 ms at once. */
const DECODE_SLICE = 256 * 1024;

async function decode(bytes: Uint8Array, pace: Pacer): Promise<{ text: string; encoding: 'utf-8' | 'gbk' }> {
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  const attempt = async (label: 'utf-8' | 'gbk') => {
    const decoder = new TextDecoder(label, { fatal: true });
    const parts: string[] = [];
    try {
      for (let at = 0; at < body.length; at += DECODE_SLICE) {
        await pace();
        parts.push(decoder.decode(body.subarray(at, at + DECODE_SLICE), { stream: at + DECODE_SLICE < body.length }));
      }
      parts.push(decoder.decode());
      return parts.join('');
    } catch {
      return null;
    }
  };
  const utf8 = await attempt('utf-8');
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  // Alipay still exports GBK; only try it when the file has no UTF-8 signature.
  const gbk = hasBom ? null : await attempt('gbk');
  if (gbk !== null) return { text: gbk, encoding: 'gbk' };
  throw new ImportError(firstUndecodableLine(body, hasBom ? ['utf-8'] : ['utf-8', 'gbk']), '文件编码无法识别（应为 UTF-8 或 GBK）');
}

function firstUndecodableLine(body: Uint8Array, labels: string[]): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i === body.length || body[i] === 0x0a) {
      const slice = body.subarray(start, i);
      const ok = labels.some((label) => {
        try {
          new TextDecoder(label, { fatal: true }).decode(slice);
          return true;
        } catch {
          return false;
        }
      });
      if (!ok) return line;
      line++;
      start = i + 1;
    }
  }
  return 0;
}

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** Yuan text → fen; accepts 35, 35.5, 35.00, ¥35.00, 1,234.50. */
function parseAmount(text: string, line: number): number {
  const clean = text
    .trim()
    .replace(/^[¥￥]/, '')
    .replace(/,/g, '');
  if (!AMOUNT.test(clean)) throw new ImportError(line, `金额「${text}」无效`);
  const yuan = Number(clean);
  if (yuan <= 0) throw new ImportError(line, '金额必须大于0');
  if (yuan > MAX_AMOUNT_YUAN) throw new ImportError(line, '金额超过上限（1亿元）');
  return yuanToFen(yuan);
}

function parseTime(text: string, line: number): string {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) throw new ImportError(line, `时间「${text}」无效`);
  return `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}`;
}

function parseDate(text: string, line: number): string {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text.trim());
  const date = m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : '';
  if (!isCalendarDate(date)) throw new ImportError(line, `日期「${text}」无效`);
  return date;
}

/**
 * A category or account name read from a file. One that starts like a formula (= + - @ …)
 * is refused unless the ledger already has it: the import must not bring a name into the
 * ledger that every later export has to defuse. `exists` says whether it is already there.
 */
function importName(cell: string, what: '分类' | '账户', line: number, exists: (name: string) => boolean): string {
  const clean = unescapeCell(cell.trim()).trim();
  if (!clean) throw new ImportError(line, `${what}为空`);
  if (clean.length > 20) throw new ImportError(line, `${what}名称超过20个字`);
  if (startsLikeFormula(clean) && !exists(clean)) {
    throw new ImportError(line, `${what}「${clean}」以 = + - @ 等符号开头，表格软件会把它当作公式，不能新建这样的${what}`);
  }
  return clean;
}

const FLOW_BY_LABEL = new Map(Object.entries(FLOW_LABELS).map(([flow, label]) => [label, flow as LedgerFlow]));
/** The type a row of each flow is stored as. */
const FLOW_TYPE: Record<LedgerFlow, TransactionType> = {
  lend: 'TRANSFER',
  borrow: 'TRANSFER',
  repay: 'TRANSFER',
  collect: 'TRANSFER',
  writeoff: 'EXPENSE',
  refund: 'EXPENSE',
  reimbursement: 'INCOME',
};
/** A row id as the ledger makes them: a UUID, or a recurring entry's `r:` + its occurrence key. */
const ROW_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|r:[0-9a-z]{1,40}:\d{4}-\d{2}-\d{2})$/i;

async function parseOwn(
  records: readonly TableRow[],
  categories: readonly CategoryCandidate[],
  accounts: readonly string[],
  pace: Pacer,
): Promise<ImportRow[]> {
  const header = records[0]!.cells.map((f) => f.trim());
  // Any prefix of our columns from the first 7 on: files of older versions have fewer.
  if (header.length < LEGACY_COLUMNS || header.length > CSV_HEADER.length || header.some((h, i) => h !== CSV_HEADER[i])) {
    throw new ImportError(records[0]!.line, `列不正确，应为「${CSV_HEADER.join(',')}」`);
  }
  const ids = new Set<string>();
  const rows: ImportRow[] = [];
  for (const { line, cells: fields } of records.slice(1)) {
    await pace();
    if (fields.length !== header.length) throw new ImportError(line, `应有${header.length}列，实际${fields.length}列`);
    const [date, time, typeLabel, category, amount, account, description] = fields as [string, string, string, string, string, string, string];
    const type = TYPE_BY_LABEL.get(typeLabel.trim());
    if (!type) throw new ImportError(line, `类型「${typeLabel}」无效（应为 支出、收入 或 转账）`);
    const categoryName = importName(category, '分类', line, (name) => categories.some((c) => c.type === type && c.name === name));
    const accountName = importName(account, '账户', line, (name) => accounts.includes(name));
    const row: ImportRow = {
      line,
      date: parseDate(date, line),
      time: parseTime(time, line),
      type,
      category: categoryName,
      amountFen: parseAmount(amount, line),
      account: accountName,
      description: unescapeCell(description).slice(0, 200),
    };
    rows.push({
      ...row,
      ...flowColumns(fields.slice(LEGACY_COLUMNS), type, line, accounts, ids),
      ...treeColumns(fields.slice(TAGS_COLUMN), type, categoryName, line, categories),
    });
  }
  return rows;
}

const TAGS_COLUMN = CSV_HEADER.indexOf('标签');

/** 标签 and 父分类 (absent in older files). */
function treeColumns(
  cells: readonly string[],
  type: TransactionType,
  category: string,
  line: number,
  categories: readonly CategoryCandidate[],
): Partial<ImportRow> {
  const [tagsCell = '', parentCell = ''] = cells.map((c) => unescapeCell(c.trim()).trim());
  const out: Partial<ImportRow> = {};
  if (tagsCell) {
    try {
      out.tags = cleanTags(tagsCell.split(TAG_SEPARATOR));
    } catch (err) {
      throw new ImportError(line, (err as Error).message);
    }
  }
  if (parentCell) {
    const parent = importName(parentCell, '分类', line, (name) => categories.some((c) => c.type === type && c.name === name));
    if (parent === category) throw new ImportError(line, '父分类不能是分类本身');
    out.parentCategory = parent;
  }
  return out;
}

/** The money-flow columns of one row (absent in older files), checked against its type. */
function flowColumns(
  cells: readonly string[],
  type: TransactionType,
  line: number,
  accounts: readonly string[],
  ids: Set<string>,
): Partial<ImportRow> {
  const [toAccountCell = '', counterpartyCell = '', flowLabel = '', reimburseLabel = '', idCell = '', refundOfCell = '', reimbursedByCell = ''] =
    cells.map((c) => c.trim());
  const out: Partial<ImportRow> = {};
  if (toAccountCell) {
    if (type !== 'TRANSFER') throw new ImportError(line, '只有转账才有转入账户');
    out.toAccount = importName(toAccountCell, '账户', line, (name) => accounts.includes(name));
  }
  const counterparty = unescapeCell(counterpartyCell).trim();
  if (counterparty) {
    if (out.toAccount) throw new ImportError(line, '转入账户和对方只能填一个');
    if (counterparty.length > 50) throw new ImportError(line, '对方名称超过50个字');
    out.counterparty = counterparty;
  }
  if (flowLabel) {
    const flow = FLOW_BY_LABEL.get(flowLabel);
    if (!flow) throw new ImportError(line, `资金类型「${flowLabel}」无效（应为 ${Object.values(FLOW_LABELS).join('、')} 或留空）`);
    if (FLOW_TYPE[flow] !== type) throw new ImportError(line, `资金类型「${flowLabel}」应为${TYPE_LABELS[FLOW_TYPE[flow]]}`);
    if ((DEBT_FLOWS.includes(flow) || flow === 'writeoff') && !counterparty) throw new ImportError(line, `「${flowLabel}」要填写对方`);
    out.flow = flow;
  } else if (counterparty && type !== 'TRANSFER') {
    throw new ImportError(line, '只有转账、借贷和坏账才有对方');
  }
  if (reimburseLabel) {
    if (reimburseLabel !== REIMBURSE_LABELS.pending && reimburseLabel !== REIMBURSE_LABELS.settled) {
      throw new ImportError(line, `报销「${reimburseLabel}」无效（应为 待报销、已报销 或留空）`);
    }
    if (type !== 'EXPENSE' || (out.flow && out.flow !== 'refund')) throw new ImportError(line, '只有支出才能报销');
    out.reimbursable = true;
  }
  const id = rowId(idCell, line);
  if (id) {
    if (ids.has(id)) throw new ImportError(line, `编号「${id}」重复`);
    ids.add(id);
    out.id = id;
  }
  const refundOf = rowId(refundOfCell, line);
  if (refundOf) {
    if (out.flow !== 'refund') throw new ImportError(line, '只有退款才有退款对应编号');
    out.refundOf = refundOf;
  }
  const reimbursedBy = rowId(reimbursedByCell, line);
  if (reimbursedBy) {
    if (!out.reimbursable) throw new ImportError(line, '只有报销的支出才有报销到账编号');
    out.reimbursedBy = reimbursedBy;
  }
  return out;
}

function rowId(cell: string, line: number): string | undefined {
  if (!cell) return undefined;
  if (!ROW_ID.test(cell)) throw new ImportError(line, `编号「${cell}」无效`);
  return cell;
}

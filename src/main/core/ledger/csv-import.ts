import { OTHER_CATEGORY } from '@shared/categories';
import { CodedError } from '@shared/errors';
import { DEBT_FLOWS, type LedgerFlow, type TransactionType } from '@shared/domain';
import { FLOW_LABELS } from '@shared/flow-text';
import { startsLikeFormula } from '@shared/ipc/fields';
import type { ImportFormat } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN, yuanToFen } from '@shared/money';
import { isCalendarDate } from '@shared/time';
import { matchCategory, type CategoryCandidate } from '../categories/index';
import { CSV_HEADER, LEGACY_COLUMNS, REIMBURSE_LABELS, TYPE_LABELS } from './csv-export';
import { CsvSyntaxError, parseCsv, unescapeCell, type CsvRecord } from './csv';
import type { ImportRow } from './ledger';
import { cleanTags, TAG_SEPARATOR } from './tags';

/** A file that cannot be imported; nothing is written. `line` is 1-based, 0 for the whole file. */
export class ImportError extends CodedError<'import_invalid'> {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super('import_invalid', line > 0 ? `第${line}行：${reason}。文件未导入任何记录。` : `${reason}。文件未导入任何记录。`);
  }
}

export interface ParsedImport {
  format: ImportFormat;
  encoding: 'utf-8' | 'gbk';
  rows: ImportRow[];
  /** Bill lines that move no money (不计收支, closed or failed trades). */
  ignored: number;
}

const TYPE_BY_LABEL = new Map(Object.entries(TYPE_LABELS).map(([type, label]) => [label, type as TransactionType]));

/**
 * Reads an import file: our own export, an Alipay bill (GBK) or a WeChat Pay bill (UTF-8).
 * `categories` are the user's, for mapping the bills' own category names onto them;
 * `accounts` are the names of the user's accounts. A name from the file that starts like a
 * formula is refused unless the ledger already has it (see importName).
 */
export function parseImport(bytes: Uint8Array, categories: readonly CategoryCandidate[], accounts: readonly string[] = []): ParsedImport {
  const { text, encoding } = decode(bytes);
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new ImportError(err.line, '引号没有闭合');
    throw err;
  }
  if (records.length === 0) throw new ImportError(0, '文件是空的');
  const first = records[0]!.fields.map((f) => f.trim());
  if (first[0] === CSV_HEADER[0] && first[1] === CSV_HEADER[1])
    return { format: 'suikouji', encoding, ...parseOwn(records, categories, accounts), ignored: 0 };
  const headerAt = records.findIndex((r) => {
    const f = r.fields.map((x) => x.trim());
    return f.includes('收/支') && f.some((x) => x === '交易时间' || x === '交易创建时间');
  });
  if (headerAt >= 0) {
    // Decided by the columns, not the text: an Alipay line may well mention 微信.
    const columns = new Set(records[headerAt]!.fields.map((f) => f.trim()));
    const format: ImportFormat = columns.has('交易类型') && columns.has('支付方式') ? 'wechat' : 'alipay';
    return { format, encoding, ...parseBill(records, headerAt, format, categories) };
  }
  throw new ImportError(1, `无法识别的文件格式：第一行应为「${CSV_HEADER.join(',')}」，或是支付宝/微信导出的账单`);
}

function decode(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'gbk' } {
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  const attempt = (label: 'utf-8' | 'gbk') => {
    try {
      return new TextDecoder(label, { fatal: true }).decode(body);
    } catch {
      return null;
    }
  };
  const utf8 = attempt('utf-8');
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  // Alipay still exports GBK; only try it when the file has no UTF-8 signature.
  const gbk = hasBom ? null : attempt('gbk');
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

function parseOwn(records: CsvRecord[], categories: readonly CategoryCandidate[], accounts: readonly string[]): { rows: ImportRow[] } {
  const header = records[0]!.fields.map((f) => f.trim());
  // Any prefix of our columns from the first 7 on: files of older versions have fewer.
  if (header.length < LEGACY_COLUMNS || header.length > CSV_HEADER.length || header.some((h, i) => h !== CSV_HEADER[i])) {
    throw new ImportError(records[0]!.line, `列不正确，应为「${CSV_HEADER.join(',')}」`);
  }
  const ids = new Set<string>();
  const rows = records.slice(1).map(({ line, fields }) => {
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
    return {
      ...row,
      ...flowColumns(fields.slice(LEGACY_COLUMNS), type, line, accounts, ids),
      ...treeColumns(fields.slice(TAGS_COLUMN), type, categoryName, line, categories),
    };
  });
  return { rows };
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

/** Alipay's 交易分类 names for spending that share no characters with our expense categories. */
const BILL_CATEGORY_ALIASES: Record<string, string> = {
  日用百货: '购物',
  服饰装扮: '购物',
  数码电器: '购物',
  美容美发: '购物',
  母婴亲子: '购物',
  家居家装: '购物',
  充值缴费: '账单',
  生活服务: '账单',
  文化休闲: '娱乐',
  休闲娱乐: '娱乐',
  运动户外: '娱乐',
  医疗健康: '医疗',
  教育培训: '教育',
  住房物业: '住房',
  酒店旅游: '旅行',
  转账红包: '人情往来',
  亲友代付: '人情往来',
};

const COLUMN_NAMES = {
  time: ['交易时间', '交易创建时间', '付款时间'],
  direction: ['收/支'],
  amount: ['金额', '金额(元)', '金额（元）'],
  description: ['商品说明', '商品名称', '商品'],
  counterpart: ['交易对方'],
  category: ['交易分类', '交易类型'],
  status: ['交易状态', '当前状态'],
} as const;

function parseBill(
  records: CsvRecord[],
  headerAt: number,
  format: ImportFormat,
  categories: readonly CategoryCandidate[],
): { rows: ImportRow[]; ignored: number } {
  const header = records[headerAt]!.fields.map((f) => f.trim());
  const col = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const idx = Object.fromEntries(Object.entries(COLUMN_NAMES).map(([k, names]) => [k, col(names)])) as Record<keyof typeof COLUMN_NAMES, number>;
  for (const key of ['time', 'direction', 'amount'] as const) {
    if (idx[key] < 0) throw new ImportError(records[headerAt]!.line, `账单缺少「${COLUMN_NAMES[key][0]}」列`);
  }
  const account = format === 'alipay' ? '支付宝' : '微信';
  const rows: ImportRow[] = [];
  let ignored = 0;
  for (const { line, fields } of records.slice(headerAt + 1)) {
    const cell = (i: number) => (i >= 0 ? (fields[i] ?? '').trim() : '');
    // Bills end with a footer of dashes and notes; the data ends at the first line that is not a trade.
    if (fields.length < header.filter((h) => h !== '').length - 1) {
      if (/^-{5,}/.test(cell(0)) || cell(0) === '') break;
      throw new ImportError(line, `应有${header.length}列，实际${fields.length}列`);
    }
    const direction = cell(idx.direction);
    const status = cell(idx.status);
    if ((direction !== '支出' && direction !== '收入') || /关闭|失败|撤销/.test(status)) {
      ignored++;
      continue;
    }
    const type: TransactionType = direction === '支出' ? 'EXPENSE' : 'INCOME';
    const when = /^(\S+)\s+(\S+)$/.exec(cell(idx.time));
    if (!when) throw new ImportError(line, `交易时间「${cell(idx.time)}」无效`);
    const billCategory = cell(idx.category);
    // The aliases are spending names; income keeps the bill's own words (转账红包 → 红包).
    const alias = type === 'EXPENSE' ? BILL_CATEGORY_ALIASES[billCategory] : undefined;
    const wanted = alias ?? (format === 'alipay' ? billCategory : cell(idx.description));
    const category = matchCategory(wanted, type, categories)?.name ?? OTHER_CATEGORY;
    const description = [cell(idx.counterpart), cell(idx.description)]
      .filter((s) => s && s !== '/')
      .join(' ')
      .slice(0, 200);
    rows.push({
      line,
      date: parseDate(when[1]!, line),
      time: parseTime(when[2]!, line),
      type,
      category,
      amountFen: parseAmount(cell(idx.amount), line),
      account,
      description,
    });
  }
  return { rows, ignored };
}

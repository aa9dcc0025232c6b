// 导出 CSV of one month (≈ rows / 36 of them), as the app writes it: writeExportFile(…, 'csv')
// against one hand-written statement over the month, oldest first — the same joins (category
// and its parent, accounts) and the row's tags joined by group_concat — each row made into the
// same seventeen cells (the injection escape, the amount in yuan, the labels) and the whole text
// (BOM, header, CRLF records, quoting only where needed) written with one writeFileSync. The
// results are the two files, compared byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeExportFile } from '@core/ledger/export-file';
import type { PairFactory, RatioPair } from './pair';

const HEADER = '日期,时间,类型,分类,金额,账户,备注,转入账户,对方,资金类型,报销,编号,退款对应编号,报销到账编号,标签,父分类,附件';
const TYPES: Record<string, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };
const FLOWS: Record<string, string> = {
  lend: '借出',
  borrow: '借入',
  repay: '还款',
  collect: '收回借款',
  writeoff: '坏账',
  refund: '退款',
  reimbursement: '报销到账',
};
/** What a spreadsheet runs as a formula (OWASP's list, as the export escapes it). */
const FORMULA = /^(?:[\t\r]|[\s\u00a0\u3000\ufeff\u200b]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66\u2212])/;
const QUOTE = /[",\r\n]/;

/** A field quoted only where it must be (a comma, a quote or a line break in it). */
function q(cell: string): string {
  return QUOTE.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** A text cell: the injection escape (a formula, or a leading `'` that reading back would drop, gets a `'`), then quoted. */
function text(cell: string): string {
  return q(FORMULA.test(cell) || (cell.startsWith("'") && (FORMULA.test(cell.slice(1)) || cell.startsWith("''"))) ? `'${cell}` : cell);
}

type Cells = [
  string,
  string,
  string,
  string,
  number,
  string,
  string,
  string | null,
  string,
  string | null,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
];

interface Written {
  path: string;
  rows: number;
}

const csvExport: PairFactory = ({ ledger, db, month, dir }) => {
  const from = `${month}-01`;
  const to = `${month}-31`;
  const stmt = db
    .prepare(
      `SELECT t.occurred_date, substr(t.occurred_at, 12, 8), t.type, c.name, t.amount_fen, a.name, t.description, ta.name,
         t.counterparty, t.flow, t.reimbursable, t.id, t.refund_of, t.reimbursed_by,
         (SELECT group_concat(g.name, ';' ORDER BY tt.rowid) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.transaction_id = t.id),
         pc.name
       FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
       LEFT JOIN accounts ta ON ta.id = t.to_account_id LEFT JOIN categories pc ON pc.id = c.parent_id
       WHERE t.occurred_date >= ? AND t.occurred_date <= ?
       ORDER BY t.occurred_date, t.occurred_ms, t.rowid`,
    )
    .raw(true);
  const projectPath = join(dir, 'project.csv');
  const rawPath = join(dir, 'raw.csv');
  const pair: RatioPair<Written> = {
    name: 'ratios.csvExportMonth',
    project: async (): Promise<Written> => ({ path: projectPath, rows: await writeExportFile(ledger, 'csv', { from, to }, projectPath) }),
    raw: (): Written => {
      const rows = stmt.all(from, to) as Cells[];
      let out = `\uFEFF${HEADER}\r\n`;
      for (const r of rows) {
        const fen = r[4];
        const reimbursable = r[10] === 1;
        out +=
          `${q(r[0])},${q(r[1])},${TYPES[r[2]]},${text(r[3])},${fen % 100 === 0 ? fen / 100 : (fen / 100).toFixed(2)},${text(r[5])},` +
          `${text(r[6])},${text(r[7] ?? '')},${text(r[8])},${r[9] ? FLOWS[r[9]] : ''},${reimbursable ? (r[13] ? '已报销' : '待报销') : ''},` +
          `${q(r[11])},${q(r[12] ?? '')},${reimbursable ? q(r[13] ?? '') : ''},${text(r[14] ?? '')},${text(r[15] ?? '')},\r\n`;
      }
      writeFileSync(rawPath, out);
      return { path: rawPath, rows: rows.length };
    },
    same: (a, b) => a.rows === b.rows && isDeepStrictEqual(readFileSync(a.path), readFileSync(b.path)),
  };
  return pair;
};

export default csvExport;

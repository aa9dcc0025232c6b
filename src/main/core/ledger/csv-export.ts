import type { TransactionType } from '../../../shared/domain';
import type { CsvChunk, LedgerFilter } from '../../../shared/ipc/ledger';
import { formatFen } from '../../../shared/money';
import { csvField, csvLine } from './csv';
import type { Ledger } from './ledger';

export const CSV_HEADER = ['日期', '时间', '类型', '分类', '金额', '账户', '备注'] as const;
/** Excel only detects UTF-8 with the byte order mark. */
export const BOM = '\uFEFF';

export const TYPE_LABELS: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

/**
 * One chunk of the CSV export of the filtered rows, oldest first (the order people read a
 * spreadsheet in). The chunk at offset 0 carries the BOM and the header.
 */
export function exportCsv(ledger: Ledger, filter: LedgerFilter = {}, range: { offset?: number; limit?: number } = {}): CsvChunk {
  const offset = range.offset ?? 0;
  const limit = range.limit ?? Number.MAX_SAFE_INTEGER;
  const lines: string[] = offset === 0 ? [BOM + csvLine(CSV_HEADER)] : [];
  let rows = 0;
  for (const [date, occurredAt, type, category, amountFen, account, description] of ledger.iterateForExport(filter, offset, limit)) {
    // Only the free-text columns can hold a comma, quote or line break.
    lines.push(
      `${date},${occurredAt.slice(11, 19)},${TYPE_LABELS[type]},${csvField(category)},${formatFen(amountFen)},${csvField(account)},${csvField(description)}`,
    );
    rows++;
  }
  const text = lines.length ? `${lines.join('\r\n')}\r\n` : '';
  return { text, rows, total: ledger.count(filter) };
}

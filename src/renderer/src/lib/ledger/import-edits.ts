// What the user changes in the import preview before 确认导入 — rows unticked, rows imported and
// deleted before ticked back, categories changed — and what that does to the preview's counts
// and totals. Pure, so the dialog stays a view and the arithmetic is tested against the
// ledger's own figures. The ledger's figures are the starting point; only the changed rows are
// walked, so a 10 000-row bill stays responsive.
import type { ImportChoices, ImportPreview, ImportRowDto } from '@shared/ipc/ledger';

export interface ImportEdits {
  /** 'new' rows the user unticked. */
  exclude: ReadonlySet<number>;
  /** 'deleted' rows the user ticked. */
  restore: ReadonlySet<number>;
  /** Rows moved to another category, by index. */
  category: ReadonlyMap<number, string>;
  /** Recategorized rows whose merchant should keep the new category. */
  remember: ReadonlySet<number>;
}

export interface Totals {
  expenseFen: number;
  incomeFen: number;
}

/**
 * How one written row counts in 统计, by the ledger's rules (main's net.ts): a refund off
 * spending — unless its purchase is not in yet (待关联) —, a 待报销 expense and a
 * reimbursement not at all, a transfer neither spending nor income.
 */
export function countedFen(r: ImportRowDto): Totals {
  if (r.reimbursable || r.type === 'TRANSFER' || r.flow === 'reimbursement') return { expenseFen: 0, incomeFen: 0 };
  if (r.flow === 'refund') return { expenseFen: r.pendingRefund ? 0 : -r.amountFen, incomeFen: 0 };
  return r.type === 'EXPENSE' ? { expenseFen: r.amountFen, incomeFen: 0 } : { expenseFen: 0, incomeFen: r.amountFen };
}

/** Whether the row is written by 确认导入 as the user has left the preview. */
export function isWritten(r: ImportRowDto, edits: Pick<ImportEdits, 'exclude' | 'restore'>): boolean {
  return r.status === 'new' ? !edits.exclude.has(r.index) : r.status === 'deleted' && edits.restore.has(r.index);
}

/** The preview's 支出 and 收入 after the user's ticks: the ledger's figures, moved by the rows ticked or unticked. */
export function liveTotals(preview: ImportPreview, edits: Pick<ImportEdits, 'exclude' | 'restore'>): Totals {
  let { expenseFen, incomeFen } = preview;
  for (const [indexes, sign] of [
    [edits.restore, 1],
    [edits.exclude, -1],
  ] as const) {
    for (const i of indexes) {
      const counted = countedFen(preview.rows[i]!);
      expenseFen += sign * counted.expenseFen;
      incomeFen += sign * counted.incomeFen;
    }
  }
  return { expenseFen, incomeFen };
}

/** How many 'new' rows each line of the file holds (a line may write a fee or a refund beside its own row). */
export function newRowsPerLine(rows: readonly ImportRowDto[]): Map<number, number> {
  const perLine = new Map<number, number>();
  for (const r of rows) if (r.status === 'new') perLine.set(r.line, (perLine.get(r.line) ?? 0) + 1);
  return perLine;
}

export interface LineCounts {
  /** Lines that will be written. */
  toImport: number;
  /** Lines imported and deleted before that stay out. */
  deleted: number;
  /** Lines the user unticked (every row of the line). */
  unticked: number;
}

/**
 * The summary's line counts after the user's ticks. Lines, not rows, so that every line of
 * the bill is still counted exactly once: a line is unticked when all its rows are.
 */
export function lineCounts(
  preview: ImportPreview,
  perLine: ReadonlyMap<number, number>,
  edits: Pick<ImportEdits, 'exclude' | 'restore'>,
): LineCounts {
  const excludedPerLine = new Map<number, number>();
  for (const i of edits.exclude) {
    const line = preview.rows[i]!.line;
    excludedPerLine.set(line, (excludedPerLine.get(line) ?? 0) + 1);
  }
  let unticked = 0;
  for (const [line, n] of excludedPerLine) if (n === perLine.get(line)) unticked++;
  const restored = new Set([...edits.restore].map((i) => preview.rows[i]!.line)).size;
  return { toImport: preview.toImport - unticked + restored, deleted: preview.deleted - restored, unticked };
}

/** What 确认导入 sends beside the file: only the parts the user changed; undefined when nothing was. */
export function importChoicesOf(preview: ImportPreview, edits: ImportEdits): ImportChoices | undefined {
  const ascending = (a: number, b: number) => a - b;
  const choices: ImportChoices = {};
  if (edits.exclude.size > 0) choices.exclude = [...edits.exclude].sort(ascending);
  if (edits.restore.size > 0) choices.restore = [...edits.restore].sort(ascending);
  // A category chosen on a row that is then left out changes nothing in the ledger.
  const recategorize = [...edits.category]
    .filter(([i]) => isWritten(preview.rows[i]!, edits))
    .sort(([a], [b]) => a - b)
    .map(([index, category]) => ({ index, category, remember: edits.remember.has(index) }));
  if (recategorize.length > 0) choices.recategorize = recategorize;
  return Object.keys(choices).length > 0 ? choices : undefined;
}

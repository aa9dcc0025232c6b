// One person's ledger on 借贷与报销: each row signed by what it does to what they owe the
// user (+ they owe more, − less), in words that say which way the money went, with the
// balance after it. The balance is walked back from the person's current one, so it is
// right even when only the newest rows are listed.
import type { LedgerFlow, TransactionRow } from '@shared/domain';
import { formatFenAmount } from '../../lib/format';

export interface PersonLine {
  id: string;
  date: string;
  words: string;
  note: string;
  /** The change in what they owe the user. */
  deltaFen: number;
  /** What they owe the user after this row (negative: what the user owes them). */
  balanceFen: number;
}

/** The change a row makes in what its person owes the user (as the ledger's triggers count it). */
export function personDeltaFen(flow: LedgerFlow | undefined, amountFen: number): number {
  switch (flow) {
    case 'lend':
    case 'repay':
      return amountFen;
    case 'borrow':
    case 'collect':
    case 'writeoff':
      return -amountFen;
    default:
      return 0;
  }
}

/** 借给小李 / 向小李借 / 还给小李 / 从小李收回 / 记为坏账. */
export function directionWords(flow: LedgerFlow | undefined, name: string): string {
  switch (flow) {
    case 'lend':
      return `借给${name}`;
    case 'borrow':
      return `向${name}借`;
    case 'repay':
      return `还给${name}`;
    case 'collect':
      return `从${name}收回`;
    case 'writeoff':
      return '记为坏账';
    default:
      return '往来';
  }
}

/** `rows` newest first (as listTransactions gives them); the lines in the same order. */
export function personLedger(rows: readonly TransactionRow[], name: string, currentBalanceFen: number): PersonLine[] {
  let after = currentBalanceFen;
  return rows.map((row) => {
    const deltaFen = personDeltaFen(row.flow, row.amountFen);
    const line = {
      id: row.id,
      date: row.date,
      words: directionWords(row.flow, name),
      note: isGenerated(row, name) ? '' : row.description,
      deltaFen,
      balanceFen: after,
    };
    after -= deltaFen;
    return line;
  });
}

/** A write-off's own description (坏账：小李) says nothing the words do not. */
function isGenerated(row: TransactionRow, name: string): boolean {
  return row.flow === 'writeoff' && row.description === `坏账：${name}`;
}

/** 欠我 ¥700.00 / 我欠 ¥3,000.00 / 已还清. */
export function balanceWords(balanceFen: number): string {
  if (balanceFen > 0) return `欠我 ${formatFenAmount(balanceFen)}`;
  if (balanceFen < 0) return `我欠 ${formatFenAmount(-balanceFen)}`;
  return '已还清';
}

// How a reimbursement pays the 待报销 expenses it is given: in the given order, each in full
// while the money lasts, the last one in part when it runs short. Pure: the ledger applies it
// when the payment is saved, the 报销到账 form shows it live while boxes are ticked.

/** A 待报销 expense and what it still waits for. */
export interface Waiting {
  id: string;
  owedFen: number;
}

export interface Allocation {
  /** What the payment pays of each expense, in paying order (the last may be a part). */
  parts: { id: string; fen: number; full: boolean }[];
  settledFen: number;
  /** Paid beyond all the given expenses (多出). */
  leftOverFen: number;
  /** What the given expenses still lack after the payment (还差). */
  stillOwedFen: number;
}

/**
 * `waiting` are the expenses the payment is given. Given none in particular (the ledger's
 * default: every 待报销, oldest first), the expenses the money never reaches were not given
 * and are left out of 还差: 80 against 80 + 600 settles the first exactly, it is not 还差 600.
 */
export function allocate(amountFen: number, waiting: readonly Waiting[], given: 'all' | 'reached' = 'all'): Allocation {
  const parts: Allocation['parts'] = [];
  let left = Math.max(0, amountFen);
  let owed = 0;
  for (const w of waiting) {
    if (w.owedFen <= 0) continue;
    if (left === 0 && given === 'reached') break;
    owed += w.owedFen;
    if (left === 0) continue;
    const fen = Math.min(left, w.owedFen);
    parts.push({ id: w.id, fen, full: fen === w.owedFen });
    left -= fen;
  }
  const settledFen = parts.reduce((n, p) => n + p.fen, 0);
  return { parts, settledFen, leftOverFen: left, stillOwedFen: owed - settledFen };
}

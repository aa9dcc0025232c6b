/** Ledger commands (明细, 统计, 分类/账户, import/export, undo). */
export const LEDGER_COMMANDS = ['listTransactions', 'searchTransactions', 'monthSummary'] as const;

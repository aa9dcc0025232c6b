import type { LEDGER_COMMANDS } from '@shared/ipc/ledger.names';
import { yuanToFen } from '@shared/money';
import { ImportError, LedgerHistory, LedgerRuleError, LedgerValidationError, exportCsv, type Ledger } from '../ledger/index';
import { CommandError, type AreaHandlers } from './types';

type LedgerCommand = (typeof LEDGER_COMMANDS)[number];

export interface LedgerHandlerDeps {
  ledger: Ledger;
  /**
   * Every write goes through the history so it can be undone and is announced to the
   * windows; without one (unit tests of other areas) a private history is used.
   */
  history?: LedgerHistory;
}

/** Turns the ledger's rule errors into command errors whose message the window shows as is. */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof LedgerRuleError || err instanceof ImportError) throw new CommandError(err.code, err.message);
    if (err instanceof LedgerValidationError) throw new CommandError(err.code, err.reason);
    throw err;
  }
}

function fileBytes(base64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new CommandError('validation_failed', '文件内容无效');
  return Buffer.from(base64, 'base64');
}

export function createLedgerHandlers(deps: LedgerHandlerDeps): AreaHandlers<LedgerCommand> {
  const { ledger } = deps;
  const history = deps.history ?? new LedgerHistory(ledger);
  const changed = <T>(fn: () => T): T => {
    const result = guard(fn);
    history.notify('edit');
    return result;
  };
  return {
    listTransactions: (input) => ledger.list(input),
    searchTransactions: (input) => ledger.search(input.query, input.limit),
    monthSummary: (input) => ledger.monthSummary(input.month),
    listDays: (input) => ledger.days(input),
    periodStats: (input) => ledger.periodStats(input),
    updateTransaction: (input) => guard(() => history.updateTransaction(input.id, input.patch)),
    deleteTransactions: (input) => ({ deleted: guard(() => history.remove(input.ids)) }),
    listCategories: () => ledger.listCategories(),
    addCategory: (input) => changed(() => ledger.addCategory(input.name, input.type)),
    renameCategory: (input) => changed(() => ledger.renameCategory(input.id, input.name)),
    setCategoryHidden: (input) => changed(() => ledger.setCategoryHidden(input.id, input.hidden)),
    reorderCategories: (input) => changed(() => ledger.reorderCategories(input.type, input.ids)),
    deleteCategory: (input) => changed(() => (ledger.deleteCategory(input.id), { deleted: true as const })),
    listAccounts: () => ledger.listAccounts(),
    addAccount: (input) => changed(() => ledger.addAccount(input.name, yuanToFen(input.initialBalanceYuan))),
    renameAccount: (input) => changed(() => ledger.renameAccount(input.id, input.name)),
    setDefaultAccount: (input) => changed(() => ledger.setDefaultAccount(input.id)),
    deleteAccount: (input) => changed(() => (ledger.deleteAccount(input.id), { deleted: true as const })),
    exportCsv: (input) => guard(() => exportCsv(ledger, input.filter, { after: input.after ?? null, limit: input.limit })),
    previewImport: (input) => guard(() => history.previewImport(fileBytes(input.dataBase64))),
    commitImport: (input) => guard(() => history.importFile(fileBytes(input.dataBase64))),
    undo: () => guard(() => history.undo()),
    redo: () => guard(() => history.redo()),
    historyState: () => history.state(),
    addTransaction: ({ amountYuan, ...entry }) => guard(() => history.addTransaction({ ...entry, amountFen: yuanToFen(amountYuan) })),
    recentCategories: (input) => ledger.recentCategories(input.type, input.limit),
    accountBalances: () => ledger.accountBalances(),
    archiveAccount: (input) => changed(() => ledger.archiveAccount(input.id, input.archived)),
    setBudgets: (input) =>
      changed(() =>
        ledger.setBudgets(
          input.month,
          input.items.map((i) => ({ categoryId: i.categoryId, amountFen: yuanToFen(i.amountYuan) })),
        ),
      ),
    budgetStatus: (input) => guard(() => ledger.budgetStatus(input.month)),
  };
}

import type { ExportFormat } from '@shared/ipc/ledger';
import type { LEDGER_COMMANDS } from '@shared/ipc/ledger.names';
import { yuanToFen } from '@shared/money';
import { ImportError, LedgerHistory, LedgerRuleError, LedgerValidationError, type Ledger } from '../ledger/index';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { exportFileName, writeExport } from '../ledger/export-file';
import { flowEntryResult } from '../ledger/flow-entry';
import { CommandError, type AreaHandlers } from './types';

type LedgerCommand = (typeof LEDGER_COMMANDS)[number];

export interface LedgerHandlerDeps {
  ledger: Ledger;
  /**
   * Every write goes through the history so it can be undone and is announced to the
   * windows; without one (unit tests of other areas) a private history is used.
   */
  history?: LedgerHistory;
  /**
   * The shell's save dialog, offering `suggestedName`: the path to write, or null when the
   * user closed it. Absent where no shell runs (unit tests): exportFile then says so.
   */
  chooseSavePath?: (suggestedName: string, format: ExportFormat) => Promise<string | null>;
  /** The shell's open dialog for a bill file: its path, or null when the user closed it. */
  chooseOpenPath?: () => Promise<string | null>;
  /** For the export's file name; the wall clock otherwise. */
  now?: () => Date;
}

/** A card's terms as the ledger keeps them: the 额度 in fen (undefined keeps the current one, null clears it). */
function cardTerms(terms: { statementDay: number | null; dueDay: number | null; creditLimitYuan?: number | null | undefined }) {
  const { creditLimitYuan, ...days } = terms;
  return { ...days, creditLimitFen: creditLimitYuan === undefined || creditLimitYuan === null ? creditLimitYuan : yuanToFen(creditLimitYuan) };
}

/** Turns the ledger's rule errors into command errors whose message the window shows as is. */
export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw commandError(err);
  }
}

/** The same for work that settles later (reading an import file). */
export async function guardAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw commandError(err);
  }
}

function commandError(err: unknown): unknown {
  if (err instanceof LedgerRuleError || err instanceof ImportError) return new CommandError(err.code, err.message);
  if (err instanceof LedgerValidationError) return new CommandError(err.code, err.reason);
  return err;
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
    monthSummary: (input) => ledger.monthSummary(input.month, input),
    listDays: (input) => ledger.days(input),
    periodStats: (input) => ledger.periodStats(input),
    updateTransaction: (input) => guard(() => history.updateTransaction(input.id, input.patch)),
    deleteTransactions: (input) => ({ deleted: guard(() => history.remove(input.ids)) }),
    listCategories: () => ledger.listCategories(),
    addCategory: (input) => changed(() => ledger.addCategory(input.name, input.type, input.parentId)),
    setCategoryParent: (input) => changed(() => ledger.setCategoryParent(input.id, input.parentId)),
    listTags: () => ledger.listTags(),
    renameTag: (input) => changed(() => ledger.renameTag(input.id, input.name)),
    deleteTag: (input) => changed(() => ({ deleted: true as const, rows: ledger.deleteTag(input.id) })),
    merchantRules: () => ledger.merchantRules(),
    // A rule is no bookkeeping: nothing to undo, nothing for the other windows to redraw.
    deleteMerchantRule: (input) => guard(() => (ledger.deleteMerchantRule(input.merchant, input.type), { deleted: true as const })),
    renameCategory: (input) => changed(() => ledger.renameCategory(input.id, input.name)),
    setCategoryHidden: (input) => changed(() => ledger.setCategoryHidden(input.id, input.hidden)),
    reorderCategories: (input) => changed(() => ledger.reorderCategories(input.type, input.ids)),
    deleteCategory: (input) => changed(() => ({ deleted: true as const, moved: ledger.deleteCategory(input.id, input.moveTo) })),
    listAccounts: () => ledger.listAccounts(),
    addAccount: (input) => changed(() => ledger.addAccount(input.name, yuanToFen(input.initialBalanceYuan), input.card && cardTerms(input.card))),
    renameAccount: (input) => changed(() => ledger.renameAccount(input.id, input.name)),
    setDefaultAccount: (input) => changed(() => ledger.setDefaultAccount(input.id)),
    deleteAccount: (input) => changed(() => (ledger.deleteAccount(input.id), { deleted: true as const })),
    previewImport: (input) => guardAsync(() => history.previewImport(fileBytes(input.dataBase64))),
    commitImport: (input) => guardAsync(() => history.importFile(fileBytes(input.dataBase64), input.choices)),
    undo: () => guard(() => history.undo()),
    redo: () => guard(() => history.redo()),
    historyState: () => history.state(),
    addTransaction: ({ amountYuan, ...entry }) => guard(() => history.addTransaction({ ...entry, amountFen: yuanToFen(amountYuan) })),
    recentCategories: (input) => ledger.recentCategories(input.type, input.limit),
    accountBalances: () => ledger.accountBalances(),
    archiveAccount: (input) => changed(() => ledger.archiveAccount(input.id, input.archived)),
    listPeople: () => ledger.people(),
    writeOff: (input) => guard(() => history.writeOff(input.personId, input.amountFen, input.note)),
    pendingReimbursements: () => ledger.pendingReimbursements(),
    proposeSettlement: (input) => ledger.proposeSettlement(input.amountFen, input.ids),
    // One row, saved as a confirmed voice card is (so Ctrl+Z takes it back), marked as typed.
    recordFlow: (input) => guard(() => history.saveBatch([flowEntryResult(input)], { source: 'manual' })[0]!),
    refundCandidates: (input) => ledger.refundCandidates(input),
    setCard: (input) => changed(() => ledger.setCard(input.id, input.terms && cardTerms(input.terms))),
    cardStatements: () => guard(() => ledger.cardStatements()),
    cardReminders: (input) => ledger.cardReminders(input.daysAhead),
    setBudgets: (input) =>
      changed(() =>
        ledger.setBudgets(
          input.month,
          input.items.map((i) => ({ categoryId: i.categoryId, amountFen: yuanToFen(i.amountYuan) })),
        ),
      ),
    budgetStatus: (input) => guard(() => ledger.budgetStatus(input.month)),
    exportFile: async (input) => {
      if (!deps.chooseSavePath) throw new CommandError('dialog_unavailable', '无法打开保存对话框，请重启应用后再试。');
      const path = await deps.chooseSavePath(exportFileName(input.format, (deps.now ?? (() => new Date()))()), input.format);
      if (!path) return null;
      try {
        const written = await writeExport(ledger, input.format, input.filter, path);
        return { path, rows: written.rows, pictures: written.pictures, folder: written.folder };
      } catch (err) {
        if (err instanceof LedgerRuleError) throw new CommandError(err.code, err.message);
        throw new CommandError('export_failed', `导出失败：${fileProblem(err)}`);
      }
    },
    openImportFile: async () => {
      if (!deps.chooseOpenPath) throw new CommandError('dialog_unavailable', '无法打开文件对话框，请重启应用后再试。');
      const path = await deps.chooseOpenPath();
      if (!path) return null;
      let bytes: Buffer;
      try {
        if ((await stat(path)).size > MAX_IMPORT_BYTES) throw new CommandError('import_too_large', '文件太大（超过 30 MB），请确认选择的是账单文件');
        bytes = await readFile(path);
      } catch (err) {
        if (err instanceof CommandError) throw err;
        throw new CommandError('import_unreadable', `无法读取文件：${fileProblem(err)}`);
      }
      if (bytes.length === 0) throw new CommandError('import_unreadable', '文件为空');
      return { name: basename(path), dataBase64: bytes.toString('base64') };
    },
  };
}

/** Base64 of this fits the import commands' 40 MB limit. */
const MAX_IMPORT_BYTES = 30 * 1024 * 1024;

/** The OS reason in words a user can act on. */
function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // Windows refuses to replace a file another program holds open, the usual case being Excel.
  if (code === 'EBUSY' || (code === 'EPERM' && process.platform === 'win32')) return '文件正被其他程序（如 Excel）打开，请关闭后重试';
  if (code === 'EACCES' || code === 'EPERM') return '没有权限写入或读取这个位置';
  if (code === 'ENOSPC') return '磁盘空间不足';
  if (code === 'ENOENT') return '文件或文件夹不存在';
  if (code === 'EISDIR') return '选择的是文件夹';
  return err instanceof Error ? err.message : String(err);
}

import type { TransactionType } from '@shared/domain';
import { isTransactionType } from '@shared/domain';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { formatOffset, isCalendarDate, type ZonedNow } from '@shared/time';
import { matchCategory, type CategoryCandidate } from '../categories/index';
import type { Accounts } from './accounts';
import { LedgerRuleError, LedgerValidationError } from './errors';
import type { RawTransaction, TransactionPatch } from './types';

/** One entry of the 记一笔 form. */
export interface ManualEntry {
  amountFen: number;
  type: TransactionType;
  /** A category of `type` by name; absent: the type's fallback (其他, 转账). */
  category?: string;
  /** The local day and time (HH:MM or HH:MM:SS), stored with the user's current offset. */
  date: string;
  time: string;
  /** Absent: the default account. For a TRANSFER, where the money comes from. */
  account?: string;
  note?: string;
  /** A TRANSFER names exactly one of these. */
  toAccount?: string;
  counterparty?: string;
  /** Tags by name, made on first use. */
  tags?: string[];
  /** 待报销: an expense to be paid back (EXPENSE only). */
  reimbursable?: boolean;
}

/** The columns of a form entry, checked; the ledger adds id, currency, source and stamps. */
export interface PreparedEntry {
  amountFen: number;
  type: TransactionType;
  categoryId: number;
  accountId: number;
  description: string;
  occurredAt: string;
  occurredDate: string;
  occurredMs: number;
  toAccountId: number | null;
  counterparty: string;
  /** 1: 待报销 (absent: not). */
  reimbursable?: 0 | 1;
}

const HH_MM_SS = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;
const TYPE_NAMES: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

const invalid = (reason: string) => new LedgerRuleError('invalid_transaction', reason);

/**
 * Checks a form entry. Unlike a voice save nothing is guessed: the category must exist for
 * the type, the accounts must exist and be open (not archived), and a TRANSFER names where
 * the money goes — another account or a counterparty, exactly one — while other types name
 * neither. The time is the user's wall clock, stored with the current offset as saves do.
 */
export function prepareEntry(
  entry: ManualEntry,
  context: { categories: readonly CategoryCandidate[]; accounts: Accounts; now: ZonedNow },
): PreparedEntry {
  if (!Number.isInteger(entry.amountFen) || entry.amountFen <= 0) throw invalid('金额必须大于0');
  if (entry.amountFen > MAX_AMOUNT_YUAN * 100) throw invalid('金额超过上限（1亿元）');
  if (!isTransactionType(entry.type)) throw invalid(`类型无效（${String(entry.type)}）`);
  if (!isCalendarDate(entry.date)) throw invalid(`日期无效（${entry.date}）`);
  if (!HH_MM_SS.test(entry.time)) throw invalid(`时间无效（${entry.time}）`);
  const wanted = entry.category?.trim();
  const category = wanted
    ? context.categories.find((c) => c.type === entry.type && c.name === wanted)
    : matchCategory(null, entry.type, context.categories);
  if (!category) throw invalid(wanted ? `没有名为「${wanted}」的${TYPE_NAMES[entry.type]}分类` : '没有可用的分类');
  const open = context.accounts.openIds();
  const openAccount = (name: string) => {
    const found = open.get(name.trim());
    if (found === undefined) throw invalid(context.accounts.ids().has(name.trim()) ? `账户「${name.trim()}」已归档` : `账户不存在（${name}）`);
    return found;
  };
  const accountId = entry.account ? openAccount(entry.account) : context.accounts.defaultId();
  let toAccountId: number | null = null;
  let counterparty = '';
  if (entry.type === 'TRANSFER') {
    const named = (entry.toAccount ? 1 : 0) + (entry.counterparty?.trim() ? 1 : 0);
    if (named !== 1) throw invalid('转账需要填写转入账户或对方（二选一）');
    if (entry.toAccount) toAccountId = openAccount(entry.toAccount);
    else counterparty = entry.counterparty!.trim().slice(0, 50);
    if (toAccountId === accountId) throw invalid('转出和转入不能是同一个账户');
  } else if (entry.toAccount || entry.counterparty) {
    throw invalid('只有转账才有转入账户或对方');
  }
  if (entry.reimbursable && entry.type !== 'EXPENSE') throw invalid('只有支出可以标记待报销');
  const occurredAt = `${entry.date}T${entry.time.length === 5 ? `${entry.time}:00` : entry.time}${formatOffset(context.now.offsetMinutes)}`;
  return {
    amountFen: entry.amountFen,
    type: entry.type,
    categoryId: category.id,
    accountId,
    description: (entry.note ?? '').trim().slice(0, 200),
    occurredAt,
    occurredDate: entry.date,
    occurredMs: Date.parse(occurredAt),
    toAccountId,
    counterparty,
    ...(entry.reimbursable ? { reimbursable: 1 as const } : {}),
  };
}

/**
 * Where an edited row's money goes: only a TRANSFER keeps (or gets) a to-account or a
 * counterparty, so an edit to another type drops them.
 */
export function editedTarget(
  type: TransactionType,
  patch: TransactionPatch,
  current: Pick<RawTransaction, 'account_id' | 'to_account_id' | 'counterparty'>,
  accountId: number | undefined,
  accountIds: ReadonlyMap<string, number>,
): { toAccountId: number | null; counterparty: string } {
  if (type !== 'TRANSFER') return { toAccountId: null, counterparty: '' };
  let target = { toAccountId: current.to_account_id, counterparty: current.counterparty };
  if (patch.toAccount !== undefined) {
    const toAccountId = accountIds.get(patch.toAccount);
    if (toAccountId === undefined) throw new LedgerValidationError(0, `账户不存在（${patch.toAccount}）`);
    target = { toAccountId, counterparty: '' };
  } else if (patch.counterparty !== undefined) {
    target = { toAccountId: null, counterparty: patch.counterparty.trim().slice(0, 50) };
  }
  if (target.toAccountId !== null && target.toAccountId === (accountId ?? current.account_id)) {
    throw new LedgerValidationError(0, '转出和转入不能是同一个账户');
  }
  return target;
}

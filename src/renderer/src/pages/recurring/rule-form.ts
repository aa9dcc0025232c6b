// The 周期记账 page's pure parts: how a rule is shown (amount, next date, mode) and the rule
// form's fields to and from the commands' inputs.
import type { RecurrenceEvery, TransactionType } from '@shared/domain';
import type { CommandInput } from '@shared/ipc/index';
import type { RecurringMode, RecurringRuleInfo } from '@shared/recurrence';
import { weekday } from '@shared/recurrence';
import { amountPreview } from '../../lib/entry/entry';
import { amountInputText, formatDate, formatMoney } from '../../lib/format';

export type AddRequest = CommandInput<'addRecurring'>;
export type RulePatch = CommandInput<'updateRecurring'>['patch'];

export const MODE_LABELS: Record<RecurringMode, string> = { save: '自动记账', draft: '提醒确认' };
export const EVERY_LABELS: Record<RecurrenceEvery, string> = { day: '每天', week: '每周', month: '每月', year: '每年' };
export const WEEKDAY_LABELS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'] as const;

/** ¥3,000.00: a rule's amount, as every screen writes money. */
export function ruleAmount(fen: number): string {
  return formatMoney(fen);
}

/** 下次 今天 / 12月5日 / 2027年1月5日; 已结束 when nothing is to come. */
export function nextText(rule: Pick<RecurringRuleInfo, 'nextDate'>, today: string): string {
  return rule.nextDate === null ? '已结束' : `下次 ${formatDate(rule.nextDate, today)}`;
}

/** An offer's day: 今天, 昨天, 3月5日, with the year when it is not this year's. */
export function dayText(date: string, today: string): string {
  return formatDate(date, today);
}

/** The month (1–12) and day (1–31) of a YYYY-MM-DD day, as the form's pickers hold them. */
function monthAndDay(date: string): { month: number; day: number } {
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  return { month, day };
}

export type EndKind = 'never' | 'date' | 'count';

/** The form as the user fills it: text where the user types, numbers where they pick. */
export interface RuleFields {
  type: TransactionType;
  amount: string;
  category: string;
  account: string;
  toAccount: string;
  description: string;
  every: RecurrenceEvery;
  /** 1 = 周一 … 7 = 周日. */
  weekday: number;
  /** 1–31, or -1 for 月末. */
  monthDay: number;
  month: number;
  start: string;
  endKind: EndKind;
  end: string;
  count: string;
  mode: RecurringMode;
}

/** A new rule's form: monthly on today's day from today, said by the user's default account. */
export function blankFields(today: string, account: string): RuleFields {
  return {
    type: 'EXPENSE',
    amount: '',
    category: '',
    account,
    toAccount: '',
    description: '',
    every: 'month',
    weekday: weekday(today),
    monthDay: monthAndDay(today).day,
    month: monthAndDay(today).month,
    start: today,
    endKind: 'never',
    end: '',
    count: '',
    mode: 'save',
  };
}

/** A rule's form for 编辑: the rule as stored (its day and month are always complete). */
export function fieldsOf(rule: RecurringRuleInfo): RuleFields {
  return {
    type: rule.type,
    amount: amountInputText(rule.amountFen),
    category: rule.category,
    account: rule.account,
    toAccount: rule.toAccount ?? '',
    description: rule.description,
    every: rule.rule.every,
    weekday: rule.rule.every === 'week' ? (rule.rule.day ?? 1) : weekday(rule.start),
    monthDay: rule.rule.every === 'month' || rule.rule.every === 'year' ? (rule.rule.day ?? 1) : monthAndDay(rule.start).day,
    month: rule.rule.month ?? monthAndDay(rule.start).month,
    start: rule.start,
    endKind: rule.end ? 'date' : rule.count ? 'count' : 'never',
    end: rule.end ?? '',
    count: rule.count ? String(rule.count) : '',
    mode: rule.mode,
  };
}

export type FieldName = 'amount' | 'category' | 'start' | 'end' | 'count' | 'toAccount';
export type RuleCheck = { ok: true; request: AddRequest } | { ok: false; field: FieldName; error: string };

/** The addRecurring input the form says, or the first field in the way and why. */
export function ruleRequest(f: RuleFields): RuleCheck {
  const amount = amountPreview(f.amount);
  if (!amount.ok) return { ok: false, field: 'amount', error: amount.error };
  if (f.type !== 'TRANSFER' && !f.category) return { ok: false, field: 'category', error: '请选择分类' };
  if (f.type === 'TRANSFER' && !f.toAccount) return { ok: false, field: 'toAccount', error: '请选择转入账户' };
  if (!f.start) return { ok: false, field: 'start', error: '请选择开始日期' };
  let end: { endDate?: string; maxCount?: number } = {};
  if (f.endKind === 'date') {
    if (!f.end) return { ok: false, field: 'end', error: '请选择结束日期' };
    if (f.end < f.start) return { ok: false, field: 'end', error: '结束日期早于开始日期' };
    end = { endDate: f.end };
  } else if (f.endKind === 'count') {
    const count = Number(f.count.trim());
    if (!Number.isInteger(count) || count < 1 || count > 10_000) return { ok: false, field: 'count', error: '次数应为1到10000之间的整数' };
    end = { maxCount: count };
  }
  const recurrence =
    f.every === 'day'
      ? { every: f.every }
      : f.every === 'week'
        ? { every: f.every, day: f.weekday }
        : f.every === 'month'
          ? { every: f.every, day: f.monthDay }
          : { every: f.every, month: f.month, day: f.monthDay };
  return {
    ok: true,
    request: {
      type: f.type,
      amountYuan: amount.fen / 100,
      ...(f.type !== 'TRANSFER' && f.category ? { category: f.category } : {}),
      ...(f.account ? { account: f.account } : {}),
      ...(f.type === 'TRANSFER' ? { toAccount: f.toAccount } : {}),
      description: f.description.trim(),
      recurrence,
      startDate: f.start,
      ...end,
      mode: f.mode,
    },
  };
}

/**
 * An edit as a patch of what changed only: a schedule sent unchanged would restart the
 * rule's dates from today (the ledger's rule for an edit of when it falls due).
 */
export function rulePatch(rule: RecurringRuleInfo, request: AddRequest): RulePatch {
  const patch: RulePatch = {};
  if (request.type !== rule.type) patch.type = request.type;
  if (Math.round(request.amountYuan * 100) !== rule.amountFen) patch.amountYuan = request.amountYuan;
  if (request.category !== undefined && request.category !== rule.category) patch.category = request.category;
  if (request.account !== undefined && request.account !== rule.account) patch.account = request.account;
  if ((request.toAccount ?? null) !== (rule.toAccount ?? null)) patch.toAccount = request.toAccount ?? null;
  if ((request.description ?? '') !== rule.description) patch.description = request.description ?? '';
  if (JSON.stringify(request.recurrence) !== JSON.stringify(rule.rule)) patch.recurrence = request.recurrence;
  if (request.startDate !== rule.start) patch.startDate = request.startDate;
  const endDate = request.endDate ?? null;
  const maxCount = request.maxCount ?? null;
  // A new end replaces the other kind: the one not chosen is cleared in the same patch.
  if (endDate !== rule.end || maxCount !== rule.count) {
    patch.endDate = endDate;
    patch.maxCount = maxCount;
  }
  if (request.mode !== undefined && request.mode !== rule.mode) patch.mode = request.mode;
  return patch;
}

import { z } from 'zod';
import type { TransactionRow } from '../domain';
import { RECURRENCE_PERIODS } from '../domain';
import { recurrenceProblem, type RecurringDraft, type RecurringRuleInfo } from '../recurrence';
import { calendarDate, yuanAmount } from './fields';
import type { RECURRING_COMMANDS } from './recurring.names';

const id = z.number().int().positive('规则无效');
const txType = z.enum(['EXPENSE', 'INCOME', 'TRANSFER'], '类型只能是支出、收入或转账');
const name50 = z.string().trim().min(1, '名称不能为空').max(50, '名称最多50个字');
const description = z.string().max(200, '备注最多200个字');

/**
 * When a rule falls due: every day, week (day: weekday 1–7), month (day: 1–31 or -1 for
 * 月末) or year (month and day). A day left out is the start date's. The ledger says the
 * same with the same sentences; refusing here keeps a bad rule from reaching it.
 */
export const recurrenceInput = z
  .object({
    every: z.enum(RECURRENCE_PERIODS, '重复周期只能是每天、每周、每月或每年'),
    day: z.number().int('日期应为整数').optional(),
    month: z.number().int('月份应为整数').optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const problem = recurrenceProblem(rule);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A rule's end: a last day, or a number of occurrences (at most 10 000), or neither. */
const endDate = calendarDate.nullable();
const maxCount = z.number().int('次数应为整数').min(1, '次数至少是1次').max(10_000, '次数最多10000次').nullable();
const mode = z.enum(['save', 'draft'], '记账方式只能是自动记账或提醒确认');

/** The fields of a rule as the 周期记账 form sends them; amounts in yuan, like 记一笔's. */
const ruleFields = {
  type: txType,
  amountYuan: yuanAmount,
  category: name50.optional(),
  account: name50.optional(),
  /** TRANSFER only: the user's account the money goes to. */
  toAccount: name50.nullable().optional(),
  description: description.optional(),
  recurrence: recurrenceInput,
  startDate: calendarDate,
  endDate: endDate.optional(),
  maxCount: maxCount.optional(),
  mode: mode.default('save'),
};

const oneEnd = (input: { endDate?: string | null | undefined; maxCount?: number | null | undefined }) =>
  input.endDate == null || input.maxCount == null;
const ONE_END = { message: '结束日期和次数只能选一个', path: ['maxCount'] };

/** An occurrence's key: the rule's key, a colon, the day (「r0123456789abcdef:2026-03-05」). */
const recurrenceKey = z
  .string()
  .max(80, '周期记账的标识无效')
  .regex(/^r[0-9a-f]{16}:\d{4}-\d{2}-\d{2}$/, '周期记账的标识无效');

export const recurringSchemas = {
  listRecurring: z.object({}).strict(),
  /** A new rule; an occurrence already due (today, or a start in the past) is made at once. */
  addRecurring: z.object(ruleFields).strict().refine(oneEnd, ONE_END),
  /** Changes some fields; a change of when it falls due takes effect from today. null clears an end. */
  updateRecurring: z
    .object({
      id,
      patch: z
        .object({ ...ruleFields, mode })
        .partial()
        .strict()
        .refine(oneEnd, ONE_END),
    })
    .strict(),
  /** Resuming goes on from today, without what fell due while paused. */
  setRecurringPaused: z.object({ id, paused: z.boolean() }).strict(),
  /** The entries the rule made stay. */
  deleteRecurring: z.object({ id }).strict(),
  /** The offers of draft-mode rules waiting for 记上 or 忽略, oldest first. */
  recurringDrafts: z.object({}).strict(),
  /** 记上: saves an offer (as offered, or with the user's changes) exactly once. */
  confirmRecurringDraft: z
    .object({
      recurrenceKey,
      amountYuan: yuanAmount.optional(),
      category: name50.optional(),
      account: name50.optional(),
      description: description.optional(),
    })
    .strict(),
  /** 忽略: the offer goes and never comes back; nothing is saved. */
  dismissRecurringDraft: z.object({ recurrenceKey }).strict(),
} satisfies Record<(typeof RECURRING_COMMANDS)[number], z.ZodType>;

export type { RecurringDraft, RecurringRuleInfo } from '../recurrence';

export interface RecurringOutputs {
  listRecurring: RecurringRuleInfo[];
  addRecurring: RecurringRuleInfo;
  updateRecurring: RecurringRuleInfo;
  setRecurringPaused: RecurringRuleInfo;
  deleteRecurring: { deleted: true };
  recurringDrafts: RecurringDraft[];
  confirmRecurringDraft: TransactionRow;
  dismissRecurringDraft: { dismissed: true };
}

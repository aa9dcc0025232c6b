// Prompt templates live in ./prompts/*.prompt.ts (plain text in a template literal, so the
// same files work under tsx, vitest and the bundled Electron main process). They are checked
// once at start: a template that lost a required placeholder fails loudly, not at request time.
import { PRESET_CATEGORIES } from '@shared/categories';
import type { CustomCategory, ParseContext, WireBatchItem } from '@shared/gateway';
import { addDays, localDate, type ZonedNow } from '@shared/time';
import correctTemplate from './prompts/correct-transaction.prompt';
import parseTemplate from './prompts/parse-transaction.prompt';

export interface PromptTemplates {
  parse: string;
  correct: string;
}

const REQUIRED: Record<keyof PromptTemplates, string[]> = {
  parse: ['today', 'weekday', 'calendar', 'expenseCategories', 'incomeCategories', 'customCategories'],
  correct: ['today', 'weekday', 'calendar', 'batchContext'],
};

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

export function loadPrompts(templates: PromptTemplates = { parse: parseTemplate, correct: correctTemplate }): PromptTemplates {
  for (const key of Object.keys(REQUIRED) as (keyof PromptTemplates)[]) {
    const present = new Set([...templates[key].matchAll(PLACEHOLDER)].map((m) => m[1]));
    const missing = REQUIRED[key].filter((name) => !present.has(name));
    if (missing.length) throw new Error(`prompt "${key}" lacks placeholders: ${missing.join(', ')}`);
  }
  return templates;
}

/** Fills {{name}} placeholders; an unknown placeholder is a bug in the template. */
export function renderPrompt(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`prompt placeholder {{${name}}} has no value`);
    return value;
  });
}

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const SHORT_WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

function weekdayOf(ymd: string): number {
  return new Date(`${ymd}T00:00:00Z`).getUTCDay();
}

/** This week and last week (Monday to Sunday), so the model need not do date arithmetic. */
export function calendarLines(today: string): string {
  const mondayOffset = (weekdayOf(today) + 6) % 7;
  const thisMonday = addDays(today, -mondayOffset);
  const week = (monday: string) =>
    Array.from({ length: 7 }, (_, i) => {
      const day = addDays(monday, i);
      return `${SHORT_WEEKDAYS[weekdayOf(day)]} ${day}`;
    }).join(', ');
  return [
    `本周: ${week(thisMonday)}`,
    `上周: ${week(addDays(thisMonday, -7))}`,
    `昨天 ${addDays(today, -1)}, 前天 ${addDays(today, -2)}, 大前天 ${addDays(today, -3)}`,
  ].join('\n');
}

function list(values: readonly string[] | undefined): string {
  return values && values.length ? values.join('、') : '(none)';
}

function customNames(custom: readonly CustomCategory[] | undefined): string {
  if (!custom?.length) return '(none)';
  return custom
    .map((c) => (typeof c === 'string' ? c : `${c.name}(${c.type === 'INCOME' ? '收入' : c.type === 'TRANSFER' ? '转账' : '支出'})`))
    .join('、');
}

/** Values shared by both prompts: the date facts and the category lists. */
export function commonValues(now: ZonedNow, context: ParseContext | null | undefined): Record<string, string> {
  const today = localDate(now);
  const visible = PRESET_CATEGORIES.filter((c) => !c.hidden);
  return {
    today,
    weekday: WEEKDAYS[weekdayOf(today)]!,
    calendar: calendarLines(today),
    expenseCategories: list(visible.filter((c) => c.type === 'EXPENSE').map((c) => c.name)),
    incomeCategories: list(visible.filter((c) => c.type === 'INCOME').map((c) => c.name)),
    customCategories: customNames(context?.customCategories),
    recentCategories: list(context?.recentCategories),
    accounts: list(context?.accounts?.length ? context.accounts : ['钱包']),
  };
}

const TYPE_WORDS = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' } as const;

/** The batch as numbered lines, e.g. `1: 支出 30元, 交通, 打车, 2026-02-17`. */
export function batchContext(items: readonly WireBatchItem[]): string {
  return items
    .map((item) => {
      const parts = [
        `${item.type ? TYPE_WORDS[item.type] : '类型未知'} ${item.amount ?? '?'}元`,
        item.category ?? '未分类',
        item.description || '(无描述)',
      ];
      if (item.date) parts.push(item.date);
      return `${item.index}: ${parts.join(', ')}`;
    })
    .join('\n');
}

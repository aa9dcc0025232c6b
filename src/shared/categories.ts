import type { TransactionType } from './domain';

// The preset categories of the original app (spec/README.md). Hidden presets exist but are
// not offered in pickers until the user un-hides them.
export interface PresetCategory {
  name: string;
  type: TransactionType;
  hidden: boolean;
}

export const PRESET_CATEGORIES: readonly PresetCategory[] = [
  ...['餐饮', '交通', '购物', '账单', '娱乐', '医疗', '教育', '住房', '人情往来', '其他'].map((name) => ({
    name,
    type: 'EXPENSE' as const,
    hidden: false,
  })),
  { name: '宠物', type: 'EXPENSE', hidden: true },
  { name: '旅行', type: 'EXPENSE', hidden: true },
  ...['工资', '奖金', '兼职', '红包', '其他'].map((name) => ({ name, type: 'INCOME' as const, hidden: false })),
  // Transfers have no category of their own in the original; one bucket keeps saves valid.
  { name: '转账', type: 'TRANSFER', hidden: false },
];

export const OTHER_CATEGORY = '其他';
export const DEFAULT_ACCOUNT = '钱包';
export const DEFAULT_CURRENCY = 'CNY';

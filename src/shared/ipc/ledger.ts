import { z } from 'zod';
import type { TransactionRow, TransactionType } from '../domain';
import type { LEDGER_COMMANDS } from './ledger.names';

export const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '应为 YYYY-MM-DD');
export const txType = z.enum(['EXPENSE', 'INCOME', 'TRANSFER']);

export const ledgerSchemas = {
  listTransactions: z
    .object({
      from: ymd.optional(),
      to: ymd.optional(),
      limit: z.number().int().min(1).max(500).default(50),
      offset: z.number().int().min(0).default(0),
      type: txType.optional(),
      category: z.string().max(50).optional(),
    })
    .strict(),
  searchTransactions: z
    .object({
      query: z.string().trim().min(1).max(100),
      limit: z.number().int().min(1).max(500).default(50),
    })
    .strict(),
  monthSummary: z
    .object({
      month: z.string().regex(/^\d{4}-\d{2}$/, '应为 YYYY-MM'),
    })
    .strict(),
} satisfies Record<(typeof LEDGER_COMMANDS)[number], z.ZodType>;

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface CategoryTotal {
  type: TransactionType;
  category: string;
  totalFen: number;
  count: number;
}

export interface MonthSummary {
  month: string;
  expenseFen: number;
  incomeFen: number;
  transferFen: number;
  byCategory: CategoryTotal[];
}

export interface LedgerOutputs {
  listTransactions: Page<TransactionRow>;
  searchTransactions: TransactionRow[];
  monthSummary: MonthSummary;
}

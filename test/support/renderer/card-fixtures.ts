import type { DraftBatchDto, DraftStatus, ParseResult } from '@shared/domain';

/** Test data: a batch as the orchestrator would send it. */
export function batchOf(results: Partial<ParseResult>[], statuses: DraftStatus[] = []): DraftBatchDto {
  return {
    createdAt: '2026-02-17T12:00:00+08:00',
    items: results.map((partial, index) => ({
      index,
      status: statuses[index] ?? 'pending',
      result: {
        amount: 60,
        type: 'EXPENSE',
        category: '餐饮',
        description: '吃饭',
        date: null,
        account: null,
        confidence: 0.9,
        source: 'llm',
        ...partial,
      },
    })),
  };
}

export const FOUR = [
  { amount: 60, type: 'EXPENSE', category: '餐饮', description: '吃饭' },
  { amount: 60, type: 'EXPENSE', category: '其他', description: '洗脚' },
  { amount: 30, type: 'INCOME', category: '红包', description: '抢红包' },
  { amount: 90, type: 'INCOME', category: '工资', description: '工资' },
] satisfies Partial<ParseResult>[];

import type { TransactionType } from '@shared/domain';
import type { CategoryTotal } from '@shared/ipc/ledger';

export interface Slice {
  label: string;
  /** The category to filter the list by; null for the merged remainder. */
  category: string | null;
  totalFen: number;
  /** Share of the type's total, 0..1. */
  share: number;
}

/**
 * The donut's slices: the largest `top` categories of one type, and everything else merged
 * into one 其他 slice (together with the real 其他 category when it is not in the top).
 */
export function topCategories(byCategory: readonly CategoryTotal[], type: TransactionType, top = 5): Slice[] {
  const ofType = byCategory.filter((c) => c.type === type).sort((a, b) => b.totalFen - a.totalFen);
  const total = ofType.reduce((n, c) => n + c.totalFen, 0);
  if (total === 0) return [];
  const head = ofType.length > top + 1 ? ofType.slice(0, top) : ofType;
  const rest = ofType.slice(head.length);
  const slices: Slice[] = head.map((c) => ({ label: c.category, category: c.category, totalFen: c.totalFen, share: c.totalFen / total }));
  if (rest.length > 0) {
    const restFen = rest.reduce((n, c) => n + c.totalFen, 0);
    slices.push({ label: `其他（${rest.length}类）`, category: null, totalFen: restFen, share: restFen / total });
  }
  return slices;
}

export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

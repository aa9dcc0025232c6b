// Categories are two levels deep (餐饮 › 早餐). The ledger sends them flat with a parentId;
// every picker and list shows them as a tree: each top-level category followed by its children.
import type { TransactionType } from '@shared/domain';
import type { CategoryInfo } from '@shared/ipc/ledger';

export interface TreeLine {
  category: CategoryInfo;
  /** 0: top level; 1: a sub-category, shown indented under its parent. */
  depth: 0 | 1;
  parent: CategoryInfo | null;
}

const byOrder = (a: CategoryInfo, b: CategoryInfo) => a.sortOrder - b.sortOrder || a.id - b.id;

/**
 * The categories (of one type, or all of them type by type) in tree order. A child whose
 * parent is missing from `all` is shown at the top level rather than lost.
 */
export function categoryTree(all: readonly CategoryInfo[], type?: TransactionType): TreeLine[] {
  const pool = type ? all.filter((c) => c.type === type) : all;
  const ids = new Map(pool.map((c) => [c.id, c]));
  const parentOf = (c: CategoryInfo) => (c.parentId === null ? null : (ids.get(c.parentId) ?? null));
  const types = [...new Set(pool.map((c) => c.type))];
  const lines: TreeLine[] = [];
  for (const t of types) {
    const ofType = pool.filter((c) => c.type === t).sort(byOrder);
    for (const top of ofType.filter((c) => !parentOf(c))) {
      lines.push({ category: top, depth: 0, parent: null });
      for (const child of ofType.filter((c) => parentOf(c) === top)) lines.push({ category: child, depth: 1, parent: top });
    }
  }
  return lines;
}

/** Hidden itself or under a hidden parent: pickers leave it out, as they do a hidden one. */
export function hiddenInTree(line: TreeLine): boolean {
  return line.category.hidden || !!line.parent?.hidden;
}

/** 「餐饮 › 早餐」 for a sub-category's row, the plain name otherwise. */
export function categoryPath(category: string, parent?: string | null): string {
  return parent ? `${parent} › ${category}` : category;
}

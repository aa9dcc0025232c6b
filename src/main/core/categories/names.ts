import type { TransactionType } from '@shared/domain';
import { OTHER_CATEGORY } from '@shared/categories';

export interface CategoryCandidate {
  id: number;
  name: string;
  type: TransactionType;
  sortOrder: number;
}

/**
 * Maps a spoken or LLM-given category onto the user's categories of the same type:
 * exact name → one name containing the other → most shared characters → that type's 其他.
 * The LLM invents near-synonyms (饮品 for 餐饮); an unknown name must still land somewhere
 * the user can find and fix, never be rejected.
 */
export function matchCategory<C extends CategoryCandidate>(
  wanted: string | null | undefined,
  type: TransactionType,
  candidates: readonly C[],
): C | undefined {
  const sameType = candidates.filter((c) => c.type === type).sort((a, b) => a.sortOrder - b.sortOrder);
  const fallback = sameType.find((c) => c.name === OTHER_CATEGORY) ?? sameType[0];
  const name = wanted?.trim();
  if (!name) return fallback;
  const exact = sameType.find((c) => c.name === name);
  if (exact) return exact;
  const contained = sameType.find((c) => c.name !== OTHER_CATEGORY && (c.name.includes(name) || name.includes(c.name)));
  if (contained) return contained;
  let best: C | undefined;
  let bestShared = 0;
  for (const c of sameType) {
    if (c.name === OTHER_CATEGORY) continue;
    const shared = [...new Set(c.name)].filter((ch) => name.includes(ch)).length;
    if (shared > bestShared) {
      best = c;
      bestShared = shared;
    }
  }
  return best ?? fallback;
}

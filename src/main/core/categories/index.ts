// Category choice, in one place: which of the user's categories an item lands in, whether
// its words came from the local parser, the LLM, a correction, a CSV import or the ledger.
import type { TransactionType } from '../../../shared/domain';
import type { CategoryRef } from '../nlp/categories-lexicon';
import { categoryOfType } from '../voice/recategorize';

export { matchCategory, type CategoryCandidate } from '../ledger/category-match';
export { categoryOfType, withCategoryForType } from '../voice/recategorize';
export { matchCategoryWord, type CategoryMatch, type CategoryRef } from '../nlp/categories-lexicon';

/**
 * The category the ledger will file an item under, so what is read back is what gets saved:
 * a word the model made up is first placed by the item's words, then by the ledger's
 * `place` (the user's own categories). The ledger's own name (a renamed preset too) is kept.
 */
export function chooseCategory(
  name: string,
  description: string,
  type: TransactionType,
  customCategories: readonly CategoryRef[],
  place: (name: string, type: TransactionType) => string,
): string {
  if (place(name, type) === name) return name;
  const known = categoryOfType(name, description, type, customCategories) ?? name;
  return place(known, type);
}

// A correction that flips the type (「改为收入」) rarely names a category, but the old one
// usually belongs to the other type: 餐饮 is no income. Left alone, the card would read back
// 「收入60元，餐饮」 and the ledger would quietly file it under 其他, a category the user never
// heard. So the category is re-derived for the new type from the item's own words.
import { OTHER_CATEGORY, PRESET_CATEGORIES } from '../../../shared/categories';
import type { ParseResult, TransactionType, UpdatedFields } from '../../../shared/domain';
import { matchCategoryWord, type CategoryRef } from '../nlp/categories-lexicon';

/** Presets that are the same money seen from the other side. */
const COUNTERPARTS: Readonly<Record<string, Partial<Record<TransactionType, string>>>> = {
  红包: { EXPENSE: '人情往来' },
  人情往来: { INCOME: '红包' },
};

export function withCategoryForType(
  current: ParseResult,
  fields: UpdatedFields,
  customCategories: readonly CategoryRef[] = [],
): UpdatedFields {
  const type = fields.type;
  if (!type || type === current.type || fields.category !== undefined) return fields;
  const known: readonly CategoryRef[] = [...PRESET_CATEGORIES, ...customCategories];
  if (current.category && known.some((c) => c.name === current.category && c.type === type)) return fields;
  const counterpart = current.category ? COUNTERPARTS[current.category]?.[type] : undefined;
  if (counterpart) return { ...fields, category: counterpart };
  const words = `${current.description}${current.category ?? ''}`.toLowerCase();
  const match = matchCategoryWord(words, customCategories, (c) => c.type === type);
  return { ...fields, category: match?.name ?? fallbackCategory(type, known) };
}

function fallbackCategory(type: TransactionType, known: readonly CategoryRef[]): string {
  const sameType = known.filter((c) => c.type === type);
  return (sameType.find((c) => c.name === OTHER_CATEGORY) ?? sameType[0])?.name ?? OTHER_CATEGORY;
}

// The category an item is filed under when its words or its type changed hands: the LLM's
// near-synonym, a correction that flips the type, the ledger's own list.
import { OTHER_CATEGORY, PRESET_CATEGORIES } from '@shared/categories';
import type { ParseResult, TransactionType, UpdatedFields } from '@shared/domain';
import { matchCategoryWord, type CategoryRef } from './keywords';

/** Presets that are the same money seen from the other side. */
const COUNTERPARTS: Readonly<Record<string, Partial<Record<TransactionType, string>>>> = {
  红包: { EXPENSE: '人情往来' },
  人情往来: { INCOME: '红包' },
};

/**
 * A correction that flips the type (「改为收入」) rarely names a category, but the old one
 * usually belongs to the other type: 餐饮 is no income. Left alone, the card would read back
 * 「收入60元，餐饮」 and the ledger would quietly file it under 其他, a category the user never
 * heard. So the category is re-derived for the new type from the item's own words.
 */
export function withCategoryForType(current: ParseResult, fields: UpdatedFields, customCategories: readonly CategoryRef[] = []): UpdatedFields {
  const type = fields.type;
  if (!type || type === current.type || fields.category !== undefined) return fields;
  const category = categoryOfType(current.category, current.description, type, customCategories);
  return category === current.category ? fields : { ...fields, category: category ?? fallbackCategory(type, customCategories) };
}

/**
 * A category of `type` for an item: its own when the presets or the user's list have it for
 * that type, else the counterpart (红包 ↔ 人情往来), else what the lexicon finds in its words
 * (the model's 饮品 for 奶茶 → 餐饮, 洗浴 → 娱乐); null when nothing fits.
 */
export function categoryOfType(
  category: string | null,
  description: string,
  type: TransactionType,
  customCategories: readonly CategoryRef[] = [],
): string | null {
  const known: readonly CategoryRef[] = [...PRESET_CATEGORIES, ...customCategories];
  if (category && known.some((c) => c.name === category && c.type === type)) return category;
  const counterpart = category ? COUNTERPARTS[category]?.[type] : undefined;
  if (counterpart) return counterpart;
  const words = `${description}${category ?? ''}`.toLowerCase();
  return matchCategoryWord(words, customCategories, (c) => c.type === type)?.name ?? null;
}

function fallbackCategory(type: TransactionType, customCategories: readonly CategoryRef[]): string {
  const sameType = [...PRESET_CATEGORIES, ...customCategories].filter((c) => c.type === type);
  return (sameType.find((c) => c.name === OTHER_CATEGORY) ?? sameType[0])?.name ?? OTHER_CATEGORY;
}

/**
 * The category the ledger will file an item under, so what is read back is what gets saved:
 * a word the model made up is first placed by the item's words, then by the ledger's
 * `place` (the user's own categories, never a hidden one). The ledger's own shown name (a
 * renamed preset too) is kept.
 */
export function chooseCategory(
  name: string,
  description: string,
  type: TransactionType,
  customCategories: readonly CategoryRef[],
  place: (name: string, type: TransactionType, words: string) => string,
): string {
  if (place(name, type, description) === name) return name;
  const known = categoryOfType(name, description, type, customCategories) ?? name;
  return place(known, type, description);
}

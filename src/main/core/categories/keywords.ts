// Which category a text's words talk about: 打车 → 交通, 奶茶 → 餐饮, 改成交通 → 交通. The words
// are the tables of src/main/core/nlp/lexicon/categories.ts. Longest keyword wins; on equal length
// the earlier mention wins, then the order of the tables.
import type { TransactionType } from '@shared/domain';
import { OTHER_CATEGORY, PRESET_CATEGORIES } from '@shared/categories';
import { EXPENSE_CATEGORY_WORDS, INCOME_CATEGORY_WORDS, type CategoryWords } from '../nlp/lexicon/categories';

export interface CategoryRef {
  name: string;
  type: TransactionType;
}

/** A lexicon word and the preset category it files under (打车 → 交通). */
export interface CategoryKeyword {
  word: string;
  category: CategoryRef;
}

type Keyword = CategoryKeyword;

function buildKeywords(): Keyword[] {
  const list: Keyword[] = [];
  const add = (table: CategoryWords, type: TransactionType) => {
    for (const [name, words] of Object.entries(table)) {
      for (const word of [name, ...words]) list.push({ word, category: { name, type } });
    }
  };
  add(EXPENSE_CATEGORY_WORDS, 'EXPENSE');
  add(INCOME_CATEGORY_WORDS, 'INCOME');
  for (const preset of PRESET_CATEGORIES) {
    if (preset.name === OTHER_CATEGORY) continue;
    if (!list.some((k) => k.word === preset.name && k.category.type === preset.type)) {
      list.push({ word: preset.name, category: { name: preset.name, type: preset.type } });
    }
  }
  return list;
}

/** Keywords indexed by first character, longest first within each bucket. */
export class KeywordIndex {
  private readonly byFirst = new Map<string, Keyword[]>();

  constructor(keywords: readonly Keyword[]) {
    for (const k of keywords) {
      const first = k.word[0]!;
      const bucket = this.byFirst.get(first) ?? [];
      if (!bucket.some((b) => b.word === k.word && b.category.type === k.category.type)) bucket.push(k);
      this.byFirst.set(first, bucket);
    }
    for (const bucket of this.byFirst.values()) bucket.sort((a, b) => b.word.length - a.word.length);
  }

  /** The longest keyword in `text`; ties go to the earliest position. */
  longest(text: string, accept?: (k: Keyword) => boolean): (Keyword & { start: number }) | null {
    let best: (Keyword & { start: number }) | null = null;
    for (let i = 0; i < text.length; i++) {
      const bucket = this.byFirst.get(text[i]!);
      if (!bucket) continue;
      for (const k of bucket) {
        if (best && k.word.length <= best.word.length) break;
        if (text.startsWith(k.word, i) && (!accept || accept(k))) {
          best = { ...k, start: i };
          break;
        }
      }
    }
    return best;
  }
}

/**
 * Every lexicon keyword, a preset's own name included, in the order of the tables (expense
 * before income). Bill imports match them against whole words (../ledger/bills/words.ts).
 */
export const CATEGORY_KEYWORDS: readonly CategoryKeyword[] = buildKeywords();

const DEFAULT_INDEX = new KeywordIndex(CATEGORY_KEYWORDS);

const PRESET_NAMES = new Set(PRESET_CATEGORIES.filter((c) => c.name !== OTHER_CATEGORY).map((c) => c.name));

export interface CategoryMatch extends CategoryRef {
  keyword: string;
  start: number;
  /** True when the user named the category itself (改成交通), not an item word (打车). */
  byName: boolean;
  custom: boolean;
}

/**
 * The category a text talks about. A custom category named in the text wins; then the longest
 * lexicon keyword. `accept` can restrict the match (e.g. to one transaction type).
 */
export function matchCategoryWord(
  text: string,
  customCategories: readonly CategoryRef[] = [],
  accept?: (c: CategoryRef, keyword: string) => boolean,
): CategoryMatch | null {
  if (customCategories.length > 0) {
    const custom = new KeywordIndex(
      customCategories.filter((c) => c.name.length > 0).map((c) => ({ word: c.name.toLowerCase(), category: c })),
    ).longest(text, (k) => !accept || accept(k.category, k.word));
    if (custom) return { ...custom.category, keyword: custom.word, start: custom.start, byName: true, custom: true };
  }
  const hit = DEFAULT_INDEX.longest(text, (k) => !accept || accept(k.category, k.word));
  if (!hit) return null;
  return {
    ...hit.category,
    keyword: hit.word,
    start: hit.start,
    byName: hit.word === hit.category.name && (PRESET_NAMES.has(hit.word) || hit.word === OTHER_CATEGORY),
    custom: false,
  };
}

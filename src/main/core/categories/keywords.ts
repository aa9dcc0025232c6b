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

interface TrieNode {
  /** By UTF-16 code unit: no one-character string is made per position read. */
  next: Map<number, TrieNode>;
  /** The keywords that end here, in table order. */
  ends: Keyword[];
}

function trieNode(): TrieNode {
  return { next: new Map(), ends: [] };
}

/**
 * Keywords in a character trie: a text is read once, each position walking only as deep as some
 * keyword goes, so the cost does not grow with the size of the tables.
 */
export class KeywordIndex {
  private readonly root = trieNode();
  /**
   * With `dense`, the root's children by code in an array (half a megabyte): the walk starts at
   * every position of the text. For the built-in tables, made once a process.
   */
  private readonly firstLevel: (TrieNode | undefined)[] | null;

  constructor(keywords: readonly Keyword[], dense = false) {
    for (const k of keywords) {
      let node = this.root;
      for (let c = 0; c < k.word.length; c++) {
        const code = k.word.charCodeAt(c);
        let child = node.next.get(code);
        if (!child) node.next.set(code, (child = trieNode()));
        node = child;
      }
      if (!node.ends.some((b) => b.category.type === k.category.type)) node.ends.push(k);
    }
    this.firstLevel = dense ? new Array<TrieNode | undefined>(0x10000).fill(undefined) : null;
    if (this.firstLevel) for (const [code, child] of this.root.next) this.firstLevel[code] = child;
  }

  /** The longest keyword in `text`; ties go to the earliest position. */
  longest(text: string, accept?: (k: Keyword) => boolean): (Keyword & { start: number }) | null {
    let best: Keyword | null = null;
    let bestStart = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let node = this.firstLevel ? this.firstLevel[code] : this.root.next.get(code);
      for (let j = i + 1; node !== undefined; j++) {
        if (j - i > (best?.word.length ?? 0)) {
          let hit: Keyword | undefined;
          // A plain loop: most nodes hold one keyword, and find() costs a call for each node walked.
          for (const k of node.ends)
            if (!accept || accept(k)) {
              hit = k;
              break;
            }
          if (hit) {
            best = hit;
            bestStart = i;
          }
        }
        if (j >= text.length) break;
        node = node.next.get(text.charCodeAt(j));
      }
    }
    // Fields named, not spread: a spread here cost more than the whole walk.
    return best ? { word: best.word, category: best.category, start: bestStart } : null;
  }
}

/**
 * Every lexicon keyword, a preset's own name included, in the order of the tables (expense
 * before income). Bill imports match them against whole words (../ledger/bills/words.ts).
 */
export const CATEGORY_KEYWORDS: readonly CategoryKeyword[] = buildKeywords();

const DEFAULT_INDEX = new KeywordIndex(CATEGORY_KEYWORDS, true);

const PRESET_NAMES = new Set(PRESET_CATEGORIES.filter((c) => c.name !== OTHER_CATEGORY).map((c) => c.name));

// A session passes the same list of the user's categories to every parse: index it once.
const CUSTOM_INDEXES = new WeakMap<readonly CategoryRef[], KeywordIndex>();

function customIndex(categories: readonly CategoryRef[]): KeywordIndex {
  let index = CUSTOM_INDEXES.get(categories);
  if (!index) {
    index = new KeywordIndex(categories.filter((c) => c.name.length > 0).map((c) => ({ word: c.name.toLowerCase(), category: c })));
    CUSTOM_INDEXES.set(categories, index);
  }
  return index;
}

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
    const custom = customIndex(customCategories).longest(text, accept && ((k) => accept(k.category, k.word)));
    if (custom)
      return { name: custom.category.name, type: custom.category.type, keyword: custom.word, start: custom.start, byName: true, custom: true };
  }
  const hit = DEFAULT_INDEX.longest(text, accept && ((k) => accept(k.category, k.word)));
  if (!hit) return null;
  return {
    name: hit.category.name,
    type: hit.category.type,
    keyword: hit.word,
    start: hit.start,
    byName: hit.word === hit.category.name && (PRESET_NAMES.has(hit.word) || hit.word === OTHER_CATEGORY),
    custom: false,
  };
}

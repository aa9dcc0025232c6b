// The category a bill row's words talk about, when the bill gives it none: its item and
// merchant are cut into WORDS by jieba (jieba-wasm, the dictionary of jieba-rs) and a word must
// be a category name or a lexicon keyword as a whole. A category word inside a longer word
// never counts: 「上海交通大学第一食堂」 cuts into 上海交通大学 / 第一 / 食堂, so it is 餐饮 (食堂),
// not 交通, which a substring search would find first.
import { cut } from 'jieba-wasm';
import { PRESET_CATEGORIES } from '@shared/categories';
import type { TransactionType } from '@shared/domain';
import { CATEGORY_KEYWORDS, KeywordIndex, type CategoryCandidate } from '../../categories/index';

/** The category for a row's texts (most specific first: item, then merchant), or undefined. */
export type WordCategorizer = (texts: readonly string[], type: TransactionType) => CategoryCandidate | undefined;

/**
 * A categorizer over the user's categories. A word (or a run of consecutive words: 猫 + 粮 is
 * the keyword 猫粮) matches when it is a lexicon keyword whose preset category the user still
 * has (a preset's own name is one), or the name of one of the user's own categories of the
 * row's type. As in speech (../../categories/keywords.ts), the user's own category named in a
 * text wins over the lexicon: a category 「团建」 takes 部门团建. The first text with a match
 * decides; within a text the longest match wins and, on equal length, the later one: a Chinese
 * noun phrase ends in its head, so 交通大学食堂 (jieba: 交通 / 大学 / 食堂) is a canteen.
 * Results are cached per (type, text) for the life of the categorizer (one import), as a bill
 * repeats its merchants. The first cut of the process loads jieba's dictionary (about half a
 * second); every later cut takes microseconds.
 */
export function createWordCategorizer(categories: readonly CategoryCandidate[]): WordCategorizer {
  const words = new Map<TransactionType, Map<string, Meaning>>();
  let longest = 0;
  const add = (type: TransactionType, word: string, meaning: Meaning) => {
    if (word === '') return;
    let table = words.get(type);
    if (!table) words.set(type, (table = new Map()));
    // The first claim stands: the user's own names, then the lexicon's table order.
    if (table.has(word)) return;
    table.set(word, meaning);
    longest = Math.max(longest, word.length);
  };
  const presets = new Set(PRESET_CATEGORIES.map((c) => `${c.type}:${c.name}`));
  for (const c of categories) {
    if (!presets.has(`${c.type}:${c.name}`)) add(c.type, normalize(c.name), { category: c, own: true });
  }
  const byName = new Map(categories.map((c) => [`${c.type}:${c.name}`, c]));
  for (const k of CATEGORY_KEYWORDS) {
    const category = byName.get(`${k.category.type}:${k.category.name}`);
    if (category) add(k.category.type, normalize(k.word), { category, own: false });
  }

  // Each type's words for a substring search (the speech matcher's index).
  const indexes = new Map(
    [...words].map(([type, table]) => [type, new KeywordIndex([...table].map(([word, m]) => ({ word, category: m.category })))] as const),
  );
  const mentions = (text: string, type: TransactionType): boolean => indexes.get(type)?.longest(text) != null;

  const cache = new Map<string, CategoryCandidate | null>();
  const ofText = (text: string, type: TransactionType): CategoryCandidate | null => {
    const table = words.get(type);
    if (!table) return null;
    const key = `${type}\u0000${text}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    // A text that holds none of the words, even inside longer ones, needs no cutting: most
    // items (商品名, order numbers) are like that, and cutting is the expensive part.
    if (!mentions(text, type)) {
      cache.set(key, null);
      return null;
    }
    const parts = cut(text, true);
    let best: Meaning | null = null;
    let bestLength = 0;
    for (let i = 0; i < parts.length; i++) {
      let run = '';
      for (let j = i; j < parts.length; j++) {
        run += parts[j];
        if (run.length > longest) break;
        const hit = table.get(run);
        if (!hit || (best && best.own && !hit.own)) continue;
        // `>=`: a later start wins a tie (the head of the phrase).
        if (!best || (hit.own && !best.own) || run.length >= bestLength) {
          best = hit;
          bestLength = run.length;
        }
      }
    }
    cache.set(key, best?.category ?? null);
    return best?.category ?? null;
  };

  return (texts, type) => {
    for (const raw of texts) {
      const text = normalize(raw);
      if (text === '') continue;
      const hit = ofText(text, type);
      if (hit) return hit;
    }
    return undefined;
  };
}

interface Meaning {
  category: CategoryCandidate;
  /** A category the user made (not a preset), named by the word. */
  own: boolean;
}

/** Lexicon words are lower case (taxi, ipad); bills write Taxi and iPad. */
function normalize(text: string): string {
  return text.trim().toLowerCase();
}

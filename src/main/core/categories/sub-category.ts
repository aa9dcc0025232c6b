// Which of a category's sub-categories an item's words name: 早饭包子 under 餐饮 → 早餐 when the
// user has made 餐饮 › 早餐. The words decide, never a guess: no child named → the parent.
import { SUB_CATEGORY_SYNONYMS } from '../nlp/lexicon/sub-categories';

/** The words that name a child: its own name, and every word of a synonym set that holds it. */
function namesOf(child: string): string[] {
  const sets = SUB_CATEGORY_SYNONYMS.filter((set) => set.includes(child));
  return [child, ...sets.flat()];
}

/**
 * The sub-category among `children` that `words` name, or null. The longest word found wins
 * (地铁卡 is no 地铁 when a 地铁卡 child exists); on equal length the child listed first.
 */
export function subCategoryFor(words: string, children: readonly string[]): string | null {
  let best: { child: string; length: number } | null = null;
  for (const child of children) {
    for (const word of namesOf(child)) {
      if (word.length > (best?.length ?? 0) && words.includes(word)) best = { child, length: word.length };
    }
  }
  return best?.child ?? null;
}

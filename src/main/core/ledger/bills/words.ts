// The category a bill row's words talk about, where its own category does not decide: its
// item, merchant and note are cut into WORDS by jieba (jieba-wasm, the dictionary of jieba-rs)
// and a word must be a category name or a lexicon keyword as a whole, or end in one. A
// category word at the start or in the middle of a longer word never counts: 「上海交通大学第一
// 食堂」 cuts into 上海交通大学 / 第一 / 食堂, so it is 餐饮 (食堂), not 交通, which a substring
// search would find first. A Chinese compound ends in its head, though: jieba keeps 过桥米线
// and 重庆火锅 whole, and they are 米线 and 火锅; a shop is what it sells (快餐店, 面馆, 咖啡厅).
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
 * row's type; a single word that is none of these matches by the one it ends in (headOf).
 * As in speech (../../categories/keywords.ts), the user's own category named in a
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
        // jieba cuts 烟酒店 into 烟 / 酒店: a shop of several words is a run of them.
        const hit = table.get(run) ?? (j === i ? headOf(run, table) : shopOf(run, table));
        if (!hit || (best && best.own && !hit.own)) continue;
        // A later start wins a tie (the head of the phrase), unless it only says how it was paid.
        const wins = run.length > bestLength || (run.length === bestLength && !HOW_PAID.has(run));
        if (!best || (hit.own && !best.own) || wins) {
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

/** Words of how a bill was paid, not what for: 门诊缴费 is 门诊, 物业缴费 物业, 会员充值 会员. */
const HOW_PAID: ReadonlySet<string> = new Set(['缴费', '充值']);

/** Shops named by what they sell: 快餐店, 面馆, 包子铺, 烘焙坊, 咖啡厅. */
const SHOP = /^(.+)[店馆铺坊厅]$/;

/**
 * What a word that is no keyword itself means by the keyword it ends in (过桥米线: 米线, 茶餐厅:
 * 餐厅) or the one it is a shop of (面馆: 面, 东北饺子馆: 饺子). It counts as long as the whole
 * word: jieba saw one thing there. An ending must be two characters or more, or the word would
 * be whatever its last character is: 红包 is no 包 (购物), 证书 no 书 (教育).
 */
function headOf(word: string, table: ReadonlyMap<string, Meaning>): Meaning | undefined {
  const ending = endingOf(word, table);
  const stem = SHOP.exec(word)?.[1];
  if (ending || stem === undefined) return ending;
  return table.get(stem) ?? endingOf(stem, table);
}

/** What a shop named by a run of words sells, when that is a keyword: 烟 / 酒店 is 烟酒. */
function shopOf(run: string, table: ReadonlyMap<string, Meaning>): Meaning | undefined {
  const stem = SHOP.exec(run)?.[1];
  return stem === undefined ? undefined : table.get(stem);
}

/** The longest keyword of two characters or more that `word` ends in, shorter than the word. */
function endingOf(word: string, table: ReadonlyMap<string, Meaning>): Meaning | undefined {
  for (let n = word.length - 1; n >= 2; n--) {
    const meaning = table.get(word.slice(-n));
    if (meaning) return meaning;
  }
  return undefined;
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

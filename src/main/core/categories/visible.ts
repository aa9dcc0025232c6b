// A hidden category is one the user took out of every picker: an item filed there could not be
// chosen again in 记一笔, nor found where the user looks. So an item never lands in one: it goes
// to the hidden category's visible parent, else to the closest visible category of its type.
import { OTHER_CATEGORY, PRESET_CATEGORIES } from '@shared/categories';
import { matchCategoryWord, type CategoryRef } from './keywords';
import type { CategoryCandidate } from './names';

/** A ledger category with what decides whether the pickers show it. */
export interface ShownCandidate extends CategoryCandidate {
  hidden: boolean;
  parentId: number | null;
}

/** Hidden itself or under a hidden parent: the pickers leave it out either way. */
function shown(c: ShownCandidate, byId: ReadonlyMap<number, ShownCandidate>): boolean {
  if (c.hidden) return false;
  const parent = c.parentId === null ? undefined : byId.get(c.parentId);
  return !parent?.hidden;
}

const PRESET_KEYS = new Set(PRESET_CATEGORIES.map((c) => `${c.type}:${c.name}`));

/**
 * Where an item chosen for `chosen` is filed: `chosen` itself when it is shown; else its parent
 * when that is shown (餐饮 › 夜宵, hidden → 餐饮); else the shown category of the same type that
 * `words` (the item's words and the hidden name) talk about (a hidden 网购 → 购物); else one whose
 * name holds the hidden one's or is held in it (宠物 → 宠物用品); else that type's 其他. Only a
 * type with nothing shown keeps `chosen`: a save must land somewhere.
 */
export function visibleCategory<C extends ShownCandidate>(chosen: C, candidates: readonly C[], words = ''): C {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  if (shown(chosen, byId)) return chosen;
  const parent = chosen.parentId === null ? undefined : byId.get(chosen.parentId);
  if (parent && shown(parent, byId)) return parent;
  const open = candidates.filter((c) => c.type === chosen.type && shown(c, byId)).sort((a, b) => a.sortOrder - b.sortOrder);
  return byWords(`${words}${chosen.name}`.toLowerCase(), open) ?? byName(chosen.name, open) ?? chosen;
}

/**
 * The shown category the words name or the lexicon files them under. A word of a category that
 * is not shown is taken out, not read for a shorter one inside it: 酒店 means 旅行, never the
 * 餐饮 of its 酒; the words around it still count (酒店吃火锅 → 餐饮).
 */
function byWords<C extends ShownCandidate>(words: string, open: readonly C[]): C | undefined {
  const own: CategoryRef[] = open.filter((c) => !PRESET_KEYS.has(`${c.type}:${c.name}`)).map(({ name, type }) => ({ name, type }));
  const sameType = (c: CategoryRef) => c.type === open[0]?.type;
  let text = words;
  let hit = matchCategoryWord(text, own, sameType);
  while (hit) {
    const { name, keyword } = hit;
    const found = open.find((o) => o.name === name);
    if (found) return found;
    text = text.replaceAll(keyword, '|');
    hit = matchCategoryWord(text, own, sameType);
  }
  return undefined;
}

/** A name that holds the hidden one or is held in it; a shared character alone (宠物, 购物) is no kinship. */
function byName<C extends ShownCandidate>(hidden: string, open: readonly C[]): C | undefined {
  const kin = open.find((c) => c.name !== OTHER_CATEGORY && (c.name.includes(hidden) || hidden.includes(c.name)));
  return kin ?? open.find((c) => c.name === OTHER_CATEGORY) ?? open[0];
}

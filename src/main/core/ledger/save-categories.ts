import type { TransactionType } from '@shared/domain';
import { matchCategory, visibleCategory, type ShownCandidate } from '../categories/index';
import type { Categories } from './categories';

/**
 * Where one save files its items, and the names of what it chose (for the rows it returns). A
 * name that is exactly a shown category of the item's type — nearly every item — is one
 * indexed lookup: matchCategory takes an exact name first and visibleCategory keeps a shown
 * one, so the answer is theirs. Any other name goes through them over every category, read
 * at most once per save.
 */
export class SaveCategories {
  private all: ShownCandidate[] | undefined;
  /** The shown category of each name and type asked for (null: none), so a card of ten 餐饮 looks once. */
  private readonly exact = new Map<string, { id: number; name: string; parent: string | null } | null>();
  /** Each chosen category's name and its parent's (null: top level). */
  readonly names = new Map<number, { name: string; parent: string | null }>();

  constructor(private readonly categories: Categories) {}

  /** The id an item naming `wanted` is filed under (`words`: the item's), or undefined when its type has no category. */
  place(wanted: string | null | undefined, type: TransactionType, words: string | undefined): number | undefined {
    const name = wanted?.trim();
    const exact = name ? this.shown(name, type) : null;
    if (exact) {
      this.names.set(exact.id, { name: exact.name, parent: exact.parent });
      return exact.id;
    }
    const all = (this.all ??= this.categories.candidates());
    const matched = matchCategory(wanted, type, all);
    const chosen = matched && visibleCategory(matched, all, words);
    if (!chosen) return undefined;
    const parent = chosen.parentId === null ? undefined : all.find((c) => c.id === chosen.parentId);
    this.names.set(chosen.id, { name: chosen.name, parent: parent?.name ?? null });
    return chosen.id;
  }

  private shown(name: string, type: TransactionType): { id: number; name: string; parent: string | null } | null {
    const key = `${type}:${name}`;
    let found = this.exact.get(key);
    if (found === undefined) {
      found = this.categories.shown(name, type) ?? null;
      this.exact.set(key, found);
    }
    return found;
  }
}

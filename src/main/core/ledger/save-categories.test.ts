import { afterEach, describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import { matchCategory, visibleCategory } from '../categories/index';
import { Categories } from './categories';
import { openLedger, type Ledger } from './index';
import { SaveCategories } from './save-categories';
import { NOW } from '../../../../test/support/ledger-fixtures';
import { prng } from '../../../../test/support/prng';

// A save files an exact, shown name by one lookup and anything else through matchCategory
// and visibleCategory: over random category trees (sub-categories, hidden ones, hidden
// parents) and random names (exact, padded, part of a name, unknown, none), its choice is
// always theirs over every category, and the names it keeps are the chosen one's and its
// parent's.

const NAMES = ['早餐', '夜宵', '打车', '猫粮', '加班费', '餐饮', '工资', '宠物', '旅行'];

let ledger: Ledger | undefined;
afterEach(() => ledger?.close());

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

describe('where a save files an item', () => {
  it('chooses what matchCategory and visibleCategory choose over every category', () => {
    for (let seed = 1; seed <= 30; seed++) {
      ledger?.close();
      ledger = openLedger({ path: ':memory:', now: () => NOW });
      const rnd = prng(seed);
      for (const name of NAMES) {
        const type: TransactionType = rnd() < 0.7 ? 'EXPENSE' : 'INCOME';
        const existing = ledger.listCategories();
        if (existing.some((c) => c.name === name && c.type === type)) continue;
        const parents = existing.filter((c) => c.type === type && c.parentId === null);
        ledger.addCategory(name, type, rnd() < 0.5 ? pick(rnd, parents).id : null);
      }
      for (const c of ledger.listCategories()) if (c.name !== '其他' && rnd() < 0.25) ledger.setCategoryHidden(c.id, true);
      const categories = new Categories(ledger.database, () => NOW);
      const all = categories.candidates();
      const save = new SaveCategories(categories);
      for (let i = 0; i < 40; i++) {
        const type: TransactionType = rnd() < 0.7 ? 'EXPENSE' : 'INCOME';
        const name = pick(rnd, [...NAMES, '交通', '其他', '饮品', '网购']);
        const wanted = pick(rnd, [name, ` ${name} `, name.slice(0, 1), null, '']);
        const words = pick(rnd, ['午饭', '给猫买粮', '', undefined]);
        const matched = matchCategory(wanted, type, all);
        const expected = matched && visibleCategory(matched, all, words);
        const id = save.place(wanted, type, words);
        expect(id, `seed ${seed}: ${type} ${JSON.stringify(wanted)} ${String(words)}`).toBe(expected?.id);
        if (!expected) continue;
        const parent = all.find((c) => c.id === expected.parentId);
        expect(save.names.get(expected.id)).toEqual({ name: expected.name, parent: parent?.name ?? null });
      }
    }
  });
});

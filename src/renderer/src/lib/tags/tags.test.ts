import { describe, expect, it } from 'vitest';
import type { CategoryInfo } from '@shared/ipc/ledger';
import { categoryPath, categoryTree, hiddenInTree } from '../categories/tree';
import { addTag, normalizeTag, splitTags, tagsChanged, tagSuggestions } from './tags';

describe('tags as typed', () => {
  it('drops a leading # and blanks, and splits at the separators', () => {
    expect(normalizeTag(' ＃出差 ')).toBe('出差');
    expect(normalizeTag('##装修')).toBe('装修');
    expect(splitTags('出差，装修,家、')).toEqual(['出差', '装修', '家', '']);
  });

  it('adds a tag once, and refuses one too long or one too many', () => {
    expect(addTag(['出差'], '#出差')).toEqual({ ok: true, tags: ['出差'] });
    expect(addTag(['出差'], '  ')).toEqual({ ok: true, tags: ['出差'] });
    expect(addTag(['出差'], '装修')).toEqual({ ok: true, tags: ['出差', '装修'] });
    expect(addTag([], 'x'.repeat(21))).toEqual({ ok: false, error: '标签最多20个字' });
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(addTag(twenty, '多一个')).toEqual({ ok: false, error: '一笔最多20个标签' });
  });

  it('suggests known tags not chosen yet that contain the text, in the ledger’s order', () => {
    expect(tagSuggestions(['出差', '报销', '出差补贴', '装修'], ['报销'], '出')).toEqual(['出差', '出差补贴']);
    expect(tagSuggestions(['出差', '报销'], [], '出差')).toEqual([]);
    expect(tagSuggestions(['a', 'b', 'c'], [], '', 2)).toEqual(['a', 'b']);
  });

  it('tells a changed list from the same one', () => {
    expect(tagsChanged(['a', 'b'], ['a', 'b'])).toBe(false);
    expect(tagsChanged(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(tagsChanged([], ['a'])).toBe(true);
  });
});

describe('the category tree', () => {
  const c = (id: number, name: string, sortOrder: number, extra: Partial<CategoryInfo> = {}): CategoryInfo => ({
    id,
    name,
    type: 'EXPENSE',
    hidden: false,
    preset: false,
    sortOrder,
    count: 0,
    parentId: null,
    ...extra,
  });

  it('puts each child after its parent, both in the user’s order, type by type; an orphan stays at the top', () => {
    const all = [
      c(1, '餐饮', 1),
      c(2, '交通', 0),
      c(3, '午餐', 1, { parentId: 1 }),
      c(4, '早餐', 0, { parentId: 1 }),
      c(5, '工资', 0, { type: 'INCOME' }),
      c(6, '孤儿', 2, { parentId: 99 }),
    ];
    expect(categoryTree(all).map((l) => [l.category.name, l.depth])).toEqual([
      ['交通', 0],
      ['餐饮', 0],
      ['早餐', 1],
      ['午餐', 1],
      ['孤儿', 0],
      ['工资', 0],
    ]);
    expect(categoryTree(all, 'INCOME').map((l) => l.category.name)).toEqual(['工资']);
  });

  it('hides a child with its hidden parent, and writes the path', () => {
    const lines = categoryTree([c(1, '宠物', 0, { hidden: true }), c(2, '猫粮', 0, { parentId: 1 })]);
    expect(lines.map(hiddenInTree)).toEqual([true, true]);
    expect(categoryPath('早餐', '餐饮')).toBe('餐饮 › 早餐');
    expect(categoryPath('交通')).toBe('交通');
  });
});

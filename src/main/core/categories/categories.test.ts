import { describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import { item } from '../../../../test/support/ledger-fixtures';
import { categoryOfType, chooseCategory, matchCategory, matchCategoryWord, withCategoryForType, type CategoryCandidate } from './index';

const candidates: CategoryCandidate[] = [
  { id: 1, name: '餐饮', type: 'EXPENSE', sortOrder: 1 },
  { id: 2, name: '交通出行', type: 'EXPENSE', sortOrder: 2 },
  { id: 3, name: '其他', type: 'EXPENSE', sortOrder: 9 },
  { id: 4, name: '工资', type: 'INCOME', sortOrder: 1 },
  { id: 5, name: '其他', type: 'INCOME', sortOrder: 5 },
];

describe('matchCategory', () => {
  it.each([
    ['餐饮', 'EXPENSE', 1],
    ['交通', 'EXPENSE', 2],
    ['饮品', 'EXPENSE', 1],
    ['宠物', 'EXPENSE', 3],
    [null, 'INCOME', 5],
    ['餐饮', 'INCOME', 5],
  ] as const)('%s (%s) → #%i', (wanted, type, id) => {
    expect(matchCategory(wanted, type, candidates)?.id).toBe(id);
  });
});

describe('matchCategoryWord', () => {
  it('takes the longest keyword, and says whether the category itself was named', () => {
    expect(matchCategoryWord('游戏充值')).toMatchObject({ name: '娱乐', keyword: '游戏充值', byName: false, custom: false });
    expect(matchCategoryWord('改成交通')).toMatchObject({ name: '交通', start: 2, byName: true });
  });

  it('prefers a custom category named in the text, and can be held to one type', () => {
    expect(matchCategoryWord('奶茶', [{ name: '奶茶', type: 'EXPENSE' }])).toMatchObject({ name: '奶茶', custom: true });
    expect(matchCategoryWord('房租', [], (c) => c.type === 'INCOME')).toMatchObject({ name: '其他', type: 'INCOME' });
    expect(matchCategoryWord('房租')).toMatchObject({ name: '住房', type: 'EXPENSE' });
  });
});

describe('a category for another type', () => {
  it('keeps a category of that type, takes the counterpart, else reads the words', () => {
    expect(categoryOfType('其他', '', 'INCOME')).toBe('其他');
    expect(categoryOfType('红包', '', 'EXPENSE')).toBe('人情往来');
    expect(categoryOfType('饮品', '奶茶', 'EXPENSE')).toBe('餐饮');
    expect(categoryOfType('餐饮', '午饭', 'INCOME')).toBeNull();
  });

  it('re-files a flipped type only when the correction names no category', () => {
    expect(withCategoryForType(item({ category: '餐饮', description: '午饭' }), { type: 'INCOME' })).toEqual({ type: 'INCOME', category: '其他' });
    expect(withCategoryForType(item({ category: '人情往来', description: '发红包' }), { type: 'INCOME' })).toEqual({
      type: 'INCOME',
      category: '红包',
    });
    expect(withCategoryForType(item({ category: '餐饮', description: '午饭' }), { type: 'INCOME', category: '工资' })).toEqual({
      type: 'INCOME',
      category: '工资',
    });
    expect(withCategoryForType(item({ category: '餐饮', description: '午饭' }), { amount: 30 })).toEqual({ amount: 30 });
  });

  it('chooses what the ledger will file: its own name kept, a made-up word placed by the item words', () => {
    const place = (name: string, type: TransactionType) => matchCategory(name, type, candidates)?.name ?? '其他';
    expect(chooseCategory('交通出行', '打车', 'EXPENSE', [], place)).toBe('交通出行');
    expect(chooseCategory('夜宵', '烧烤', 'EXPENSE', [], place)).toBe('餐饮');
    expect(chooseCategory('打车', '打车', 'EXPENSE', [], place)).toBe('交通出行');
  });
});
